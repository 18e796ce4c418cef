package conformance

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
	"github.com/router-conformance/suite/pki"
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
	ns := f.SpecNamespaceWithLabels(ctx, prefix, ic.NamespaceLabels)
	backend := f.DeployEcho(ctx, ns)
	route := f.TerminatedRouteTo(backend, "headers", termination, "")
	route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: actions}
	f.CreateRoute(ctx, route)
	req := ic.HTTP(route.Spec.Host, "/")
	if termination != "" {
		req = ic.HTTPS(route.Spec.Host, "/")
		req.SNI = route.Spec.Host
	}
	req.Host = mixedCase(route.Spec.Host)
	return req, backend
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
						framework.RouteDeleteHeader("X-Client-Secret"),
					},
					Response: []routev1.RouteHTTPHeader{
						framework.RouteSetHeader("X-Resp-Set", "route"),
						framework.RouteDeleteHeader("X-Backend-Leak"),
						framework.RouteSetHeader("X-Value-Lower", "%[res.hdr(X-Value),lower]"),
					},
				})
				req = framework.WithHeader(req, "X-Client-Secret", "s3cret")
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
			func(ctx SpecContext, https bool) {
				ns := f.SpecNamespace(ctx, "headers-xssl")
				backend := f.DeployEcho(ctx, ns)
				route := f.RouteTo(backend, "edge", framework.EchoHTTPPort)
				route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge, InsecureEdgeTerminationPolicy: routev1.InsecureEdgeTerminationPolicyAllow}
				f.CreateRoute(ctx, route)
				req := f.HTTP(route.Spec.Host, "/")
				if https {
					req = f.HTTPS(route.Spec.Host, "/")
				}
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
			Entry("over plain HTTP", framework.ID("header-actions/xssl-stripped-over-http"), false),
			Entry("over HTTPS", framework.ID("header-actions/xssl-stripped-over-https"), true),
		)

		// The refusal is matched against every upstream wording of its rule:
		// the Route CRD's CEL (kind, MicroShift) and library-go's route
		// validation (openshift-apiserver), contract/refusals.go.
		//
		// Document: the HTTP header actions enhancement, sections "API
		// Extensions" (the Route's MaxItems=20, unique names, the allowed
		// values, set required with Set, no actions on passthrough) and
		// "Risks and Mitigations" (strict-transport-security, proxy, cookie and
		// set-cookie denied)
		// Upstream: openshift/library-go pkg/route/validation/validation.go
		// (validateRoute: passthrough and the 20-item limit; validateHeaders:
		// duplicates, notAllowedHTTPHeaders, set with Set,
		// permittedRequestHeaderValueRE) and openshift/api route/v1/types.go
		// (the Route CRD's maxItems and CEL rules)
		DescribeTable("refuses invalid route header actions with the API's message", framework.JudgesPlatform,
			func(ctx SpecContext, mutate func(*routev1.Route), want contract.Refusal) {
				ns := f.SpecNamespace(ctx, "headers-invalid")
				backend := &framework.Echo{Namespace: ns, Service: "echo"}
				By("positive control: twenty valid actions are admitted")
				valid := f.RouteTo(backend, "valid", framework.EchoHTTPPort)
				valid.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
				valid.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{}
				for i := 0; i < 20; i++ {
					valid.Spec.HTTPHeaders.Actions.Request = append(valid.Spec.HTTPHeaders.Actions.Request, framework.RouteSetHeader(fmt.Sprintf("X-H%d", i), "v"))
				}
				_, err := f.Routes.RouteV1().Routes(ns).Create(ctx, valid, metav1.CreateOptions{})
				Expect(err).NotTo(HaveOccurred())

				bad := f.RouteTo(backend, "invalid", framework.EchoHTTPPort)
				bad.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
				bad.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{}
				mutate(bad)
				_, err = f.Routes.RouteV1().Routes(ns).Create(ctx, bad, metav1.CreateOptions{})
				framework.ExpectRefusal(Default, err, want)
			},
			Entry("Strict-Transport-Security is denied", framework.ID("header-actions/refuse-strict-transport-security"), func(r *routev1.Route) {
				r.Spec.HTTPHeaders.Actions.Response = []routev1.RouteHTTPHeader{framework.RouteSetHeader("Strict-Transport-Security", "max-age=1")}
			}, contract.RouteHeaderDenied("strict-transport-security")),
			Entry("Proxy is denied", framework.ID("header-actions/refuse-proxy"), func(r *routev1.Route) {
				r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{framework.RouteSetHeader("Proxy", "x")}
			}, contract.RouteHeaderDenied("proxy")),
			Entry("Cookie is denied", framework.ID("header-actions/refuse-cookie"), func(r *routev1.Route) {
				r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{framework.RouteDeleteHeader("Cookie")}
			}, contract.RouteHeaderDenied("cookie")),
			Entry("Set-Cookie is denied", framework.ID("header-actions/refuse-set-cookie"), func(r *routev1.Route) {
				r.Spec.HTTPHeaders.Actions.Response = []routev1.RouteHTTPHeader{framework.RouteSetHeader("Set-Cookie", "a=b")}
			}, contract.RouteHeaderDenied("set-cookie")),
			Entry("21 actions", framework.ID("header-actions/refuse-over-twenty-actions"), func(r *routev1.Route) {
				for i := 0; i < 21; i++ {
					r.Spec.HTTPHeaders.Actions.Request = append(r.Spec.HTTPHeaders.Actions.Request, framework.RouteSetHeader(fmt.Sprintf("X-H%d", i), "v"))
				}
			}, contract.RouteRequestHeaderActionsOverLimit),
			Entry("the same header twice", framework.ID("header-actions/refuse-duplicate-header"), func(r *routev1.Route) {
				r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "1"), framework.RouteDeleteHeader("X-A")}
			}, contract.RouteHeaderDuplicate),
			Entry("a fetcher that is not allowed", framework.ID("header-actions/refuse-disallowed-fetcher"), func(r *routev1.Route) {
				r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-Src", "%[src]")}
			}, contract.RouteRequestHeaderValueNotAllowed),
			Entry("Set without a value", framework.ID("header-actions/refuse-set-without-value"), func(r *routev1.Route) {
				r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Set}}}
			}, contract.RouteHeaderSetWithoutValue),
			Entry("actions on a passthrough route", framework.ID("header-actions/refuse-passthrough-actions"), func(r *routev1.Route) {
				r.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationPassthrough}
				r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "1")}
			}, contract.RouteHeaderActionsOnPassthrough),
		)

		describeFrontendFilters(f)
		describeForwardedHeaders(f)
		describeHeaderLimits(f)

		// Each spec changes an IngressController of its own (a shard), as
		// cluster-ingress-operator's e2e tests do.
		Describe("of the IngressController", func() {
			describeIngressControllerListOrder(f)

			// Document: the HTTP header actions enhancement, sections "Goals"
			// (1, 2 and 8), "How do Route headers interact with
			// IngressController headers of the same value?" and
			// "Implementation Details/Notes/Constraints" (A: the fe_sni and
			// fe_no_sni frontends, for edge and reencrypt routes)
			// Upstream: cluster-ingress-operator
			// pkg/operator/controller/ingress/deployment.go (headerValues:
			// ROUTER_HTTP_REQUEST_HEADERS, ROUTER_HTTP_RESPONSE_HEADERS),
			// openshift/router pkg/cmd/infra/router/template.go (the
			// set-delete-http-request/response-header flags) and
			// images/router/haproxy/conf/haproxy-config.template (frontends
			// public, fe_sni and fe_no_sni: .HTTPRequestHeaders and
			// .HTTPResponseHeaders; the route backend's own, be_edge_http or
			// be_secure, after the frontend's for requests and before it for
			// responses)
			DescribeTable("come first in requests and last in responses, so the route wins requests and the IngressController responses; an IngressController Delete no route action touches holds", f.OwnIngressControllerDecorator(),
				func(ctx SpecContext, termination routev1.TLSTerminationType) {
					own := f.OwnIngressController(ctx)
					own.Update(ctx, func(ic *operatorv1.IngressController) {
						ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
							Request: []operatorv1.IngressControllerHTTPHeader{
								framework.IngressControllerSetHeader("X-Both", "from-ingresscontroller"),
								framework.IngressControllerSetHeader("X-IC-Set", "ic"),
								framework.IngressControllerSetHeader("X-Set-Then-Delete", "ic"),
								framework.IngressControllerDeleteHeader("X-Delete-Then-Set"),
								framework.IngressControllerDeleteHeader("X-IC-Delete"),
								framework.IngressControllerSetHeader("X-Host-Lower", "%[req.hdr(host),lower]"),
							},
							Response: []operatorv1.IngressControllerHTTPHeader{
								framework.IngressControllerSetHeader("X-Both", "from-ingresscontroller"),
								framework.IngressControllerDeleteHeader("X-Backend-Leak"),
							},
						}}
					})
					req, backend := routeWithHeaders(ctx, f, own, "headers-ic", termination, routev1.RouteHTTPHeaderActions{
						Request: []routev1.RouteHTTPHeader{
							framework.RouteSetHeader("X-Both", "from-route"),
							framework.RouteDeleteHeader("X-Set-Then-Delete"),
							framework.RouteSetHeader("X-Delete-Then-Set", "route"),
						},
						Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-Both", "from-route")},
					})
					req = framework.WithHeader(req, "X-Delete-Then-Set", "from-client")
					// Deleted by the IngressController alone: no route
					// action names it.
					req = framework.WithHeader(req, "X-IC-Delete", "from-client")
					req = framework.WithHeader(req, "X-Client-Kept", "from-client")
					req = framework.WithHeader(req, echo.SetResponseHeader, "X-Backend-Leak: internal")
					f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
						servedOver(g, backend, resp, termination)
						framework.HeaderExpectations{
							"X-Both":            {"from-route"},
							"X-Ic-Set":          {"ic"},
							"X-Set-Then-Delete": nil,
							"X-Delete-Then-Set": {"route"},
							"X-Host-Lower":      {strings.ToLower(req.Host)},
							"X-Ic-Delete":       nil,
							// The positive control of X-IC-Delete: another
							// header the client sent arrives.
							"X-Client-Kept": {"from-client"},
						}.Check(g, http.Header(resp.Echo.Headers), "the backend")
						framework.HeaderExpectations{
							"X-Both":         {"from-ingresscontroller"},
							"X-Backend-Leak": nil,
						}.Check(g, resp.Header, "the client")
					})
				},
				Entry("edge", framework.ID("header-actions/ingresscontroller-precedence"), routev1.TLSTerminationEdge),
				Entry("reencrypt", framework.ID("header-actions/ingresscontroller-precedence-reencrypt"), routev1.TLSTerminationReencrypt),
			)

			// cluster-ingress-operator test/e2e/set_delete_test.go,
			// TestSetIngressControllerResponseHeaders: the public frontend
			// applies them to plain HTTP routes too.
			//
			// Document: the HTTP header actions enhancement, sections "Goals"
			// (1 and 2: for all routes) and "Can we use conditional values for
			// headers?"
			// Upstream: cluster-ingress-operator
			// pkg/operator/controller/ingress/deployment.go (headerValues) and
			// openshift/router images/router/haproxy/conf/haproxy-config.template
			// (frontend public: .HTTPRequestHeaders and .HTTPResponseHeaders)
			It("apply to a plain HTTP route", framework.ID("header-actions/ingresscontroller-plain-http"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
				own := f.OwnIngressController(ctx)
				own.Update(ctx, func(ic *operatorv1.IngressController) {
					ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
						Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Frame-Options", "DENY")},
						Request:  []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Condition", "foo if bar")},
					}}
				})
				ns := f.SpecNamespaceWithLabels(ctx, "headers-ic-http", own.NamespaceLabels)
				backend := f.DeployEcho(ctx, ns)
				route := f.CreateRoute(ctx, f.RouteTo(backend, "plain", framework.EchoHTTPPort))
				f.EventuallyResponds(ctx, own.HTTP(route.Spec.Host, "/"), func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					framework.HeaderExpectations{"X-Condition": {"foo if bar"}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
					framework.HeaderExpectations{"X-Frame-Options": {"DENY"}}.Check(g, resp.Header, "the client")
				})
			})

			// The IngressController's actions live in fe_sni and fe_no_sni,
			// which a passthrough route's connection never reaches: public_ssl
			// hands it to the route's TCP backend still encrypted.
			//
			// Document: the HTTP header actions enhancement, sections "API
			// Extensions" (IngressControllerHTTPHeaders.actions: "Headers
			// cannot be set or deleted for TLS passthrough connections"),
			// "Non-Goals" (4) and "Why don't you set/delete the headers on
			// frontend public_ssl in the haproxy.config?"
			// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
			// (frontend public_ssl: os_sni_passthrough.map and os_tcp_be.map to
			// be_tcp before be_sni/be_no_sni; .HTTPRequestHeaders and
			// .HTTPResponseHeaders in public, fe_sni and fe_no_sni only)
			It("are not applied to a passthrough route", framework.ID("header-actions/ingresscontroller-passthrough-not-applied"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
				own := f.OwnIngressController(ctx)
				own.Update(ctx, func(ic *operatorv1.IngressController) {
					ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
						Request: []operatorv1.IngressControllerHTTPHeader{
							framework.IngressControllerSetHeader("X-IC-Request", "ic"),
							framework.IngressControllerDeleteHeader("X-Client-Sent"),
						},
						Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-IC-Response", "ic")},
					}}
				})
				ns := f.SpecNamespaceWithLabels(ctx, "headers-ic-passthrough", own.NamespaceLabels)
				passthroughHost := f.Host(ns, "passthrough")
				// The passthrough route's host is on the backend's own certificate.
				backend := f.DeployEcho(ctx, ns, passthroughHost)
				edge := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "edge", routev1.TLSTerminationEdge, ""))
				f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "passthrough", routev1.TLSTerminationPassthrough, ""))

				By("positive control: an edge route of the same IngressController gets its actions")
				f.EventuallyResponds(ctx, framework.WithHeader(own.HTTPS(edge.Spec.Host, "/"), "X-Client-Sent", "from-client"), func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					framework.HeaderExpectations{"X-Ic-Request": {"ic"}, "X-Client-Sent": nil}.Check(g, http.Header(resp.Echo.Headers), "the backend")
					framework.HeaderExpectations{"X-Ic-Response": {"ic"}}.Check(g, resp.Header, "the client")
				})

				By("the passthrough route's backend terminates TLS and sees the request as the client sent it")
				req := framework.WithHeader(own.HTTPS(passthroughHost, "/"), "X-Client-Sent", "from-client")
				req.RootCAs = pki.Pool(backend.CA)
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					g.Expect(resp.Echo.Listener).To(Equal("https"), "the listener the passthrough route reached")
					g.Expect(resp.Echo.TLS.ServerName).To(Equal(passthroughHost), "the backend's TLS saw the client's SNI")
					framework.HeaderExpectations{"X-Ic-Request": nil, "X-Client-Sent": {"from-client"}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
					framework.HeaderExpectations{"X-Ic-Response": nil}.Check(g, resp.Header, "the client")
				})
			})

			// The document's own example: x-forwarded-client-cert set from
			// the client certificate, the router's x-ssl-client-der deleted.
			// The IngressController's actions run after the X-SSL* headers
			// that mutual TLS adds, so its Delete removes the router's own.
			// (The example writes `action: Set`; the API's shape is
			// action.type with action.set.value.)
			//
			// Document: the HTTP header actions enhancement, sections "Will
			// this enhancement cover setting or deleting request headers in
			// addition to response headers?" (the x-ssl-client-der to
			// x-forwarded-client-cert migration) and "X-SSL"
			// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
			// (fe_sni and fe_no_sni: with ROUTER_MUTUAL_TLS_AUTH, `http-request
			// set-header X-SSL-Client-DER %{+Q}[ssl_c_der,base64]` and the other
			// X-SSL* lines, then .HTTPRequestHeaders) and cluster-ingress-operator
			// pkg/operator/controller/ingress/deployment.go (headerValues)
			It("replace the router's X-SSL-Client-DER with X-Forwarded-Client-Cert, as the document's migration example", framework.ID("header-actions/ingresscontroller-client-der-migration"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
				jig := framework.NewClientTLSJig(ctx, f, "headers-ic-mtls")
				ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "header actions CA " + jig.Namespace}})
				Expect(err).NotTo(HaveOccurred())
				leaf, err := ca.IssueClient(pki.ClientOptions{Subject: pki.Subject{Organization: "Example", CommonName: "client"}})
				Expect(err).NotTo(HaveOccurred())
				cert, err := leaf.TLSCertificate()
				Expect(err).NotTo(HaveOccurred())
				caMap := jig.ClientCAMap(ctx, "client-ca-"+jig.Namespace, string(ca.CertPEM))
				jig.IC.Update(ctx, func(ic *operatorv1.IngressController) {
					ic.Spec.ClientTLS = operatorv1.ClientTLS{ClientCertificatePolicy: operatorv1.ClientCertificatePolicyRequired, ClientCA: configv1.ConfigMapNameReference{Name: caMap}}
					ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
						Request: []operatorv1.IngressControllerHTTPHeader{
							framework.IngressControllerSetHeader("x-forwarded-client-cert", "%{+Q}[ssl_c_der,base64]"),
							framework.IngressControllerDeleteHeader("x-ssl-client-der"),
						},
					}}
				})
				backend := f.DeployEcho(ctx, jig.Namespace)
				route := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "mtls", routev1.TLSTerminationEdge, ""))
				f.EventuallyResponds(ctx, framework.WithCert(jig.IC.HTTPS(route.Spec.Host, "/"), &cert), func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					framework.HeaderExpectations{
						"X-Forwarded-Client-Cert": {base64.StdEncoding.EncodeToString(leaf.Cert.Raw)},
						"X-Ssl-Client-Der":        nil,
						// The positive control of the Delete: the router's
						// other X-SSL* headers arrive.
						"X-Ssl-Client-Dn": {"/O=Example/CN=client"},
					}.Check(g, http.Header(resp.Echo.Headers), "the backend")
				})
			})

			// A dry run: the refusal is the API's, and nothing of the default
			// IngressController changes even if it were admitted. The
			// refusal is asserted once (a conflict with the operator's
			// status writes is read again, nothing else).
			//
			// Document: the HTTP header actions enhancement, sections "Host"
			// and "Why is it okay to still allow the host header on the
			// route?"
			// Upstream: openshift/api operator/v1/types_ingresscontroller.go
			// (IngressControllerHTTPHeader's CEL rule: "host header may not be
			// modified via header actions") and openshift/library-go
			// pkg/route/validation/validation.go (validateHeaders: Host is not
			// in notAllowedHTTPHeaders)
			It("refuses Host on the IngressController, while a route may set it", framework.ID("header-actions/ingresscontroller-refuse-host"), framework.JudgesPlatform, func(ctx SpecContext) {
				ns := f.SpecNamespace(ctx, "headers-ic-host")
				By("positive control: a route may set Host")
				r := f.RouteTo(&framework.Echo{Namespace: ns, Service: "echo"}, "host", framework.EchoHTTPPort)
				r.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("Host", "other.example")}}}
				_, err := f.Routes.RouteV1().Routes(ns).Create(ctx, r, metav1.CreateOptions{})
				Expect(err).NotTo(HaveOccurred())

				ics := framework.DryRun[*operatorv1.IngressController]{Client: f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace)}
				_, err = framework.Update(ctx, ics, contract.DefaultIngressController, func(ic *operatorv1.IngressController) {
					ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
						Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("Host", "other.example")},
					}}
				})
				framework.ExpectRefusal(Default, err, contract.IngressControllerHostHeaderDenied)
			})
		})
	})
}

