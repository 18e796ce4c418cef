package contract

import (
	"fmt"
	"slices"
	"strings"
)

// Feature is a conformance feature, by the Ginkgo label its specs carry.
// The table below is the only place features are defined: the specs, the
// profiles' default claims, the report and the verifier all read it. A
// feature has one name: its label is its constant's suffix, its spec file
// (e2e/conformance/<label with _ for ->.go) and the first part of its
// specs' IDs; Name is the title its specs' Describe shows.
type Feature string

// The features of the conformance table.
const (
	FeatureSmoke            Feature = "smoke"
	FeatureRouter           Feature = "router"
	FeatureSharding         Feature = "sharding"
	FeatureHSTS             Feature = "hsts"
	FeatureHSTSPolicy       Feature = "hsts-policy"
	FeatureHeaderActions    Feature = "header-actions"
	FeatureClientTLS        Feature = "client-tls"
	FeatureDelegation       Feature = "delegation"
	FeatureComponentRoutes  Feature = "component-routes"
	FeatureRouteAnnotations Feature = "route-annotations"
)

// Level is how much of the API a feature is, as Gateway API's conformance
// levels: every OpenShift-style router implements the core features (the
// Route API itself); extended ones are claimed when implemented.
type Level string

const (
	Core     Level = "core"
	Extended Level = "extended"
)

// Needs is what a feature needs of the profile or the router beyond the
// Route API, so that a profile's default claims follow from the table.
type Needs struct {
	// KindHarness: the kind profile's own node, port mappings and seal.
	KindHarness bool `json:"kindHarness,omitempty"`
	// OwnIngressControllers: an IngressController of the spec's own that
	// the suite can reach (sharding).
	OwnIngressControllers bool `json:"ownIngressControllers,omitempty"`
	// ReferenceRouter: only the reference router implements it by
	// default (the IngressRoute API, which the OpenShift router lacks);
	// another router claims it with -features.
	ReferenceRouter bool `json:"referenceRouter,omitempty"`
}

// FeatureInfo is one row of the conformance table.
type FeatureInfo struct {
	Feature     Feature `json:"label"`
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Level       Level   `json:"level"`
	// Harness marks a check of the test environment, not of the router:
	// reported apart, never part of a router's verdict.
	Harness bool  `json:"harness,omitempty"`
	Needs   Needs `json:"needs,omitempty"`
	// OpenShiftSince is the first tracked release line (contract/releases.go)
	// whose upstream has the feature; empty: every tracked line has it, or
	// it is no OpenShift API (delegation). A run against an older line
	// reports the feature unsupported, never failed.
	OpenShiftSince Release `json:"openshiftSince,omitempty"`
}

// Features is the conformance table, in report order.
var Features = []FeatureInfo{
	{Feature: FeatureRouter, Name: "Router", Level: Core,
		Description: "insecure, edge, reencrypt and passthrough routes served; insecureEdgeTerminationPolicy; who owns a host (the oldest route's namespace, one route a path, passthrough never beside a path-based TLS route: HostAlreadyClaimed in upstream's words)"},
	{Feature: FeatureHSTS, Name: "HSTS per route", Level: Core,
		Description: "haproxy.router.openshift.io/hsts_header on edge and reencrypt routes only"},
	{Feature: FeatureHeaderActions, Name: "HTTP header actions", Level: Core,
		Description: "IngressController and Route spec.httpHeaders.actions: Set/Delete, order, precedence, dynamic values, validation; the forwarded headers (forwardedHeaderPolicy, the set-forwarded-headers annotation); what every frontend strips or refuses (X-SSL*, Proxy, an empty Content-Length)"},
	{Feature: FeatureSharding, Name: "IngressController sharding", Level: Extended, Needs: Needs{OwnIngressControllers: true},
		Description: "an IngressController with a namespaceSelector, published on its own ports (HostNetwork strategy), serves only the namespaces it selects"},
	{Feature: FeatureHSTSPolicy, Name: "Required HSTS policies", Level: Extended,
		Description: "Ingress spec.requiredHSTSPolicies enforced at route admission"},
	{Feature: FeatureClientTLS, Name: "Client TLS", Level: Extended,
		Description: "IngressController spec.clientTLS: required/optional, CRLs from distribution points, subject filters"},
	{Feature: FeatureComponentRoutes, Name: "Component routes", Level: Extended,
		Description: "Ingress spec/status.componentRoutes: the ingress operator grants the consuming service accounts read access to exactly the named Secret; a component moves its route to the custom host and the router presents the Secret's certificate"},
	{Feature: FeatureRouteAnnotations, Name: "Route annotations", Level: Extended,
		Description: "the per-route settings of OpenShift's route annotations: the server and tunnel timeouts, the path rewrite, the source allowlist; a value the router cannot read is ignored, never refused"},
	{Feature: FeatureDelegation, Name: "Delegation (IngressRoute)", Level: Extended, Needs: Needs{ReferenceRouter: true},
		Description: "contour.heptio.com/v1alpha1 IngressRoute: roots, delegation across namespaces, most specific prefix, orphans, cycles, TLS, status"},
	{Feature: FeatureSmoke, Name: "Smoke (the hermetic kind cluster)", Level: Extended, Harness: true, Needs: Needs{KindHarness: true},
		Description: "the kind profile's cluster: node Ready, hostPort, DNS, sealed against egress"},
}

