package framework

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"

	"github.com/router-conformance/suite/reports"
)

// SuiteVersion is the version of these specs, in every report.
const SuiteVersion = "v0.1.0"

// Features is the conformance table: every spec carries the label of the
// feature it checks. Later work keeps its rows until its specs exist.
var Features = []reports.Feature{
	{Name: "Hermetic cluster", Label: "smoke", Description: "the kind profile's cluster: node Ready, hostPort, DNS, sealed against egress", Harness: true},
	{Name: "Route terminations", Label: "router", Description: "insecure, edge, reencrypt and passthrough routes served; IngressController changes applied; admission refusals named"},
	{Name: "IngressController sharding", Label: "sharding", Description: "an IngressController with a namespaceSelector, published on its own ports (HostNetwork strategy), serves only the namespaces it selects"},
	{Name: "HSTS per route", Label: "hsts", Description: "haproxy.router.openshift.io/hsts_header on edge and reencrypt routes only"},
	{Name: "Required HSTS policies", Label: "hsts-policy", Description: "Ingress spec.requiredHSTSPolicies enforced at route admission"},
	{Name: "HTTP header actions", Label: "header-actions", Description: "IngressController and Route spec.httpHeaders.actions: Set/Delete, order, precedence, dynamic values, validation"},
	{Name: "Client TLS", Label: "client-tls", Description: "IngressController spec.clientTLS: required/optional, CRLs from distribution points, subject filters"},
	{Name: "Delegation (IngressRoute DAG)", Label: "delegation", Description: "contour.heptio.com/v1alpha1 IngressRoute: roots, delegation across namespaces, most specific prefix, orphans, cycles, TLS, status"},
	{Name: "Component routes", Label: "component-routes", Description: "Ingress spec/status.componentRoutes: the ingress operator grants the consuming service accounts read access to exactly the named Secret; a component moves its route to the custom host and the router presents the Secret's certificate"},
}

// KindFeatures are the features the hermetic profile's reference router claims.
var KindFeatures = []string{"smoke", "router", "sharding", "hsts", "hsts-policy", "header-actions", "client-tls", "component-routes", "delegation"}

// OpenShiftRouterFeatures are claimed by default for any other router
// (-router-image, or the existing profile): the OpenShift router's, which
// has no IngressRoute. A router that implements it says so with -features.
var OpenShiftRouterFeatures = []string{"smoke", "router", "sharding", "hsts", "hsts-policy", "header-actions", "client-tls", "component-routes"}

// DefaultFeatures are the features claimed when -features is not given.
// On the existing profile the suite cannot reach a new IngressController's
// ports, so sharding is not claimed there either.
func DefaultFeatures(o *Options) []string {
	switch {
	case o.Profile != KindProfile:
		return slices.DeleteFunc(slices.Clone(OpenShiftRouterFeatures), func(f string) bool { return f == "sharding" })
	case o.RouterImage != "":
		return OpenShiftRouterFeatures
	}
	return KindFeatures
}

// Claimed is the set of feature labels the run's profile claims.
func (f *Framework) Claimed() map[string]bool {
	out := map[string]bool{}
	for _, l := range f.Opts.Features {
		out[l] = true
	}
	return out
}

// FeatureOf returns the feature label of a spec (its first label that is
// a feature's), or "".
func FeatureOf(labels []string) string {
	for _, l := range labels {
		if slices.ContainsFunc(Features, func(f reports.Feature) bool { return f.Label == l }) {
			return l
		}
	}
	return ""
}

// FeaturesOf returns every feature label a spec carries.
func FeaturesOf(labels []string) []string {
	var out []string
	for _, l := range labels {
		if FeatureOf([]string{l}) != "" {
			out = append(out, l)
		}
	}
	return out
}

// SkipUnclaimed runs a spec only when the profile claims every feature it
// needs (as the Gateway API suite's ConformanceTest.Features); the report
// lists an unclaimed feature as unsupported. A spec that names no feature
// is a defect of the suite.
func (f *Framework) SkipUnclaimed() {
	needs := FeaturesOf(CurrentSpecReport().Labels())
	if len(needs) == 0 {
		Fail("this spec carries no feature label: label it with the feature(s) it needs (e2e/framework/features.go)")
	}
	for _, feature := range needs {
		if !f.Claimed()[feature] {
			Skip("needs feature " + feature + ", which this profile does not claim: reported as unsupported")
		}
	}
}