// What every HTTP frontend does to a request before any header action or
// route: the client's Proxy header deleted, an empty Content-Length
// refused. A route of a host that is reached over each path (edge with
// insecureEdgeTerminationPolicy Allow: public, fe_sni and fe_no_sni lead
// to the same backend).
func describeFrontendFilters(f *framework.Framework) {
	// allowRoute is an echo backend in a namespace of the spec's and its
	// edge route with Allow.
	allowRoute := func(ctx SpecContext, prefix string) (string, *framework.Echo) {
		ns := f.SpecNamespace(ctx, prefix)
		backend := f.DeployEcho(ctx, ns)
		route := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "filters", routev1.TLSTerminationEdge, routev1.InsecureEdgeTerminationPolicyAllow))
		return route.Spec.Host, backend
	}

	// Document: the HTTP header actions enhancement, sections "Proxy
	// header" (under "Risks and Mitigations": "OpenShift router already
	// mitigates this vulnerability by deleting any proxy header that the
	// client specifies") and "Header Configuration Options" (proxy: no API
	// configures it)
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (frontends public, fe_sni and fe_no_sni: `http-request del-header
	// Proxy`, ahead of the IngressController's actions)
	DescribeTable("deletes a client's Proxy header before the backend (httpoxy); another header passes",
		func(ctx SpecContext, path frontendPath) {
			host, backend := allowRoute(ctx, "headers-proxy")
			req := framework.WithHeader(path.request(f.DefaultIngressController(), host), "Proxy", "http://attacker.example:3128")
			req = framework.WithHeader(req, "X-Not-Proxy", "kept")
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				// X-Not-Proxy is the positive control: the same request's
				// other custom header arrives.
				framework.HeaderExpectations{"Proxy": nil, "X-Not-Proxy": {"kept"}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
			})
		},
		Entry("over plain HTTP (public)", framework.ID("header-actions/proxy-deleted-over-http"), overPublic),
		Entry("over TLS with SNI (fe_sni)", framework.ID("header-actions/proxy-deleted-sni"), overFeSNI),
		Entry("over TLS without SNI (fe_no_sni)", framework.ID("header-actions/proxy-deleted-no-sni"), overFeNoSNI),
	)

	// The template denies a request whose Content-Length is empty
	// (`http-request deny`: HAProxy's 403); the HAProxy builds both the
	// reference router and upstream's image run (Debian's 2.6.12-1+deb12u3,
	// 3.0.11) have HAProxy's own fix of the CVE, whose request parser
	// answers 400 before any rule runs. Either is a refusal the backend
	// never sees; nothing else is.
	//
	// Document: the HTTP header actions enhancement says nothing of it; the
	// template's mitigation of CVE-2023-40225 in every HTTP frontend
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (frontends public, fe_sni and fe_no_sni: `http-request deny if {
	// hdr_len(content-length) 0 }`, first of their http-request rules)
	DescribeTable("refuses a request with an empty Content-Length before any backend",
		func(ctx SpecContext, path frontendPath) {
			host, backend := allowRoute(ctx, "headers-empty-cl")
			req := path.request(f.DefaultIngressController(), host)
			By("positive control: the request without it is served")
			f.EventuallyResponds(ctx, req, backend.Served)
			By("with an empty Content-Length: 400 from HAProxy's parser, or the template's 403")
			f.EventuallyResponds(ctx, framework.WithRawHeader(req, "content-length", ""), func(g Gomega, resp *httpclient.Response) {
				g.Expect(resp.Status).To(BeElementOf(http.StatusBadRequest, http.StatusForbidden), "body: %s", resp.Body)
				g.Expect(resp.Echo).To(BeNil(), "the backend answered a request with an empty Content-Length")
			})
		},
		Entry("over plain HTTP (public)", framework.ID("header-actions/empty-content-length-refused-over-http"), overPublic),
		Entry("over TLS with SNI (fe_sni)", framework.ID("header-actions/empty-content-length-refused-sni"), overFeSNI),
		Entry("over TLS without SNI (fe_no_sni)", framework.ID("header-actions/empty-content-length-refused-no-sni"), overFeNoSNI),
	)

	// The route's actions run in its backend, after the frontend chose the
	// backend by the client's Host: a route may set Host (the
	// IngressController may not: header-actions/ingresscontroller-refuse-host)
	// and is still the one that serves.
	//
	// Document: the HTTP header actions enhancement, sections "Host" (a
	// custom host header "may be specified via RouteSpec") and "Why is it
	// okay to still allow the host header on the route?"
	// Upstream: openshift/library-go pkg/route/validation/validation.go
	// (validateHeaders: host is not in notAllowedHTTPHeaders) and
	// openshift/router images/router/haproxy/conf/haproxy-config.template
	// (the frontends choose the backend by `base` through os_http_be.map
	// or os_edge_reencrypt_be.map; the route's $cfg.HTTPRequestHeaders
	// run in its backend)
	DescribeTable("a route that sets Host is still served by its own backend, which sees the new Host",
		func(ctx SpecContext, termination routev1.TLSTerminationType) {
			req, backend := routeWithHeaders(ctx, f, f.DefaultIngressController(), "headers-route-host", termination, routev1.RouteHTTPHeaderActions{
				Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("Host", "rewritten.example")},
			})
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				servedOver(g, backend, resp, termination)
				g.Expect(resp.Echo.Host).To(Equal("rewritten.example"), "the Host the backend saw")
			})
		},
		Entry("plain HTTP", framework.ID("header-actions/route-sets-host-over-http"), routev1.TLSTerminationType("")),
		Entry("edge", framework.ID("header-actions/route-sets-host"), routev1.TLSTerminationEdge),
		Entry("reencrypt", framework.ID("header-actions/route-sets-host-reencrypt"), routev1.TLSTerminationReencrypt),
	)
}