// LookupFeature returns the table's row for a label.
func LookupFeature(label string) (FeatureInfo, bool) {
	i := slices.IndexFunc(Features, func(f FeatureInfo) bool { return string(f.Feature) == label })
	if i < 0 {
		return FeatureInfo{}, false
	}
	return Features[i], true
}

// CoreFeatures are the features every router must claim for a passed
// verdict.
func CoreFeatures() []Feature {
	var out []Feature
	for _, f := range Features {
		if f.Level == Core && !f.Harness {
			out = append(out, f.Feature)
		}
	}
	return out
}

// Labels a spec may carry besides its features.
const (
	// JudgesPlatformLabel marks a spec that judges the platform around the
	// router (route admission, the ingress operator, a fixture component),
	// not the router: on the kind profile the suite's own stand-ins answer
	// it. A spec without it judges the router.
	JudgesPlatformLabel = "judges:platform"
	// DisruptiveLabel marks a spec that changes cluster-wide objects
	// (openshift-tests' convention).
	DisruptiveLabel = "Disruptive"
)

// ginkgoSerialLabel is the label Ginkgo gives a Serial spec.
const ginkgoSerialLabel = "Serial"

// Judged is what a spec's verdict is about.
type Judged string

const (
	JudgesRouter   Judged = "router"
	JudgesPlatform Judged = "platform"
)

// JudgedBy reads what a spec judges from its labels.
func JudgedBy(labels []string) Judged {
	if slices.Contains(labels, JudgesPlatformLabel) {
		return JudgesPlatform
	}
	return JudgesRouter
}

// FeaturesOf returns the feature labels among a spec's labels, in order.
func FeaturesOf(labels []string) []Feature {
	var out []Feature
	for _, l := range labels {
		if _, ok := LookupFeature(l); ok {
			out = append(out, Feature(l))
		}
	}
	return out
}

// CheckSpecLabels says what is wrong with a spec's labels: no feature, no
// ID or several, an ID not of the spec's (first) feature, or a label that
// is neither a feature, an ID nor one of the labels above.
func CheckSpecLabels(labels []string) []string {
	var problems []string
	features := FeaturesOf(labels)
	if len(features) == 0 {
		problems = append(problems, "carries no feature label (contract/features.go)")
	}
	switch ids := SpecIDsOf(labels); {
	case len(ids) == 0:
		problems = append(problems, "carries no spec ID (framework.ID(\"<feature>/<short-name>\"))")
	case len(ids) > 1:
		problems = append(problems, fmt.Sprintf("carries %d spec IDs %v: one each", len(ids), ids))
	default:
		if err := ids[0].Validate(); err != nil {
			problems = append(problems, err.Error())
		} else if len(features) > 0 && ids[0].Feature() != features[0] {
			problems = append(problems, fmt.Sprintf("spec ID %q is not of the spec's feature %s", ids[0], features[0]))
		}
	}
	for _, l := range labels {
		if _, ok := LookupFeature(l); ok || isSpecIDLabel(l) || l == JudgesPlatformLabel || l == DisruptiveLabel || l == ginkgoSerialLabel {
			continue
		}
		if c, ok := strings.CutPrefix(l, ChangeLabelPrefix); ok {
			if _, known := LookupChange(Change(c)); !known {
				problems = append(problems, fmt.Sprintf("names behaviour change %q, which is not in contract/releases.go's Changes", c))
			}
			continue
		}
		problems = append(problems, "label "+`"`+l+`"`+" is no feature of contract/features.go and no known label")
	}
	return problems
}
