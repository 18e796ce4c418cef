package haproxy_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
	"github.com/router-conformance/suite/router/annotations"
	"github.com/router-conformance/suite/router/haproxy"
)

// The per-route settings of the route annotations: the server timeout
// answers 504 for a backend slower than it (and a route without one waits),
// the path rewrite, and the allowlist, which closes a connection from any
// other source unanswered, inline or from its file past 61 entries.
func TestRouteSettings(t *testing.T) {
	w := newWorld(t)
	ep := []haproxy.Endpoint{{Name: "ep1", Addr: w.httpEcho}}
	tlsEp := []haproxy.Endpoint{{Name: "ep1", Addr: w.httpsEcho}}
	rewrite, _ := annotations.RewriteTarget("/foo", "/baz")
	long := make([]string, 0, 70)
	for i := range 69 {
		long = append(long, fmt.Sprintf("10.0.%d.%d", i/200, i%200+1))
	}
	w.cfg.Routes = []haproxy.Route{
		{Namespace: "ns", Name: "timeout", Host: "timeout.apps.test", Endpoints: ep, ServerTimeout: "300ms"},
		{Namespace: "ns", Name: "edge-timeout", Host: "edge-timeout.apps.test", Termination: haproxy.Edge, Endpoints: ep, ServerTimeout: "300ms"},
		{Namespace: "ns", Name: "waits", Host: "waits.apps.test", Endpoints: ep},
		{Namespace: "ns", Name: "rewrite", Host: "rewrite.apps.test", Path: "/foo", Endpoints: ep, Rewrite: &rewrite},
		{Namespace: "ns", Name: "allowed", Host: "allowed.apps.test", Endpoints: ep, Allowlist: []string{"10.1.1.1", "127.0.0.0/8"}},
		{Namespace: "ns", Name: "denied", Host: "denied.apps.test", Endpoints: ep, Allowlist: []string{"10.1.1.1"}},
		{Namespace: "ns", Name: "long-allowed", Host: "long-allowed.apps.test", Endpoints: ep, Allowlist: append(slices.Clip(long), "127.0.0.1")},
		{Namespace: "ns", Name: "long-denied", Host: "long-denied.apps.test", Endpoints: ep, Allowlist: append(slices.Clip(long), "10.9.9.9")},
		{Namespace: "ns", Name: "passthrough-denied", Host: "passthrough.apps.test", Termination: haproxy.Passthrough, Endpoints: tlsEp, Allowlist: []string{"10.1.1.1"}, TunnelTimeout: "2s"},
	}
	w.start(t)
	slow := http.Header{echo.Delay: {"1s"}}
	for _, req := range []httpclient.Request{{Host: "timeout.apps.test", Header: slow}, {HTTPS: true, Host: "edge-timeout.apps.test", Header: slow}} {
		if resp := w.mustGet(t, req); resp.Status != http.StatusGatewayTimeout {
			t.Errorf("%s, a backend slower than the route's timeout: status %d, want 504", req.Host, resp.Status)
		}
	}
	if resp := w.mustGet(t, httpclient.Request{Host: "waits.apps.test", Header: slow}); resp.Status != http.StatusOK {
		t.Errorf("a route without a timeout: status %d, want 200 (the router's 30s)", resp.Status)
	}
	if resp := w.mustGet(t, httpclient.Request{Host: "rewrite.apps.test", Path: "/foo/bar?q=1"}); resp.Echo.Path != "/baz/bar" || resp.Echo.Query != "q=1" {
		t.Errorf("rewrite /foo to /baz: the backend saw %q?%q, want /baz/bar?q=1", resp.Echo.Path, resp.Echo.Query)
	}
	for _, host := range []string{"allowed.apps.test", "long-allowed.apps.test"} {
		if resp := w.mustGet(t, httpclient.Request{Host: host}); resp.Status != http.StatusOK {
			t.Errorf("%s, the source in its allowlist: status %d, want 200", host, resp.Status)
		}
	}
	for _, req := range []httpclient.Request{{Host: "denied.apps.test"}, {Host: "long-denied.apps.test"}, {HTTPS: true, Host: "passthrough.apps.test"}} {
		if _, alert, err := w.refusal(t, req); alert != httpclient.ClosedWithoutAnswer {
			t.Errorf("%s, the source not in its allowlist: %v, want the connection %s", req.Host, err, httpclient.ClosedWithoutAnswer)
		}
	}
}

// The per-source limits and the bound on each endpoint's connections:
// rate-http closes the connection of a source past its rate, concurrent
// connections past the bound wait their turn.
func TestRouteLimits(t *testing.T) {
	w := newWorld(t)
	ep := []haproxy.Endpoint{{Name: "ep1", Addr: w.httpEcho}}
	w.cfg.Routes = []haproxy.Route{
		{Namespace: "ns", Name: "rate", Host: "rate.apps.test", Endpoints: ep, RateLimit: &haproxy.RateLimit{RateHTTP: "3"}},
		{Namespace: "ns", Name: "one-at-a-time", Host: "one.apps.test", Endpoints: ep, MaxConnPerServer: "1"},
	}
	w.start(t)
	closed := 0
	for range 6 {
		if _, alert, _ := w.refusal(t, httpclient.Request{Host: "rate.apps.test"}); alert == httpclient.ClosedWithoutAnswer {
			closed++
		}
	}
	if closed == 0 || closed == 6 {
		t.Errorf("rate-http 3: %d of 6 quick requests closed unanswered, want some but not all", closed)
	}
	start := time.Now()
	done := make(chan int, 2)
	for range 2 {
		go func() {
			resp, err := w.get(t, httpclient.Request{Host: "one.apps.test", Header: http.Header{echo.Delay: {"500ms"}}})
			if err != nil {
				done <- 0
				return
			}
			done <- resp.Status
		}()
	}
	for range 2 {
		if s := <-done; s != http.StatusOK {
			t.Errorf("one connection at a time: status %d, want 200 (queued, then served)", s)
		}
	}
	if took := time.Since(start); took < time.Second {
		t.Errorf("two requests of 500ms with one connection at a time took %s, want at least 1s", took)
	}
}
