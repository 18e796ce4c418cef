package conformance

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
	"github.com/router-conformance/suite/pki"
)

// literalValue holds what a value may hold that HAProxy's configuration
// syntax would read otherwise: an apostrophe, double quotes, a backslash
// and a semicolon.
const literalValue = `it's "quoted" \ back; semi`

// describeRouteValues: what a route's values become on the wire, from
// the default IngressController.
func describeRouteValues(f *framework.Framework) {
	// One route carries every case: a value the header's meaning forbids
	// (sent all the same), a dynamic fetch followed by an `if` condition
	// (literal text, not a condition: the same answer with a User-Agent
	// that would match it and without), values that look like HAProxy
	// syntax or hold quotes and a trailing backslash, a literal percent
	// sign written %%, a Set over a header the backend sends twice, and a
	// header name with an apostrophe (were the name not quoted, HAProxy
	// would refuse the configuration and the route would not be served).
	//
	// Document: the HTTP header actions enhancement, sections "Non-Goals"
	// (a Set value is not checked against the header's meaning), "Can we
	// use conditional values for headers?", "API Extensions" (a literal
	// percent sign is %%), "Will this enhancement cover appending
	// headers?" (Set replaces every occurrence) and "Implementation
	// Details/Notes/Constraints" (values escaped and single-quoted)
	// Upstream: openshift/router pkg/router/template/router.go
	// (getHeadersList: name and value each through SanitizeHeaderValue,
	// commit e68f1714d for the name) and
	// images/router/haproxy/conf/haproxy-config.template (the route
	// backend's `http-request`/`http-response set-header '<name>'
	// '<value>'`: HAProxy's set-header removes every occurrence before
	// adding one, and reads the value as a log-format string, %% a
	// percent sign); openshift/router pkg/router/router_test.go
	// (TestConfigTemplate: "Route HTTP response header with 'if'" and
	// "with apostrophe, double-quotes, and backslash")
	DescribeTable("sends a route's values as written: no meaning checked, conditions and quotes literal, %% a percent sign, one value where the backend sent two, a name with an apostrophe",
		func(ctx SpecContext, termination routev1.TLSTerminationType) {
			cond := "%[res.hdr(X-Server)] if { req.hdr(user-agent) -m sub evil }"
			req, backend := routeWithHeaders(ctx, f, f.DefaultIngressController(), "headers-values", termination, routev1.RouteHTTPHeaderActions{
				Request: []routev1.RouteHTTPHeader{
					framework.RouteSetHeader("X-Percent", "100%%"),
					framework.RouteSetHeader("X-It's", "apostrophe in the name"),
				},
				Response: []routev1.RouteHTTPHeader{
					framework.RouteSetHeader("X-Frame-Options", "ALLOW-EVERYTHING"),
					framework.RouteSetHeader("X-Cond", cond),
					framework.RouteSetHeader("X-Foo-If", "foo if bar"),
					framework.RouteSetHeader("X-Quoted", `it's "quoted" \`),
					framework.RouteSetHeader("X-Dup", "route"),
				},
			})
			req = framework.WithHeader(req, echo.SetResponseHeader, "X-Server: Apache")
			req = framework.WithHeader(req, echo.SetResponseHeader, "X-Dup: one")
			req = framework.WithHeader(req, echo.SetResponseHeader, "X-Dup: two")
			for _, agent := range []string{"conformance", "evil-bot"} {
				By("User-Agent " + agent)
				f.EventuallyResponds(ctx, framework.WithHeader(req, "User-Agent", agent), func(g Gomega, resp *httpclient.Response) {
					servedOver(g, backend, resp, termination)
					framework.HeaderExpectations{
						"X-Percent": {"100%"},
						"X-It's":    {"apostrophe in the name"},
					}.Check(g, http.Header(resp.Echo.Headers), "the backend")
					framework.HeaderExpectations{
						"X-Frame-Options": {"ALLOW-EVERYTHING"},
						"X-Cond":          {"Apache if { req.hdr(user-agent) -m sub evil }"},
						"X-Foo-If":        {"foo if bar"},
						"X-Quoted":        {`it's "quoted" \`},
						"X-Dup":           {"route"},
						// The positive control: the backend's other header
						// reaches the client.
						"X-Server": {"Apache"},
					}.Check(g, resp.Header, "the client")
				})
			}
		},
		Entry("edge", framework.ID("header-actions/route-values-as-written"), routev1.TLSTerminationEdge),
		Entry("plain HTTP", framework.ID("header-actions/route-values-as-written-over-http"), routev1.TLSTerminationType("")),
	)
}

