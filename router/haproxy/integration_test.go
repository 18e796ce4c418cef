package haproxy_test

import (
	"context"
	"crypto/sha1"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/router-conformance/suite/router/haproxy/haproxytest"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
	"github.com/router-conformance/suite/internal/syncbuffer"
	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/router/haproxy"
	"github.com/router-conformance/suite/router/headers"
)

// A real HAProxy on 127.0.0.1 with a rendered configuration, real echo
// backends, real TLS: the router's data plane without a cluster.

type world struct {
	ca          *pki.CA
	defaultCert *pki.Leaf
	routeCert   *pki.Leaf
	backendCA   *pki.CA
	httpEcho    string // 127.0.0.1:port
	httpsEcho   string
	cfg         haproxy.Config
	proc        *haproxy.Process
	output      syncbuffer.Buffer
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{}
	w.ca = must[*pki.CA](t)(pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "router test CA"}}))
	w.defaultCert = must[*pki.Leaf](t)(w.ca.IssueServer(pki.ServerOptions{Hosts: []string{"*.default.test"}}))
	w.routeCert = must[*pki.Leaf](t)(w.ca.IssueServer(pki.ServerOptions{Hosts: []string{"*.apps.test"}}))
	w.backendCA = must[*pki.CA](t)(pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "backend CA"}}))
	backendCert := must[*pki.Leaf](t)(w.backendCA.IssueServer(pki.ServerOptions{Hosts: []string{"echo.ns.svc", "passthrough.apps.test"}}))

	plain := httptest.NewServer(echo.Handler{Listener: "http"})
	t.Cleanup(plain.Close)
	secure := httptest.NewUnstartedServer(echo.Handler{Listener: "https"})
	secure.TLS = &tls.Config{Certificates: []tls.Certificate{must[tls.Certificate](t)(backendCert.TLSCertificate())}}
	secure.StartTLS()
	t.Cleanup(secure.Close)
	w.httpEcho = strings.TrimPrefix(plain.URL, "http://")
	w.httpsEcho = strings.TrimPrefix(secure.URL, "https://")

	dir := t.TempDir()
	w.cfg = haproxy.Config{
		HTTPBind: haproxytest.FreeAddr(t), HTTPSBind: haproxytest.FreeAddr(t), StatsBind: haproxytest.FreeAddr(t),
		Dir: dir, DefaultCertificate: w.defaultCert.HAProxyPEM(),
	}
	return w
}

func (w *world) start(t *testing.T) {
	t.Helper()
	files := must[haproxy.Files](t)(haproxy.Render(w.cfg))
	if err := files.Write(w.cfg.Dir); err != nil {
		t.Fatal(err)
	}
	// HAProxy's messages are shown only when the test fails.
	w.proc = &haproxy.Process{Binary: haproxytest.Binary(t), Dir: w.cfg.Dir, Output: &w.output}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("haproxy output:\n%s", w.output.String())
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := w.proc.Start(ctx); err != nil {
		t.Fatalf("%v\n%s", err, files[haproxy.ConfigFile])
	}
	t.Cleanup(w.proc.Stop)
}

func (w *world) reload(t *testing.T) {
	t.Helper()
	files := must[haproxy.Files](t)(haproxy.Render(w.cfg))
	if err := files.Write(w.cfg.Dir); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := w.proc.Reload(ctx); err != nil {
		t.Fatal(err)
	}
}

func (w *world) get(t *testing.T, r httpclient.Request) (*httpclient.Response, error) {
	t.Helper()
	if r.Addr == "" {
		r.Addr = w.cfg.HTTPBind
		if r.HTTPS {
			r.Addr = w.cfg.HTTPSBind
		}
	}
	if r.Path == "" {
		r.Path = "/"
	}
	r.Timeout = 10 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), r.Timeout)
	defer cancel()
	return httpclient.Do(ctx, r)
}

// refusal is get for a request the router may refuse in the handshake:
// it returns the TLS alert ("" when there is none). Under TLS 1.3 the
// client's handshake ends before the server has judged its certificate,
// so the server's alert can race its close under load and the client reads
// a bare close (httpclient.ClosedWithoutAnswer): that is no answer, and
// the same question is asked again on a new connection, a few times.
func (w *world) refusal(t *testing.T, r httpclient.Request) (*httpclient.Response, string, error) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		resp, err := w.get(t, r)
		alert := httpclient.Alert(err)
		if alert != httpclient.ClosedWithoutAnswer || attempt == 3 {
			return resp, alert, err
		}
	}
}

func (w *world) mustGet(t *testing.T, r httpclient.Request) *httpclient.Response {
	t.Helper()
	resp, err := w.get(t, r)
	if err != nil {
		t.Fatalf("%s %s%s: %v", map[bool]string{true: "https", false: "http"}[r.HTTPS], r.Host, r.Path, err)
	}
	return resp
}

func (w *world) routes() []haproxy.Route {
	ep := func(addr string) []haproxy.Endpoint { return []haproxy.Endpoint{{Name: "ep1", Addr: addr}} }
	return []haproxy.Route{
		{Namespace: "ns", Name: "insecure", Host: "insecure.apps.test", Endpoints: ep(w.httpEcho)},
		{Namespace: "ns", Name: "edge", Host: "edge.apps.test", Termination: haproxy.Edge, Certificate: w.routeCert.HAProxyPEM(),
			Endpoints: ep(w.httpEcho), HSTS: "max-age=31536000;includeSubDomains;preload"},
		{Namespace: "ns", Name: "edge-allow", Host: "allow.apps.test", Termination: haproxy.Edge, InsecurePolicy: haproxy.PolicyAllow,
			Endpoints: ep(w.httpEcho), HSTS: "max-age=600"},
		{Namespace: "ns", Name: "edge-redirect", Host: "redirect.apps.test", Termination: haproxy.Edge, InsecurePolicy: haproxy.PolicyRedirect,
			Endpoints: ep(w.httpEcho)},
		{Namespace: "ns", Name: "reencrypt", Host: "reencrypt.apps.test", Termination: haproxy.Reencrypt, Certificate: w.routeCert.HAProxyPEM(),
			DestinationCA: w.backendCA.CertPEM, ServiceHostname: "echo.ns.svc", Endpoints: ep(w.httpsEcho), HSTS: "max-age=100"},
		{Namespace: "ns", Name: "passthrough", Host: "passthrough.apps.test", Termination: haproxy.Passthrough, Endpoints: ep(w.httpsEcho)},
		{Namespace: "ns", Name: "reencrypt-allow", Host: "reencrypt-allow.apps.test", Termination: haproxy.Reencrypt, InsecurePolicy: haproxy.PolicyAllow,
			DestinationCA: w.backendCA.CertPEM, ServiceHostname: "echo.ns.svc", Endpoints: ep(w.httpsEcho), HSTS: "max-age=200"},
		{Namespace: "ns", Name: "passthrough-redirect", Host: "passthrough-redirect.apps.test", Termination: haproxy.Passthrough, InsecurePolicy: haproxy.PolicyRedirect,
			Endpoints: ep(w.httpsEcho)},
		{Namespace: "ns", Name: "reencrypt-redirect", Host: "reencrypt-redirect.apps.test", Termination: haproxy.Reencrypt, InsecurePolicy: haproxy.PolicyRedirect,
			DestinationCA: w.backendCA.CertPEM, ServiceHostname: "echo.ns.svc", Endpoints: ep(w.httpsEcho)},
	}
}

