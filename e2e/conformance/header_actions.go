package conformance

import (
	"encoding/base64"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
)

// xsslHeaders are the request headers upstream reserves for the client
// certificate (haproxy-config.template).
var xsslHeaders = []string{
	"X-SSL", "X-SSL-Client-CN", "X-SSL-Client-DER", "X-SSL-Client-DN", "X-SSL-Client-NotAfter", "X-SSL-Client-NotBefore",
	"X-SSL-Client-SHA1", "X-SSL-Client-Serial", "X-SSL-Client-Subject", "X-SSL-Client-Verify", "X-SSL-Client-Version", "X-SSL-Issuer",
}

// routeWithHeaders deploys an echo backend and a route of the termination
// (plain, "": to the backend's HTTP port, reached over plain HTTP; edge:
// to its HTTP port; reencrypt: to its HTTPS port, verified with its CA as
// destinationCACertificate) with the header actions; it returns the
// request to send (Host in mixed case: the router lowercases it before any
// action).
func routeWithHeaders(ctx SpecContext, f *framework.Framework, ic *framework.IngressController, prefix string, termination routev1.TLSTerminationType, actions routev1.RouteHTTPHeaderActions) (httpclient.Request, *framework.Echo) {
	GinkgoHelper()
	ns := f.SpecNamespaceWithLabels(ctx, prefix, ic.NamespaceLabels)
	backend := f.DeployEchoFor(ctx, ns, termination)
	return headersRouteTo(ctx, f, ic, backend, "headers", termination, actions), backend
}

// headersRouteTo is routeWithHeaders' route, named name, to a backend
// already deployed; it returns the request to send.
func headersRouteTo(ctx SpecContext, f *framework.Framework, ic *framework.IngressController, backend *framework.Echo, name string, termination routev1.TLSTerminationType, actions routev1.RouteHTTPHeaderActions) httpclient.Request {
	GinkgoHelper()
	route := f.TerminatedRouteTo(backend, name, termination, "")
	route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: actions}
	f.CreateRoute(ctx, route)
	req := ic.HTTP(route.Spec.Host, "/")
	if termination != "" {
		req = ic.HTTPS(route.Spec.Host, "/")
		req.SNI = route.Spec.Host
	}
	req.Host = mixedCase(route.Spec.Host)
	return req
}

// mixedCase is host with its first letter upper-case: a Host the router
// must lowercase before anything reads it.
func mixedCase(host string) string { return strings.ToUpper(host[:1]) + host[1:] }

// frontendPath is one of upstream's HTTP frontends as a client reaches
// it: public (plain HTTP), fe_sni (TLS with SNI) or fe_no_sni (TLS
// without SNI; the default certificate, the route by the Host header).
// Each has its own lines in upstream's template, so a spec of what a
// frontend does is a table with an entry per path.
type frontendPath struct {
	name string
	tls  bool
	conn framework.Connection
}

var (
	overPublic  = frontendPath{name: "public (plain HTTP)"}
	overFeSNI   = frontendPath{name: "fe_sni (TLS with SNI)", tls: true, conn: framework.WithSNI}
	overFeNoSNI = frontendPath{name: "fe_no_sni (TLS without SNI)", tls: true, conn: framework.WithoutSNI}
	// everyFrontend are the three paths.
	everyFrontend = []frontendPath{overPublic, overFeSNI, overFeNoSNI}
)

// request is a request for host through ic over the path, Host in mixed
// case.
func (p frontendPath) request(ic *framework.IngressController, host string) httpclient.Request {
	req := ic.HTTP(host, "/")
	if p.tls {
		req = ic.HTTPS(host, "/")
		req.SNI = host // none without SNI (Over)
		req = p.conn.Over(req)
	}
	req.Host = mixedCase(host)
	return req
}

