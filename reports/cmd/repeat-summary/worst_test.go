package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

func TestWorstMakesTheConformanceReportTheWorstRuns(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 11, 23, 5, 0, 0, 0, time.UTC)
	run := func(i int, state types.SpecState) string {
		g := types.Report{
			SuiteDescription: "Router conformance", SuiteSucceeded: state == types.SpecStatePassed,
			StartTime: start.Add(time.Duration(i) * time.Hour), RunTime: 61 * time.Second,
			SpecReports: types.SpecReports{
				{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"HSTS per route"}, LeafNodeText: "sets the header",
					ContainerHierarchyLabels: [][]string{{"hsts"}}, LeafNodeLabels: []string{id("hsts/header-set")}, State: state, NumAttempts: 1, Failure: types.Failure{Message: map[bool]string{true: "", false: "no header"}[state == types.SpecStatePassed]}},
			},
		}
		data, err := json.Marshal([]types.Report{g})
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "report-"+string(rune('0'+i))+".json")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	files := []string{run(1, types.SpecStatePassed), run(2, types.SpecStateFailed), run(3, types.SpecStatePassed)}

	if msg, err := worst(dir, files); err != nil || msg != "no run wrote conformance.json" {
		t.Errorf("without a report: %q %v", msg, err)
	}
	// The last run's report: passed (the claims make it partial: one
	// feature's spec only; what matters is that it is not the worst).
	meta := reports.Meta{Implementation: reports.Implementation{Project: "acme-router"}, Options: map[string]string{"procs": "4"},
		Date: start.Add(3 * time.Hour)}
	last := reports.Build(meta, []contract.Feature{contract.FeatureHSTS}, []reports.SpecResult{
		{ID: "hsts/header-set", Name: "HSTS per route sets the header", Labels: []string{"hsts", id("hsts/header-set")}, State: reports.Passed}}, reports.RunOutcome{})
	if last.Result != reports.Partial {
		t.Fatalf("the last run's report: %s (%s), want partial", last.Result, last.Reason)
	}
	if err := last.Write(dir); err != nil {
		t.Fatal(err)
	}
	msg, err := worst(dir, files)
	if err != nil || msg != "conformance.yaml: run 2 of 3, failed (the worst)" {
		t.Fatalf("%q %v", msg, err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, reports.ConformanceJSON))
	var got reports.Report
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	hsts, _ := got.Feature(contract.FeatureHSTS)
	if got.Result != reports.Failed || !got.Date.Equal(start.Add(2*time.Hour)) || got.Duration.String() != "1m1s" ||
		got.Implementation.Project != "acme-router" || got.Options["procs"] != "4" || len(hsts.Router.Failed) != 1 {
		t.Errorf("report: %s %v %s %+v %+v", got.Result, got.Date, got.Duration, got.Implementation, hsts)
	}
	summary, _ := os.ReadFile(filepath.Join(dir, reports.SummaryMD))
	if !strings.HasPrefix(string(summary), "# Router conformance: FAILED\n") || !strings.Contains(string(summary), "The verdict above is run 2's of 3, the worst of them") {
		t.Errorf("summary.md:\n%s", summary)
	}
}