func TestTerminationsHSTSAndInsecurePolicies(t *testing.T) {
	w := newWorld(t)
	w.cfg.Routes = w.routes()
	w.start(t)
	roots := pki.Pool(w.ca)

	for _, tc := range []struct {
		name     string
		req      httpclient.Request
		status   int
		listener string // which echo listener answered
		hsts     string // "" = header must be absent
		location string
	}{
		{"insecure route over HTTP", httpclient.Request{Host: "insecure.apps.test"}, 200, "http", "", ""},
		{"edge route", httpclient.Request{HTTPS: true, Host: "edge.apps.test", RootCAs: roots}, 200, "http", "max-age=31536000;includeSubDomains;preload", ""},
		{"edge Allow over HTTPS (default certificate)", httpclient.Request{HTTPS: true, Host: "allow.apps.test"}, 200, "http", "max-age=600", ""},
		// upstream sets HSTS in the route backend without an ssl_fc condition.
		{"edge Allow over HTTP: HSTS on plain HTTP too", httpclient.Request{Host: "allow.apps.test"}, 200, "http", "max-age=600", ""},
		{"reencrypt Allow over HTTP: reencrypted, with HSTS", httpclient.Request{Host: "reencrypt-allow.apps.test"}, 200, "https", "max-age=200", ""},
		{"edge Redirect over HTTP", httpclient.Request{Host: "redirect.apps.test", Path: "/x"}, 302, "", "", "https://redirect.apps.test/x"},
		{"edge Redirect: Location has the host lowercased, without port", httpclient.Request{Host: "Redirect.Apps.Test:8080", Path: "/x?q=1"}, 302, "", "", "https://redirect.apps.test/x?q=1"},
		{"passthrough Redirect over HTTP", httpclient.Request{Host: "passthrough-redirect.apps.test", Path: "/p"}, 302, "", "", "https://passthrough-redirect.apps.test/p"},
		{"edge None over HTTP", httpclient.Request{Host: "edge.apps.test"}, 503, "", "", ""},
		// upstream: os_http_be.map has no entry for reencrypt or passthrough
		// routes without Allow: openshift_default answers.
		{"reencrypt None over HTTP", httpclient.Request{Host: "reencrypt.apps.test"}, 503, "", "", ""},
		{"passthrough None over HTTP", httpclient.Request{Host: "passthrough.apps.test"}, 503, "", "", ""},
		{"reencrypt Redirect over HTTP", httpclient.Request{Host: "reencrypt-redirect.apps.test", Path: "/r?x=1&y=2"}, 302, "", "", "https://reencrypt-redirect.apps.test/r?x=1&y=2"},
		{"reencrypt Redirect over HTTPS: served, reencrypted", httpclient.Request{HTTPS: true, Host: "reencrypt-redirect.apps.test"}, 200, "https", "", ""},
		{"reencrypt route", httpclient.Request{HTTPS: true, Host: "reencrypt.apps.test", RootCAs: roots}, 200, "https", "max-age=100", ""},
		{"passthrough route reaches the backend's TLS", httpclient.Request{HTTPS: true, Host: "passthrough.apps.test", RootCAs: pki.Pool(w.backendCA)}, 200, "https", "", ""},
		{"unknown host", httpclient.Request{HTTPS: true, Host: "nope.apps.test"}, 503, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := w.mustGet(t, tc.req)
			if resp.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.Status, tc.status, resp.Body)
			}
			checkHSTS(t, resp, tc.hsts)
			if tc.location != "" && resp.Header.Get("Location") != tc.location {
				t.Errorf("Location = %q, want %q", resp.Header.Get("Location"), tc.location)
			}
			if tc.listener != "" {
				if resp.Echo == nil || resp.Echo.Listener != tc.listener {
					t.Errorf("answered by %+v, want the echo %s listener", resp.Echo, tc.listener)
				}
			}
		})
	}

	// The reencrypt backend saw TLS without SNI (upstream sends none).
	resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: "reencrypt.apps.test", RootCAs: roots})
	if resp.Echo == nil || resp.Echo.TLS == nil || resp.Echo.TLS.ServerName != "" {
		t.Errorf("reencrypt backend TLS = %+v, want TLS without SNI", resp.Echo)
	}
	// Passthrough: the client saw the backend's own certificate.
	resp = w.mustGet(t, httpclient.Request{HTTPS: true, Host: "passthrough.apps.test", RootCAs: pki.Pool(w.backendCA)})
	if got := resp.TLS.PeerCertificates[0].Issuer.CommonName; got != "backend CA" {
		t.Errorf("passthrough served a certificate of %q, want the backend's", got)
	}
}

// upstream's os_route_http_redirect.map holds every route, and the entry
// of the most specific path matching the request decides: a route with a
// path and no Redirect keeps plain HTTP to its path from its host's
// Redirect route (Allow serves it, None and a plain route too as they
// would alone), and a Redirect route with a path redirects under a host
// route that serves plain HTTP.
func TestInsecurePolicyOfTheMostSpecificRouteDecides(t *testing.T) {
	w := newWorld(t)
	ep := []haproxy.Endpoint{{Name: "ep1", Addr: w.httpEcho}}
	w.cfg.Routes = []haproxy.Route{
		{Namespace: "ns", Name: "host-redirect", Host: "mixed.apps.test", Termination: haproxy.Edge, InsecurePolicy: haproxy.PolicyRedirect, Endpoints: ep},
		{Namespace: "ns", Name: "path-allow", Host: "mixed.apps.test", Path: "/allow", Termination: haproxy.Edge, InsecurePolicy: haproxy.PolicyAllow, Endpoints: ep},
		{Namespace: "ns", Name: "path-none", Host: "mixed.apps.test", Path: "/none", Termination: haproxy.Edge, Endpoints: ep},
		{Namespace: "ns", Name: "path-plain", Host: "mixed.apps.test", Path: "/plain", Endpoints: ep},
		{Namespace: "ns", Name: "host-allow", Host: "mixed2.apps.test", Termination: haproxy.Edge, InsecurePolicy: haproxy.PolicyAllow, Endpoints: ep},
		{Namespace: "ns", Name: "path-redirect", Host: "mixed2.apps.test", Path: "/secure", Termination: haproxy.Edge, InsecurePolicy: haproxy.PolicyRedirect, Endpoints: ep},
	}
	w.start(t)
	for _, tc := range []struct {
		host, path string
		status     int
		location   string
	}{
		{"mixed.apps.test", "/other", 302, "https://mixed.apps.test/other"},
		{"mixed.apps.test", "/allow/x", 200, ""},
		{"mixed.apps.test", "/none/x", 503, ""},
		{"mixed.apps.test", "/plain", 200, ""},
		{"mixed2.apps.test", "/secure/x?q=1", 302, "https://mixed2.apps.test/secure/x?q=1"},
		{"mixed2.apps.test", "/other", 200, ""},
	} {
		resp := w.mustGet(t, httpclient.Request{Host: tc.host, Path: tc.path})
		if resp.Status != tc.status || resp.Header.Get("Location") != tc.location {
			t.Errorf("http://%s%s: %d Location %q, want %d %q", tc.host, tc.path, resp.Status, resp.Header.Get("Location"), tc.status, tc.location)
		}
		if tc.status == 200 && (resp.Echo == nil || resp.Echo.Path != strings.SplitN(tc.path, "?", 2)[0]) {
			t.Errorf("http://%s%s: not served by the echo backend: %+v", tc.host, tc.path, resp.Echo)
		}
	}
}