// describeIngressControllerValues: an IngressController's values on the
// wire (a shard each).
func describeIngressControllerValues(f *framework.Framework) {
	// The document's IngressController example, whole (its
	// X-SSL-Client-Cert from ssl_c_der is admitted here; its value under
	// mutual TLS is header-actions/ingresscontroller-client-der-migration's),
	// with values holding commas, colons, semicolons, equals signs,
	// slashes, spaces, quotes and a backslash, and the backend's own
	// X-Frame-Options, which the IngressController's Set overwrites.
	//
	// Document: the HTTP header actions enhancement, sections "Workflow
	// Description" (the IngressController example), "Implementation
	// Details/Notes/Constraints" (values with commas, colons, semicolons
	// and the like, escaped and quoted) and "Proposed Alternative Solution
	// for overriding the HTTP response headers defined in the
	// IngressController by the Route" (an IngressController response Set
	// enforces its value)
	// Upstream: cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (headerValues: each
	// name and value URL-encoded into ROUTER_HTTP_REQUEST_HEADERS and
	// ROUTER_HTTP_RESPONSE_HEADERS), openshift/router
	// pkg/cmd/infra/router/template.go (parsing them back) and
	// images/router/haproxy/conf/haproxy-config.template (frontends public,
	// fe_sni and fe_no_sni: .HTTPRequestHeaders and .HTTPResponseHeaders, quoted;
	// the response actions after the route backend's); openshift/router
	// pkg/router/router_test.go (TestConfigTemplate: "Quotes in global HTTP
	// response header")
	Describe("apply the document's example and values with punctuation and quotes as written, and overwrite the backend's value", f.SharedIngressControllerDecorator(), func() {
		own := f.SharedIngressController(func(ic *operatorv1.IngressController) {
			ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
				Response: []operatorv1.IngressControllerHTTPHeader{
					framework.IngressControllerSetHeader("X-Frame-Options", "DENY"),
					framework.IngressControllerSetHeader("X-Cache-Info", "not cacheable; metadata too large"),
					framework.IngressControllerDeleteHeader("X-XSS-Protection"),
					framework.IngressControllerSetHeader("X-Source", "%[res.hdr(X-Value),lower]"),
					framework.IngressControllerSetHeader("X-Mode", "1;mode=block, a=b/c: d"),
					framework.IngressControllerSetHeader("X-Literal", literalValue),
				},
				Request: []operatorv1.IngressControllerHTTPHeader{
					framework.IngressControllerSetHeader("Content-Location", "/my-first-blog-post"),
					framework.IngressControllerSetHeader("X-SSL-Client-Cert", "%{+Q}[ssl_c_der,base64]"),
					framework.IngressControllerDeleteHeader("Content-Language"),
					framework.IngressControllerSetHeader("X-Target", "%[req.hdr(host),lower]"),
					// Host is lower-cased by every frontend before the actions
					// run; X-Mixed is not, so lower shows here.
					framework.IngressControllerSetHeader("X-Target-Mixed", "%[req.hdr(X-Mixed),lower]"),
					framework.IngressControllerSetHeader("Accept", "text/plain, text/html"),
					framework.IngressControllerSetHeader("X-Colon", "a:b:c"),
					framework.IngressControllerSetHeader("X-Literal", literalValue),
				},
			}}
		})
		DescribeTable("in the frontend a request reaches",
			func(ctx SpecContext, path frontendPath) {
				req, backend := path.routeOver(ctx, f, own, "headers-ic-values", "values")
				req = framework.WithHeader(req, "Content-Language", "en")
				req = framework.WithHeader(req, "X-Client-Kept", "from-client")
				req = framework.WithHeader(req, "X-Mixed", "MiXeD")
				req = framework.WithHeader(req, echo.SetResponseHeader, "X-XSS-Protection: 1")
				req = framework.WithHeader(req, echo.SetResponseHeader, "X-Value: MiXeD")
				req = framework.WithHeader(req, echo.SetResponseHeader, "X-Frame-Options: SAMEORIGIN")
				req = framework.WithHeader(req, echo.SetResponseHeader, "X-Backend-Kept: backend")
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					framework.HeaderExpectations{
						"Content-Location": {"/my-first-blog-post"},
						"Content-Language": nil,
						"X-Target":         {strings.ToLower(req.Host)},
						"X-Target-Mixed":   {"mixed"},
						"Accept":           {"text/plain, text/html"},
						"X-Colon":          {"a:b:c"},
						"X-Literal":        {literalValue},
						// The positive control of the Delete.
						"X-Client-Kept": {"from-client"},
					}.Check(g, http.Header(resp.Echo.Headers), "the backend")
					framework.HeaderExpectations{
						"X-Frame-Options":  {"DENY"},
						"X-Cache-Info":     {"not cacheable; metadata too large"},
						"X-Xss-Protection": nil,
						"X-Source":         {"mixed"},
						"X-Mode":           {"1;mode=block, a=b/c: d"},
						"X-Literal":        {literalValue},
						// The positive control of the Delete.
						"X-Backend-Kept": {"backend"},
					}.Check(g, resp.Header, "the client")
				})
			},
			Entry("plain route over plain HTTP (public)", framework.ID("header-actions/ingresscontroller-document-example-over-http"), overPublic),
			Entry("edge route over TLS with SNI (fe_sni)", framework.ID("header-actions/ingresscontroller-document-example"), overFeSNI),
			Entry("edge route over TLS without SNI (fe_no_sni)", framework.ID("header-actions/ingresscontroller-document-example-no-sni"), overFeNoSNI),
		)
	})
}

