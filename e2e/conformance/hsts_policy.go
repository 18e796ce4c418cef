package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// policyCase: the cluster's policies, the route's namespace labels, the
// route, and the exact refusal ("" = admitted).
type policyCase struct {
	policies    func(domain string) []configv1.RequiredHSTSPolicy
	nsLabels    map[string]string
	subdomain   string // prepended to the route's unique host
	termination routev1.TLSTerminationType
	annotation  *string
	refusal     *contract.Refusal // nil: admitted
}

func annotation(v string) *string { return &v }

func wildcard(mod func(*configv1.RequiredHSTSPolicy)) func(string) []configv1.RequiredHSTSPolicy {
	return func(domain string) []configv1.RequiredHSTSPolicy {
		p := configv1.RequiredHSTSPolicy{DomainPatterns: []string{"*." + domain}}
		if mod != nil {
			mod(&p)
		}
		return []configv1.RequiredHSTSPolicy{p}
	}
}

func maxAge(smallest, largest int32) func(*configv1.RequiredHSTSPolicy) {
	return func(p *configv1.RequiredHSTSPolicy) {
		p.MaxAge = configv1.MaxAgePolicy{SmallestMaxAge: ptr.To(smallest), LargestMaxAge: ptr.To(largest)}
	}
}

func refused(r contract.Refusal) *contract.Refusal { return &r }

// inNamespace scopes policies to namespace ns, on top of any selector
// they have: a policy applies only when its namespaceSelector and a domain
// pattern both match, and the first that applies decides
// (openshift-apiserver pkg/route/apiserver/admission/requiredrouteannotations/admission.go,
// isRouteHSTSAllowed). So another spec's policies never apply to this
// spec's routes, and the order of a spec's own policies still decides.
func inNamespace(ns string, policies []configv1.RequiredHSTSPolicy) []configv1.RequiredHSTSPolicy {
	for i := range policies {
		sel := policies[i].NamespaceSelector
		if sel == nil {
			sel = &metav1.LabelSelector{}
		}
		sel = sel.DeepCopy()
		if sel.MatchLabels == nil {
			sel.MatchLabels = map[string]string{}
		}
		sel.MatchLabels[corev1.LabelMetadataName] = ns
		policies[i].NamespaceSelector = sel
	}
	return policies
}

// edgeRouteWithHSTS is an edge route to the backend carrying the
// hsts_header annotation.
func edgeRouteWithHSTS(f *framework.Framework, backend *framework.Echo, name, hsts string) *routev1.Route {
	r := f.RouteTo(backend, name, framework.EchoHTTPPort)
	r.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
	r.Annotations = map[string]string{contract.HSTSAnnotation: hsts}
	return r
}

