package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// describeHSTSPolicyServed: a route admitted under the policies (or
// before them), then what the router serves of it; Ordered, the
// platform's spec before the router's.
func describeHSTSPolicyServed(f *framework.Framework) {
	// A policy that arrives after a route was admitted: admission checks
	// the route's later updates (the platform), and the route keeps
	// serving what it was admitted with (the router). Ordered: the
	// router's spec comes after the platform's, so a platform that fails
	// skips it rather than failing it.
	Describe("a policy that arrives after a route was admitted", Ordered, func() {
		var (
			ns      string
			backend *framework.Echo
			route   *routev1.Route
		)
		BeforeAll(func(ctx SpecContext) {
			ns = f.SpecNamespace(ctx, "hsts-policy-update")
			backend = f.DeployEcho(ctx, ns)
			route = edgeRouteWithHSTS(f, backend, "r", "max-age=5000")
			// Admission's verdict only: the router spec below waits for
			// the answer on the wire itself.
			f.CreateAdmittedRoute(ctx, route)

			By("a policy the route breaks arrives after it was admitted")
			f.AddRequiredHSTSPolicies(ctx, inNamespace(ns, wildcard(maxAge(100, 1000))(f.Domain)))
		})

		// The admission plugin checks an update only when it changes
		// the annotation: "An update to a previously admitted route may
		// then fail if the updated route does not conform".
		//
		// Document: the HSTS admission enhancement, section "Provide HSTS
		// verification per-domain" (IngressSpec.RequiredHSTSPolicies)
		// Upstream: openshift/openshift-apiserver
		// pkg/route/apiserver/admission/requiredrouteannotations/admission.go
		// (requiredRouteAnnotations.Validate: an update that leaves the
		// annotation as it was is not checked; one that drops it changes
		// it, and hstsConfigFromRoute finds no max-age)
		It("checks an update only when it changes the annotation", framework.ID("hsts-policy/update-checked-on-change"), framework.JudgesPlatform, func(ctx SpecContext) {
			By("an update that changes the annotation is checked (which shows the policy is in effect)")
			f.EventuallyRouteUpdateRefused(ctx, ns, route.Name, func(r *routev1.Route) {
				r.Annotations[contract.HSTSAnnotation] = "max-age=4000"
			}, contract.HSTSMaxAgeGreater(1000))

			By("an update that leaves the annotation alone is admitted, under the same policy")
			_, err := framework.Update(ctx, f.Routes.RouteV1().Routes(ns), route.Name, func(live *routev1.Route) {
				live.Labels = map[string]string{"touched": "yes"}
			})
			Expect(err).NotTo(HaveOccurred(), "an update of route %s/%s that leaves the HSTS annotation alone", ns, route.Name)

			// Upstream: an update that drops the annotation changes it, and a
			// route without one has no max-age (requiredrouteannotations/admission.go).
			By("an update that removes the annotation is checked too")
			f.EventuallyRouteUpdateRefused(ctx, ns, route.Name, func(r *routev1.Route) {
				delete(r.Annotations, contract.HSTSAnnotation)
			}, contract.HSTSMaxAgeMissingOrWrong)
		})

		// What the route's Strict-Transport-Security header is on the
		// wire judges the router: "changing the HSTS policy configuration
		// will not cause a route that is already admitted to stop
		// working".
		//
		// Document: the HSTS admission enhancement, sections "Provide HSTS
		// verification per-domain" (IngressSpec.RequiredHSTSPolicies) and
		// "Continue to enable HSTS per-route (retain the existing feature
		// functionality)"
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (the edge route backend's `http-response set-header
		// Strict-Transport-Security` from the annotation; the router does
		// not read requiredHSTSPolicies)
		It("leaves a route it breaks serving with its Strict-Transport-Security", framework.ID("hsts-policy/admitted-route-keeps-serving"), func(ctx SpecContext) {
			f.EventuallyResponds(ctx, f.HTTPS(route.Spec.Host, "/"), func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				g.Expect(resp.Header.Values("Strict-Transport-Security")).To(Equal([]string{"max-age=5000"}))
			})
		})
	})

	// As cluster-ingress-operator test/e2e/hsts_policy_test.go
	// (TestHstsPolicyWorks) sets it: the directives are required, max-age
	// 0..99999; the admitted value reaches the client verbatim. Admission
	// decides (the platform), then the router sends the admitted value
	// (the router), in that order.
	Describe("max-age=0 with the required directives", Ordered, func() {
		var (
			ns      string
			backend *framework.Echo
			valid   *routev1.Route
		)
		BeforeAll(func(ctx SpecContext) {
			ns = f.SpecNamespace(ctx, "hsts-policy-works")
			backend = f.DeployEcho(ctx, ns)
			f.AddRequiredHSTSPolicies(ctx, inNamespace(ns, []configv1.RequiredHSTSPolicy{{
				DomainPatterns:          []string{"*." + f.Domain},
				PreloadPolicy:           configv1.RequirePreloadPolicy,
				IncludeSubDomainsPolicy: configv1.RequireIncludeSubDomains,
				MaxAge:                  configv1.MaxAgePolicy{SmallestMaxAge: ptr.To[int32](0), LargestMaxAge: ptr.To[int32](99999)},
			}}))
		})

		// Document: the HSTS admission enhancement, sections "Provide HSTS
		// verification per-domain" (MaxAgePolicy: "Setting max-age=0
		// allows the deletion of an existing HSTS header") and "Enable
		// global HSTS and validate a route"
		// Upstream: openshift/openshift-apiserver
		// pkg/route/apiserver/admission/requiredrouteannotations/admission.go
		// (hstsConfigFromRoute: directives in any case; meetsRequirements:
		// largestMaxAge, RequirePreload, RequireIncludeSubDomains)
		It("admits max-age=0 with the required directives, and refuses a max-age over the largest", framework.ID("hsts-policy/max-age-zero-admitted"), framework.JudgesPlatform, func(ctx SpecContext) {
			f.EventuallyRouteRefused(ctx, edgeRouteWithHSTS(f, backend, "invalid-route", "max-age=99999999"), contract.HSTSMaxAgeGreater(99999))
			By("positive control: the compliant route is admitted")
			valid = f.CreateAdmittedRoute(ctx, edgeRouteWithHSTS(f, backend, "valid-route", "max-age=0;preload;includesubdomains"))
		})

		// The admitted route of the spec before, on the wire.
		//
		// Document: the HSTS admission enhancement, sections "Enable global
		// HSTS and validate a route" (step 4: the response's headers
		// include HSTS as configured) and "Continue to enable HSTS
		// per-route (retain the existing feature functionality)"
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// ($hstsPattern, case-insensitive; the edge route backend's
		// `http-response set-header Strict-Transport-Security` with the
		// annotation's value as matched)
		It("sends the admitted max-age=0 and its directives verbatim", framework.ID("hsts-policy/max-age-zero-verbatim"), func(ctx SpecContext) {
			f.EventuallyResponds(ctx, f.HTTPS(valid.Spec.Host, "/"), func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				g.Expect(resp.Header.Values("Strict-Transport-Security")).To(Equal([]string{"max-age=0;preload;includesubdomains"}))
			})
		})
	})
}