// forwardedClient is what a client sends of the forwarded headers in the
// cases where it sends its own: two X-Forwarded-For lines (as
// cluster-ingress-operator's TestForwardedHeaderPolicy* send), one of each
// other header.
var forwardedClient = map[string][]string{
	"X-Forwarded-For":           {"192.0.2.1", "192.0.2.2"},
	"X-Forwarded-Host":          {"client.example"},
	"X-Forwarded-Port":          {"8888"},
	"X-Forwarded-Proto":         {"gopher"},
	"X-Forwarded-Proto-Version": {"h9"},
	"Forwarded":                 {"for=192.0.2.1;proto=gopher"},
}

// forwardedRoute is a route of a forwarded-headers spec: its
// set-forwarded-headers annotation ("" none) and its own action on
// X-Forwarded-For (nil none).
type forwardedRoute struct {
	name       string
	annotation string
	action     *contract.XFFAction
}

// create creates the route to backend (of the termination; edge with
// Allow so that every frontend reaches it) and returns its host.
func (r forwardedRoute) create(ctx SpecContext, f *framework.Framework, backend *framework.Echo, termination routev1.TLSTerminationType) string {
	insecure := routev1.InsecureEdgeTerminationPolicyType("")
	if termination == routev1.TLSTerminationEdge {
		insecure = routev1.InsecureEdgeTerminationPolicyAllow
	}
	route := f.TerminatedRouteTo(backend, r.name, termination, insecure)
	if r.annotation != "" {
		route.Annotations = map[string]string{contract.SetForwardedHeadersAnnotation: r.annotation}
	}
	if a := r.action; a != nil {
		action := framework.RouteDeleteHeader("X-Forwarded-For")
		if !a.Delete {
			action = framework.RouteSetHeader("X-Forwarded-For", a.Value)
		}
		route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{action}}}
	}
	return f.CreateRoute(ctx, route).Spec.Host
}