// describeMutualTLSValues: a route's actions on an IngressController
// requiring client certificates (a shard each).
func describeMutualTLSValues(f *framework.Framework) {
	// The route's request actions run in its backend, after fe_sni or
	// fe_no_sni set the X-SSL* headers from the verified certificate: its
	// Delete and Set replace the router's own, the router's others
	// arrive. Its response values take the base64 converter and the
	// client certificate (ssl_c_der), the other dynamic forms the API
	// allows in a response.
	//
	// Document: the HTTP header actions enhancement, sections "X-SSL" (a
	// Route action may set or delete X-SSL* headers) and "Goals" (the
	// dynamic values of a response: ssl_c_der and the base64 converter)
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (fe_sni and fe_no_sni: with ROUTER_MUTUAL_TLS_AUTH, `http-request
	// set-header X-SSL-Client-DN %{+Q}[ssl_c_s_dn]` and the other X-SSL*
	// lines; the route backend be_edge_http: $cfg.HTTPRequestHeaders and
	// $cfg.HTTPResponseHeaders, later) and pkg/router/template/router.go
	// (getHeadersList)
	DescribeTable("a route replaces the router's X-SSL* headers and sends the client certificate and a base64 value in its response",
		func(ctx SpecContext, conn framework.Connection) {
			jig := framework.NewClientTLSJig(ctx, f, "headers-mtls-route")
			ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "route X-SSL CA " + jig.Namespace}})
			Expect(err).NotTo(HaveOccurred())
			jig.Issue("valid", ca, pki.Window{})
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, jig.ClientCAMap(ctx, "client-ca-"+jig.Namespace, string(ca.CertPEM)))
			jig.Echo = f.DeployEcho(ctx, jig.Namespace)
			route := f.TerminatedRouteTo(jig.Echo, "mtls", routev1.TLSTerminationEdge, "")
			route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{
				Request: []routev1.RouteHTTPHeader{
					framework.RouteDeleteHeader("X-SSL-Client-DN"),
					framework.RouteSetHeader("X-SSL-Client-CN", "override"),
				},
				Response: []routev1.RouteHTTPHeader{
					framework.RouteSetHeader("X-B64", "%[res.hdr(X-Value),base64]"),
					framework.RouteSetHeader("X-Cert", "%{+Q}[ssl_c_der,base64]"),
				},
			}}
			jig.Host = f.CreateRoute(ctx, route).Spec.Host
			der := base64.StdEncoding.EncodeToString(jig.Leaves["valid"].Cert.Raw)
			req := framework.WithHeader(jig.RequestOver(conn, "valid"), echo.SetResponseHeader, "X-Value: MiXeD")
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				jig.Echo.Served(g, resp)
				framework.HeaderExpectations{
					"X-Ssl-Client-Dn": nil,
					"X-Ssl-Client-Cn": {"override"},
					// The positive control: the router's other X-SSL*
					// headers arrive.
					"X-Ssl-Client-Verify": {"0"},
					"X-Ssl-Client-Der":    {der},
				}.Check(g, http.Header(resp.Echo.Headers), "the backend")
				framework.HeaderExpectations{
					"X-B64":  {base64.StdEncoding.EncodeToString([]byte("MiXeD"))},
					"X-Cert": {der},
				}.Check(g, resp.Header, "the client")
			})
		},
		Entry("with SNI (fe_sni)", framework.ID("header-actions/route-xssl-override-mtls"), f.OwnIngressControllerDecorator(), framework.WithSNI),
		Entry("without SNI (fe_no_sni)", framework.ID("header-actions/route-xssl-override-mtls-no-sni"), f.OwnIngressControllerDecorator(), framework.WithoutSNI),
	)
}