func TestReencryptRefusesABackendItCannotVerify(t *testing.T) {
	w := newWorld(t)
	other := must[*pki.CA](t)(pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "other CA"}}))
	good := w.routes()[4]
	bad := good
	bad.Name, bad.Host, bad.DestinationCA = "reencrypt-bad", "bad-reencrypt.apps.test", other.CertPEM
	// With a destinationCACertificate the CA alone is checked, not the
	// name (upstream: no verifyhost then).
	otherName := good
	otherName.Name, otherName.Host, otherName.ServiceHostname = "reencrypt-other-name", "other-name.apps.test", "not-the-cert.ns.svc"
	w.cfg.Routes = []haproxy.Route{good, bad, otherName}
	w.start(t)
	if resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: good.Host}); resp.Status != 200 {
		t.Fatalf("positive control: %d", resp.Status)
	}
	if resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: bad.Host}); resp.Status != 503 {
		t.Errorf("backend with an unverifiable certificate: %d, want 503", resp.Status)
	}
	if resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: otherName.Host}); resp.Status != 200 {
		t.Errorf("destination CA, certificate for another name: %d, want 200 (no host name check)", resp.Status)
	}
}

// Without a destinationCACertificate: the default destination CA with the
// service's name checked if there is one, otherwise no verification.
func TestReencryptDefaultDestinationCA(t *testing.T) {
	w := newWorld(t)
	ep := []haproxy.Endpoint{{Name: "ep1", Addr: w.httpsEcho}}
	route := func(name, service string) haproxy.Route {
		return haproxy.Route{Namespace: "ns", Name: name, Host: name + ".apps.test", Termination: haproxy.Reencrypt, ServiceHostname: service, Endpoints: ep}
	}
	matching, mismatching := route("matching", "echo.ns.svc"), route("mismatching", "other.ns.svc")
	w.cfg.Routes = []haproxy.Route{matching, mismatching}

	// No default CA: not verified at all.
	w.start(t)
	for _, r := range w.cfg.Routes {
		if resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: r.Host}); resp.Status != 200 {
			t.Errorf("no default destination CA, %s: %d, want 200 (verify none)", r.Name, resp.Status)
		}
	}
	cfg := string(must[haproxy.Files](t)(haproxy.Render(w.cfg))[haproxy.ConfigFile])
	if !strings.Contains(cfg, " ssl verify none\n") {
		t.Errorf("no default destination CA: want server lines ending ssl verify none:\n%s", cfg)
	}

	// The default CA of the backend: its name is checked.
	caFile := filepath.Join(w.cfg.Dir, "service-ca.crt")
	if err := writeFile(caFile, w.backendCA.CertPEM); err != nil {
		t.Fatal(err)
	}
	w.cfg.DefaultDestinationCA = caFile
	w.reload(t)
	if resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: matching.Host}); resp.Status != 200 {
		t.Errorf("default destination CA, certificate for the service: %d, want 200", resp.Status)
	}
	if resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: mismatching.Host}); resp.Status != 503 {
		t.Errorf("default destination CA, certificate for another name: %d, want 503", resp.Status)
	}
	cfg = string(must[haproxy.Files](t)(haproxy.Render(w.cfg))[haproxy.ConfigFile])
	if want := " ssl verifyhost echo.ns.svc verify required ca-file " + caFile + "\n"; !strings.Contains(cfg, want) {
		t.Errorf("want a server line ending %q:\n%s", want, cfg)
	}
	if strings.Contains(cfg, " sni ") {
		t.Errorf("a server line sends SNI:\n%s", cfg)
	}

	// Another CA as the default: refused.
	other := must[*pki.CA](t)(pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "other CA"}}))
	if err := writeFile(caFile, other.CertPEM); err != nil {
		t.Fatal(err)
	}
	w.reload(t)
	if resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: matching.Host}); resp.Status != 503 {
		t.Errorf("default destination CA that did not sign the backend: %d, want 503", resp.Status)
	}
}

func TestHeaderActionsOrderPrecedenceAndQuoting(t *testing.T) {
	w := newWorld(t)
	w.cfg.RequestHeaders = []headers.Action{
		{Name: "X-Both", Kind: headers.Set, Value: "from-ingresscontroller"},
		{Name: "X-IC-Only", Kind: headers.Set, Value: "ic"},
		{Name: "X-Client-Secret", Kind: headers.Delete},
		{Name: "X-IC-Host-B64", Kind: headers.Set, Value: "%[req.hdr(host),base64]"},
	}
	w.cfg.ResponseHeaders = []headers.Action{
		{Name: "X-Both", Kind: headers.Set, Value: "from-ingresscontroller"},
		{Name: "X-Backend-Leak", Kind: headers.Delete},
	}
	edge := w.routes()[1]
	edge.RequestHeaders = []headers.Action{
		{Name: "X-Both", Kind: headers.Set, Value: "from-route"},
		{Name: "X-Literal", Kind: headers.Set, Value: `it's "quoted" \ back; semi`},
		{Name: "X-Host-Lower", Kind: headers.Set, Value: "%[req.hdr(host),lower]"},
		{Name: "X-Host-B64", Kind: headers.Set, Value: "%[req.hdr(host),base64]"},
		{Name: "X-Set-Then-Delete", Kind: headers.Set, Value: "x"},
		{Name: "X-Set-Then-Delete", Kind: headers.Delete},
		{Name: "X-Delete-Then-Set", Kind: headers.Delete},
		{Name: "X-Delete-Then-Set", Kind: headers.Set, Value: "kept"},
	}
	edge.ResponseHeaders = []headers.Action{
		{Name: "X-Both", Kind: headers.Set, Value: "from-route"},
		{Name: "X-Value-Lower", Kind: headers.Set, Value: "%[res.hdr(X-Value),lower]"},
	}
	w.cfg.Routes = []haproxy.Route{edge}
	w.start(t)

	h := http.Header{}
	h.Set("X-Client-Secret", "s3cret")
	h.Set("X-Delete-Then-Set", "from-client")
	h.Add(echo.SetResponseHeader, "X-Backend-Leak: internal")
	h.Add(echo.SetResponseHeader, "X-Value: MiXeD")
	resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: "Edge.Apps.Test", Header: h})
	if resp.Status != 200 || resp.Echo == nil {
		t.Fatalf("status %d: %s", resp.Status, resp.Body)
	}
	if resp.Echo.Host != "edge.apps.test" {
		t.Errorf("backend saw Host %q, want it lowercased", resp.Echo.Host)
	}
	got := resp.Echo.Headers
	for name, want := range map[string][]string{
		"X-Both":       {"from-route"}, // requests: IngressController first, then the route
		"X-Ic-Only":    {"ic"},
		"X-Literal":    {`it's "quoted" \ back; semi`},
		"X-Host-Lower": {"edge.apps.test"},
		// upstream lowercases Host before any header action reads it.
		"X-Host-B64":        {base64.StdEncoding.EncodeToString([]byte("edge.apps.test"))},
		"X-Ic-Host-B64":     {base64.StdEncoding.EncodeToString([]byte("edge.apps.test"))},
		"X-Delete-Then-Set": {"kept"},
		"X-Client-Secret":   nil,
		"X-Set-Then-Delete": nil,
	} {
		if fmt.Sprint(got[name]) != fmt.Sprint(want) {
			t.Errorf("backend saw %s = %q, want %q", name, got[name], want)
		}
	}
	for name, want := range map[string][]string{
		"X-Both":         {"from-ingresscontroller"}, // responses: the route first, then the IngressController
		"X-Backend-Leak": nil,
		"X-Value-Lower":  {"mixed"},
	} {
		if fmt.Sprint(resp.Header.Values(name)) != fmt.Sprint(want) {
			t.Errorf("client saw %s = %q, want %q", name, resp.Header.Values(name), want)
		}
	}
}

