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
// (edge: to the backend's HTTP port; reencrypt: to its HTTPS port, verified
// with its CA as destinationCACertificate) with the header actions; it
// returns the request to send (Host in mixed case: the router lowercases it
// before any action).
func routeWithHeaders(ctx SpecContext, f *framework.Framework, ic *framework.IngressController, prefix string, termination routev1.TLSTerminationType, actions routev1.RouteHTTPHeaderActions) (httpclient.Request, *framework.Echo) {
	ns := f.SpecNamespaceWithLabels(ctx, prefix, ic.NamespaceLabels)
	backend := f.DeployEcho(ctx, ns)
	route := f.TerminatedRouteTo(backend, "headers", termination, "")
	route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: actions}
	f.CreateRoute(ctx, route)
	req := ic.HTTPS(route.Spec.Host, "/")
	req.SNI = route.Spec.Host
	req.Host = strings.ToUpper(route.Spec.Host[:1]) + route.Spec.Host[1:]
	return req, backend
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

		// Each spec changes an IngressController of its own (a shard), as
		// cluster-ingress-operator's e2e tests do.
		Describe("of the IngressController", func() {
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
