package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
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
	compliant   string            // with refusal: an annotation the same policies admit (the positive control)
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
	GinkgoHelper()
	r := f.RouteTo(backend, name, framework.EchoHTTPPort)
	r.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
	r.Annotations = map[string]string{contract.HSTSAnnotation: hsts}
	return r
}

// policyRoute is one edge route of a readingCase: its host (a format
// whose %s is the spec's own base domain), its hsts_header annotation
// and, for a route the policies refuse, the exact refusal.
type policyRoute struct {
	host       string
	annotation string
	refusal    contract.Refusal
}

func refusedAt(host, annotation string, r contract.Refusal) policyRoute {
	return policyRoute{host: host, annotation: annotation, refusal: r}
}

func admittedAt(host, annotation string) policyRoute {
	return policyRoute{host: host, annotation: annotation}
}

// readingCase: the spec's policies over its own base domain, the routes
// they refuse (which also show the policies are in effect) and the
// routes they admit (the refusals' positive controls).
type readingCase struct {
	policies func(base string) []configv1.RequiredHSTSPolicy
	refused  []policyRoute
	admitted []policyRoute
}

// schemaCase: a required HSTS policy the Ingress config's schema refuses,
// and the same policy with a valid value in place of the bad one.
type schemaCase struct {
	control, broken map[string]any
	refusal         contract.Refusal
}

// hstsPolicyField is the path the API server names for a field of the
// first required HSTS policy.
func hstsPolicyField(field string) string { return "spec.requiredHSTSPolicies[0]." + field }

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
		describeHSTSPolicyAdmission(f)
		describeHSTSPolicyConfig(f)
		describeHSTSPolicyServed(f)
	})
}