func TestMutualTLSAlertsFilterAndForwardedCertificate(t *testing.T) {
	w := newWorld(t)
	clientCA := must[*pki.CA](t)(pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "client root"}}))
	inter := must[*pki.CA](t)(clientCA.NewIntermediateCA(pki.CAOptions{Subject: pki.Subject{CommonName: "client intermediate"}}))
	foreign := must[*pki.CA](t)(pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "foreign"}}))
	subject := func(cn string) pki.Subject {
		return pki.Subject{Country: "US", Province: "NC", Organization: "Example", OrganizationalUnit: "Eng", CommonName: cn}
	}
	issue := func(ca *pki.CA, cn string, window pki.Window) *tls.Certificate {
		leaf := must[*pki.Leaf](t)(ca.IssueClient(pki.ClientOptions{Subject: subject(cn), Window: window}))
		c := must[tls.Certificate](t)(leaf.TLSCertificate())
		return &c
	}
	valid := issue(inter, "allowed", pki.Window{})
	other := issue(inter, "someone-else", pki.Window{})
	expired := issue(inter, "allowed", pki.Expired())
	future := issue(inter, "allowed", pki.NotYetValid())
	untrusted := issue(foreign, "allowed", pki.Window{})
	revokedLeaf := must[*pki.Leaf](t)(inter.IssueClient(pki.ClientOptions{Subject: subject("allowed")}))
	revoked := must[tls.Certificate](t)(revokedLeaf.TLSCertificate())

	dir := t.TempDir()
	rootCRL := must[*pki.CRL](t)(clientCA.IssueCRL(pki.CRLOptions{}))
	interCRL := must[*pki.CRL](t)(inter.IssueCRL(pki.CRLOptions{Revoked: pki.Revoke(revokedLeaf.Cert)}))
	caFile, crlFile := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "crl.pem")
	if err := os.WriteFile(caFile, pki.Bundle(clientCA, inter), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(crlFile, append(rootCRL.PEM(), interCRL.PEM()...), 0o644); err != nil {
		t.Fatal(err)
	}
	w.cfg.MutualTLS = &haproxy.MutualTLS{Policy: "required", CAFile: caFile, CRLFile: crlFile, SubjectFilter: "(?:/CN=allowed$|/CN=also-allowed$)"} // as the operator joins allowedSubjectPatterns
	w.cfg.Routes = []haproxy.Route{w.routes()[1]}
	w.start(t)

	for _, tc := range []struct {
		name   string
		cert   *tls.Certificate
		status int
		alert  string
	}{
		{"valid client", valid, 200, ""},
		{"subject outside the filter", other, 403, ""},
		{"no certificate", nil, 0, "certificate required"},
		{"untrusted CA", untrusted, 0, "unknown certificate authority"},
		{"expired", expired, 0, "expired certificate"},
		{"not yet valid", future, 0, "bad certificate"},
		{"revoked", &revoked, 0, "revoked certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, got, err := w.refusal(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test", ClientCertificate: tc.cert})
			if tc.alert != "" {
				if got != tc.alert {
					t.Fatalf("got response %+v, error %v; want alert %q", resp, err, tc.alert)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != tc.status {
				t.Fatalf("status %d, want %d", resp.Status, tc.status)
			}
		})
	}

	leafCert := must[*x509.Certificate](t)(x509.ParseCertificate(valid.Certificate[0]))
	wantDN := "/C=US/ST=NC/O=Example/OU=Eng/CN=allowed"
	// fe_sni and fe_no_sni alike; a client's own X-SSL* never passes.
	for _, noSNI := range []bool{false, true} {
		resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test", NoSNI: noSNI, ClientCertificate: valid, Header: spoofedXSSL()})
		if resp.Status != 200 || resp.Echo == nil {
			t.Fatalf("no SNI %v: status %d", noSNI, resp.Status)
		}
		h := resp.Echo.Headers
		for name, want := range map[string]string{
			"X-Ssl":               "1",
			"X-Ssl-Client-Verify": "0",
			// %{+Q} quotes in logs only: header values arrive bare.
			"X-Ssl-Client-Dn":        wantDN,
			"X-Ssl-Client-Cn":        "allowed",
			"X-Ssl-Issuer":           "/CN=client intermediate",
			"X-Ssl-Client-Der":       base64.StdEncoding.EncodeToString(valid.Certificate[0]),
			"X-Ssl-Client-Sha1":      fmt.Sprintf("%X", sha1.Sum(valid.Certificate[0])),
			"X-Ssl-Client-Serial":    fmt.Sprintf("%X", leafCert.SerialNumber.Bytes()),
			"X-Ssl-Client-Version":   "3",
			"X-Ssl-Client-Notbefore": leafCert.NotBefore.UTC().Format("060102150405Z"),
			"X-Ssl-Client-Notafter":  leafCert.NotAfter.UTC().Format("060102150405Z"),
		} {
			if len(h[name]) != 1 || h[name][0] != want {
				t.Errorf("no SNI %v: backend saw %s = %q, want %q", noSNI, name, h[name], want)
			}
		}
		// Deleted, never set (upstream).
		if v, ok := h["X-Ssl-Client-Subject"]; ok {
			t.Errorf("no SNI %v: backend saw the client's X-SSL-Client-Subject %q", noSNI, v)
		}
	}

	// Optional with a filter: no certificate is denied too (no ssl_c_used
	// guard upstream).
	w.cfg.MutualTLS.Policy = "optional"
	w.reload(t)
	if resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test"}); resp.Status != 403 {
		t.Errorf("optional with a subject filter, no certificate: %d, want 403", resp.Status)
	}
	if resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test", ClientCertificate: valid}); resp.Status != 200 {
		t.Errorf("optional with a subject filter, valid certificate: %d, want 200", resp.Status)
	}

	// Optional: no certificate passes, a bad one is still refused.
	w.cfg.MutualTLS.SubjectFilter = ""
	w.reload(t)
	resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test", Header: spoofedXSSL()})
	if resp.Status != 200 || resp.Echo == nil {
		t.Fatalf("optional, no certificate: %d, want 200", resp.Status)
	}
	// The headers are set whether or not a certificate came: empty then.
	h := resp.Echo.Headers
	for name, want := range map[string]string{"X-Ssl": "1", "X-Ssl-Client-Verify": "0", "X-Ssl-Client-Der": "", "X-Ssl-Client-Dn": "", "X-Ssl-Client-Cn": ""} {
		if len(h[name]) != 1 || h[name][0] != want {
			t.Errorf("optional, no certificate: backend saw %s = %q, want [%q]", name, h[name], want)
		}
	}
	if v, ok := h["X-Ssl-Client-Subject"]; ok {
		t.Errorf("optional, no certificate: backend saw the client's X-SSL-Client-Subject %q", v)
	}
	if resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test", ClientCertificate: valid}); resp.Status != 200 {
		t.Errorf("optional, valid certificate: %d, want 200", resp.Status)
	}
	if _, alert, err := w.refusal(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test", ClientCertificate: expired}); alert != "expired certificate" {
		t.Errorf("optional, expired certificate: %v, want alert expired certificate", err)
	}
}

