//go:build e2e

package e2e

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

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
	"github.com/router-conformance/suite/router/operator"
)

func routeSet(name, value string) routev1.RouteHTTPHeader {
	return routev1.RouteHTTPHeader{Name: name, Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Set, Set: &routev1.RouteSetHTTPHeader{Value: value}}}
}

func routeDelete(name string) routev1.RouteHTTPHeader {
	return routev1.RouteHTTPHeader{Name: name, Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Delete}}
}

func icSet(name, value string) operatorv1.IngressControllerHTTPHeader {
	return operatorv1.IngressControllerHTTPHeader{Name: name, Action: operatorv1.IngressControllerHTTPHeaderActionUnion{Type: operatorv1.Set, Set: &operatorv1.IngressControllerSetHTTPHeader{Value: value}}}
}

func icDelete(name string) operatorv1.IngressControllerHTTPHeader {
	return operatorv1.IngressControllerHTTPHeader{Name: name, Action: operatorv1.IngressControllerHTTPHeaderActionUnion{Type: operatorv1.Delete}}
}

// headerExpectations: name -> the exact values, nil for "absent".
type headerExpectations map[string][]string

func (want headerExpectations) check(g Gomega, got http.Header, who string) {
	for name, values := range want {
		if values == nil {
			g.Expect(got.Values(name)).To(BeEmpty(), "%s saw %s", who, name)
		} else {
			g.Expect(got.Values(name)).To(Equal(values), "%s saw %s", who, name)
		}
	}
}

// edgeRouteWithHeaders deploys an echo backend and an edge route with the
// header actions; it returns the request to send (Host in mixed case, so
// that the lower converter shows).
func edgeRouteWithHeaders(ctx SpecContext, prefix string, actions routev1.RouteHTTPHeaderActions) httpclient.Request {
	ns := framework.SpecNamespace(ctx, prefix)
	backend := framework.DeployEcho(ctx, ns)
	route := framework.RouteTo(backend, "headers", framework.EchoHTTPPort)
	route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
	route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: actions}
	framework.CreateRoute(ctx, route)
	req := framework.HTTPS(route.Spec.Host, "/")
	req.SNI = route.Spec.Host
	req.Host = strings.ToUpper(route.Spec.Host[:1]) + route.Spec.Host[1:]
	return req
}

