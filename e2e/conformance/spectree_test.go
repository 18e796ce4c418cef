package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/reports"
	"github.com/router-conformance/suite/trace"
)

// The spec tree is built once for every check: Ginkgo allows one tree per
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

// The published files `make specs` writes (UPDATE_SPECS=1), from the
// module root.
const (
	specsJSONPath = "reports/" + reports.SpecsJSON
	cataloguePath = "docs/conformance-specs.md"
)

// moduleRoot is two levels up from this package.
var moduleRoot, _ = filepath.Abs("../..")

// The spec tree as built is checked before any spec runs (the Kubernetes
// e2e framework's validateSpecs): a spec with no feature, no ID or a
// duplicate one, or in another feature's file, would be counted nowhere,
// silently skipped, or lost when its text changes.
func TestEverySpecCarriesKnownFeatureLabels(t *testing.T) {
	if len(specTree.SpecReports) == 0 {
		t.Fatal("the spec tree is empty")
	}
	if err := framework.CheckSpecTree(specTree); err != nil {
		t.Error(err)
	}
}

// reports/specs.json is the spec list this suite version publishes: the
// verifier holds a bundle to it. It must be what the tree declares; an ID
// keeps the version that introduced it, a new one gets this version's.
// `make specs` writes it anew.
func TestThePublishedSpecListIsCurrent(t *testing.T) {
	since := map[contract.SpecID]string{}
	for _, s := range reports.PublishedSpecs() {
		since[s.ID] = s.Since
	}
	var current []reports.PublishedSpec
	for _, s := range specTree.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		id := contract.SpecIDOf(s.Labels())
		spec := reports.PublishedSpec{ID: id, Name: s.FullText(), Features: contract.FeaturesOf(s.Labels()), Judges: contract.JudgedBy(s.Labels()), Since: since[id], Changes: contract.ChangesOf(s.Labels())}
		if spec.Since == "" {
			spec.Since = reports.IntroducingVersion()
		}
		current = append(current, spec)
	}
	slices.SortFunc(current, func(a, b reports.PublishedSpec) int { return strings.Compare(string(a.ID), string(b.ID)) })
	if os.Getenv("UPDATE_SPECS") == "1" {
		data, err := json.MarshalIndent(current, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(moduleRoot, specsJSONPath), append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if published := reports.PublishedSpecs(); !reflect.DeepEqual(published, current) {
		t.Errorf("%s is stale (%d specs published, %d declared): run `make specs` and commit it", specsJSONPath, len(published), len(current))
	}
}

// docs/conformance-specs.md is the catalogue a reader sees on one screen:
// every spec by ID with what it checks and what it follows. Every spec
// must cite a design document and upstream; the file must be current.
func TestTheCatalogueIsCurrent(t *testing.T) {
	entries, err := framework.Catalogue(specTree, moduleRoot)
	if err != nil {
		t.Error(err)
	}
	docs, err := trace.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := framework.CatalogueMarkdown(entries, trace.SummaryMarkdown(docs), trace.StatementsOf(docs))
	path := filepath.Join(moduleRoot, cataloguePath)
	if os.Getenv("UPDATE_SPECS") == "1" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != want {
		t.Errorf("%s is stale: run `make specs` and commit it", cataloguePath)
	}
}

// maxSpecFileLines bounds a spec file: a feature's specs are split by
// topic (<label>_<topic>.go) before a file passes it.
const maxSpecFileLines = 500

func TestNoSpecFileIsTooLong(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if framework.FeatureOfSpecFile(f) == "" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), "\n"); n > maxSpecFileLines {
			t.Errorf("%s has %d lines: split it by topic into %s_<topic>.go files of at most %d", f, n, strings.TrimSuffix(f, ".go"), maxSpecFileLines)
		}
	}
}