func writeFile(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }

// xsslHeaders are the request headers upstream deletes in every HTTP
// frontend.
var xsslHeaders = []string{
	"X-SSL", "X-SSL-Client-CN", "X-SSL-Client-DER", "X-SSL-Client-DN", "X-SSL-Client-NotAfter", "X-SSL-Client-NotBefore",
	"X-SSL-Client-SHA1", "X-SSL-Client-Serial", "X-SSL-Client-Subject", "X-SSL-Client-Verify", "X-SSL-Client-Version", "X-SSL-Issuer",
}

// spoofedXSSL is a client claiming a certificate it did not present.
func spoofedXSSL() http.Header {
	h := http.Header{}
	for _, name := range xsslHeaders {
		h.Set(name, "spoofed")
	}
	return h
}

// Every HTTP frontend (public, fe_sni, fe_no_sni) deletes the client's
// X-SSL* headers, mutual TLS or not, and lowercases Host before the
// IngressController's actions read it.
func TestXSSLAndHostInEveryFrontend(t *testing.T) {
	for _, mtls := range []bool{false, true} {
		t.Run(fmt.Sprintf("mtls=%v", mtls), func(t *testing.T) {
			w := newWorld(t)
			if mtls {
				clientCA := must[*pki.CA](t)(pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "client root"}}))
				caFile := filepath.Join(w.cfg.Dir, "client-ca.pem")
				if err := writeFile(caFile, clientCA.CertPEM); err != nil {
					t.Fatal(err)
				}
				w.cfg.MutualTLS = &haproxy.MutualTLS{Policy: "optional", CAFile: caFile}
			}
			w.cfg.RequestHeaders = []headers.Action{{Name: "X-IC-Host-B64", Kind: headers.Set, Value: "%[req.hdr(host),base64]"}}
			w.cfg.Routes = w.routes()[:3] // insecure, edge, edge-allow
			w.start(t)
			for _, tc := range []struct {
				name string
				req  httpclient.Request
				host string
			}{
				{"public, insecure route", httpclient.Request{Host: "Insecure.APPS.test"}, "insecure.apps.test"},
				{"public, edge route with Allow", httpclient.Request{Host: "ALLOW.apps.test"}, "allow.apps.test"},
				{"fe_sni", httpclient.Request{HTTPS: true, Host: "Edge.Apps.Test"}, "edge.apps.test"},
				{"fe_no_sni", httpclient.Request{HTTPS: true, NoSNI: true, Host: "Edge.Apps.Test"}, "edge.apps.test"},
			} {
				tc.req.Header = spoofedXSSL()
				resp := w.mustGet(t, tc.req)
				if resp.Status != 200 || resp.Echo == nil {
					t.Fatalf("%s: status %d: %s", tc.name, resp.Status, resp.Body)
				}
				for _, name := range xsslHeaders {
					for _, v := range resp.Echo.Headers[http.CanonicalHeaderKey(name)] {
						if v == "spoofed" {
							t.Errorf("%s: the client's %s reached the backend", tc.name, name)
						}
					}
				}
				if resp.Echo.Host != tc.host {
					t.Errorf("%s: backend saw Host %q, want %q", tc.name, resp.Echo.Host, tc.host)
				}
				if got, want := resp.Echo.Headers["X-Ic-Host-B64"], base64.StdEncoding.EncodeToString([]byte(tc.host)); len(got) != 1 || got[0] != want {
					t.Errorf("%s: X-IC-Host-B64 = %q, want %q (Host lowercased first)", tc.name, got, want)
				}
				// Plain HTTP never carries a client certificate.
				if !tc.req.HTTPS {
					if v, ok := resp.Echo.Headers["X-Ssl"]; ok {
						t.Errorf("%s: plain HTTP backend saw X-SSL %q", tc.name, v)
					}
				}
			}
		})
	}
}

// Without distribution points there is no CRL file: client certificates
// are verified against the bundle only.
func TestMutualTLSWithoutCRLs(t *testing.T) {
	w := newWorld(t)
	ca := must[*pki.CA](t)(pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "no-CDP CA"}}))
	leaf := must[*pki.Leaf](t)(ca.IssueClient(pki.ClientOptions{Subject: pki.Subject{CommonName: "c"}}))
	cert := must[tls.Certificate](t)(leaf.TLSCertificate())
	caFile := filepath.Join(w.cfg.Dir, "ca.pem")
	if err := writeFile(caFile, ca.CertPEM); err != nil {
		t.Fatal(err)
	}
	w.cfg.MutualTLS = &haproxy.MutualTLS{Policy: "required", CAFile: caFile}
	w.cfg.Routes = []haproxy.Route{w.routes()[1]}
	w.start(t)
	if resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test", ClientCertificate: &cert}); resp.Status != 200 {
		t.Errorf("valid client: %d", resp.Status)
	}
	if _, alert, err := w.refusal(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test"}); alert != "certificate required" {
		t.Errorf("no certificate: %v, want alert certificate required", err)
	}
}

// A reload starts new workers; the old ones finish what they serve, so a
// request in flight during a reload completes.
func TestReloadKeepsARequestInFlight(t *testing.T) {
	w := newWorld(t)
	started := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(2 * time.Second)
		_, _ = rw.Write([]byte("finished"))
	}))
	defer slow.Close()
	route := haproxy.Route{Namespace: "ns", Name: "slow", Host: "slow.apps.test", Endpoints: []haproxy.Endpoint{{Name: "ep1", Addr: strings.TrimPrefix(slow.URL, "http://")}}}
	w.cfg.Routes = []haproxy.Route{route}
	w.start(t)

	type result struct {
		resp *httpclient.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := w.get(t, httpclient.Request{Host: "slow.apps.test"})
		done <- result{resp, err}
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the slow request never reached its backend")
	}
	// Reload onto a configuration with one more route while the request runs.
	w.cfg.Routes = append(w.cfg.Routes, w.routes()[0])
	w.reload(t)
	r := <-done
	if r.err != nil || r.resp.Status != http.StatusOK || string(r.resp.Body) != "finished" {
		t.Fatalf("request in flight across a reload: %+v, %v", r.resp, r.err)
	}
	// The new configuration serves too.
	if resp := w.mustGet(t, httpclient.Request{Host: "insecure.apps.test"}); resp.Status != http.StatusOK {
		t.Errorf("route added by the reload: %d", resp.Status)
	}
}