// describeIngressControllerTuning: the IngressController's buffer for the
// added headers (a shard).
func describeIngressControllerTuning(f *framework.Framework) {
	// Two values of the API's maximum length in a request, and two in a
	// response, do not fit the router's default buffer (HAProxy's 500, as
	// header-actions/max-length-request-value finds); raised by the
	// IngressController's tuning options, they arrive whole.
	//
	// A route each way, not one route with both: the echo backend's body
	// repeats the request's headers, so with both the response holds
	// 32 KiB of body beside the 32 KiB of headers added to it, more than
	// the raised tune.bufsize (65536) when the body arrives with the
	// headers. HAProxy then answers 500 now and then (35 of 100 answers,
	// measured on the in-cluster lab; every answer 200 with either
	// direction alone, or with both at 12000 characters): a matter of the
	// suite's body and of HAProxy's buffer, not of what the document
	// promises for the added headers.
	//
	// Document: the HTTP header actions enhancement, section "API
	// Extensions" ("the total size of all added headers *after*
	// interpolating dynamic values must not exceed the value of
	// spec.tuningOptions.headerBufferMaxRewriteBytes")
	// Upstream: cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (desiredRouterDeployment:
	// ROUTER_BUF_SIZE from headerBufferBytes, ROUTER_MAX_REWRITE_SIZE from
	// headerBufferMaxRewriteBytes, when set) and openshift/router
	// images/router/haproxy/conf/haproxy-config.template (global:
	// tune.bufsize and tune.maxrewrite from them)
	It("take larger additions once the IngressController's header buffer is raised", framework.ID("header-actions/ingresscontroller-header-buffer-raised"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
		own := f.OwnIngressController(ctx)
		big := strings.Repeat("v", 16384)
		two := []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-Big-1", big), framework.RouteSetHeader("X-Big-2", big)}
		toBackend, backend := routeWithHeaders(ctx, f, own, "headers-buffer", routev1.TLSTerminationEdge, routev1.RouteHTTPHeaderActions{Request: two})
		toClient := headersRouteTo(ctx, f, own, backend, "headers-response", routev1.TLSTerminationEdge, routev1.RouteHTTPHeaderActions{Response: two})
		want := framework.HeaderExpectations{"X-Big-1": {big}, "X-Big-2": {big}}

		for _, req := range []httpclient.Request{toBackend, toClient} {
			By("negative control: the default buffer cannot take them (HAProxy's 500): " + req.Host)
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				g.Expect(resp.Status).To(Equal(http.StatusInternalServerError), "body: %s", resp.Body)
				g.Expect(resp.Echo).To(BeNil(), "the client got the backend's answer")
			})
		}

		By("headerBufferBytes 65536 and headerBufferMaxRewriteBytes 40000")
		own.Update(ctx, func(ic *operatorv1.IngressController) {
			ic.Spec.TuningOptions.HeaderBufferBytes = 65536
			ic.Spec.TuningOptions.HeaderBufferMaxRewriteBytes = 40000
		})
		By("the request's additions arrive whole at the backend")
		f.EventuallyResponds(ctx, toBackend, func(g Gomega, resp *httpclient.Response) {
			backend.Served(g, resp)
			want.Check(g, http.Header(resp.Echo.Headers), "the backend")
		})
		By("the response's additions arrive whole at the client")
		f.EventuallyResponds(ctx, toClient, func(g Gomega, resp *httpclient.Response) {
			backend.Served(g, resp)
			want.Check(g, resp.Header, "the client")
		})
	})
	// The buffer holds the client's own request too: a request header
	// that does not fit bufsize less maxrewrite is refused before any
	// backend sees it, and one that fits is served whole. The refusal is
	// HAProxy's: 400 Bad request up to 3.1 (measured: 2.6 and 3.0; upstream's
	// release-4.20 image runs 2.8), 431 Request Header Fields Too Large
	// from 3.2 (upstream master's image), as upstream's own test accepts. Raised, the buffer takes what the
	// default refuses; lowered, it refuses what the default takes. Each
	// step has its control (the header that fits) beside its refusal.
	//
	// Document: none beyond hdr-121's tuning options (the buffer is the
	// IngressController's spec.tuningOptions, openshift/api operator/v1
	// types_ingresscontroller.go)
	// Upstream: cluster-ingress-operator test/e2e/operator_test.go
	// (TestHTTPHeaderBufferSize: a large request header refused by
	// default, served once raised, refused again once lowered) and
	// pkg/operator/controller/ingress/deployment.go (ROUTER_BUF_SIZE,
	// ROUTER_MAX_REWRITE_SIZE); openshift/router
	// images/router/haproxy/conf/haproxy-config.template (global:
	// tune.bufsize 32768 and tune.maxrewrite 8192 by default)
	It("takes a client's request header by the IngressController's buffer: refused past it (400 or 431), served within it, raised and lowered", framework.ID("header-actions/ingresscontroller-header-buffer-client-request"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
		own := f.OwnIngressController(ctx)
		req, backend := routeWithHeaders(ctx, f, own, "headers-client-buffer", "", routev1.RouteHTTPHeaderActions{})
		for _, step := range []headerBufferCase{
			{fits: 12000, tooLarge: 30000},                                  // the default room: 32768 - 8192
			{bytes: 65536, maxRewrite: 16384, fits: 30000, tooLarge: 60000}, // raised: 49152
			{bytes: 16384, maxRewrite: 4096, fits: 8000, tooLarge: 14000},   // lowered: 12288
		} {
			if step.bytes != 0 {
				By(fmt.Sprintf("headerBufferBytes %d and headerBufferMaxRewriteBytes %d", step.bytes, step.maxRewrite))
				own.Update(ctx, func(ic *operatorv1.IngressController) {
					ic.Spec.TuningOptions.HeaderBufferBytes = step.bytes
					ic.Spec.TuningOptions.HeaderBufferMaxRewriteBytes = step.maxRewrite
				})
			}
			fits := strings.Repeat("v", step.fits)
			By(fmt.Sprintf("a header of %d characters is served whole", step.fits))
			f.EventuallyResponds(ctx, framework.WithHeader(req, "X-Client-Big", fits), func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				framework.HeaderExpectations{"X-Client-Big": {fits}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
			})
			By(fmt.Sprintf("a header of %d characters is refused (400, or 431 from HAProxy 3.2), the backend never reached", step.tooLarge))
			f.EventuallyResponds(ctx, framework.WithHeader(req, "X-Client-Big", strings.Repeat("v", step.tooLarge)), func(g Gomega, resp *httpclient.Response) {
				g.Expect(resp.Status).To(BeElementOf(http.StatusBadRequest, http.StatusRequestHeaderFieldsTooLarge), "body: %s", resp.Body)
				g.Expect(resp.Echo).To(BeNil(), "the backend answered")
			})
		}
	})
}

