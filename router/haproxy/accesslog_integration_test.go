package haproxy_test

import (
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/router/haproxy"
	"github.com/router-conformance/suite/router/headers"
)

// The access log: HAProxy logs to a Unix datagram socket, as it does to
// the ingress operator's sidecar; each HTTP frontend captures the
// configured request header as the client sent it, before the
// IngressController's action (frontend) or the route's (backend) sets it.
func TestAccessLogCapturesTheClientsValueInEveryFrontend(t *testing.T) {
	w := newWorld(t)
	sock := filepath.Join(t.TempDir(), "log.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	lines := make(chan string, 100)
	go func() {
		buf := make([]byte, 10240)
		for {
			n, _, err := conn.ReadFromUnix(buf)
			if err != nil {
				close(lines)
				return
			}
			lines <- string(buf[:n])
		}
	}()
	w.cfg.Log = &haproxy.Logging{Address: sock, Level: "info"}
	w.cfg.CaptureRequestHeaders = []haproxy.CaptureHeader{{Name: "X-Captured-IC", MaxLength: 64}, {Name: "X-Captured-Route", MaxLength: 64}}
	w.cfg.RequestHeaders = []headers.Action{{Name: "X-Captured-IC", Kind: headers.Set, Value: "set-by-ingresscontroller"}}
	routes := w.routes()[:3] // insecure, edge, edge-allow
	for i := range routes {
		routes[i].RequestHeaders = []headers.Action{{Name: "X-Captured-Route", Kind: headers.Set, Value: "set-by-route"}}
	}
	w.cfg.Routes = routes
	w.start(t)

	// next is the next access-log line of an HTTP request for path.
	next := func(path string) string {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatal("the log socket closed")
				}
				if strings.Contains(l, `"GET `+path+` HTTP/1.1"`) {
					return l
				}
			case <-timeout:
				t.Fatalf("no access-log line for %s", path)
			}
		}
	}
	for i, tc := range []struct {
		frontend string
		req      httpclient.Request
	}{
		{"public", httpclient.Request{Host: "insecure.apps.test"}},
		{"fe_sni", httpclient.Request{HTTPS: true, Host: "edge.apps.test"}},
		{"fe_no_sni", httpclient.Request{HTTPS: true, NoSNI: true, Host: "edge.apps.test"}},
	} {
		for _, client := range []bool{true, false} {
			req := tc.req
			req.Path = fmt.Sprintf("/%d/%v", i, client)
			want := "{|}"
			if client {
				req.Header = http.Header{"X-Captured-Ic": {"client-ic"}, "X-Captured-Route": {"client-route"}}
				want = "{client-ic|client-route}"
			}
			resp := w.mustGet(t, req)
			if resp.Status != 200 || resp.Echo == nil {
				t.Fatalf("%s: status %d: %s", tc.frontend, resp.Status, resp.Body)
			}
			if got := fmt.Sprint(resp.Echo.Headers["X-Captured-Ic"], resp.Echo.Headers["X-Captured-Route"]); got != "[set-by-ingresscontroller] [set-by-route]" {
				t.Errorf("%s: the backend saw %s, want the actions' values", tc.frontend, got)
			}
			line := next(req.Path)
			if !strings.Contains(line, " "+tc.frontend) || !strings.Contains(line, " "+want+" ") || strings.Contains(line, "set-by-") {
				t.Errorf("%s (client sends the headers: %v): access-log line %q, want %s", tc.frontend, client, line, want)
			}
		}
	}
}