// The HSTS admission enhancement (global-options-enable-hsts), section
// "Provide HSTS verification per-domain": spec.requiredHSTSPolicies of
// Ingress "cluster", enforced when a route is admitted (upstream:
// openshift-apiserver
// pkg/route/apiserver/admission/requiredrouteannotations/admission.go).
// The cluster has one Ingress, but every spec's
// policies select its own namespace only (inNamespace), so the specs run
// in parallel.
func describeHSTSPolicy(f *framework.Framework) {
	// Every spec adds policies to the cluster's Ingress config (scoped to
	// its own namespace, removed when it ends): Disruptive on a cluster
	// the suite did not make.
	framework.DescribeFeature(contract.FeatureHSTSPolicy, framework.Disruptive, func() {
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
				f.AddRequiredHSTSPolicies(ctx, inNamespace(ns, c.policies(f.Domain)))
				route := f.RouteTo(backend, "r", framework.EchoHTTPPort)
				route.Spec.Host = c.subdomain + route.Spec.Host
				if c.termination != "" {
					route.Spec.TLS = &routev1.TLSConfig{Termination: c.termination}
				}
				if c.annotation != nil {
					route.Annotations = map[string]string{contract.HSTSAnnotation: *c.annotation}
				}
				if c.refusal == nil {
					f.CreateAdmittedRoute(ctx, route)
					return
				}
				By("positive control: a compliant route in the same namespace is admitted")
				f.CreateAdmittedRoute(ctx, f.RouteTo(backend, "control", framework.EchoHTTPPort))
				f.EventuallyRouteRefused(ctx, route, *c.refusal)
			},
			Entry("max-age inside the range", framework.ID("hsts-policy/max-age-in-range"), policyCase{policies: wildcard(maxAge(100, 1000)), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1000")}),
			Entry("max-age above the range", framework.ID("hsts-policy/max-age-above-range"), policyCase{policies: wildcard(maxAge(100, 1000)), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1001"), refusal: refused(contract.HSTSMaxAgeGreater(1000))}),
			Entry("max-age below the range", framework.ID("hsts-policy/max-age-below-range"), policyCase{policies: wildcard(maxAge(100, 1000)), termination: routev1.TLSTerminationReencrypt, annotation: annotation("max-age=99"), refusal: refused(contract.HSTSMaxAgeLess(100))}),
			Entry("no annotation in a required domain", framework.ID("hsts-policy/missing-annotation"), policyCase{policies: wildcard(maxAge(100, 1000)), termination: routev1.TLSTerminationEdge, refusal: refused(contract.HSTSMaxAgeMissingOrWrong)}),
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
			Entry(`a quoted max-age (the code, not the prose)`, framework.ID("hsts-policy/quoted-max-age-refused"), policyCase{policies: wildcard(nil), termination: routev1.TLSTerminationEdge, annotation: annotation(`max-age="500"`), refusal: refused(contract.HSTSMaxAgeMissingOrWrong)}),
			Entry("a wildcard pattern matches across dots (filepath.Match)", framework.ID("hsts-policy/wildcard-across-dots"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequirePreloadPolicy }), subdomain: "deep.", termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1"), refusal: refused(contract.HSTSPreloadRequired)}),
			Entry("an exact pattern for another host does not apply", framework.ID("hsts-policy/exact-pattern-other-host"), policyCase{policies: func(domain string) []configv1.RequiredHSTSPolicy {
				return []configv1.RequiredHSTSPolicy{{DomainPatterns: []string{"exact." + domain}, PreloadPolicy: configv1.RequirePreloadPolicy}}
			}, termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1")}),
			Entry("RequirePreload met", framework.ID("hsts-policy/require-preload-met"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequirePreloadPolicy }), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1;preload")}),
			Entry("RequirePreload unmet", framework.ID("hsts-policy/require-preload-unmet"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequirePreloadPolicy }), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1"), refusal: refused(contract.HSTSPreloadRequired)}),
			Entry("RequireNoPreload", framework.ID("hsts-policy/require-no-preload"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequireNoPreloadPolicy }), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1;preload"), refusal: refused(contract.HSTSPreloadForbidden)}),
			Entry("RequireIncludeSubDomains", framework.ID("hsts-policy/require-include-subdomains"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.IncludeSubDomainsPolicy = configv1.RequireIncludeSubDomains }), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1"), refusal: refused(contract.HSTSIncludeSubDomainsReq)}),
			Entry("RequireNoIncludeSubDomains", framework.ID("hsts-policy/require-no-include-subdomains"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) { p.IncludeSubDomainsPolicy = configv1.RequireNoIncludeSubDomains }), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1;includeSubDomains"), refusal: refused(contract.HSTSIncludeSubDomainsFor)}),
			Entry("NoOpinion allows either", framework.ID("hsts-policy/no-opinion-allows-either"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) {
				p.PreloadPolicy, p.IncludeSubDomainsPolicy = configv1.NoOpinionPreloadPolicy, configv1.NoOpinionIncludeSubDomains
			}), termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1;includeSubDomains;preload")}),
			Entry("namespaceSelector matches", framework.ID("hsts-policy/namespace-selector-matches"), policyCase{policies: wildcard(func(p *configv1.RequiredHSTSPolicy) {
				p.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"hsts": "strict"}}
				p.PreloadPolicy = configv1.RequirePreloadPolicy
			}), nsLabels: map[string]string{"hsts": "strict"}, termination: routev1.TLSTerminationEdge, annotation: annotation("max-age=1"), refusal: refused(contract.HSTSPreloadRequired)}),
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
				By("an update that leaves the annotation alone is admitted")
				_, err := framework.Update(ctx, f.Routes.RouteV1().Routes(ns), route.Name, func(live *routev1.Route) {
					live.Labels = map[string]string{"touched": "yes"}
				})
				Expect(err).NotTo(HaveOccurred(), "an update of route %s/%s that leaves the HSTS annotation alone", ns, route.Name)

				By("an update that changes the annotation is checked")
				f.EventuallyRouteUpdateRefused(ctx, ns, route.Name, func(r *routev1.Route) {
					r.Annotations[contract.HSTSAnnotation] = "max-age=4000"
				}, contract.HSTSMaxAgeGreater(1000))

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
			By("positive control: the largest 32-bit max-age is admitted")
			f.CreateAdmittedRoute(ctx, edgeRouteWithHSTS(f, backend, "r", "max-age=2147483647"))
			f.EventuallyRouteRefused(ctx, edgeRouteWithHSTS(f, backend, "over", "max-age=2147483648"), contract.HSTSMaxAgeOutOfRange("2147483648"))
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
			By("positive control: spec.host is outside the policy, so the route is admitted")
			f.CreateAdmittedRoute(ctx, route)

			By("another router reports the route under a host inside the policy")
			_, err := framework.Update(ctx, framework.StatusWriter[*routev1.Route]{Client: f.Routes.RouteV1().Routes(ns)}, route.Name, func(live *routev1.Route) {
				live.Status.Ingress = append(live.Status.Ingress, routev1.RouteIngress{Host: statusHost, RouterName: "another-router"})
			})
			Expect(err).NotTo(HaveOccurred(), "add another router's status entry for host %s to route %s/%s", statusHost, ns, route.Name)

			By("an annotation change is now checked against that host")
			f.EventuallyRouteUpdateRefused(ctx, ns, route.Name, func(r *routev1.Route) {
				r.Annotations[contract.HSTSAnnotation] = "max-age=2"
			}, contract.HSTSPreloadRequired)
		})
	})
}
