package conformance

import (
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

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
	GinkgoHelper()
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
			backend := f.DeployEchoFor(ctx, ns, termination)
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
			own := f.OwnIngressController(ctx, func(ic *operatorv1.IngressController) {
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
