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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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

// edgeRouteWithHeaders deploys an echo backend and an edge route with the
// header actions; it returns the request to send (Host in mixed case: the
// router lowercases it before any action).
func edgeRouteWithHeaders(ctx SpecContext, f *framework.Framework, ic *framework.IngressController, prefix string, actions routev1.RouteHTTPHeaderActions) (httpclient.Request, *framework.Echo) {
	ns := f.SpecNamespaceWithLabels(ctx, prefix, ic.NamespaceLabels)
	backend := f.DeployEcho(ctx, ns)
	route := f.RouteTo(backend, "headers", framework.EchoHTTPPort)
	route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
	route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: actions}
	f.CreateRoute(ctx, route)
	req := ic.HTTPS(route.Spec.Host, "/")
	req.SNI = route.Spec.Host
	req.Host = strings.ToUpper(route.Spec.Host[:1]) + route.Spec.Host[1:]
	return req, backend
}

// The HTTP header actions enhancement (set-delete-http-headers), sections
// "Goals", "API Extensions" and "Risks and Mitigations" (the headers that
// may not be changed): header actions of the Route and of the
// IngressController.
func describeHeaderActions(f *framework.Framework) {
	framework.DescribeFeature(contract.FeatureHeaderActions, func() {
		// Document: the HTTP header actions enhancement, sections "Goals"
		// (3, 4, 6, 7: a route's request and response actions, dynamic
		// values with req.hdr/res.hdr and lower/base64) and "Should this
		// enhancement allow setting dynamic header values?"
		// Upstream: openshift/router pkg/router/template/router.go
		// (getHeadersList, SanitizeHeaderValue: every value single-quoted)
		// and images/router/haproxy/conf/haproxy-config.template (the route
		// backend's `http-request`/`http-response` set-header and del-header
		// from $cfg.HTTPRequestHeaders and $cfg.HTTPResponseHeaders; every
		// frontend's `http-request set-header Host %[req.hdr(Host),lower]`)
		It("applies a route's request and response actions, with dynamic and literal values", framework.ID("header-actions/route-request-response"), func(ctx SpecContext) {
			req, backend := edgeRouteWithHeaders(ctx, f, f.DefaultIngressController(), "headers-route", routev1.RouteHTTPHeaderActions{
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
				backend.Served(g, resp)
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
		})

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
			// (1, 2 and 8) and "How do Route headers interact with
			// IngressController headers of the same value?"
			// Upstream: cluster-ingress-operator
			// pkg/operator/controller/ingress/deployment.go (headerValues:
			// ROUTER_HTTP_REQUEST_HEADERS, ROUTER_HTTP_RESPONSE_HEADERS),
			// openshift/router pkg/cmd/infra/router/template.go (the
			// set-delete-http-request/response-header flags) and
			// images/router/haproxy/conf/haproxy-config.template (frontends
			// public, fe_sni and fe_no_sni: .HTTPRequestHeaders and
			// .HTTPResponseHeaders; the route backend's own, after the
			// frontend's for requests and before it for responses)
			It("come first in requests and last in responses, so the route wins requests and the IngressController responses", framework.ID("header-actions/ingresscontroller-precedence"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
				own := f.OwnIngressController(ctx)
				own.Update(ctx, func(ic *operatorv1.IngressController) {
					ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
						Request: []operatorv1.IngressControllerHTTPHeader{
							framework.IngressControllerSetHeader("X-Both", "from-ingresscontroller"),
							framework.IngressControllerSetHeader("X-IC-Set", "ic"),
							framework.IngressControllerSetHeader("X-Set-Then-Delete", "ic"),
							framework.IngressControllerDeleteHeader("X-Delete-Then-Set"),
							framework.IngressControllerSetHeader("X-Host-Lower", "%[req.hdr(host),lower]"),
						},
						Response: []operatorv1.IngressControllerHTTPHeader{
							framework.IngressControllerSetHeader("X-Both", "from-ingresscontroller"),
							framework.IngressControllerDeleteHeader("X-Backend-Leak"),
						},
					}}
				})
				req, backend := edgeRouteWithHeaders(ctx, f, own, "headers-ic", routev1.RouteHTTPHeaderActions{
					Request: []routev1.RouteHTTPHeader{
						framework.RouteSetHeader("X-Both", "from-route"),
						framework.RouteDeleteHeader("X-Set-Then-Delete"),
						framework.RouteSetHeader("X-Delete-Then-Set", "route"),
					},
					Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-Both", "from-route")},
				})
				req = framework.WithHeader(req, "X-Delete-Then-Set", "from-client")
				req = framework.WithHeader(req, echo.SetResponseHeader, "X-Backend-Leak: internal")
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					framework.HeaderExpectations{
						"X-Both":            {"from-route"},
						"X-Ic-Set":          {"ic"},
						"X-Set-Then-Delete": nil,
						"X-Delete-Then-Set": {"route"},
						"X-Host-Lower":      {strings.ToLower(req.Host)},
					}.Check(g, http.Header(resp.Echo.Headers), "the backend")
					framework.HeaderExpectations{
						"X-Both":         {"from-ingresscontroller"},
						"X-Backend-Leak": nil,
					}.Check(g, resp.Header, "the client")
				})
			})

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
