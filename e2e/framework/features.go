package framework

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

// ID declares a spec's stable ID, "<feature>/<short-name>", beside it:
// It(text, framework.ID("hsts/passthrough-never"), body) or
// Entry(text, framework.ID(...), params...). The spec-tree check refuses
// a spec without one, a duplicate, and one whose feature part is not the
// spec's feature.
func ID(id string) Labels {
	return Label(contract.SpecIDLabel(contract.SpecID(id)))
}

// DescribeFeature is a feature's one top-level container: its title is
// the feature's Name in contract/features.go and it carries the feature's
// label, so that the label, the title and the IDs cannot disagree.
func DescribeFeature(feature contract.Feature, args ...any) bool {
	info, ok := contract.LookupFeature(string(feature))
	if !ok {
		panic(fmt.Sprintf("DescribeFeature: %q is no feature of contract/features.go", feature))
	}
	// Offset(1): the container is where DescribeFeature is called (the
	// spec file), not here.
	return Describe(info.Name, append([]any{Label(string(feature)), Offset(1)}, args...)...)
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
			Skip(reports.NeedsFeatureReason(feature))
		}
	}
	if slices.Contains(labels, contract.DisruptiveLabel) && !f.Caps.OwnsCluster && !f.Opts.AllowDisruptive {
		Skip("disruptive: it changes cluster-wide objects of a cluster the suite did not make; run with -allow-disruptive to include it")
	}
}

// CheckSpecTree is the check of the spec tree as built (the Kubernetes e2e
// framework's validateSpecs): every spec carries at least one feature of
// the table, exactly one well-formed ID of its feature, and no label the
// suite does not know; no two specs share an ID; a spec file holds one
// feature's specs and is named after it (<label with _ for ->.go, or
// <label with _ for ->_<topic>.go when a feature's specs are split by
// topic). A dry run or PreviewSpecs gives the report.
func CheckSpecTree(report types.Report) error {
	var problems []string
	where := func(s types.SpecReport) string {
		return fmt.Sprintf("%s (%s:%d)", s.FullText(), s.LeafNodeLocation.FileName, s.LeafNodeLocation.LineNumber)
	}
	seen := map[contract.SpecID]string{}
	fileFeature := map[string]contract.Feature{}
	for _, s := range report.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		labels := s.Labels()
		for _, p := range contract.CheckSpecLabels(labels) {
			problems = append(problems, where(s)+": "+p)
		}
		if id := contract.SpecIDOf(labels); id != "" {
			if first, dup := seen[id]; dup {
				problems = append(problems, fmt.Sprintf("%s: spec ID %q is %s's already", where(s), id, first))
			} else {
				seen[id] = where(s)
			}
		}
		features := contract.FeaturesOf(labels)
		if len(features) == 0 {
			continue
		}
		file := filepath.Base(s.LeafNodeLocation.FileName)
		if got := FeatureOfSpecFile(file); got != features[0] {
			problems = append(problems, fmt.Sprintf("%s: a %s spec belongs in %s or %s_<topic>.go", where(s), features[0], SpecFile(features[0]), specFileStem(features[0])))
		}
		if other, ok := fileFeature[file]; ok && other != features[0] {
			problems = append(problems, fmt.Sprintf("%s: %s holds specs of %s and %s: one feature a file", where(s), file, other, features[0]))
		}
		fileFeature[file] = features[0]
	}
	slices.Sort(problems)
	if len(problems) > 0 {
		return fmt.Errorf("%d spec tree problem(s):\n%s", len(problems), strings.Join(problems, "\n"))
	}
	return nil
}

// SpecFile is the file of e2e/conformance that holds a feature's specs
// (or the first of them, when they are split by topic).
func SpecFile(feature contract.Feature) string {
	return specFileStem(feature) + ".go"
}

func specFileStem(feature contract.Feature) string {
	return strings.ReplaceAll(string(feature), "-", "_")
}

// FeatureOfSpecFile is the feature a spec file's name gives: the feature
// whose stem is the file's name or the longest prefix of it followed by
// _<topic> (hsts_policy.go is hsts-policy's, hsts_wildcard.go hsts's).
func FeatureOfSpecFile(file string) contract.Feature {
	name := strings.TrimSuffix(file, ".go")
	var best contract.Feature
	for _, info := range contract.Features {
		stem := specFileStem(info.Feature)
		if (name == stem || strings.HasPrefix(name, stem+"_")) && len(stem) > len(specFileStem(best)) {
			best = info.Feature
		}
	}
	return best
}

// Gated declares that a spec asserts a behaviour upstream changed between
// tracked release lines (contract/releases.go, Changes): its body reads
// the run's expectation with ByRelease, never by comparing releases. The
// spec-tree check refuses a change missing from the table.
func Gated(c contract.Change) Labels {
	return Label(contract.ChangeLabelPrefix + string(c))
}

// ByRelease is the expectation of the run's -openshift-release for a
// spec Gated by c: before on lines older than the change, after from it
// on. A spec that is not Gated by c fails here, so that the catalogue's
// list of gated specs is complete.
func ByRelease[T any](f *Framework, c contract.Change, before, after T) T {
	GinkgoHelper()
	if !slices.Contains(CurrentSpecReport().Labels(), contract.ChangeLabelPrefix+string(c)) {
		Fail(fmt.Sprintf("the spec reads behaviour change %q without declaring it: add framework.Gated(contract.%s) beside its ID", c, c))
	}
	v, err := contract.ByRelease(f.Opts.OpenShiftRelease, c, before, after)
	if err != nil {
		Fail(err.Error())
	}
	return v
}