// routeOver gives a spec a namespace ic serves, an echo backend in it and
// a route to it named name of the path's termination, and returns the
// request for the route over the path and the backend.
func (p frontendPath) routeOver(ctx SpecContext, f *framework.Framework, ic *framework.IngressController, prefix, name string) (httpclient.Request, *framework.Echo) {
	GinkgoHelper()
	ns := f.SpecNamespaceWithLabels(ctx, prefix, ic.NamespaceLabels)
	backend := f.DeployEcho(ctx, ns)
	route := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, name, p.termination(), ""))
	return p.request(ic, route.Spec.Host), backend
}

// termination is what a route reached over the path is: plain over
// public, edge over the TLS frontends.
func (p frontendPath) termination() routev1.TLSTerminationType {
	if p.tls {
		return routev1.TLSTerminationEdge
	}
	return ""
}

// servedOver asserts the echo answered on the listener the termination
// reaches: plain HTTP behind an edge route, the backend's own TLS behind a
// reencrypt route.
func servedOver(g Gomega, backend *framework.Echo, resp *httpclient.Response, termination routev1.TLSTerminationType) {
	backend.Served(g, resp)
	want := "http"
	if termination == routev1.TLSTerminationReencrypt {
		want = "https"
	}
	g.Expect(resp.Echo.Listener).To(Equal(want), "the listener the %s route reached", termination)
}