// headerBufferCase is one step of the header buffer spec: the tuning it
// sets (zero: the defaults), a client header that fits the request's room
// (bufsize less maxrewrite) and one that does not.
type headerBufferCase struct {
	bytes, maxRewrite int32
	fits, tooLarge    int
}

// describeIngressControllerUniqueID: the request-ID header
// (spec.httpHeaders.uniqueId) beside an action on the same name (a shard
// each).
func describeIngressControllerUniqueID(f *framework.Framework) {
	// The document says the action's value wins. HAProxy adds the
	// unique-id-header after every http-request rule of the frontend and
	// the backend (its HTTP inner analyser), as a header of its own: the
	// action's Set replaces what the client sent, and the request ID
	// follows it. Upstream's image does so; the spec asserts that.
	//
	// Document: the HTTP header actions enhancement, section "API
	// Extensions" (actions "can override" spec.httpHeaders.uniqueId; the
	// API says the actions apply after it)
	// Upstream: cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (desiredRouterDeployment:
	// ROUTER_UNIQUE_ID_HEADER_NAME, ROUTER_UNIQUE_ID_FORMAT with the default
	// format) and openshift/router
	// images/router/haproxy/conf/haproxy-config.template (frontends public,
	// fe_sni and fe_no_sni: unique-id-format and unique-id-header, then
	// .HTTPRequestHeaders)
	Describe("the request-ID header is added after an IngressController's Set on the same name", f.SharedIngressControllerDecorator(), func() {
		own := f.SharedIngressController(func(ic *operatorv1.IngressController) {
			ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{
				UniqueId: operatorv1.IngressControllerHTTPUniqueIdHeaderPolicy{Name: "X-Unique-Id"},
				Actions: operatorv1.IngressControllerHTTPHeaderActions{
					Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Unique-Id", "fixed")},
				},
			}
		})
		DescribeTable("in the frontend a request reaches",
			func(ctx SpecContext, path frontendPath) {
				req, backend := path.routeOver(ctx, f, own, "headers-ic-unique-id", "unique-id")
				req = framework.WithHeader(req, "X-Unique-Id", "from-client")
				var last string
				requestID := func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					ids := http.Header(resp.Echo.Headers).Values("X-Unique-Id")
					g.Expect(ids).To(HaveLen(2), "X-Unique-Id at the backend: the action's, then the request ID")
					g.Expect(ids[0]).To(Equal("fixed"), "the action's value")
					// The positive control of uniqueId: the router's own ID.
					g.Expect(ids[1]).NotTo(BeElementOf("", "fixed", "from-client"), "the request ID")
					last = ids[1]
				}
				f.EventuallyResponds(ctx, req, requestID)
				first := last
				By("the request ID is the request's own: the next request gets another (up-049)")
				f.EventuallyResponds(ctx, req, requestID)
				Expect(last).NotTo(Equal(first), "two requests got the same request ID")
			},
			Entry("plain route over plain HTTP (public)", framework.ID("header-actions/ingresscontroller-unique-id-after-set-over-http"), overPublic),
			Entry("edge route over TLS with SNI (fe_sni)", framework.ID("header-actions/ingresscontroller-unique-id-after-set"), overFeSNI),
			Entry("edge route over TLS without SNI (fe_no_sni)", framework.ID("header-actions/ingresscontroller-unique-id-after-set-no-sni"), overFeNoSNI),
		)
	})
}
