package framework

import "github.com/router-conformance/suite/contract"

// Capabilities are what a profile answers for, known before the cluster is
// up (the spec tree is built from them): the specs never ask which profile
// they run on.
type Capabilities struct {
	// Profile names the profile in the report.
	Profile string
	// OwnIngressControllers: the profile publishes an IngressController
	// of a spec's own to the test process, so specs that change one run
	// in parallel; without it they change the default one, Serial.
	OwnIngressControllers bool
	// MaxParallel is the most parallel processes the profile has ports
	// for (0: no limit).
	MaxParallel int
	// KindHarness: the profile's own node, port mappings and seal can be
	// checked (the hermetic cluster's smoke specs).
	KindHarness bool
	// OwnsCluster: the profile made the cluster for this run, so specs may
	// change its cluster-wide objects (Disruptive) without asking.
	OwnsCluster bool
	// ReferenceRouter: the router under test is the suite's own.
	ReferenceRouter bool
	// Platform says who answers the specs that judge the platform (route
	// admission, the ingress operator, fixture components), in the
	// report's words.
	Platform string
}

// DefaultFeatures are the table's features these capabilities can claim.
func (c Capabilities) DefaultFeatures() []contract.Feature {
	var out []contract.Feature
	for _, f := range contract.Features {
		n := f.Needs
		if n.KindHarness && !c.KindHarness || n.OwnIngressControllers && !c.OwnIngressControllers || n.ReferenceRouter && !c.ReferenceRouter {
			continue
		}
		out = append(out, f.Feature)
	}
	return out
}
