package conformance

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
)

// describeHSTSPolicyAdmission: what route admission decides under the
// required HSTS policies, judged through the API only (a refused create,
// or an admitted one).
func describeHSTSPolicyAdmission(f *framework.Framework) {
	// What admission decides, judged through the API only (a refused
	// create, or an admitted one).
	//
	// Document: the HSTS admission enhancement, sections "Provide HSTS
	// verification per-domain" and "Testing" (what the admission plugin
	// guarantees)
	// Upstream: openshift/openshift-apiserver
	// pkg/route/apiserver/admission/requiredrouteannotations/admission.go
	// (requiredRouteAnnotations.Validate: a route not edge or reencrypt,
	// plain HTTP included, is not checked; isRouteHSTSAllowed: the first
	// policy whose namespaceSelector and domainPatterns match decides;
	// hstsConfigFromRoute; meetsRequirements; matchesDomain:
	// filepath.Match)
	DescribeTable("route admission", framework.JudgesPlatform,
		func(ctx SpecContext, c policyCase) {
			ns := f.SpecNamespaceWithLabels(ctx, "hsts-policy", c.nsLabels)
			// Admission only: nothing needs to answer.
			backend := f.ServiceWithoutPods(ctx, ns)
			// A sentinel policy leads the list, under a domain of its own
			// that no route of the case is in (so the first-match rule is
			// untouched): once a route under it is refused, admission holds
			// the whole list, written in one update, and an admitted route
			// below is judged against the case's policies.
			sentinelDomain := "sentinel-" + ns + "." + f.Domain
			sentinelPolicy := configv1.RequiredHSTSPolicy{DomainPatterns: []string{"*." + sentinelDomain}}
			f.AddRequiredHSTSPolicies(ctx, inNamespace(ns, append([]configv1.RequiredHSTSPolicy{sentinelPolicy}, c.policies(f.Domain)...)))
			By("the policies are in effect: an edge route under the sentinel policy without the annotation is refused")
			sentinel := f.RouteTo(backend, "sentinel", framework.EchoHTTPPort)
			sentinel.Spec.Host = "r." + sentinelDomain
			sentinel.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
			f.EventuallyRouteRefused(ctx, sentinel, *refused(contract.HSTSMaxAgeMissingOrWrong))

			route := func(name string, hsts *string) *routev1.Route {
				GinkgoHelper()
				r := f.RouteTo(backend, name, framework.EchoHTTPPort)
				r.Spec.Host = c.subdomain + r.Spec.Host
				if c.termination != "" {
					r.Spec.TLS = &routev1.TLSConfig{Termination: c.termination}
				}
				if hsts != nil {
					r.Annotations = map[string]string{contract.HSTSAnnotation: *hsts}
				}
				return r
			}
			if c.refusal == nil {
				f.CreateAdmittedRoute(ctx, route("r", c.annotation))
				return
			}
			f.EventuallyRouteRefused(ctx, route("r", c.annotation), *c.refusal)
			By("positive control: the same route with an annotation the policies admit (" + c.compliant + ") is admitted")
			f.CreateAdmittedRoute(ctx, route("control", annotation(c.compliant)))
		},
		Entry("max-age inside the range", framework.ID("hsts-policy/max-age-in-range"), policyCase{policies: wildcard(maxAge(100, 1000)), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1000")}),
		Entry("max-age above the range", framework.ID("hsts-policy/max-age-above-range"), policyCase{policies: wildcard(maxAge(100, 1000)), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1001"), refusal: refused(contract.HSTSMaxAgeGreater(1000)), compliant: "max-age=1000"}),
		Entry("max-age below the range", framework.ID("hsts-policy/max-age-below-range"), policyCase{policies: wildcard(maxAge(100, 1000)), termination: routev1.TLSTerminationReencrypt, annotation: annotation("max-age=99"), refusal: refused(contract.HSTSMaxAgeLess(100)), compliant: "max-age=100"}),
		Entry("no annotation in a required domain", framework.ID("hsts-policy/missing-annotation"), policyCase{policies: wildcard(maxAge(100, 1000)), termination: routev1.TLSTerminationEdge, refusal: refused(contract.HSTSMaxAgeMissingOrWrong), compliant: "max-age=500"}),
		// The HSTS admission enhancement's section "Continue to enable HSTS
		// per-route" accepts a quoted max-age (the router template's
		// $hstsPattern, which the router follows); the admission code of its
		// section "Provide HSTS verification per-domain" reads
		// max-age=<digits> only (maxAgeRegExp), so admission refuses it. We
		// follow the code.
		//
		// Document: the HSTS admission enhancement, sections "Provide HSTS
		// verification per-domain" and "Continue to enable HSTS per-route
		// (retain the existing feature functionality)" (they disagree; the
		// code decides)
		// Upstream: openshift/openshift-apiserver
		// pkg/route/apiserver/admission/requiredrouteannotations/admission.go
		// (maxAgeRegExp `max-age=(\d+)`, hstsConfigFromRoute)
		Entry(`a quoted max-age (the code, not the prose)`, framework.ID("hsts-policy/quoted-max-age-refused"), policyCase{policies: wildcard(nil), termination: routev1.TLSTerminationEdge, annotation: annotation(`max-age="500"`), refusal: refused(contract.HSTSMaxAgeMissingOrWrong), compliant: "max-age=500"}),
		Entry("a wildcard pattern matches across dots (filepath.Match)", framework.ID("hsts-policy/wildcard-across-dots"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequirePreloadPolicy }), subdomain: "deep.", termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1"), refusal: refused(contract.HSTSPreloadRequired), compliant: "max-age=1;preload"}),
		Entry("an exact pattern for another host does not apply", framework.ID("hsts-policy/exact-pattern-other-host"), policyCase{policies: func(domain string) []configv1.RequiredHSTSPolicy {
			return []configv1.RequiredHSTSPolicy{{DomainPatterns: []string{"exact." + domain}, PreloadPolicy: configv1.RequirePreloadPolicy}}
		}, termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1")}),
		Entry("RequirePreload met", framework.ID("hsts-policy/require-preload-met"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequirePreloadPolicy }), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1;preload")}),
		Entry("RequirePreload unmet", framework.ID("hsts-policy/require-preload-unmet"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequirePreloadPolicy }), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1"), refusal: refused(contract.HSTSPreloadRequired), compliant: "max-age=1;preload"}),
		// Upstream drops the spaces and splits on ';': "max-age=1 preload"
		// is the one token "max-age=1preload", which holds a max-age but
		// no preload (openshift-apiserver requiredrouteannotations
		// requiredHSTSHeader).
		Entry("RequirePreload, preload apart by a space only", framework.ID("hsts-policy/require-preload-space-separated"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequirePreloadPolicy }), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1 preload"), refusal: refused(contract.HSTSPreloadRequired), compliant: "max-age=1;preload"}),
		Entry("RequireNoPreload", framework.ID("hsts-policy/require-no-preload"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequireNoPreloadPolicy }), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1;preload"), refusal: refused(contract.HSTSPreloadForbidden), compliant: "max-age=1"}),
		Entry("RequireIncludeSubDomains", framework.ID("hsts-policy/require-include-subdomains"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.IncludeSubDomainsPolicy = configv1.RequireIncludeSubDomains }), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1"), refusal: refused(contract.HSTSIncludeSubDomainsReq), compliant: "max-age=1;includeSubDomains"}),
		Entry("RequireNoIncludeSubDomains", framework.ID("hsts-policy/require-no-include-subdomains"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.IncludeSubDomainsPolicy = configv1.RequireNoIncludeSubDomains }), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1;includeSubDomains"), refusal: refused(contract.HSTSIncludeSubDomainsFor), compliant: "max-age=1"}),
		Entry("NoOpinion allows either", framework.ID("hsts-policy/no-opinion-allows-either"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) {
			p.PreloadPolicy, p.IncludeSubDomainsPolicy = configv1.NoOpinionPreloadPolicy, configv1.NoOpinionIncludeSubDomains
		}), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1;includeSubDomains;preload")}),
		// Upstream lower-cases the annotation before it reads it
		// (requiredrouteannotations hstsConfigFromRoute): directives in
		// upper case count, and an upper-case max-age is held to the range.
		Entry("directives in upper case are read", framework.ID("hsts-policy/upper-case-directives-read"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) {
			p.PreloadPolicy, p.IncludeSubDomainsPolicy = configv1.RequirePreloadPolicy, configv1.RequireIncludeSubDomains
		}), termination: routev1.TLSTerminationEdge, annotation: annotation("MAX-AGE=10;INCLUDESUBDOMAINS;PRELOAD")}),
		Entry("an upper-case max-age above the range", framework.ID("hsts-policy/upper-case-max-age-above-range"), policyCase{policies: wildcard(maxAge(100, 1000)), termination: routev1.TLSTerminationEdge, annotation: annotation("MAX-AGE=1001"), refusal: refused(contract.HSTSMaxAgeGreater(1000)), compliant: "MAX-AGE=1000"}),
		Entry("NoOpinion allows neither", framework.ID("hsts-policy/no-opinion-allows-neither"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) {
			p.PreloadPolicy, p.IncludeSubDomainsPolicy = configv1.NoOpinionPreloadPolicy, configv1.NoOpinionIncludeSubDomains
		}), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1")}),
		Entry("namespaceSelector matches", framework.ID("hsts-policy/namespace-selector-matches"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) {
			p.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"hsts": "strict"}}
			p.PreloadPolicy = configv1.RequirePreloadPolicy
		}), nsLabels: map[string]string{"hsts": "strict"}, termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1"), refusal: refused(contract.HSTSPreloadRequired), compliant: "max-age=1;preload"}),
		Entry("namespaceSelector does not match", framework.ID("hsts-policy/namespace-selector-no-match"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) {
			p.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"hsts": "strict"}}
			p.PreloadPolicy = configv1.RequirePreloadPolicy
		}), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1")}),
		Entry("the first matching policy decides", framework.ID("hsts-policy/first-match-decides"), policyCase{policies: func(domain string) []configv1.RequiredHSTSPolicy {
			return []configv1.RequiredHSTSPolicy{
				{DomainPatterns: []string{"*." + domain}, PreloadPolicy: configv1.NoOpinionPreloadPolicy},
				{DomainPatterns: []string{"*." + domain}, PreloadPolicy: configv1.RequirePreloadPolicy},
			}
		}, termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1")}),
		Entry("passthrough routes are not checked", framework.ID("hsts-policy/passthrough-unchecked"), policyCase{policies: wildcard(maxAge(100, 1000)), termination: routev1.TLSTerminationPassthrough, annotation: annotation("max-age=5000")}),
		Entry("plain HTTP routes are not checked", framework.ID("hsts-policy/plain-http-unchecked"), policyCase{policies: wildcard(maxAge(100, 1000)), annotation: annotation("max-age=5000")}),
	)

	// How admission reads the policies' domain patterns and the routes'
	// annotations. Each case refuses at least one route (which shows
	// its policies are in effect, however late the plugin's caches
	// see them) and admits others beside it; every host lies under
	// the spec's own base domain (<namespace>.<apps domain>) and the
	// policies select the spec's namespace only.
	//
	// Document: the HSTS admission enhancement, sections "Provide HSTS
	// verification per-domain" (RequiredHSTSPolicy: domainPatterns,
	// MaxAgePolicy, preloadPolicy, includeSubDomainsPolicy; the
	// admission code it lists) and "User Stories"
	// Upstream: openshift/openshift-apiserver
	// pkg/route/apiserver/admission/requiredrouteannotations/admission.go
	// (matchesDomain: filepath.Match over every pattern, a pattern that
	// does not parse skipped; hstsConfigFromRoute: spaces removed,
	// lower-cased, ';' tokens, unknown tokens ignored; meetsRequirements:
	// an unset bound or directive policy requires nothing)
	DescribeTable("how admission reads domain patterns and annotations", framework.JudgesPlatform,
		func(ctx SpecContext, c readingCase) {
			ns := f.SpecNamespace(ctx, "hsts-policy-reading")
			backend := f.ServiceWithoutPods(ctx, ns) // admission only
			base := ns + "." + f.Domain
			f.AddRequiredHSTSPolicies(ctx, inNamespace(ns, c.policies(base)))
			route := func(name string, r policyRoute) *routev1.Route {
				GinkgoHelper()
				route := edgeRouteWithHSTS(f, backend, name, r.annotation)
				route.Spec.Host = fmt.Sprintf(r.host, base)
				return route
			}
			for i, r := range c.refused {
				By(fmt.Sprintf("%s with %q is refused: %s", fmt.Sprintf(r.host, base), r.annotation, r.refusal.Rule))
				f.EventuallyRouteRefused(ctx, route(fmt.Sprintf("refused-%d", i), r), r.refusal)
			}
			for i, r := range c.admitted {
				By(fmt.Sprintf("positive control: %s with %q is admitted", fmt.Sprintf(r.host, base), r.annotation))
				f.CreateAdmittedRoute(ctx, route(fmt.Sprintf("admitted-%d", i), r))
			}
		},
		// "foo.com only matches foo.com"; the user story "verify HSTS
		// for only the domain kibana.foo.com".
		Entry("an exact pattern checks its host and no host under it", framework.ID("hsts-policy/exact-pattern-host-only"), readingCase{
			policies: func(base string) []configv1.RequiredHSTSPolicy {
				return []configv1.RequiredHSTSPolicy{{DomainPatterns: []string{base}, PreloadPolicy: configv1.RequirePreloadPolicy}}
			},
			refused:  []policyRoute{refusedAt("%s", "max-age=1", contract.HSTSPreloadRequired)},
			admitted: []policyRoute{admittedAt("%s", "max-age=1;preload"), admittedAt("x.%s", "max-age=1")},
		}),
		Entry("*.<domain> does not cover <domain> itself", framework.ID("hsts-policy/wildcard-pattern-not-apex"), readingCase{
			policies: func(base string) []configv1.RequiredHSTSPolicy {
				return []configv1.RequiredHSTSPolicy{{DomainPatterns: []string{"*." + base}, PreloadPolicy: configv1.RequirePreloadPolicy}}
			},
			refused:  []policyRoute{refusedAt("x.%s", "max-age=1", contract.HSTSPreloadRequired)},
			admitted: []policyRoute{admittedAt("%s", "max-age=1"), admittedAt("x.%s", "max-age=1;preload")},
		}),
		// The user story "verify HSTS globally, for all TLS routes in
		// domain foo.com": *.foo.com and foo.com in one policy.
		Entry("*.<domain> and <domain> in one policy check both", framework.ID("hsts-policy/apex-and-wildcard-patterns"), readingCase{
			policies: func(base string) []configv1.RequiredHSTSPolicy {
				return []configv1.RequiredHSTSPolicy{{DomainPatterns: []string{"*." + base, base}, PreloadPolicy: configv1.RequirePreloadPolicy}}
			},
			refused: []policyRoute{
				refusedAt("%s", "max-age=1", contract.HSTSPreloadRequired),
				refusedAt("x.%s", "max-age=1", contract.HSTSPreloadRequired),
			},
			admitted: []policyRoute{admittedAt("%s", "max-age=1;preload"), admittedAt("x.%s", "max-age=1;preload")},
		}),
		// Upstream logs a pattern filepath.Match cannot parse and goes
		// on with the next.
		Entry("a pattern that is no valid glob is skipped", framework.ID("hsts-policy/invalid-pattern-skipped"), readingCase{
			policies: func(base string) []configv1.RequiredHSTSPolicy {
				return []configv1.RequiredHSTSPolicy{{DomainPatterns: []string{"[" + base, "*." + base}, PreloadPolicy: configv1.RequirePreloadPolicy}}
			},
			refused:  []policyRoute{refusedAt("x.%s", "max-age=1", contract.HSTSPreloadRequired)},
			admitted: []policyRoute{admittedAt("other-%s", "max-age=1"), admittedAt("x.%s", "max-age=1;preload")},
		}),
		Entry("no smallestMaxAge: no lower limit", framework.ID("hsts-policy/no-smallest-max-age"), readingCase{
			policies: func(base string) []configv1.RequiredHSTSPolicy {
				return []configv1.RequiredHSTSPolicy{{DomainPatterns: []string{"*." + base}, MaxAge: configv1.MaxAgePolicy{LargestMaxAge: ptr.To[int32](1000)}}}
			},
			refused:  []policyRoute{refusedAt("x.%s", "max-age=1001", contract.HSTSMaxAgeGreater(1000))},
			admitted: []policyRoute{admittedAt("x.%s", "max-age=0")},
		}),
		Entry("no preloadPolicy or includeSubDomainsPolicy: either directive, or none", framework.ID("hsts-policy/directive-policies-unset"), readingCase{
			policies: wildcard(maxAge(1, 1000)),
			refused:  []policyRoute{refusedAt("x.%s", "max-age=1001", contract.HSTSMaxAgeGreater(1000))},
			admitted: []policyRoute{admittedAt("x.%s", "max-age=1;preload;includeSubDomains"), admittedAt("y.%s", "max-age=1")},
		}),
		Entry("spaces in the annotation are ignored", framework.ID("hsts-policy/spaces-ignored"), readingCase{
			policies: wildcard(func(p *configv1.RequiredHSTSPolicy) {
				maxAge(0, 1000)(p)
				p.PreloadPolicy = configv1.RequirePreloadPolicy
			}),
			refused:  []policyRoute{refusedAt("x.%s", "max-age = 5000 ; preload", contract.HSTSMaxAgeGreater(1000))},
			admitted: []policyRoute{admittedAt("x.%s", "max-age = 500 ; preload")},
		}),
		// The router sends no header for such a value
		// (hsts/unknown-directive-no-header): admission and router read
		// the annotation differently.
		Entry("directives other than max-age, includeSubDomains and preload are ignored", framework.ID("hsts-policy/unknown-directives-ignored"), readingCase{
			policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequirePreloadPolicy }),
			refused:  []policyRoute{refusedAt("x.%s", "max-age=1;always", contract.HSTSPreloadRequired)},
			admitted: []policyRoute{admittedAt("x.%s", "max-age=1;preload;always")},
		}),
	)

	// A policy without a namespaceSelector applies to every namespace:
	// here one unlabelled and one labelled for nothing the policy
	// knows. Its one pattern covers only hosts under this spec's own
	// base domain, so it touches no other spec's routes.
	//
	// Document: the HSTS admission enhancement, sections "Provide HSTS
	// verification per-domain" (RequiredHSTSPolicy.NamespaceSelector:
	// "Defaults to the empty LabelSelector, which matches everything")
	// and "Testing" ("validated if no namespaceSelector is in effect")
	// Upstream: openshift/openshift-apiserver
	// pkg/route/apiserver/admission/requiredrouteannotations/admission.go
	// (matchesNamespaceSelector: a nil selector matches)
	It("applies a policy without a namespaceSelector in every namespace", framework.ID("hsts-policy/no-namespace-selector"), framework.JudgesPlatform, func(ctx SpecContext) {
		first := f.SpecNamespace(ctx, "hsts-policy-any-ns")
		second := f.SpecNamespaceWithLabels(ctx, "hsts-policy-any-ns", map[string]string{"hsts-policy-test": "unrelated"})
		base := first + "." + f.Domain // no other spec's host is under it
		f.AddRequiredHSTSPolicies(ctx, []configv1.RequiredHSTSPolicy{{DomainPatterns: []string{"*." + base}, PreloadPolicy: configv1.RequirePreloadPolicy}})
		for _, ns := range []string{first, second} {
			backend := f.ServiceWithoutPods(ctx, ns) // admission only
			host := ns + "." + base
			By("namespace " + ns + ": a route without preload is refused")
			refused := edgeRouteWithHSTS(f, backend, "r", "max-age=1")
			refused.Spec.Host = host
			f.EventuallyRouteRefused(ctx, refused, contract.HSTSPreloadRequired)
			By("positive control: namespace " + ns + ": a compliant route is admitted")
			admitted := edgeRouteWithHSTS(f, backend, "r", "max-age=1;preload")
			admitted.Spec.Host = host
			f.CreateAdmittedRoute(ctx, admitted)
		}
	})

	// With no required HSTS policy at all, nothing is checked: routes
	// that any policy would refuse (no max-age; one beyond a 32-bit
	// integer) are admitted; the same routes are refused once a policy
	// covers them. Serial: the list is the cluster's, emptied for the
	// spec and put back after it.
	//
	// Document: the HSTS admission enhancement, section "Provide HSTS
	// verification per-domain" ("Note that if there are no
	// RequiredHSTSPolicies, any HSTS Policy annotation on the route is
	// valid")
	// Upstream: openshift/openshift-apiserver
	// pkg/route/apiserver/admission/requiredrouteannotations/admission.go
	// (isRouteHSTSAllowed: no requirement, nothing parsed)
	It("admits any annotation while there are no required HSTS policies", framework.ID("hsts-policy/no-policies-any-annotation"), Serial, framework.JudgesPlatform, func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "hsts-policy-none")
		backend := f.ServiceWithoutPods(ctx, ns) // admission only
		f.SetRequiredHSTSPolicies(ctx, nil)
		ing, err := f.ConfigAPI.ConfigV1().Ingresses().Get(ctx, contract.IngressConfig, metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred(), "read Ingress %s", contract.IngressConfig)
		Expect(ing.Spec.RequiredHSTSPolicies).To(BeEmpty(), "the required HSTS policies of Ingress %s", contract.IngressConfig)

		// What a policy refuses each annotation with (the control).
		cases := []struct {
			annotation string
			refusal    contract.Refusal
		}{
			{"includeSubDomains;preload", contract.HSTSMaxAgeMissingOrWrong},
			{"max-age=99999999999", contract.HSTSMaxAgeOutOfRange("99999999999")},
		}
		for i, c := range cases {
			By(fmt.Sprintf("%q: admitted", c.annotation))
			f.CreateAdmittedRoute(ctx, edgeRouteWithHSTS(f, backend, fmt.Sprintf("r-%d", i), c.annotation))
		}
		By("control: once a policy covers them, the same annotations are refused")
		f.AddRequiredHSTSPolicies(ctx, inNamespace(ns, wildcard(nil)(f.Domain)))
		for i, c := range cases {
			f.EventuallyRouteRefused(ctx, edgeRouteWithHSTS(f, backend, fmt.Sprintf("c-%d", i), c.annotation), c.refusal)
		}
	})

	// A policy whose namespaceSelector the label selector parser
	// rejects (an unknown operator, which the Ingress CRD's schema
	// lets through) is no policy to skip: a route that reaches it is
	// refused with the parser's error. A route that an earlier policy
	// decides never reaches it (the positive control). Serial: a policy
	// that cannot be parsed is reached by every other spec's routes.
	//
	// Document: the HSTS admission enhancement, section "Provide HSTS
	// verification per-domain" (the admission code it lists:
	// requiredNamespaceDomainMatchesRoute's error is returned)
	// Upstream: openshift/openshift-apiserver
	// pkg/route/apiserver/admission/requiredrouteannotations/admission.go
	// (isRouteHSTSAllowed: the error of requiredNamespaceDomainMatchesRoute
	// is the refusal; matchesNamespaceSelector:
	// metav1.LabelSelectorAsSelector)
	It("refuses a route that reaches a policy whose namespaceSelector cannot be parsed", framework.ID("hsts-policy/unparsable-namespace-selector-refuses"), Serial, framework.JudgesPlatform, func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "hsts-policy-bad-selector")
		backend := f.ServiceWithoutPods(ctx, ns) // admission only
		base := ns + "." + f.Domain
		decided := "decided." + base
		f.AddRequiredHSTSPolicies(ctx, []configv1.RequiredHSTSPolicy{
			{DomainPatterns: []string{decided}, NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: ns}}},
			{DomainPatterns: []string{"*." + base}, NamespaceSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "hsts", Operator: "Bogus"}}}},
		})
		refused := edgeRouteWithHSTS(f, backend, "r", "max-age=1")
		refused.Spec.Host = "r." + base
		f.EventuallyRouteRefused(ctx, refused, contract.HSTSNamespaceSelectorUnparsable("Bogus"))
		By("positive control: a route the first policy decides is admitted")
		admitted := edgeRouteWithHSTS(f, backend, "decided", "max-age=1")
		admitted.Spec.Host = decided
		f.CreateAdmittedRoute(ctx, admitted)
	})

	// Upstream parses max-age as a 32-bit integer and refuses with the
	// parser's own error; the document's MaxAgePolicy bounds are int32
	// too.
	//
	// Document: the HSTS admission enhancement, section "Provide HSTS
	// verification per-domain" (hstsConfig.maxAge int32, MaxAgePolicy's
	// Maximum=2147483647)
	// Upstream: openshift/openshift-apiserver
	// pkg/route/apiserver/admission/requiredrouteannotations/admission.go
	// (hstsConfigFromRoute: strconv.ParseInt(match[1], 10, 32), its error
	// returned as the refusal)
	It("refuses a max-age beyond a 32-bit integer", framework.ID("hsts-policy/max-age-over-int32"), framework.JudgesPlatform, func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "hsts-policy-int32")
		backend := f.ServiceWithoutPods(ctx, ns) // admission only
		f.AddRequiredHSTSPolicies(ctx, inNamespace(ns, wildcard(nil)(f.Domain)))
		f.EventuallyRouteRefused(ctx, edgeRouteWithHSTS(f, backend, "over", "max-age=2147483648"), contract.HSTSMaxAgeOutOfRange("2147483648"))
		By("positive control: the largest 32-bit max-age is admitted, under the same policy")
		f.CreateAdmittedRoute(ctx, edgeRouteWithHSTS(f, backend, "r", "max-age=2147483647"))
	})

	// Document: the HSTS admission enhancement, section "Provide HSTS
	// verification per-domain" (the admission code it lists)
	// Upstream: openshift/openshift-apiserver
	// pkg/route/apiserver/admission/requiredrouteannotations/admission.go
	// (requiredNamespaceDomainMatchesRoute: spec.host and every
	// status.ingress[].host are matched against domainPatterns)
	It("matches the domain patterns against the hosts in the route's status too", framework.ID("hsts-policy/status-hosts-matched"), framework.JudgesPlatform, func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "hsts-policy-status")
		backend := f.ServiceWithoutPods(ctx, ns) // admission only
		statusHost := "r." + ns + ".status-only." + f.Domain
		f.AddRequiredHSTSPolicies(ctx, inNamespace(ns, []configv1.RequiredHSTSPolicy{{
			DomainPatterns: []string{"*.status-only." + f.Domain},
			PreloadPolicy:  configv1.RequirePreloadPolicy,
		}}))
		route := edgeRouteWithHSTS(f, backend, "r", "max-age=1")
		By("spec.host is outside the policy, so the route is admitted")
		f.CreateAdmittedRoute(ctx, route)
		control := f.CreateAdmittedRoute(ctx, edgeRouteWithHSTS(f, backend, "control", "max-age=1"))

		By("another router reports the route under a host inside the policy")
		_, err := framework.Update(ctx, framework.StatusWriter[*routev1.Route]{Client: f.Routes.RouteV1().Routes(ns)}, route.Name, func(live *routev1.Route) {
			live.Status.Ingress = append(live.Status.Ingress, routev1.RouteIngress{Host: statusHost, RouterName: "another-router"})
		})
		Expect(err).NotTo(HaveOccurred(), "add another router's status entry for host %s to route %s/%s", statusHost, ns, route.Name)

		By("an annotation change is now checked against that host")
		f.EventuallyRouteUpdateRefused(ctx, ns, route.Name, func(r *routev1.Route) {
			r.Annotations[contract.HSTSAnnotation] = "max-age=2"
		}, contract.HSTSPreloadRequired)
		By("positive control: the same change to a route without that status host is admitted, under the same policy")
		_, err = framework.Update(ctx, f.Routes.RouteV1().Routes(ns), control.Name, func(live *routev1.Route) {
			live.Annotations[contract.HSTSAnnotation] = "max-age=2"
		})
		Expect(err).NotTo(HaveOccurred(), "the same annotation change on route %s/%s, whose hosts are all outside the policy", ns, control.Name)
	})
}
