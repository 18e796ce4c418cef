package conformance

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// describeHeaderNameCase: spec.httpHeaders.headerNameCaseAdjustments
// beside IngressController actions on the adjusted name. HAProxy writes
// every header name in lower case; h1-case-adjust respells a listed name
// as the message goes out, after every http-request and http-response
// rule. So the actions decide what arrives (their value replaces the
// client's and the backend's), and the adjustment how its name is spelled:
// on every response to a client, and on requests only to the backend of a
// route annotated h1-adjust-case.
func describeHeaderNameCase(f *framework.Framework) {
	const (
		adjusted = "X-Custom"
		// spelledByActions is how the actions name it: a spelling that
		// reaches no one (HAProxy lowercases the name; the adjustment
		// respells it), so the action decides the value and never the
		// name.
		spelledByActions = "X-CUSTOM"
		// other is a name not in the list: it goes out in lower case
		// both ways, so a spelling that matches is the adjustment's.
		other     = "X-Other"
		setByIC   = "from-ingresscontroller"
		setByUser = "from-client"
	)
	// cluster-ingress-operator test/e2e/http_header_name_case_adjustment_test.go,
	// TestHeaderNameCaseAdjustment: the adjusted spelling at the backend
	// of an annotated route and at the client.
	//
	// Document: the HTTP header actions enhancement, section "API
	// Extensions" (the actions' settings "can replace settings made in
	// ... spec.httpHeaders.headerNameCaseAdjustments")
	// Upstream: cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (desiredRouterDeployment:
	// ROUTER_H1_CASE_ADJUST, the names comma-joined) and openshift/router
	// pkg/cmd/infra/router/template.go (parseHTTPHeaderNameCaseAdjustments)
	// and images/router/haproxy/conf/haproxy-config.template (global
	// `h1-case-adjust`, defaults `option h1-case-adjust-bogus-client`, the
	// route backend's `option h1-case-adjust-bogus-server` when the
	// haproxy.router.openshift.io/h1-adjust-case annotation is true; the
	// frontends' IngressController actions)
	Describe("an IngressController's Set on an adjusted name arrives with its value, spelled as adjusted (never as the action spells it) to every client and to the backend of a route annotated h1-adjust-case", f.SharedIngressControllerDecorator(), func() {
		own := f.SharedIngressController(func(ic *operatorv1.IngressController) {
			ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{
				HeaderNameCaseAdjustments: []operatorv1.IngressControllerHTTPHeaderNameCaseAdjustment{adjusted},
				Actions: operatorv1.IngressControllerHTTPHeaderActions{
					Request:  []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader(spelledByActions, setByIC)},
					Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader(spelledByActions, setByIC)},
				},
			}
		})
		DescribeTable("in the frontend a request reaches",
			func(ctx SpecContext, path frontendPath) {
				ns := f.SpecNamespaceWithLabels(ctx, "headers-name-case", own.NamespaceLabels)
				backend := f.DeployEcho(ctx, ns)
				// Both routes reach the backend's wire-names port, which
				// reports the names as the router spelled them.
				routeTo := func(name string, annotations map[string]string) *routev1.Route {
					GinkgoHelper()
					r := f.TerminatedRouteTo(backend, name, path.termination(), "")
					r.Spec.Port.TargetPort = intstr.FromString(framework.EchoWireNamesPort)
					r.Annotations = annotations
					r = f.CreateRoute(ctx, r)
					own.WaitAdmitted(ctx, r)
					return r
				}
				annotated := routeTo("name-case", map[string]string{contract.AdjustHeaderCaseAnnotation: "true"})
				// The positive control: the same request to a route without
				// the annotation gets the name in lower case.
				plain := routeTo("lower-case", nil)

				for _, tc := range []struct {
					route       *routev1.Route
					backendSees string
				}{
					{annotated, adjusted},
					{plain, "x-custom"},
				} {
					By(tc.route.Name + ": the backend sees " + tc.backendSees)
					req := path.request(own, tc.route.Spec.Host)
					// Sent in lower case: the spelling at the backend is the
					// router's, never the client's.
					req = framework.WithHeader(req, "x-custom", setByUser)
					req = framework.WithHeader(req, other, setByUser)
					f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
						backend.Served(g, resp)
						g.Expect(resp.Echo.Listener).To(Equal(framework.EchoWireNamesPort), "the port that reports names as they arrived")
						g.Expect(resp.Echo.HeaderNames).To(And(
							ContainElement(tc.backendSees),
							ContainElement("x-other"),
							Not(ContainElement(spelledByActions)),
						), "the request's header names at the backend")
						framework.HeaderExpectations{adjusted: {setByIC}, other: {setByUser}}.Check(g, http.Header(resp.Echo.Headers), "the backend")

						// Responses: adjusted on every route.
						g.Expect(resp.HeaderNames).To(And(
							ContainElement(adjusted),
							ContainElement("content-type"),
							Not(ContainElement("x-custom")),
							Not(ContainElement(spelledByActions)),
						), "the response's header names at the client")
						framework.HeaderExpectations{adjusted: {setByIC}}.Check(g, resp.Header, "the client")
					})
				}
			},
			Entry("over plain HTTP (public)", framework.ID("header-actions/header-name-case-over-http"), overPublic),
			Entry("over TLS with SNI (fe_sni)", framework.ID("header-actions/header-name-case-sni"), overFeSNI),
			Entry("over TLS without SNI (fe_no_sni)", framework.ID("header-actions/header-name-case-no-sni"), overFeNoSNI),
		)
	})
}
