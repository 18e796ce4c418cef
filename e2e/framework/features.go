package framework

import (
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// Needs labels a container or spec with the features it needs: it runs
// only when the run claims every one of them, and it counts under the
// first.
func Needs(features ...contract.Feature) Labels {
	out := make(Labels, len(features))
	for i, f := range features {
		out[i] = string(f)
	}
	return out
}

// JudgesPlatform labels a spec whose verdict is about the platform
// around the router (route admission, the ingress operator, a fixture
// component), not the router: the report keeps the two apart.
var JudgesPlatform = Label(contract.JudgesPlatformLabel)

// Disruptive labels a spec that changes cluster-wide objects (the default
// IngressController, the Ingress config's requiredHSTSPolicies or
// componentRoutes): openshift-tests' convention. It runs only where the
// profile owns the cluster, or with -allow-disruptive; otherwise it is
// skipped with a reason, and its feature cannot pass.
var Disruptive = Label(contract.DisruptiveLabel)

// Claimed is the set of features the run claims.
func (f *Framework) Claimed() map[contract.Feature]bool {
	out := map[contract.Feature]bool{}
	for _, l := range f.Opts.Features {
		out[l] = true
	}
	return out
}

// SkipUnrunnable runs a spec only when the run claims every feature it
// needs (as the Gateway API suite's ConformanceTest.Features; the report
// lists an unclaimed feature as unsupported), and a disruptive one only
// where disruption is allowed.
func (f *Framework) SkipUnrunnable() {
	labels := CurrentSpecReport().Labels()
	claimed := f.Claimed()
	for _, feature := range contract.FeaturesOf(labels) {
		if !claimed[feature] {
			Skip("needs feature " + string(feature) + ", which this run does not claim: reported as unsupported")
		}
	}
	if slices.Contains(labels, contract.DisruptiveLabel) && !f.Caps.OwnsCluster && !f.Opts.AllowDisruptive {
		Skip("disruptive: it changes cluster-wide objects of a cluster the suite did not make; run with -allow-disruptive to include it")
	}
}

// CheckSpecTree is the check of the spec tree as built (the Kubernetes e2e
// framework's validateSpecs): every spec carries at least one feature of
// the table and no label the suite does not know. A dry run or
// PreviewSpecs gives the report.
func CheckSpecTree(report types.Report) error {
	var problems []string
	for _, s := range report.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		for _, p := range contract.CheckSpecLabels(s.Labels()) {
			problems = append(problems, fmt.Sprintf("%s (%s:%d): %s", s.FullText(), s.LeafNodeLocation.FileName, s.LeafNodeLocation.LineNumber, p))
		}
	}
	slices.Sort(problems)
	if len(problems) > 0 {
		return fmt.Errorf("%d spec label problem(s):\n%s", len(problems), strings.Join(problems, "\n"))
	}
	return nil
}
