package conformance

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// describeAccessLogCaptures: what the access log records of a header an
// action sets. HAProxy captures a request header (capture request header,
// spec.logging.access.httpCaptureHeaders.request) as the client sent it,
// before any http-request rule of the frontend, so neither the
// IngressController's action (in the frontend) nor the route's (in its
// backend) changes what is logged.
func describeAccessLogCaptures(f *framework.Framework) {
	const (
		byIngressController = "X-Captured-IC"
		byRoute             = "X-Captured-Route"
		setByIC             = "set-by-ingresscontroller"
		setByRoute          = "set-by-route"
		withClientValues    = "/accesslog/client-values"
		withoutClientValues = "/accesslog/no-client-values"
	)
	// Document: the HTTP header actions enhancement, section "API
	// Extensions" (the IngressController's httpCaptureHeaders: an action
	// does not change the value the access log captures)
	// Upstream: cluster-ingress-operator pkg/operator/controller/ingress/deployment.go
	// (desiredRouterDeployment: spec.logging.access with destination
	// Container, the sidecar container "logs" and ROUTER_SYSLOG_ADDRESS,
	// ROUTER_LOG_LEVEL, ROUTER_CAPTURE_HTTP_REQUEST_HEADERS from
	// serializeCaptureHeaders; rsyslog_configmap.go) and openshift/router
	// images/router/haproxy/conf/haproxy-config.template (global `log`,
	// defaults `option httplog`; frontends public, fe_sni and fe_no_sni:
	// `capture request header` ahead of every http-request rule, the
	// IngressController's `http-request set-header` after them; the route
	// backend's own set-header later still)
	DescribeTable("the access log captures the client's value of a header an IngressController or route action sets, never the set value",
		func(ctx SpecContext, path frontendPath) {
			own := f.OwnIngressController(ctx,
				framework.LogToContainer(
					operatorv1.IngressControllerCaptureHTTPHeader{Name: byIngressController, MaxLength: 64},
					operatorv1.IngressControllerCaptureHTTPHeader{Name: byRoute, MaxLength: 64},
				),
				func(ic *operatorv1.IngressController) {
					ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
						Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader(byIngressController, setByIC)},
					}}
				})
			ns := f.SpecNamespaceWithLabels(ctx, "headers-accesslog", own.NamespaceLabels)
			backend := f.DeployEcho(ctx, ns)
			route := f.TerminatedRouteTo(backend, "accesslog", path.termination(), "")
			route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{
				Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader(byRoute, setByRoute)},
			}}
			route = f.CreateRoute(ctx, route)
			own.WaitAdmitted(ctx, route)
			// Both actions are in force on every request logged: the
			// backend sees the set values.
			actionsApplied := func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				framework.HeaderExpectations{byIngressController: {setByIC}, byRoute: {setByRoute}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
			}

			// logged waits for the access-log lines of requests to path,
			// each capturing exactly want.
			logged := func(path string, want []string) {
				GinkgoHelper()
				own.EventuallyAccessLog(ctx, func(g Gomega, log framework.AccessLog) {
					entries := log.Requests(path)
					g.Expect(entries).NotTo(BeEmpty(), "no access-log line for %s; the log:\n%v", path, log.Lines)
					for _, e := range entries {
						g.Expect(e.Captures).To(Equal([][]string{want}), "the captured request headers of %q", e.Line)
					}
					// The set values appear nowhere in the log.
					for _, line := range log.Lines {
						g.Expect(line).NotTo(Or(ContainSubstring(setByIC), ContainSubstring(setByRoute)), "an access-log line holds a value an action set")
					}
				})
			}

			By("positive control: the client's values are logged when it sends them")
			req := path.request(own, route.Spec.Host)
			req.Path = withClientValues
			req = framework.WithHeader(req, byIngressController, "client-ic")
			req = framework.WithHeader(req, byRoute, "client-route")
			f.EventuallyResponds(ctx, req, actionsApplied)
			logged(withClientValues, []string{"client-ic", "client-route"})

			By("without the client's values: empty captures, and no set value anywhere in the log")
			req = path.request(own, route.Spec.Host)
			req.Path = withoutClientValues
			f.EventuallyResponds(ctx, req, actionsApplied)
			logged(withoutClientValues, []string{"", ""})
		},
		Entry("over plain HTTP (public)", framework.ID("header-actions/access-log-captures-client-value-over-http"), f.OwnIngressControllerDecorator(), overPublic),
		Entry("over TLS with SNI (fe_sni)", framework.ID("header-actions/access-log-captures-client-value-sni"), f.OwnIngressControllerDecorator(), overFeSNI),
		Entry("over TLS without SNI (fe_no_sni)", framework.ID("header-actions/access-log-captures-client-value-no-sni"), f.OwnIngressControllerDecorator(), overFeNoSNI),
	)

	// Upstream's own scenario: two request headers and a response header
	// captured, each cut to its maxLength, in the IngressController's
	// order, request block first. The echo backend answers
	// application/json, cut to 9 characters; a request header longer than
	// its maxLength is cut too. The positive control is the request's own
	// values in the first block.
	//
	// Document: the HTTP header actions enhancement, section "API
	// Extensions" (the IngressController's httpCaptureHeaders)
	// Upstream: cluster-ingress-operator test/e2e/operator_test.go
	// (TestHTTPHeaderCapture: request X-Test-Header-1 and -2 maxLength 15,
	// response Content-type maxLength 9, the line holding "{foo|bar}
	// {text/html}"), pkg/operator/controller/ingress/deployment.go
	// (ROUTER_CAPTURE_HTTP_REQUEST_HEADERS and
	// ROUTER_CAPTURE_HTTP_RESPONSE_HEADERS from serializeCaptureHeaders) and
	// openshift/router images/router/haproxy/conf/haproxy-config.template
	// (frontends public, fe_sni and fe_no_sni: `capture request header`
	// and `capture response header ... len`)
	DescribeTable("the access log captures the listed request and response headers, each cut to its maxLength",
		func(ctx SpecContext, path frontendPath) {
			own := f.OwnIngressController(ctx, framework.LogToContainerCapturing(operatorv1.IngressControllerCaptureHTTPHeaders{
				Request: []operatorv1.IngressControllerCaptureHTTPHeader{
					{Name: "X-Test-Header-1", MaxLength: 15},
					{Name: "X-Test-Header-2", MaxLength: 15},
				},
				Response: []operatorv1.IngressControllerCaptureHTTPHeader{{Name: "Content-type", MaxLength: 9}},
			}))
			ns := f.SpecNamespaceWithLabels(ctx, "headers-capture", own.NamespaceLabels)
			backend := f.DeployEcho(ctx, ns)
			route := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "capture", path.termination(), ""))
			own.WaitAdmitted(ctx, route)
			// Served first on another path: every logged request to the
			// captures path then reaches the backend, whose answer has the
			// Content-Type (the router's own 503 has none to capture).
			warmUp := path.request(own, route.Spec.Host)
			warmUp.Path = "/accesslog/warm-up"
			f.EventuallyResponds(ctx, warmUp, backend.Served)
			req := path.request(own, route.Spec.Host)
			req.Path = "/accesslog/captures"
			req = framework.WithHeader(req, "X-Test-Header-1", "foo")
			req = framework.WithHeader(req, "X-Test-Header-2", "a-value-longer-than-fifteen")
			f.EventuallyResponds(ctx, req, backend.Served)
			own.EventuallyAccessLog(ctx, func(g Gomega, log framework.AccessLog) {
				entries := log.Requests(req.Path)
				g.Expect(entries).NotTo(BeEmpty(), "no access-log line for %s; the log:\n%v", req.Path, log.Lines)
				for _, e := range entries {
					g.Expect(e.Captures).To(Equal([][]string{{"foo", "a-value-longer-"}, {"applicati"}}), "the captures of %q", e.Line)
				}
			})
		},
		Entry("over plain HTTP (public)", framework.ID("header-actions/access-log-captures-response-over-http"), f.OwnIngressControllerDecorator(), overPublic),
		Entry("over TLS with SNI (fe_sni)", framework.ID("header-actions/access-log-captures-response-sni"), f.OwnIngressControllerDecorator(), overFeSNI),
		Entry("over TLS without SNI (fe_no_sni)", framework.ID("header-actions/access-log-captures-response-no-sni"), f.OwnIngressControllerDecorator(), overFeNoSNI),
	)
}
