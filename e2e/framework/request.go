package framework

import (
	"context"
	"crypto/tls"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/reports"
)

// HTTP is a plain HTTP request for host through the router.
func (f *Framework) HTTP(host, path string) httpclient.Request {
	return httpclient.Request{Addr: f.HTTPAddr, Host: host, Path: path, Timeout: f.Opts.Timeouts.Request}
}

// HTTPS is a TLS request for host through the router (SNI = host).
func (f *Framework) HTTPS(host, path string) httpclient.Request {
	return httpclient.Request{Addr: f.HTTPSAddr, HTTPS: true, Host: host, Path: path, Timeout: f.Opts.Timeouts.Request}
}

// WithCert returns r sending cert, whatever CA the router asks for.
func WithCert(r httpclient.Request, cert *tls.Certificate) httpclient.Request {
	r.ClientCertificate = cert
	return r
}

// WithHeader returns r with one more request header.
func WithHeader(r httpclient.Request, name, value string) httpclient.Request {
	h := http.Header{}
	for k, v := range r.Header {
		h[k] = append([]string(nil), v...)
	}
	h.Add(name, value)
	r.Header = h
	return r
}

// WithRawHeader returns r with one more request header whose name is
// sent exactly as written: in lower case, a header net/http would
// otherwise write itself or leave out (an empty "content-length").
func WithRawHeader(r httpclient.Request, name, value string) httpclient.Request {
	h := r.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h[name] = append(h[name], value)
	r.Header = h
	return r
}

// Do sends r with a User-Agent naming the spec, so that the router's
// logs can be read spec by spec.
func Do(ctx context.Context, r httpclient.Request) (*httpclient.Response, error) {
	if r.Header.Get("User-Agent") == "" {
		r = WithHeader(r, "User-Agent", "router-conformance/"+reports.SuiteVersion+" ("+CurrentSpecReport().FullText()+")")
	}
	return httpclient.Do(ctx, r)
}

// Connection is a way a client reaches the router's TLS termination.
// Upstream has a frontend for each (haproxy-config.template: public_ssl
// sends a ClientHello with SNI to fe_sni, one without to fe_no_sni), each
// with its own bind (certificates, mutual TLS), X-SSL* headers and
// IngressController actions; a spec of the TLS frontends is a table with
// an entry per Connection.
type Connection struct {
	Name  string
	noSNI bool
}

var (
	// WithSNI sends the route's host as SNI: upstream's fe_sni, the
	// route's certificate.
	WithSNI = Connection{Name: "with SNI"}
	// WithoutSNI sends no SNI (as clients that connect by address do):
	// upstream's fe_no_sni, the default certificate; the route is chosen
	// by the Host header alone.
	WithoutSNI = Connection{Name: "without SNI", noSNI: true}
	// TLSConnections are both, for a spec that walks the TLS frontends in
	// one body (a table has BothConnections).
	TLSConnections = []Connection{WithSNI, WithoutSNI}
)

// Over returns r sent over c.
func (c Connection) Over(r httpclient.Request) httpclient.Request {
	r.NoSNI = c.noSNI
	if c.noSNI {
		r.SNI = ""
	}
	return r
}

// RequestTo is RequestTo through the default IngressController.
func (f *Framework) RequestTo(route *routev1.Route, backend *Echo, path string) httpclient.Request {
	return f.DefaultIngressController().RequestTo(route, backend, path)
}
