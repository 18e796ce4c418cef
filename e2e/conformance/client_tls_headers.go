package conformance

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// describeClientTLSHeaders: what the backend learns of the client
// certificate, in the main container (describeClientTLSWithCRLs) under
// Required.
func describeClientTLSHeaders(f *framework.Framework, c *crlContainer) {
	// Upstream sets eleven X-SSL* headers in fe_sni and fe_no_sni after
	// deleting all twelve the client sent (X-SSL-Client-Subject is
	// deleted, never set): each frontend its own lines, so each
	// connection kind is its own case. Over plain HTTP (public) the
	// twelve are deleted and none is set, mutual TLS on or not: the
	// case openshift/router#787 (OCPBUGS-86718) closed, a client
	// claiming a certificate identity where it presented none. The
	// client forges all twelve; the positive control is the same
	// request served, with another header of its own kept.
	//
	// Document: the HTTP header actions enhancement, sections "X-SSL" and
	// "Should this enhancement allow setting dynamic header values?"
	// (%{+Q}[ssl_c_der,base64]); the Ingress client TLS enhancement names
	// no header; neither says what becomes of a client's own X-SSL*
	// headers, the template does
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (frontends public, fe_sni and fe_no_sni: `http-request del-header
	// X-SSL...` for the twelve unless ROUTER_MUTUAL_TLS_HEADER_FILTER is
	// false, default true; fe_sni and fe_no_sni with ROUTER_MUTUAL_TLS_AUTH:
	// `http-request set-header X-SSL...` from ssl_fc and the ssl_c_*
	// fetches) and pkg/router/template/router.go (getHeadersList: the
	// route's own action)
	DescribeTable("forwards the client certificate to the backend in the upstream headers and a route's dynamic value, never the X-SSL* headers a client forges",
		func(ctx SpecContext, conn framework.Connection, overTLS bool) {
			c.required(ctx)
			cert := c.jig.Leaves["valid"].Cert
			der := base64.StdEncoding.EncodeToString(cert.Raw)
			sha := sha1.Sum(cert.Raw)
			req := c.jig.IC.HTTP(c.plainHost, "/")
			if overTLS {
				req = c.jig.RequestOver(conn, "valid")
			}
			req = framework.WithHeader(req, "X-Not-Ssl", "kept")
			for _, h := range xsslHeaders {
				req = framework.WithHeader(req, h, "forged")
			}
			// Over plain HTTP: none of the twelve; the plain route has no
			// action of its own.
			want := framework.HeaderExpectations{"X-Not-Ssl": {"kept"}, "X-Client-Cert": nil}
			for _, h := range xsslHeaders {
				want[h] = nil
			}
			if overTLS {
				for h, v := range map[string]string{
					"X-SSL":                  "1",
					"X-SSL-Client-Verify":    "0",
					"X-SSL-Client-DN":        "/C=US/O=Example/OU=Eng/CN=valid",
					"X-SSL-Client-CN":        "valid",
					"X-SSL-Issuer":           "/O=Example/CN=Client Intermediate CA",
					"X-SSL-Client-Serial":    strings.ToUpper(hex.EncodeToString(cert.SerialNumber.Bytes())),
					"X-SSL-Client-Version":   "3",
					"X-SSL-Client-SHA1":      strings.ToUpper(hex.EncodeToString(sha[:])),
					"X-SSL-Client-NotBefore": cert.NotBefore.UTC().Format("060102150405Z"),
					"X-SSL-Client-NotAfter":  cert.NotAfter.UTC().Format("060102150405Z"),
					"X-SSL-Client-DER":       der,
					// The route's own action with %{+Q}[ssl_c_der,base64].
					"X-Client-Cert": der,
				} {
					want[h] = []string{v}
				}
			}
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				c.jig.Echo.Served(g, resp)
				want.Check(g, http.Header(resp.Echo.Headers), "the backend")
			})
		},
		framework.BothConnections("over TLS", "client-tls/certificate-headers-forwarded", true),
		// One entry: plain HTTP has no connection kind.
		Entry("over plain HTTP (public): none", framework.ID("client-tls/xssl-forged-over-http"), framework.Connection{}, false),
	)

	// The container's IngressController sets icDERHeader to
	// %{+Q}[ssl_c_der,base64] (BeforeAll): an IngressController action
	// runs in the TLS frontends, so each connection kind is its own
	// case; the client's own value of the header is replaced.
	//
	// Document: the HTTP header actions enhancement, sections "User
	// Stories" (1, Example 2: an IngressController request header
	// X-SSL-Client-Cert: %{+Q}[ssl_c_der,base64] for all applications),
	// "Goals" (7) and "Should this enhancement allow setting dynamic
	// header values?"
	// Upstream: cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (headerValues:
	// ROUTER_HTTP_REQUEST_HEADERS) and openshift/router
	// images/router/haproxy/conf/haproxy-config.template (frontends fe_sni
	// and fe_no_sni: .HTTPRequestHeaders, after the X-SSL* sets)
	DescribeTable("an IngressController action with the client certificate reaches the backend",
		func(ctx SpecContext, conn framework.Connection) {
			c.required(ctx)
			der := base64.StdEncoding.EncodeToString(c.jig.Leaves["valid"].Cert.Raw)
			req := framework.WithHeader(c.jig.RequestOver(conn, "valid"), icDERHeader, "spoofed")
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				c.jig.Echo.Served(g, resp)
				framework.HeaderExpectations{icDERHeader: {der}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
			})
		},
		framework.BothConnections("the client's own value replaced", "client-tls/ingresscontroller-der-header"),
	)

}