// A value of the API's maximum length (16384) arrives whole, in a
// request and in a response; two of them do not fit the 32768-byte buffer
// (upstream's tune.bufsize) whatever else the message holds, and HAProxy
// answers the failed rewrite with 500 (its default strict-mode), in a
// request before the backend sees it and in a response instead of it.
func TestHeaderValueSizes(t *testing.T) {
	w := newWorld(t)
	big := strings.Repeat("a", 16384)
	routes := w.routes()
	edge, allow, reencrypt, insecure := routes[1], routes[2], routes[4], routes[0]
	// The response rewrite only: the echo's answer carries the request's
	// headers, and a 16384-byte one would leave no room for another 16384.
	edge.RequestHeaders = []headers.Action{{Name: "X-Big", Kind: headers.Set, Value: big}}
	allow.ResponseHeaders = []headers.Action{{Name: "X-Big", Kind: headers.Set, Value: big}}
	reencrypt.RequestHeaders = []headers.Action{{Name: "X-Big-1", Kind: headers.Set, Value: big}, {Name: "X-Big-2", Kind: headers.Set, Value: big}}
	insecure.ResponseHeaders = []headers.Action{{Name: "X-Big-1", Kind: headers.Set, Value: big}, {Name: "X-Big-2", Kind: headers.Set, Value: big}}
	w.cfg.Routes = []haproxy.Route{edge, allow, reencrypt, insecure}
	w.start(t)

	resp := w.mustGet(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test"})
	if resp.Status != 200 || resp.Echo == nil {
		t.Fatalf("edge: status %d: %s", resp.Status, resp.Body)
	}
	if got := resp.Echo.Headers["X-Big"]; len(got) != 1 || got[0] != big {
		t.Errorf("backend saw %d X-Big values, want one of 16384 characters", len(got))
	}
	resp = w.mustGet(t, httpclient.Request{HTTPS: true, Host: "allow.apps.test"})
	if resp.Status != 200 || resp.Echo == nil {
		t.Fatalf("allow: status %d: %s", resp.Status, resp.Body)
	}
	if got := resp.Header.Values("X-Big"); len(got) != 1 || got[0] != big {
		t.Errorf("client saw %d X-Big values, want one of 16384 characters", len(got))
	}
	for _, r := range []httpclient.Request{{HTTPS: true, Host: "reencrypt.apps.test"}, {Host: "insecure.apps.test"}} {
		resp := w.mustGet(t, r)
		if resp.Status != 500 || resp.Echo != nil {
			t.Errorf("%s: status %d, echo answered %v; want HAProxy's own 500", r.Host, resp.Status, resp.Echo != nil)
		}
	}
}

// A wildcard route (wildcardPolicy Subdomain, wildcard routes allowed)
// serves every host one label under its parent, with its certificate
// for *.<parent> chosen by SNI and its backend's HSTS; an exact route of
// the parent is tried first; two labels down and another parent are not
// its hosts. upstream: openshift/router pkg/router/template/util/util.go
// (GenerateRouteRegexp, GenerateSNIRegexp, GenCertificateHostName) and
// images/router/haproxy/conf/haproxy-config.template (cert_config.map,
// os_edge_reencrypt_be.map, os_sni_passthrough.map).
func TestWildcardRoutes(t *testing.T) {
	w := newWorld(t)
	wildCert := must[*pki.Leaf](t)(w.ca.IssueServer(pki.ServerOptions{Hosts: []string{"*.wild.test"}}))
	ep := func(addr string) []haproxy.Endpoint { return []haproxy.Endpoint{{Name: "ep1", Addr: addr}} }
	w.cfg.Routes = []haproxy.Route{
		{Namespace: "ns", Name: "wild", Host: "www.wild.test", Wildcard: true, Termination: haproxy.Edge, Certificate: wildCert.HAProxyPEM(),
			Endpoints: ep(w.httpEcho), HSTS: "max-age=600"},
		{Namespace: "ns", Name: "wild-reencrypt", Host: "www.wild2.test", Wildcard: true, Termination: haproxy.Reencrypt,
			DestinationCA: w.backendCA.CertPEM, ServiceHostname: "echo.ns.svc", Endpoints: ep(w.httpsEcho), HSTS: "max-age=700"},
		{Namespace: "ns", Name: "exact", Host: "exact.wild.test", Termination: haproxy.Edge, Endpoints: ep(w.httpEcho)},
		{Namespace: "ns", Name: "wild-passthrough", Host: "www.pt.test", Wildcard: true, Termination: haproxy.Passthrough, Endpoints: ep(w.httpsEcho)},
	}
	w.start(t)
	roots := pki.Pool(w.ca)
	for _, tc := range []struct {
		name     string
		req      httpclient.Request
		status   int
		hsts     string
		listener string
		certName string // the first DNS name of the certificate served
	}{
		{"its own host", httpclient.Request{HTTPS: true, Host: "www.wild.test", RootCAs: roots}, 200, "max-age=600", "http", "*.wild.test"},
		{"another host under the parent", httpclient.Request{HTTPS: true, Host: "a.wild.test", RootCAs: roots}, 200, "max-age=600", "http", "*.wild.test"},
		{"a third one, with a port in Host", httpclient.Request{HTTPS: true, Host: "B.wild.test:443", SNI: "b.wild.test", RootCAs: roots}, 200, "max-age=600", "http", "*.wild.test"},
		{"reencrypt wildcard, default certificate", httpclient.Request{HTTPS: true, Host: "c.wild2.test"}, 200, "max-age=700", "https", "*.default.test"},
		{"an exact route of the parent comes first", httpclient.Request{HTTPS: true, Host: "exact.wild.test"}, 200, "", "http", "*.wild.test"},
		{"two labels down: not the wildcard's", httpclient.Request{HTTPS: true, Host: "x.a.wild.test"}, 503, "", "", "*.default.test"},
		{"another parent", httpclient.Request{HTTPS: true, Host: "a.other.test"}, 503, "", "", "*.default.test"},
		{"passthrough wildcard by SNI", httpclient.Request{HTTPS: true, Host: "d.pt.test"}, 200, "", "https", "echo.ns.svc"},
		{"passthrough, two labels down", httpclient.Request{HTTPS: true, Host: "x.d.pt.test"}, 503, "", "", "*.default.test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := w.mustGet(t, tc.req)
			if resp.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.Status, tc.status, resp.Body)
			}
			checkHSTS(t, resp, tc.hsts)
			if tc.listener != "" && (resp.Echo == nil || resp.Echo.Listener != tc.listener) {
				t.Errorf("answered by %+v, want the echo %s listener", resp.Echo, tc.listener)
			}
			if got := resp.TLS.PeerCertificates[0].DNSNames; len(got) == 0 || got[0] != tc.certName {
				t.Errorf("certificate for %v, want %s", got, tc.certName)
			}
		})
	}
}