// Seed 001: header actions of the Route and of the IngressController.
var _ = Describe("HTTP header actions", Label("header-actions"), func() {
	It("applies a route's request and response actions, with dynamic and literal values", func(ctx SpecContext) {
		req := edgeRouteWithHeaders(ctx, "headers-route", routev1.RouteHTTPHeaderActions{
			Request: []routev1.RouteHTTPHeader{
				routeSet("X-Route-Set", "route"),
				routeSet("X-Literal", `it's "quoted" \ back; semi`),
				routeSet("X-Host-Lower", "%[req.hdr(host),lower]"),
				routeSet("X-Host-B64", "%[req.hdr(host),base64]"),
				routeDelete("X-Client-Secret"),
			},
			Response: []routev1.RouteHTTPHeader{
				routeSet("X-Resp-Set", "route"),
				routeDelete("X-Backend-Leak"),
				routeSet("X-Value-Lower", "%[res.hdr(X-Value),lower]"),
			},
		})
		req = framework.WithHeader(req, "X-Client-Secret", "s3cret")
		req = framework.WithHeader(req, echo.SetResponseHeader, "X-Backend-Leak: internal")
		req = framework.WithHeader(req, echo.SetResponseHeader, "X-Value: MiXeD")
		framework.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
			framework.EchoedBy(g, resp, http.StatusOK)
			headerExpectations{
				"X-Route-Set":     {"route"},
				"X-Literal":       {`it's "quoted" \ back; semi`},
				"X-Host-Lower":    {strings.ToLower(req.Host)},
				"X-Host-B64":      {base64.StdEncoding.EncodeToString([]byte(req.Host))},
				"X-Client-Secret": nil,
			}.check(g, http.Header(resp.Echo.Headers), "the backend")
			headerExpectations{
				"X-Resp-Set":     {"route"},
				"X-Backend-Leak": nil,
				"X-Value-Lower":  {"mixed"},
			}.check(g, resp.Header, "the client")
		})
	})

	DescribeTable("refuses invalid route header actions with the API's message",
		func(ctx SpecContext, mutate func(*routev1.Route), message string) {
			ns := framework.SpecNamespace(ctx, "headers-invalid")
			backend := &framework.Echo{Namespace: ns, Service: "echo"}
			By("positive control: twenty valid actions are admitted")
			valid := framework.RouteTo(backend, "valid", framework.EchoHTTPPort)
			valid.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
			valid.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{}
			for i := 0; i < 20; i++ {
				valid.Spec.HTTPHeaders.Actions.Request = append(valid.Spec.HTTPHeaders.Actions.Request, routeSet(fmt.Sprintf("X-H%d", i), "v"))
			}
			_, err := framework.E.Routes.RouteV1().Routes(ns).Create(ctx, valid, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())

			bad := framework.RouteTo(backend, "invalid", framework.EchoHTTPPort)
			bad.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
			bad.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{}
			mutate(bad)
			_, err = framework.E.Routes.RouteV1().Routes(ns).Create(ctx, bad, metav1.CreateOptions{})
			Expect(err).To(HaveOccurred(), "the route was admitted")
			Expect(err.Error()).To(ContainSubstring(message))
		},
		Entry("Strict-Transport-Security is denied", func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Response = []routev1.RouteHTTPHeader{routeSet("Strict-Transport-Security", "max-age=1")}
		}, "strict-transport-security header may not be modified via header actions"),
		Entry("Proxy is denied", func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{routeSet("Proxy", "x")}
		}, "proxy header may not be modified via header actions"),
		Entry("Cookie is denied", func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{routeDelete("Cookie")}
		}, "cookie header may not be modified via header actions"),
		Entry("Set-Cookie is denied", func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Response = []routev1.RouteHTTPHeader{routeSet("Set-Cookie", "a=b")}
		}, "set-cookie header may not be modified via header actions"),
		Entry("21 actions", func(r *routev1.Route) {
			for i := 0; i < 21; i++ {
				r.Spec.HTTPHeaders.Actions.Request = append(r.Spec.HTTPHeaders.Actions.Request, routeSet(fmt.Sprintf("X-H%d", i), "v"))
			}
		}, "must have at most 20 items"),
		Entry("the same header twice", func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{routeSet("X-A", "1"), routeDelete("X-A")}
		}, "Duplicate value"),
		Entry("a fetcher that is not allowed", func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{routeSet("X-Src", "%[src]")}
		}, "Either the header value provided is not in correct format or the sample fetcher/converter specified is not allowed."),
		Entry("Set without a value", func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Set}}}
		}, "set is required when type is Set, and forbidden otherwise"),
		Entry("actions on a passthrough route", func(r *routev1.Route) {
			r.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationPassthrough}
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{routeSet("X-A", "1")}
		}, "header actions are not permitted when tls termination is passthrough."),
	)

	Describe("of the IngressController", Serial, func() {
		It("come first in requests and last in responses, so the route wins requests and the IngressController responses", func(ctx SpecContext) {
			framework.UpdateIngressController(ctx, func(ic *operatorv1.IngressController) {
				ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
					Request: []operatorv1.IngressControllerHTTPHeader{
						icSet("X-Both", "from-ingresscontroller"),
						icSet("X-IC-Set", "ic"),
						icSet("X-Set-Then-Delete", "ic"),
						icDelete("X-Delete-Then-Set"),
						icSet("X-Host-Lower", "%[req.hdr(host),lower]"),
					},
					Response: []operatorv1.IngressControllerHTTPHeader{
						icSet("X-Both", "from-ingresscontroller"),
						icDelete("X-Backend-Leak"),
					},
				}}
			})
			req := edgeRouteWithHeaders(ctx, "headers-ic", routev1.RouteHTTPHeaderActions{
				Request: []routev1.RouteHTTPHeader{
					routeSet("X-Both", "from-route"),
					routeDelete("X-Set-Then-Delete"),
					routeSet("X-Delete-Then-Set", "route"),
				},
				Response: []routev1.RouteHTTPHeader{routeSet("X-Both", "from-route")},
			})
			req = framework.WithHeader(req, "X-Delete-Then-Set", "from-client")
			req = framework.WithHeader(req, echo.SetResponseHeader, "X-Backend-Leak: internal")
			framework.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				framework.EchoedBy(g, resp, http.StatusOK)
				headerExpectations{
					"X-Both":            {"from-route"},
					"X-Ic-Set":          {"ic"},
					"X-Set-Then-Delete": nil,
					"X-Delete-Then-Set": {"route"},
					"X-Host-Lower":      {strings.ToLower(req.Host)},
				}.check(g, http.Header(resp.Echo.Headers), "the backend")
				headerExpectations{
					"X-Both":         {"from-ingresscontroller"},
					"X-Backend-Leak": nil,
				}.check(g, resp.Header, "the client")
			})
		})

		It("refuses Host on the IngressController, while a route may set it", func(ctx SpecContext) {
			ns := framework.SpecNamespace(ctx, "headers-ic-host")
			By("positive control: a route may set Host")
			r := framework.RouteTo(&framework.Echo{Namespace: ns, Service: "echo"}, "host", framework.EchoHTTPPort)
			r.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{routeSet("Host", "other.example")}}}
			_, err := framework.E.Routes.RouteV1().Routes(ns).Create(ctx, r, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())

			ics := framework.E.Operator.OperatorV1().IngressControllers(operator.OperatorNamespace)
			ic, err := ics.Get(ctx, "default", metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
				Request: []operatorv1.IngressControllerHTTPHeader{icSet("Host", "other.example")},
			}}
			_, err = ics.Update(ctx, ic, metav1.UpdateOptions{})
			Expect(err).To(HaveOccurred(), "the IngressController accepted a Host action")
			Expect(err.Error()).To(ContainSubstring("host header may not be modified via header actions"))
		})
	})
})
