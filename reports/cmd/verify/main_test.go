package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

// A run of every published spec, all passed, bundled and verified with
// this suite's own list and version: the line and the exit status.
func TestVerifyPrintsOneLineAndExits(t *testing.T) {
	dir := t.TempDir()
	g := types.Report{SuiteSucceeded: true}
	for _, s := range reports.PublishedSpecs() {
		labels := make([]string, 0, len(s.Features)+1)
		for _, f := range s.Features {
			labels = append(labels, string(f))
		}
		if s.Judges == contract.JudgesPlatform {
			labels = append(labels, contract.JudgesPlatformLabel)
		}
		g.SpecReports = append(g.SpecReports, types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: s.Name, LeafNodeLabels: labels, State: types.SpecStatePassed})
	}
	var claimed []contract.Feature
	for _, f := range contract.Features {
		claimed = append(claimed, f.Feature)
	}
	meta := reports.Meta{
		Implementation: reports.Implementation{Organization: "Acme", Project: "acme-router", URL: "https://acme.example", Version: "1.2.3", Contact: []string{"@acme"}},
		Suite:          reports.Suite{Module: reports.SuiteModule, Version: reports.SuiteVersion, Commit: "0123abc"},
		Profile:        "kind", Date: time.Unix(0, 0).UTC(),
	}
	specs, outcome := reports.FromGinkgo(g)
	r := reports.Build(meta, claimed, specs, outcome)
	if err := r.Write(dir); err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal([]types.Report{g})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "report.json"), j, 0o644); err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(dir, "bundle.tar.gz")
	if err := reports.WriteBundle(dir, bundle, []string{"conformance.yaml", "report.json", "summary.md"}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	status := run(bundle, &out)
	wantStatus := 2
	if r.Passed() {
		wantStatus = 0
	}
	if want := "OK: acme-router 1.2.3: " + string(r.Result) + "\n"; out.String() != want || status != wantStatus {
		t.Errorf("%q exit %d, want %q exit %d", out.String(), status, want, wantStatus)
	}

	// The same run claimed dirty: one FAIL line, exit 1.
	meta.Suite.Dirty = true
	if err := reports.Build(meta, claimed, specs, outcome).Write(dir); err != nil {
		t.Fatal(err)
	}
	if err := reports.WriteBundle(dir, bundle, []string{"conformance.yaml", "report.json"}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if status := run(bundle, &out); out.String() != "FAIL: the suite was built from a dirty or unknown tree (commit 0123abc)\n" || status != 1 {
		t.Errorf("%q exit %d", out.String(), status)
	}
}