// checkHSTS wants exactly one Strict-Transport-Security header of value
// want, or none when want is "".
func checkHSTS(t *testing.T, resp *httpclient.Response, want string) {
	t.Helper()
	if got := resp.Header.Values("Strict-Transport-Security"); (want == "" && len(got) != 0) || (want != "" && (len(got) != 1 || got[0] != want)) {
		t.Errorf("Strict-Transport-Security = %q, want %q", got, want)
	}
}

// The forwarded headers, policy by policy (the router's and a route's
// annotation), with the IngressController's and a route's actions on
// X-Forwarded-For, over each HTTP frontend, a client sending its own or
// none: what the backend sees is the chart of contract.ForwardedPolicy.Seen
// (upstream: openshift/router images/router/haproxy/conf/haproxy-config.template,
// the route backend's forwarded-headers cases and forwardfor).
func TestForwardedHeaders(t *testing.T) {
	clientSends := map[string][]string{
		"X-Forwarded-For": {"192.0.2.1", "192.0.2.2"}, "X-Forwarded-Host": {"client.test"}, "X-Forwarded-Port": {"1"},
		"X-Forwarded-Proto": {"ftp"}, "X-Forwarded-Proto-Version": {"h9"}, "Forwarded": {"for=192.0.2.1"},
	}
	other := map[contract.ForwardedPolicy]contract.ForwardedPolicy{
		contract.ForwardedAppend: contract.ForwardedNever, contract.ForwardedReplace: contract.ForwardedAppend,
		contract.ForwardedIfNone: contract.ForwardedReplace, contract.ForwardedNever: contract.ForwardedIfNone,
	}
	for _, policy := range contract.ForwardedPolicies {
		for i, icAction := range []*contract.XFFAction{nil, {Value: "from-ic"}, {Delete: true}} {
			// Short: HAProxy's socket paths under t.TempDir() are bounded.
			t.Run(fmt.Sprintf("%s-ic%d", policy, i), func(t *testing.T) {
				w := newWorld(t)
				w.cfg.ForwardedHeaders = policy
				if icAction != nil {
					w.cfg.RequestHeaders = []headers.Action{xffAction(icAction)}
				}
				ep := []haproxy.Endpoint{{Name: "ep1", Addr: w.httpEcho}}
				edge := func(name string, mod func(*haproxy.Route)) haproxy.Route {
					r := haproxy.Route{Namespace: "ns", Name: name, Host: name + ".apps.test", Termination: haproxy.Edge, InsecurePolicy: haproxy.PolicyAllow, Endpoints: ep}
					mod(&r)
					return r
				}
				type routeCase struct {
					policy contract.ForwardedPolicy
					action *contract.XFFAction
				}
				cases := map[string]routeCase{
					"plain":        {policy, nil},
					"annotated":    {other[policy], nil},
					"route-set":    {policy, &contract.XFFAction{Value: "from-route"}},
					"route-delete": {policy, &contract.XFFAction{Delete: true}},
					"both":         {other[policy], &contract.XFFAction{Value: "from-route"}},
				}
				for name, c := range cases {
					w.cfg.Routes = append(w.cfg.Routes, edge(name, func(r *haproxy.Route) {
						if c.policy != policy {
							r.ForwardedHeaders = c.policy
						}
						if c.action != nil {
							r.RequestHeaders = []headers.Action{xffAction(c.action)}
						}
					}))
				}
				w.start(t)
				for name, c := range cases {
					for _, fe := range []struct {
						name       string
						tls, noSNI bool
						bind       string
					}{{"public", false, false, w.cfg.HTTPBind}, {"fe_sni", true, false, w.cfg.HTTPSBind}, {"fe_no_sni", true, true, w.cfg.HTTPSBind}} {
						for _, client := range []map[string][]string{nil, clientSends} {
							req := httpclient.Request{HTTPS: fe.tls, NoSNI: fe.noSNI, Host: strings.ToUpper(name) + ".apps.test", Header: http.Header{}}
							for k, vs := range client {
								for _, v := range vs {
									req.Header.Add(k, v)
								}
							}
							resp := w.mustGet(t, req)
							if resp.Status != 200 || resp.Echo == nil {
								t.Fatalf("%s over %s: status %d: %s", name, fe.name, resp.Status, resp.Body)
							}
							_, port, _ := strings.Cut(fe.bind, "127.0.0.1:")
							want := c.policy.Seen(contract.ForwardedRequest{Client: client, IngressController: icAction, Route: c.action,
								Source: "127.0.0.1", Host: name + ".apps.test", Port: port, TLS: fe.tls})
							for _, h := range contract.ForwardedHeaderNames {
								if got := resp.Echo.Headers[h]; fmt.Sprint(got) != fmt.Sprint(want[h]) {
									t.Errorf("route %s (%s, action %+v) over %s, client sent %v: backend saw %s %q, want %q", name, c.policy, c.action, fe.name, client != nil, h, got, want[h])
								}
							}
						}
					}
				}
			})
		}
	}
}

func xffAction(a *contract.XFFAction) headers.Action {
	if a.Delete {
		return headers.Action{Name: "X-Forwarded-For", Kind: headers.Delete}
	}
	return headers.Action{Name: "X-Forwarded-For", Kind: headers.Set, Value: a.Value}
}

// Every HTTP frontend deletes a client's Proxy header (httpoxy) and
// refuses a request with an empty Content-Length before any route's
// backend sees it: HAProxy's own parser answers 400 (its CVE-2023-40225
// fix, in the pinned build), ahead of the template's deny.
func TestProxyHeaderAndEmptyContentLengthInEveryFrontend(t *testing.T) {
	w := newWorld(t)
	w.cfg.Routes = w.routes()[:3] // insecure, edge, edge-allow
	w.start(t)
	for _, tc := range []struct {
		name string
		req  httpclient.Request
	}{
		{"public", httpclient.Request{Host: "insecure.apps.test"}},
		{"fe_sni", httpclient.Request{HTTPS: true, Host: "edge.apps.test"}},
		{"fe_no_sni", httpclient.Request{HTTPS: true, NoSNI: true, Host: "edge.apps.test"}},
	} {
		req := tc.req
		req.Header = http.Header{"Proxy": {"http://attacker.test:3128"}, "X-Kept": {"kept"}}
		resp := w.mustGet(t, req)
		if resp.Status != 200 || resp.Echo == nil {
			t.Fatalf("%s: status %d: %s", tc.name, resp.Status, resp.Body)
		}
		if got := resp.Echo.Headers["Proxy"]; got != nil {
			t.Errorf("%s: backend saw Proxy %q", tc.name, got)
		}
		if got := resp.Echo.Headers["X-Kept"]; fmt.Sprint(got) != "[kept]" {
			t.Errorf("%s: backend saw X-Kept %q, want the client's", tc.name, got)
		}
		req = tc.req
		// Lower case: net/http writes a key it does not know as given,
		// and Content-Length is one it would write itself.
		req.Header = http.Header{"content-length": {""}}
		resp = w.mustGet(t, req)
		if resp.Status != http.StatusBadRequest || resp.Echo != nil {
			t.Errorf("%s, empty Content-Length: status %d (backend answered %v), want HAProxy's 400", tc.name, resp.Status, resp.Echo != nil)
		}
	}
}

