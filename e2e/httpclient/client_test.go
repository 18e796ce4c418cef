package httpclient

import (
	"bufio"
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// A spec tells "the router asks for no certificate" from "it asks and
// accepts none" by CertificateRequested; SNI is sent or not as asked.
func TestCertificateRequestedAndSNI(t *testing.T) {
	for _, tc := range []struct {
		auth  tls.ClientAuthType
		noSNI bool
		want  bool
	}{
		{tls.NoClientCert, false, false},
		{tls.RequestClientCert, false, true},
		{tls.VerifyClientCertIfGiven, true, true},
		{tls.NoClientCert, true, false},
	} {
		var sni string
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
		srv.TLS = &tls.Config{ClientAuth: tc.auth, GetConfigForClient: func(h *tls.ClientHelloInfo) (*tls.Config, error) {
			sni = h.ServerName
			return nil, nil
		}}
		srv.StartTLS()
		resp, err := Do(context.Background(), Request{Addr: strings.TrimPrefix(srv.URL, "https://"), HTTPS: true, Host: "a.example", Path: "/", NoSNI: tc.noSNI, Timeout: 5 * time.Second})
		srv.Close()
		if err != nil {
			t.Fatalf("%v: %v", tc.auth, err)
		}
		if resp.TLS == nil {
			t.Errorf("%v: no TLS state on an HTTPS response", tc.auth)
		}
		if resp.CertificateRequested != tc.want {
			t.Errorf("%v: CertificateRequested = %v, want %v", tc.auth, resp.CertificateRequested, tc.want)
		}
		if wantSNI := map[bool]string{false: "a.example", true: ""}[tc.noSNI]; sni != wantSNI {
			t.Errorf("%v, NoSNI %v: the server saw SNI %q, want %q", tc.auth, tc.noSNI, sni, wantSNI)
		}
	}
}

// A key that is not in canonical form goes out as written: how a spec
// sends a header net/http would write itself (an empty content-length).
// The response's names are reported as the server spelled them.
func TestHeaderKeysAsWritten(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	lines := make(chan []string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			lines <- nil
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		var got []string
		for {
			l, err := r.ReadString('\n')
			if err != nil || l == "\r\n" {
				break
			}
			got = append(got, strings.TrimRight(l, "\r\n"))
		}
		c.Write([]byte("HTTP/1.1 204 No Content\r\nconnection: close\r\nX-Custom: 1\r\n\r\n"))
		lines <- got
	}()
	resp, err := Do(context.Background(), Request{Addr: ln.Addr().String(), Host: "a.example", Path: "/", Timeout: 5 * time.Second,
		Header: http.Header{"content-length": {""}, "Proxy": {"http://p.example"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := <-lines
	for _, want := range []string{"content-length: ", "Proxy: http://p.example"} {
		if !slices.Contains(got, want) {
			t.Errorf("request lines %q lack %q", got, want)
		}
	}
	if want := []string{"connection", "X-Custom"}; !slices.Equal(resp.HeaderNames, want) {
		t.Errorf("response HeaderNames = %q, want %q", resp.HeaderNames, want)
	}
}

// KeptAliveFor times the server's idle timeout of a kept-alive
// connection, and says when the connection outlives its limit.
func TestKeptAliveFor(t *testing.T) {
	serve := func(idle time.Duration) Request {
		t.Helper()
		ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok")) }))
		ts.Config.IdleTimeout = idle
		ts.Start()
		t.Cleanup(ts.Close)
		return Request{Addr: ts.Listener.Addr().String(), Host: "example.test", Timeout: 5 * time.Second}
	}
	idle, err := KeptAliveFor(context.Background(), serve(300*time.Millisecond), 5*time.Second)
	if err != nil || idle < 300*time.Millisecond || idle > 2*time.Second {
		t.Errorf("kept alive for %s, %v; want about 300ms", idle, err)
	}
	if idle, err := KeptAliveFor(context.Background(), serve(time.Minute), 200*time.Millisecond); err == nil {
		t.Errorf("a connection open past the limit: %s, no error", idle)
	}
}