// policy is the route's forwarded-headers policy: its annotation when it
// is exactly one of the policies, else the router's.
func (r forwardedRoute) policy(router contract.ForwardedPolicy) contract.ForwardedPolicy {
	if p, ok := contract.ParseForwardedPolicy(r.annotation); ok {
		return p
	}
	return router
}

// eventuallyForwarded sends requests for host through ic over each path,
// with the client's own forwarded headers and without, and checks what
// the backend saw of each forwarded header against the chart
// (contract.ForwardedPolicy.Seen) for the route's policy and the actions
// on X-Forwarded-For; served checks the answer came from the route's
// backend.
func eventuallyForwarded(ctx SpecContext, f *framework.Framework, ic *framework.IngressController, paths []frontendPath, host string,
	policy contract.ForwardedPolicy, icAction, routeAction *contract.XFFAction, served func(Gomega, *httpclient.Response)) {
	GinkgoHelper()
	httpPort, httpsPort := ic.RouterPorts(ctx)
	for _, path := range paths {
		for _, client := range []map[string][]string{nil, forwardedClient} {
			req := path.request(ic, host)
			for name, values := range client {
				for _, v := range values {
					req = framework.WithHeader(req, name, v)
				}
			}
			port := httpPort
			if path.tls {
				port = httpsPort
			}
			want := policy.Seen(contract.ForwardedRequest{Client: client, IngressController: icAction, Route: routeAction,
				Source: framework.ClientSource, Host: host, Port: port, TLS: path.tls})
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				served(g, resp)
				framework.CheckForwarded(g, http.Header(resp.Echo.Headers), want)
			})
		}
	}
}