// The session cookie: inserted with HttpOnly (and Secure, SameSite on a
// TLS route) on an answer to a client without it, with Cache-Control:
// private added beside the backend's own; not inserted again to a client
// that returns it; none on a route without a Cookie.
func TestSessionCookie(t *testing.T) {
	w := newWorld(t)
	ep := []haproxy.Endpoint{{Name: "ep1", Addr: w.httpEcho}}
	w.cfg.Routes = []haproxy.Route{
		{Namespace: "ns", Name: "edge", Host: "edge.apps.test", Termination: haproxy.Edge, Endpoints: ep, Cookie: &haproxy.Cookie{Name: "edgecookie", SameSite: "None"}},
		{Namespace: "ns", Name: "plain", Host: "plain.apps.test", Endpoints: ep, Cookie: &haproxy.Cookie{Name: "plaincookie"}},
		{Namespace: "ns", Name: "off", Host: "off.apps.test", Endpoints: ep},
	}
	w.start(t)
	const public = "max-age=7200, must-revalidate, public"
	hdr := http.Header{echo.SetResponseHeader: {"Cache-Control: " + public}}
	for _, tc := range []struct {
		req    httpclient.Request
		prefix string // "" for no cookie
		attrs  string
	}{
		{httpclient.Request{HTTPS: true, Host: "edge.apps.test", Header: hdr}, "edgecookie=", "; path=/; HttpOnly; Secure; SameSite=None"},
		{httpclient.Request{Host: "plain.apps.test", Header: hdr}, "plaincookie=", "; path=/; HttpOnly"},
		{httpclient.Request{Host: "off.apps.test", Header: hdr}, "", ""},
	} {
		resp := w.mustGet(t, tc.req)
		cookies, cc := resp.Header.Values("Set-Cookie"), resp.Header.Values("Cache-Control")
		if tc.prefix == "" {
			if len(cookies) != 0 || fmt.Sprint(cc) != fmt.Sprint([]string{public}) {
				t.Errorf("%s: Set-Cookie %q, Cache-Control %q; want none and the backend's alone", tc.req.Host, cookies, cc)
			}
			continue
		}
		if len(cookies) != 1 || !regexp.MustCompile("^"+tc.prefix+"[0-9a-f]{32}"+regexp.QuoteMeta(tc.attrs)+"$").MatchString(cookies[0]) {
			t.Errorf("%s: Set-Cookie %q, want one %s...%s", tc.req.Host, cookies, tc.prefix, tc.attrs)
			continue
		}
		if fmt.Sprint(cc) != fmt.Sprint([]string{public, "private"}) {
			t.Errorf("%s: Cache-Control %q, want the backend's and private", tc.req.Host, cc)
		}
		// The client returns it: not inserted again, and the backend
		// does not see it (indirect).
		again := tc.req
		again.Header = hdr.Clone()
		again.Header.Set("Cookie", strings.SplitN(cookies[0], ";", 2)[0])
		resp = w.mustGet(t, again)
		if v := resp.Header.Values("Set-Cookie"); len(v) != 0 {
			t.Errorf("%s with its cookie: Set-Cookie %q again", tc.req.Host, v)
		}
		if v := resp.Echo.Headers["Cookie"]; len(v) != 0 {
			t.Errorf("%s with its cookie: the backend saw Cookie %q", tc.req.Host, v)
		}
	}
}

// Header name case: HAProxy sends every name in lower case; an adjusted
// name goes out as configured on every response to a client, and on
// requests only to the backend of a route that asks for it, after every
// action (the IngressController's Set of X-Custom is what arrives,
// spelled as adjusted).
func TestHeaderNameCaseAdjustment(t *testing.T) {
	w := newWorld(t)
	l := must[net.Listener](t)(net.Listen("tcp", "127.0.0.1:0"))
	srv := &http.Server{Handler: echo.Handler{Listener: "wire-names"}}
	go func() { _ = srv.Serve(echo.WireNames(srv, l)) }()
	t.Cleanup(func() { srv.Close() })
	ep := []haproxy.Endpoint{{Name: "ep1", Addr: l.Addr().String()}}
	w.cfg.HeaderNameCaseAdjustments = []string{"X-Custom"}
	w.cfg.RequestHeaders = []headers.Action{{Name: "x-custom", Kind: headers.Set, Value: "from-ingresscontroller"}}
	w.cfg.Routes = []haproxy.Route{
		{Namespace: "ns", Name: "adjusted", Host: "adjusted.apps.test", Termination: haproxy.Edge, InsecurePolicy: haproxy.PolicyAllow,
			Endpoints: ep, AdjustHeaderCase: true},
		{Namespace: "ns", Name: "lower", Host: "lower.apps.test", Termination: haproxy.Edge, InsecurePolicy: haproxy.PolicyAllow,
			Endpoints: ep},
	}
	w.start(t)
	for _, conn := range []struct {
		name string
		req  httpclient.Request
	}{
		{"public", httpclient.Request{}},
		{"fe_sni", httpclient.Request{HTTPS: true}},
		{"fe_no_sni", httpclient.Request{HTTPS: true, NoSNI: true}},
	} {
		for _, route := range []struct {
			host, wantRequestName string
		}{
			{"adjusted.apps.test", "X-Custom"},
			{"lower.apps.test", "x-custom"},
		} {
			req := conn.req
			req.Host = route.host
			req.Header = http.Header{"x-custom": {"from-client"}, "X-Other": {"o"},
				echo.SetResponseHeader: {"x-custom: from-backend"}}
			resp := w.mustGet(t, req)
			if resp.Status != 200 || resp.Echo == nil {
				t.Fatalf("%s %s: status %d: %s", conn.name, route.host, resp.Status, resp.Body)
			}
			names := resp.Echo.HeaderNames
			if !slices.Contains(names, route.wantRequestName) || !slices.Contains(names, "x-other") {
				t.Errorf("%s %s: the backend saw names %q, want %s and x-other", conn.name, route.host, names, route.wantRequestName)
			}
			if got := resp.Echo.Headers["X-Custom"]; fmt.Sprint(got) != "[from-ingresscontroller]" {
				t.Errorf("%s %s: X-Custom at the backend %q, want the action's", conn.name, route.host, got)
			}
			if !slices.Contains(resp.HeaderNames, "X-Custom") || !slices.Contains(resp.HeaderNames, "content-type") {
				t.Errorf("%s %s: the client saw names %q, want X-Custom and content-type", conn.name, route.host, resp.HeaderNames)
			}
		}
	}
	w.cfg.HeaderNameCaseAdjustments = []string{"X Custom"}
	if _, err := haproxy.Render(w.cfg); err == nil || !strings.Contains(err.Error(), "invalid HTTP header name: X Custom") {
		t.Errorf("a name that is no token: %v, want upstream's invalid HTTP header name", err)
	}
}
