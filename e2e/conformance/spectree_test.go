package conformance

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/reports"
)

// The spec tree is built once for both checks: Ginkgo allows one tree per
// process.
// PreviewSpecs runs the report nodes too: their files go to a temporary
// directory, never into the tree.
var specTree = func() types.Report {
	opts := framework.DefaultOptions()
	dir, err := os.MkdirTemp("", "spectree")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	opts.ReportDir = dir
	if _, err := Declare(opts); err != nil {
		panic(err)
	}
	return PreviewSpecs(SuiteName)
}()

// The spec tree as built is checked before any spec runs (the Kubernetes
// e2e framework's validateSpecs): a spec with no feature, or with a label
// the conformance table does not know, would be counted nowhere or
// silently skipped.
func TestEverySpecCarriesKnownFeatureLabels(t *testing.T) {
	if len(specTree.SpecReports) == 0 {
		t.Fatal("the spec tree is empty")
	}
	if err := framework.CheckSpecTree(specTree); err != nil {
		t.Error(err)
	}
}

// reports/specs.json is the spec list this suite version publishes: the
// verifier holds a bundle to it. It must be what the tree declares;
// `make specs` writes it anew.
func TestThePublishedSpecListIsCurrent(t *testing.T) {
	var current []reports.PublishedSpec
	for _, s := range specTree.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		current = append(current, reports.PublishedSpec{Name: s.FullText(), Features: contract.FeaturesOf(s.Labels()), Judges: contract.JudgedBy(s.Labels())})
	}
	sort.Slice(current, func(i, j int) bool { return current[i].Name < current[j].Name })
	if os.Getenv("UPDATE_SPECS") == "1" {
		data, err := json.MarshalIndent(current, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("../../reports/"+reports.SpecsJSON, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if published := reports.PublishedSpecs(); !reflect.DeepEqual(published, current) {
		t.Errorf("reports/specs.json is stale (%d specs published, %d declared): run `make specs` and commit it", len(published), len(current))
	}
}