// The HTTP header actions enhancement (set-delete-http-headers), sections
// "Goals", "API Extensions" and "Risks and Mitigations" (the headers that
// may not be changed): header actions of the Route and of the
// IngressController.
func describeHeaderActions(f *framework.Framework) {
	framework.DescribeFeature(contract.FeatureHeaderActions, func() {
		// Document: the HTTP header actions enhancement, sections "Goals"
		// (3, 4, 6, 7: a route's request and response actions, dynamic
		// values with req.hdr/res.hdr and lower/base64), "Should this
		// enhancement allow setting dynamic header values?" and
		// "Implementation Details/Notes/Constraints" (B: the plain, edge
		// and reencrypt backends)
		// Upstream: openshift/router pkg/router/template/router.go
		// (getHeadersList, SanitizeHeaderValue: every value single-quoted)
		// and images/router/haproxy/conf/haproxy-config.template (the route
		// backend be_edge_http or be_secure: `http-request`/`http-response`
		// set-header and del-header from $cfg.HTTPRequestHeaders and
		// $cfg.HTTPResponseHeaders; every frontend's `http-request
		// set-header Host %[req.hdr(Host),lower]`)
		DescribeTable("applies a route's request and response actions, with dynamic and literal values",
			func(ctx SpecContext, termination routev1.TLSTerminationType) {
				req, backend := routeWithHeaders(ctx, f, f.DefaultIngressController(), "headers-route", termination, routev1.RouteHTTPHeaderActions{
					Request: []routev1.RouteHTTPHeader{
						framework.RouteSetHeader("X-Route-Set", "route"),
						framework.RouteSetHeader("X-Literal", `it's "quoted" \ back; semi`),
						framework.RouteSetHeader("X-Host-Lower", "%[req.hdr(host),lower]"),
						framework.RouteSetHeader("X-Host-B64", "%[req.hdr(host),base64]"),
						// Host arrives lower-cased already; X-Mixed shows lower.
						framework.RouteSetHeader("X-Mixed-Lower", "%[req.hdr(X-Mixed),lower]"),
						framework.RouteDeleteHeader("X-Client-Secret"),
					},
					Response: []routev1.RouteHTTPHeader{
						framework.RouteSetHeader("X-Resp-Set", "route"),
						framework.RouteDeleteHeader("X-Backend-Leak"),
						framework.RouteSetHeader("X-Value-Lower", "%[res.hdr(X-Value),lower]"),
					},
				})
				req = framework.WithHeader(req, "X-Client-Secret", "s3cret")
				req = framework.WithHeader(req, "X-Mixed", "MiXeD")
				req = framework.WithHeader(req, echo.SetResponseHeader, "X-Backend-Leak: internal")
				req = framework.WithHeader(req, echo.SetResponseHeader, "X-Value: MiXeD")
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					servedOver(g, backend, resp, termination)
					framework.HeaderExpectations{
						"X-Route-Set":  {"route"},
						"X-Literal":    {`it's "quoted" \ back; semi`},
						"X-Host-Lower": {strings.ToLower(req.Host)},
						// Every frontend lowercases Host before any action
						// (haproxy-config.template: set-header Host %[req.hdr(Host),lower]).
						"X-Host-B64":      {base64.StdEncoding.EncodeToString([]byte(strings.ToLower(req.Host)))},
						"X-Mixed-Lower":   {"mixed"},
						"X-Client-Secret": nil,
					}.Check(g, http.Header(resp.Echo.Headers), "the backend")
					framework.HeaderExpectations{
						"X-Resp-Set":     {"route"},
						"X-Backend-Leak": nil,
						"X-Value-Lower":  {"mixed"},
					}.Check(g, resp.Header, "the client")
				})
			},
			Entry("edge", framework.ID("header-actions/route-request-response"), routev1.TLSTerminationEdge),
			// Upstream's reencrypt backend (be_secure) is its own backend
			// section, with the same header action stanzas.
			Entry("reencrypt", framework.ID("header-actions/route-request-response-reencrypt"), routev1.TLSTerminationReencrypt),
		)

		// cluster-ingress-operator test/e2e/set_delete_test.go,
		// TestSetRouteResponseHeaders: route actions apply on a plain HTTP route
		// too. Values that look like HAProxy syntax arrive literally: the
		// router strong-quotes them.
		//
		// Document: the HTTP header actions enhancement, sections "Can we use
		// conditional values for headers?" and "Implementation
		// Details/Notes/Constraints" (values escaped and single-quoted)
		// Upstream: openshift/router pkg/router/template/router.go
		// (SanitizeHeaderValue) and images/router/haproxy/conf/haproxy-config.template
		// (the plain/edge/reencrypt route backend's header actions, for a plain
		// route too)
		It("applies a plain HTTP route's actions, with values that look like HAProxy syntax taken literally", framework.ID("header-actions/plain-http-route-literal"), func(ctx SpecContext) {
			ns := f.SpecNamespace(ctx, "headers-http")
			backend := f.DeployEcho(ctx, ns)
			route := f.RouteTo(backend, "plain", framework.EchoHTTPPort)
			route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{
				Request: []routev1.RouteHTTPHeader{
					framework.RouteSetHeader("X-Condition", "foo if bar"),
					framework.RouteSetHeader("X-Backslash", `ends\`),
				},
				Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-Frame-Options", "DENY")},
			}}
			f.CreateRoute(ctx, route)
			f.EventuallyResponds(ctx, f.HTTP(route.Spec.Host, "/"), func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				framework.HeaderExpectations{"X-Condition": {"foo if bar"}, "X-Backslash": {`ends\`}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
				framework.HeaderExpectations{"X-Frame-Options": {"DENY"}}.Check(g, resp.Header, "the client")
			})
		})

		// Names are unique within a list (the API refuses a second action on
		// one header: header-actions/refuse-duplicate-header), so the order
		// shows where a later action reads what an earlier one changed: a
		// copy (a dynamic value) of a header the same list deletes. A copy
		// of a header already deleted is set, empty.
		//
		// Document: the HTTP header actions enhancement, sections "API
		// Extensions" (RouteHTTPHeaderActions: the actions "will be
		// performed on the headers in sequence as defined in the list") and
		// "Implementation Details/Notes/Constraints" (B: "The sequence of
		// action operations will be maintained according to the router
		// RouteSpec")
		// Upstream: openshift/router pkg/router/template/router.go
		// (createServiceAliasConfig and getHeadersList: the route's actions
		// in list order) and images/router/haproxy/conf/haproxy-config.template
		// (the route backend's set-header and del-header lines, in the order
		// of $cfg.HTTPRequestHeaders and $cfg.HTTPResponseHeaders)
		DescribeTable("applies a route's actions in list order",
			func(ctx SpecContext, response, copyFirst bool, wantCopy string) {
				fetch := "%[req.hdr(X-Orig)]"
				if response {
					fetch = "%[res.hdr(X-Orig)]"
				}
				list := []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-Copy", fetch), framework.RouteDeleteHeader("X-Orig")}
				if !copyFirst {
					list[0], list[1] = list[1], list[0]
				}
				actions := routev1.RouteHTTPHeaderActions{Request: list}
				if response {
					actions = routev1.RouteHTTPHeaderActions{Response: list}
				}
				req, backend := routeWithHeaders(ctx, f, f.DefaultIngressController(), "headers-order", routev1.TLSTerminationEdge, actions)
				if response {
					req = framework.WithHeader(req, echo.SetResponseHeader, "X-Orig: from-backend")
				} else {
					req = framework.WithHeader(req, "X-Orig", "from-client")
				}
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					seen, who := http.Header(resp.Echo.Headers), "the backend"
					if response {
						seen, who = resp.Header, "the client"
					}
					framework.HeaderExpectations{"X-Copy": {wantCopy}, "X-Orig": nil}.Check(g, seen, who)
				})
			},
			Entry("request: the copy, then the delete", framework.ID("header-actions/list-order-request-copy-then-delete"), false, true, "from-client"),
			Entry("request: the delete, then the copy (empty)", framework.ID("header-actions/list-order-request-delete-then-copy"), false, false, ""),
			Entry("response: the copy, then the delete", framework.ID("header-actions/list-order-response-copy-then-delete"), true, true, "from-backend"),
			Entry("response: the delete, then the copy (empty)", framework.ID("header-actions/list-order-response-delete-then-copy"), true, false, ""),
		)

		// The route holds one value of the maximum length; a second route
		// two, which no message fits: upstream's tune.bufsize is 32768
		// (tune.maxrewrite 8192 of it kept for rewrites), and HAProxy
		// answers a rewrite that does not fit with its own 500 (its
		// strict-mode, on by default), not the document's 400 (that is
		// HAProxy's answer to a client whose own headers do not fit).
		// A request's failure stops it before the backend; a response's
		// replaces the backend's answer. Checked on upstream's image.
		//
		// Document: the HTTP header actions enhancement, sections "API
		// Extensions" (RouteSetHTTPHeader: MaxLength=16384; "the total size
		// of all added headers *after* interpolating dynamic values must not
		// exceed" headerBufferMaxRewriteBytes), "Why did we select max value
		// size of 16384 for header value?" and "Failure Modes"
		// Upstream: openshift/library-go pkg/route/validation/validation.go
		// (maxHeaderValueSize 16384), openshift/router
		// images/router/haproxy/conf/haproxy-config.template (global:
		// `tune.maxrewrite` ROUTER_MAX_REWRITE_SIZE 8192, `tune.bufsize`
		// ROUTER_BUF_SIZE 32768; no errorfile 500) and cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go (ROUTER_BUF_SIZE and
		// ROUTER_MAX_REWRITE_SIZE only from spec.tuningOptions)
		DescribeTable("takes a value of the API's maximum length whole; two overflow the buffer and HAProxy answers 500",
			func(ctx SpecContext, response bool) {
				big := strings.Repeat("v", 16384)
				actions := func(names ...string) routev1.RouteHTTPHeaderActions {
					var list []routev1.RouteHTTPHeader
					for _, n := range names {
						list = append(list, framework.RouteSetHeader(n, big))
					}
					if response {
						return routev1.RouteHTTPHeaderActions{Response: list}
					}
					return routev1.RouteHTTPHeaderActions{Request: list}
				}
				By("positive control: one value of 16384 characters is admitted and arrives whole")
				req, backend := routeWithHeaders(ctx, f, f.DefaultIngressController(), "headers-max", routev1.TLSTerminationEdge, actions("X-Big"))
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					seen, who := http.Header(resp.Echo.Headers), "the backend"
					if response {
						seen, who = resp.Header, "the client"
					}
					framework.HeaderExpectations{"X-Big": {big}}.Check(g, seen, who)
				})

				By("two values of 16384 characters do not fit the buffer: 500")
				overflow := f.TerminatedRouteTo(backend, "overflow", routev1.TLSTerminationEdge, "")
				overflow.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: actions("X-Big-1", "X-Big-2")}
				f.CreateRoute(ctx, overflow)
				f.EventuallyResponds(ctx, f.HTTPS(overflow.Spec.Host, "/"), func(g Gomega, resp *httpclient.Response) {
					g.Expect(resp.Status).To(Equal(http.StatusInternalServerError), "body: %s", resp.Body)
					g.Expect(resp.Echo).To(BeNil(), "the client got the backend's answer")
					g.Expect(resp.Header.Values("X-Big-1")).To(BeEmpty(), "the client saw X-Big-1")
				})
			},
			Entry("in a request", framework.ID("header-actions/max-length-request-value"), false),
			Entry("in a response", framework.ID("header-actions/max-length-response-value"), true),
		)

		// Upstream deletes all twelve X-SSL* request headers in public, fe_sni
		// and fe_no_sni whether or not mutual TLS is on, so no client can
		// claim a certificate identity.
		//
		// Document: the HTTP header actions enhancement, section "X-SSL" (the
		// X-SSL* headers carry the client certificate to the backend; the
		// document does not say the router strips what a client sends, the
		// template does)
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontends public, fe_sni and fe_no_sni: `http-request del-header
		// X-SSL...` for the twelve headers unless ROUTER_MUTUAL_TLS_HEADER_FILTER
		// is false, default true)
		DescribeTable("strips client-sent X-SSL* headers without mutual TLS",
			func(ctx SpecContext, path frontendPath) {
				ns := f.SpecNamespace(ctx, "headers-xssl")
				backend := f.DeployEcho(ctx, ns)
				route := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "edge", routev1.TLSTerminationEdge, routev1.InsecureEdgeTerminationPolicyAllow))
				req := path.request(f.DefaultIngressController(), route.Spec.Host)
				spoofed := framework.HeaderExpectations{"X-Not-Ssl": {"kept"}}
				req = framework.WithHeader(req, "X-Not-Ssl", "kept")
				for _, h := range xsslHeaders {
					req = framework.WithHeader(req, h, "spoofed")
					spoofed[h] = nil
				}
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					spoofed.Check(g, http.Header(resp.Echo.Headers), "the backend")
				})
			},
			Entry("over plain HTTP", framework.ID("header-actions/xssl-stripped-over-http"), overPublic),
			Entry("over HTTPS", framework.ID("header-actions/xssl-stripped-over-https"), overFeSNI),
			// CVE-2026-46579: fe_no_sni strips them too while mutual TLS is
			// off.
			Entry("over HTTPS without SNI", framework.ID("header-actions/xssl-stripped-no-sni"), overFeNoSNI),
		)

		describeRouteValues(f)
		describeRouteRefusals(f)
		describeSessionCookie(f)

		describeFrontendFilters(f)
		describeForwardedHeaders(f)
		describeHeaderLimits(f)

		// Each spec changes an IngressController of its own (a shard), as
		// cluster-ingress-operator's e2e tests do.
		Describe("of the IngressController", func() {
			describeIngressControllerListOrder(f)
			describeIngressControllerActions(f)
			describeIngressControllerValues(f)
			describeMutualTLSValues(f)
			describeIngressControllerTuning(f)
			describeIngressControllerUniqueID(f)
			describeAccessLogCaptures(f)
			describeHeaderNameCase(f)
		})
	})
}