// The forwarded headers the backend sees, by the route's
// set-forwarded-headers annotation and the IngressController's
// forwardedHeaderPolicy, and with the IngressController's and the route's
// actions on X-Forwarded-For: the document's chart, as upstream decides
// it (contract.ForwardedPolicy.Seen, checked against HAProxy by
// router/haproxy's TestForwardedHeaders). Where the code and the chart
// differ, the code decides: under append a route's (or the
// IngressController's) Set is followed by the client's address (the
// chart says so for BD and BC, not for ABCD); a Delete of X-Forwarded-For
// leaves the router's own value under append and if-none (HAProxy's
// forwardfor adds it after every rule), so only replace and never let an
// action delete it. The client's address as the router sees it is not
// the suite's to know (framework.ClientSource): any IP address, the same
// in X-Forwarded-For and Forwarded.
func describeForwardedHeaders(f *framework.Framework) {
	// The default IngressController (append): a route per annotation
	// value, one with a value that is none of them (the router's policy
	// then), one without.
	//
	// Document: the HTTP header actions enhancement, sections
	// "X-Forwarded-For" (under "Risks and Mitigations": the route
	// annotation haproxy.router.openshift.io/set-forwarded-headers, row AB:
	// the annotation sets the policy) and "Header Configuration Options"
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (the route backend: $setForwardedHeadersAnnotation matched whole
	// against append|replace|if-none|never by firstMatch, else
	// ROUTER_SET_FORWARDED_HEADERS, else append; `option forwardfor` for
	// append, `option forwardfor if-none` for if-none, the X-Forwarded-*
	// and Forwarded add-header or set-header lines) and
	// pkg/router/template/template_helper.go (firstMatch)
	DescribeTable("sets the forwarded headers by each route's set-forwarded-headers annotation, the router's policy (append) without one",
		func(ctx SpecContext, path frontendPath, termination routev1.TLSTerminationType) {
			ic := f.DefaultIngressController()
			ns := f.SpecNamespace(ctx, "headers-forwarded")
			backend := f.DeployEcho(ctx, ns)
			routes := []forwardedRoute{{name: "unannotated"}, {name: "not-a-policy", annotation: "Replace"}}
			for _, p := range contract.ForwardedPolicies {
				routes = append(routes, forwardedRoute{name: "annotated-" + string(p), annotation: string(p)})
			}
			hosts := map[string]string{}
			for _, r := range routes {
				hosts[r.name] = r.create(ctx, f, backend, termination)
			}
			served := func(g Gomega, resp *httpclient.Response) { servedOver(g, backend, resp, termination) }
			for _, r := range routes {
				By(fmt.Sprintf("route %s (annotation %q): policy %s", r.name, r.annotation, r.policy(contract.ForwardedAppend)))
				eventuallyForwarded(ctx, f, ic, []frontendPath{path}, hosts[r.name], r.policy(contract.ForwardedAppend), nil, nil, served)
			}
		},
		Entry("plain route over plain HTTP (public)", framework.ID("header-actions/forwarded-annotation-over-http"), overPublic, routev1.TLSTerminationType("")),
		Entry("edge route over TLS with SNI (fe_sni)", framework.ID("header-actions/forwarded-annotation-sni"), overFeSNI, routev1.TLSTerminationEdge),
		Entry("edge route over TLS without SNI (fe_no_sni)", framework.ID("header-actions/forwarded-annotation-no-sni"), overFeNoSNI, routev1.TLSTerminationEdge),
		Entry("reencrypt route over TLS with SNI (fe_sni)", framework.ID("header-actions/forwarded-annotation-reencrypt"), overFeSNI, routev1.TLSTerminationReencrypt),
	)

	// An IngressController of the spec's own with the policy: first alone
	// (the routes without an annotation take it, row B; an annotation
	// wins, AB; a route's Set, BD and ABD; a route's Delete), then with the
	// IngressController's own Set of X-Forwarded-For (BC, ABC, BCD, ABCD),
	// over every frontend, the client sending its own forwarded headers
	// and not. Each route's annotation, where it has one, is another
	// policy than the IngressController's.
	//
	// Document: the HTTP header actions enhancement, sections
	// "X-Forwarded-For" (under "Risks and Mitigations": the chart of
	// set-forwarded-headers, forwardedHeaderPolicy and the
	// IngressController's and the Route's actions; "the value set by
	// spec.httpHeaders.actions will override the value set by
	// spec.httpHeaders.forwardedHeaderPolicy"; the method to delete
	// x-forwarded-for) and "So, we allowed there to be an additional way of
	// specifying x-forwarded-for as well?"
	// Upstream: cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (desiredRouterDeployment:
	// forwardedHeaderPolicy Append, Replace, IfNone, Never to
	// ROUTER_SET_FORWARDED_HEADERS append, replace, if-none, never; headerValues:
	// ROUTER_HTTP_REQUEST_HEADERS) and openshift/router
	// images/router/haproxy/conf/haproxy-config.template (frontends public,
	// fe_sni and fe_no_sni: .HTTPRequestHeaders; the route backend: the
	// forwarded-headers cases, then $cfg.HTTPRequestHeaders); as
	// cluster-ingress-operator test/e2e/forwarded_header_policy_test.go
	// (TestForwardedHeaderPolicyAppend, Replace, Never, IfNone) counts the
	// X-Forwarded-For lines
	DescribeTable("the IngressController's forwardedHeaderPolicy sets the forwarded headers of its routes; a route's annotation wins for it; a route's X-Forwarded-For action wins the IngressController's",
		f.OwnIngressControllerDecorator(),
		func(ctx SpecContext, policy operatorv1.IngressControllerHTTPHeaderPolicy, annotation contract.ForwardedPolicy) {
			own := f.OwnIngressController(ctx)
			own.Update(ctx, func(ic *operatorv1.IngressController) {
				ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{ForwardedHeaderPolicy: policy}
			})
			ns := f.SpecNamespaceWithLabels(ctx, "headers-forwarded-ic", own.NamespaceLabels)
			backend := f.DeployEcho(ctx, ns)
			routes := []forwardedRoute{
				{name: "plain"},
				{name: "annotated", annotation: string(annotation)},
				{name: "route-set", action: &contract.XFFAction{Value: "from-route"}},
				{name: "annotated-route-set", annotation: string(annotation), action: &contract.XFFAction{Value: "from-route"}},
				{name: "route-delete", action: &contract.XFFAction{Delete: true}},
			}
			hosts := map[string]string{}
			for _, r := range routes {
				hosts[r.name] = r.create(ctx, f, backend, routev1.TLSTerminationEdge)
			}
			router := contract.ForwardedPolicyOf(policy)
			for _, icAction := range []*contract.XFFAction{nil, {Value: "from-ingresscontroller"}} {
				if icAction != nil {
					By("the IngressController sets X-Forwarded-For too")
					own.Update(ctx, func(ic *operatorv1.IngressController) {
						ic.Spec.HTTPHeaders.Actions.Request = []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Forwarded-For", icAction.Value)}
					})
				}
				for _, r := range routes {
					By(fmt.Sprintf("route %s (annotation %q, action %+v): policy %s, IngressController action %+v", r.name, r.annotation, r.action, r.policy(router), icAction))
					eventuallyForwarded(ctx, f, own, everyFrontend, hosts[r.name], r.policy(router), icAction, r.action, backend.Served)
				}
			}
		},
		Entry("Append", framework.ID("header-actions/forwarded-policy-append"), operatorv1.AppendHTTPHeaderPolicy, contract.ForwardedNever),
		Entry("Replace", framework.ID("header-actions/forwarded-policy-replace"), operatorv1.ReplaceHTTPHeaderPolicy, contract.ForwardedAppend),
		Entry("IfNone", framework.ID("header-actions/forwarded-policy-if-none"), operatorv1.IfNoneHTTPHeaderPolicy, contract.ForwardedReplace),
		Entry("Never", framework.ID("header-actions/forwarded-policy-never"), operatorv1.NeverHTTPHeaderPolicy, contract.ForwardedIfNone),
	)
}

// routeHeaders are n route actions setting X-H0... to value.
func routeHeaders(n int, value string) []routev1.RouteHTTPHeader {
	out := make([]routev1.RouteHTTPHeader, n)
	for i := range out {
		out[i] = framework.RouteSetHeader(fmt.Sprintf("X-H%d", i), value)
	}
	return out
}

// ingressControllerHeaders are n IngressController actions setting
// X-H0... to value.
func ingressControllerHeaders(n int, value string) []operatorv1.IngressControllerHTTPHeader {
	out := make([]operatorv1.IngressControllerHTTPHeader, n)
	for i := range out {
		out[i] = framework.IngressControllerSetHeader(fmt.Sprintf("X-H%d", i), value)
	}
	return out
}

// Validation at the API's limits, each refusal beside its positive
// control: the same action just inside the limit (or on an allowed
// header, with an allowed fetcher) is admitted. Nothing is stored: the
// controls are dry runs, the refusals are refused. The refusal is matched
// against every upstream wording of its rule (contract/refusals.go): for a
// Route the CRD's (kind, MicroShift) and library-go's (openshift-apiserver);
// the IngressController is a CRD everywhere.
func describeHeaderLimits(f *framework.Framework) {
	// The document gives a header name MaxLength=1024; the CRD and
	// library-go shipped 255, which the spec asserts.
	//
	// Document: the HTTP header actions enhancement, sections "API
	// Extensions" (RouteHTTPHeaderActions: response MaxItems=20;
	// RouteHTTPHeader name: MinLength=1, MaxLength (1024 there), the token pattern;
	// RouteSetHTTPHeader value: MinLength=1, MaxLength=16384, the request
	// list's req.hdr and the response list's res.hdr, ssl_c_der, the
	// converters lower and base64; set required with Set, "and forbidden
	// otherwise"), "Non-Goals" (6: no other fetcher or converter), "Why do
	// we limit to max 20 items each for custom response and request
	// headers ?" and "Why did we select max value size of 16384 for header
	// value ?"
	// Upstream: openshift/library-go pkg/route/validation/validation.go
	// (validateRoute: maxResponseHeaderList; validateHeaders:
	// maxHeaderNameSize, permittedHeaderNameRE, maxHeaderValueSize,
	// set with Set only, permittedRequestHeaderValueRE and
	// permittedResponseHeaderValueRE) and openshift/api route/v1/types.go
	// (the Route CRD's maxItems, maxLength, minLength, pattern and CEL
	// rules)
	DescribeTable("refuses a route header action past the API's limits with the API's message; the action just inside is admitted", framework.JudgesPlatform,
		func(ctx SpecContext, valid, invalid routev1.RouteHTTPHeaderActions, want contract.Refusal) {
			ns := f.SpecNamespace(ctx, "headers-limits")
			backend := &framework.Echo{Namespace: ns, Service: "echo"}
			routes := f.Routes.RouteV1().Routes(ns)
			edge := func(name string, actions routev1.RouteHTTPHeaderActions) *routev1.Route {
				r := f.TerminatedRouteTo(backend, name, routev1.TLSTerminationEdge, "")
				r.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: actions}
				return r
			}
			By("positive control: the action just inside the limit is admitted (a dry run)")
			_, err := routes.Create(ctx, edge("valid", valid), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			Expect(err).NotTo(HaveOccurred())
			_, err = routes.Create(ctx, edge("invalid", invalid), metav1.CreateOptions{})
			framework.ExpectRefusal(Default, err, want)
		},
		Entry("21 response actions", framework.ID("header-actions/refuse-over-twenty-response-actions"),
			routev1.RouteHTTPHeaderActions{Response: routeHeaders(20, "v")},
			routev1.RouteHTTPHeaderActions{Response: routeHeaders(21, "v")},
			contract.RouteResponseHeaderActionsOverLimit),
		Entry("a header name with a space", framework.ID("header-actions/refuse-invalid-header-name"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-Token!#$%&'*+.^_`|~", "v")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X Bad", "v")}},
			contract.RouteHeaderNameInvalid),
		Entry("a header name of 256 characters", framework.ID("header-actions/refuse-header-name-over-255"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader(strings.Repeat("x", 255), "v")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader(strings.Repeat("x", 256), "v")}},
			contract.RouteHeaderNameTooLong),
		Entry("an empty value", framework.ID("header-actions/refuse-empty-value"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "v")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "")}},
			contract.RouteHeaderValueEmpty),
		Entry("a value of 16385 characters", framework.ID("header-actions/refuse-value-over-16384"),
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", strings.Repeat("v", 16384))}},
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", strings.Repeat("v", 16385))}},
			contract.RouteHeaderValueTooLong),
		Entry("a Delete that carries a value", framework.ID("header-actions/refuse-delete-with-value"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteDeleteHeader("X-A")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Delete, Set: &routev1.RouteSetHTTPHeader{Value: "v"}}}}},
			contract.RouteHeaderDeleteWithValue),
		Entry("a response fetcher (res.hdr) in the request list", framework.ID("header-actions/refuse-response-fetcher-in-request"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[req.hdr(X-B)]")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[res.hdr(X-B)]")}},
			contract.RouteHeaderValueNotAllowed("req.hdr")),
		Entry("a request fetcher (req.hdr) in the response list", framework.ID("header-actions/refuse-request-fetcher-in-response"),
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[res.hdr(X-B)]")}},
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[req.hdr(X-B)]")}},
			contract.RouteHeaderValueNotAllowed("res.hdr")),
		Entry("a converter outside lower and base64", framework.ID("header-actions/refuse-unlisted-converter"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[req.hdr(X-B),lower,base64]")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[req.hdr(X-B),upper]")}},
			contract.RouteHeaderValueNotAllowed("req.hdr")),
	)

	// Dry runs of the default IngressController: nothing of it changes,
	// the positive control included (as header-actions/ingresscontroller-refuse-host).
	// The document gives a header name MaxLength=1024 and denies
	// strict-transport-security, proxy and host in the API's rules, cookie
	// and set-cookie under "Risks and Mitigations"; the CRD shipped 255
	// and denies all five, which the spec asserts.
	//
	// Document: the HTTP header actions enhancement, sections "API
	// Extensions" (IngressControllerHTTPHeaderActions: MaxItems=20 each;
	// IngressControllerHTTPHeader name: MaxLength (1024 there), the token
	// pattern, strict-transport-security, proxy and host may not be set or
	// deleted; IngressControllerSetHTTPHeader value:
	// MinLength=1, MaxLength=16384, req.hdr in requests and res.hdr in
	// responses, ssl_c_der, lower and base64), "Risks and Mitigations"
	// ("Proxy header", "Strict-Transport-Security", "Cookie and Set-Cookie",
	// "Header Configuration Options": none of these configurable with the
	// IngressController's actions) and "Non-Goals" (6: no other fetcher or
	// converter)
	// Upstream: openshift/api operator/v1/types_ingresscontroller.go
	// (IngressControllerHTTPHeaderActions, IngressControllerHTTPHeader,
	// IngressControllerHTTPHeaderActionUnion, IngressControllerSetHTTPHeader:
	// the CRD's maxItems, maxLength, minLength, pattern and CEL rules)
	DescribeTable("refuses an IngressController header action past the API's limits with the CRD's message; the action just inside is admitted", framework.JudgesPlatform,
		func(ctx SpecContext, valid, invalid operatorv1.IngressControllerHTTPHeaderActions, want contract.Refusal) {
			ics := framework.DryRun[*operatorv1.IngressController]{Client: f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace)}
			withActions := func(actions operatorv1.IngressControllerHTTPHeaderActions) func(*operatorv1.IngressController) {
				return func(ic *operatorv1.IngressController) {
					ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: actions}
				}
			}
			By("positive control: the action just inside the limit is admitted (a dry run)")
			_, err := framework.Update(ctx, ics, contract.DefaultIngressController, withActions(valid))
			Expect(err).NotTo(HaveOccurred())
			_, err = framework.Update(ctx, ics, contract.DefaultIngressController, withActions(invalid))
			framework.ExpectRefusal(Default, err, want)
		},
		Entry("Strict-Transport-Security is denied", framework.ID("header-actions/ingresscontroller-refuse-strict-transport-security"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Strict-Transport-Security", "max-age=1")}},
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("Strict-Transport-Security", "max-age=1")}},
			contract.IngressControllerHeaderDenied("strict-transport-security")),
		Entry("Proxy is denied", framework.ID("header-actions/ingresscontroller-refuse-proxy"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerDeleteHeader("Proxy-Authorization")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerDeleteHeader("Proxy")}},
			contract.IngressControllerHeaderDenied("proxy")),
		Entry("Cookie is denied", framework.ID("header-actions/ingresscontroller-refuse-cookie"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Cookie", "a=b")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("Cookie", "a=b")}},
			contract.IngressControllerHeaderDenied("cookie")),
		Entry("Set-Cookie is denied", framework.ID("header-actions/ingresscontroller-refuse-set-cookie"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerDeleteHeader("X-Set-Cookie")}},
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerDeleteHeader("Set-Cookie")}},
			contract.IngressControllerHeaderDenied("set-cookie")),
		Entry("21 request actions", framework.ID("header-actions/ingresscontroller-refuse-over-twenty-request-actions"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: ingressControllerHeaders(20, "v")},
			operatorv1.IngressControllerHTTPHeaderActions{Request: ingressControllerHeaders(21, "v")},
			contract.IngressControllerHeaderActionsOverLimit),
		Entry("21 response actions", framework.ID("header-actions/ingresscontroller-refuse-over-twenty-response-actions"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: ingressControllerHeaders(20, "v")},
			operatorv1.IngressControllerHTTPHeaderActions{Response: ingressControllerHeaders(21, "v")},
			contract.IngressControllerHeaderActionsOverLimit),
		Entry("a header name with a space", framework.ID("header-actions/ingresscontroller-refuse-invalid-header-name"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Token!#$%&'*+.^_`|~", "v")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X Bad", "v")}},
			contract.IngressControllerHeaderNameInvalid),
		Entry("a header name of 256 characters", framework.ID("header-actions/ingresscontroller-refuse-header-name-over-255"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader(strings.Repeat("x", 255), "v")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader(strings.Repeat("x", 256), "v")}},
			contract.IngressControllerHeaderNameTooLong),
		Entry("an empty value", framework.ID("header-actions/ingresscontroller-refuse-empty-value"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "v")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "")}},
			contract.IngressControllerHeaderValueEmpty),
		Entry("a value of 16385 characters", framework.ID("header-actions/ingresscontroller-refuse-value-over-16384"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", strings.Repeat("v", 16384))}},
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", strings.Repeat("v", 16385))}},
			contract.IngressControllerHeaderValueTooLong),
		Entry("a Delete that carries a value", framework.ID("header-actions/ingresscontroller-refuse-delete-with-value"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerDeleteHeader("X-A")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{{Name: "X-A", Action: operatorv1.IngressControllerHTTPHeaderActionUnion{
				Type: operatorv1.Delete, Set: &operatorv1.IngressControllerSetHTTPHeader{Value: "v"}}}}},
			contract.IngressControllerHeaderDeleteWithValue),
		Entry("a response fetcher (res.hdr) in the request list", framework.ID("header-actions/ingresscontroller-refuse-response-fetcher-in-request"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%[req.hdr(X-B)]")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%[res.hdr(X-B)]")}},
			contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
		Entry("a request fetcher (req.hdr) in the response list", framework.ID("header-actions/ingresscontroller-refuse-request-fetcher-in-response"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%[res.hdr(X-B)]")}},
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%[req.hdr(X-B)]")}},
			contract.IngressControllerHeaderValueNotAllowed("res.hdr")),
		Entry("a converter outside lower and base64", framework.ID("header-actions/ingresscontroller-refuse-unlisted-converter"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%{+Q}[ssl_c_der,base64,lower]")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%{+Q}[ssl_c_der,hex]")}},
			contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
	)
}

