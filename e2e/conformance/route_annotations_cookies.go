package conformance

import (
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// sameSiteCase is one route of the cookie-same-site specs: its
// termination, the annotation's value, and the attributes its session
// cookie carries after the value.
type sameSiteCase struct {
	termination routev1.TLSTerminationType
	value       string
	attributes  string
}

// describeCookieSameSite: router.openshift.io/cookie-same-site.
func describeCookieSameSite(f *framework.Framework) {
	// The annotation gives the route's session cookie its SameSite
	// attribute (Lax, Strict or None) on edge and reencrypt routes; any
	// other value leaves the default, None; a plain route's cookie has no
	// SameSite (nor Secure) whatever the annotation says. Beside each, an
	// edge route with Strict on the same router gets SameSite=Strict.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table, router.openshift.io/cookie-same-site
	// ("applicable to re-encrypt and edge routes only")
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (the route backend's `cookie ... secure attr SameSite=<firstMatch of
	// Lax|Strict|None, else None>` on edge and reencrypt routes whose
	// insecureEdgeTerminationPolicy is not Allow), openshift/origin
	// test/extended/router/cookies_otp.go (OCP-35547, OCP-35548)
	DescribeTable("cookie-same-site sets the session cookie's SameSite on edge and reencrypt routes",
		func(ctx SpecContext, c sameSiteCase) {
			ns := f.SpecNamespace(ctx, "same-site")
			backend := f.DeployEchoFor(ctx, ns, c.termination)
			control := f.TerminatedRouteTo(backend, "control", routev1.TLSTerminationEdge, "")
			control.Annotations = map[string]string{contract.CookieSameSiteAnnotation: "Strict"}
			f.CreateRoute(ctx, control)
			route := f.TerminatedRouteTo(backend, "same-site", c.termination, "")
			route.Annotations = map[string]string{contract.CookieSameSiteAnnotation: c.value}
			f.CreateRoute(ctx, route)

			By("positive control: an edge route with Strict gets SameSite=Strict")
			expectCookieAttributes(ctx, f, control, backend, "; path=/; HttpOnly; Secure; SameSite=Strict")
			By("the route's cookie: " + c.attributes)
			expectCookieAttributes(ctx, f, route, backend, c.attributes)
		},
		Entry("edge, Lax", framework.ID("route-annotations/cookie-same-site-lax-edge"),
			sameSiteCase{termination: routev1.TLSTerminationEdge, value: "Lax", attributes: "; path=/; HttpOnly; Secure; SameSite=Lax"}),
		Entry("reencrypt, Strict", framework.ID("route-annotations/cookie-same-site-strict-reencrypt"),
			sameSiteCase{termination: routev1.TLSTerminationReencrypt, value: "Strict", attributes: "; path=/; HttpOnly; Secure; SameSite=Strict"}),
		Entry("edge, lax (not a value): None", framework.ID("route-annotations/cookie-same-site-invalid-none"),
			sameSiteCase{termination: routev1.TLSTerminationEdge, value: "lax", attributes: "; path=/; HttpOnly; Secure; SameSite=None"}),
		Entry("plain HTTP, Strict: no SameSite", framework.ID("route-annotations/cookie-same-site-plain-none"),
			sameSiteCase{value: "Strict", attributes: "; path=/; HttpOnly"}),
	)
}

// expectCookieAttributes: the route answers with one session cookie of
// its default name whose attributes after the value are exactly these.
func expectCookieAttributes(ctx SpecContext, f *framework.Framework, route *routev1.Route, backend *framework.Echo, attributes string) {
	GinkgoHelper()
	cookie := "^" + regexp.QuoteMeta(contract.DefaultCookieName(route.Namespace, route.Name)) + "=[^;]+" + regexp.QuoteMeta(attributes) + "$"
	f.EventuallyResponds(ctx, f.RequestTo(route, backend, "/"), func(g Gomega, resp *httpclient.Response) {
		backend.Served(g, resp)
		g.Expect(resp.Header.Values("Set-Cookie")).To(HaveExactElements(MatchRegexp(cookie)), "Set-Cookie")
	})
}
