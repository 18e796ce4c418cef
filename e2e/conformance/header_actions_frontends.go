package conformance

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// What every HTTP frontend does to a request before any header action or
// route: the client's Proxy header deleted, an empty Content-Length
// refused. A route of a host that is reached over each path (edge with
// insecureEdgeTerminationPolicy Allow: public, fe_sni and fe_no_sni lead
// to the same backend).
func describeFrontendFilters(f *framework.Framework) {
	// allowRoute is an echo backend in a namespace of the spec's and its
	// edge route with Allow.
	allowRoute := func(ctx SpecContext, prefix string) (string, *framework.Echo) {
		GinkgoHelper()
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