// describeIngressControllerListOrder: the IngressController's own list
// order, over each frontend.
func describeIngressControllerListOrder(f *framework.Framework) {
	// The IngressController's list order: names are unique within a list (a
	// second action on one header is refused: the CRD keys the list by name),
	// so, as the route's list-order specs do, the order shows where a later
	// action reads what an earlier one changed: a copy (a dynamic value) of a
	// header the same list deletes, before the delete and after it (then set,
	// empty), in the request list and in the response list, in the frontend
	// the path reaches.
	//
	// Document: the HTTP header actions enhancement, sections "API Extensions"
	// (IngressControllerHTTPHeaderActions: the actions "will be performed on
	// the headers in sequence as defined in the list") and "Implementation
	// Details/Notes/Constraints" (A: the frontends public, fe_sni and
	// fe_no_sni)
	// Upstream: cluster-ingress-operator pkg/operator/controller/ingress/deployment.go
	// (headerValues: the actions joined in list order into
	// ROUTER_HTTP_REQUEST_HEADERS and ROUTER_HTTP_RESPONSE_HEADERS),
	// openshift/router pkg/cmd/infra/router/template.go (parsing them in
	// order) and images/router/haproxy/conf/haproxy-config.template (frontends
	// public, fe_sni and fe_no_sni: set-header and del-header lines in the
	// order of .HTTPRequestHeaders and .HTTPResponseHeaders)
	DescribeTable("apply in list order",
		func(ctx SpecContext, path frontendPath) {
			own := f.OwnIngressController(ctx)
			own.Update(ctx, func(ic *operatorv1.IngressController) {
				ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
					Request: []operatorv1.IngressControllerHTTPHeader{
						framework.IngressControllerSetHeader("X-Copy-Before", "%[req.hdr(X-Orig-Before)]"),
						framework.IngressControllerDeleteHeader("X-Orig-Before"),
						framework.IngressControllerDeleteHeader("X-Orig-After"),
						framework.IngressControllerSetHeader("X-Copy-After", "%[req.hdr(X-Orig-After)]"),
					},
					Response: []operatorv1.IngressControllerHTTPHeader{
						framework.IngressControllerSetHeader("X-Copy-Before", "%[res.hdr(X-Orig-Before)]"),
						framework.IngressControllerDeleteHeader("X-Orig-Before"),
						framework.IngressControllerDeleteHeader("X-Orig-After"),
						framework.IngressControllerSetHeader("X-Copy-After", "%[res.hdr(X-Orig-After)]"),
					},
				}}
			})
			ns := f.SpecNamespaceWithLabels(ctx, "headers-ic-order", own.NamespaceLabels)
			backend := f.DeployEcho(ctx, ns)
			route := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "order", path.termination(), ""))
			req := path.request(own, route.Spec.Host)
			req = framework.WithHeader(req, "X-Orig-Before", "from-client-before")
			req = framework.WithHeader(req, "X-Orig-After", "from-client-after")
			req = framework.WithHeader(req, echo.SetResponseHeader, "X-Orig-Before: from-backend-before")
			req = framework.WithHeader(req, echo.SetResponseHeader, "X-Orig-After: from-backend-after")
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				framework.HeaderExpectations{
					"X-Copy-Before": {"from-client-before"}, "X-Orig-Before": nil,
					"X-Copy-After": {""}, "X-Orig-After": nil,
				}.Check(g, http.Header(resp.Echo.Headers), "the backend")
				framework.HeaderExpectations{
					"X-Copy-Before": {"from-backend-before"}, "X-Orig-Before": nil,
					"X-Copy-After": {""}, "X-Orig-After": nil,
				}.Check(g, resp.Header, "the client")
			})
		},
		Entry("over plain HTTP (public)", framework.ID("header-actions/ingresscontroller-list-order-over-http"), f.OwnIngressControllerDecorator(), overPublic),
		Entry("over TLS with SNI (fe_sni)", framework.ID("header-actions/ingresscontroller-list-order-sni"), f.OwnIngressControllerDecorator(), overFeSNI),
		Entry("over TLS without SNI (fe_no_sni)", framework.ID("header-actions/ingresscontroller-list-order-no-sni"), f.OwnIngressControllerDecorator(), overFeNoSNI),
	)
}
