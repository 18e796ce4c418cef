package reports

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// withRecord adds the suite's run record to a synthetic Ginkgo report, on
// the report node where the suite writes it.
func withRecord(g types.Report, rec RunRecord) types.Report {
	g.SpecReports = append(g.SpecReports, types.SpecReport{LeafNodeType: types.NodeTypeReportAfterSuite, LeafNodeText: "conformance report",
		State: types.SpecStatePassed, ReportEntries: types.ReportEntries{{Name: RunRecordEntry, Value: types.WrapEntryValue(rec)}}})
	return g
}

// Repeated runs: each run's verdict comes from its own report and record;
// conformance.yaml and summary.md are the worst run's, and every spec that
// failed once is listed with its failure.
func TestRepeatsMakeTheReportTheWorstRuns(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 11, 23, 5, 0, 0, 0, time.UTC)
	rec := RunRecord{Meta: Meta{Implementation: Implementation{Project: "acme-router"}, Options: map[string]string{"procs": "4"},
		Claimed: []contract.Feature{contract.FeatureHSTS}}}
	run := func(i int, state types.SpecState, record bool) string {
		g := types.Report{
			SuiteDescription: "Router conformance", SuiteSucceeded: state == types.SpecStatePassed,
			StartTime: start.Add(time.Duration(i) * time.Hour), RunTime: 61 * time.Second,
			SpecReports: types.SpecReports{
				{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"HSTS per route"}, LeafNodeText: "sets the header",
					ContainerHierarchyLabels: [][]string{{"hsts"}}, LeafNodeLabels: []string{contract.SpecIDLabel("hsts/header-set")}, State: state, NumAttempts: 1, RunTime: time.Second,
					Failure: types.Failure{Message: map[bool]string{true: "", false: "no header"}[state == types.SpecStatePassed]}},
			},
		}
		if record {
			g = withRecord(g, rec)
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
	// Run 2, the failed one, was cut short before it recorded itself.
	files := []string{run(1, types.SpecStatePassed, true), run(2, types.SpecStateFailed, false), run(3, types.SpecStatePassed, true)}
	lines, err := Repeats(dir, files)
	if err != nil || strings.Join(lines, "|") != "conformance.yaml: run 2 of 3, failed (the worst)|3 runs: 1 of 1 specs that ran failed at least once ("+filepath.Join(dir, SummaryMD)+")" {
		t.Fatalf("%q %v", lines, err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, ConformanceJSON))
	var got Report
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	hsts, _ := got.Feature(contract.FeatureHSTS)
	if got.Result != Failed || !got.Date.Equal(start.Add(2*time.Hour)) || got.Duration.String() != "1m1s" ||
		got.Implementation.Project != "acme-router" || got.Options["procs"] != "4" || len(hsts.Router.Failed) != 1 {
		t.Errorf("report: %s %v %s %+v %+v", got.Result, got.Date, got.Duration, got.Implementation, hsts)
	}
	summary, _ := os.ReadFile(filepath.Join(dir, SummaryMD))
	for _, want := range []string{"# Router conformance: FAILED\n", "The verdict above is run 2's of 3, the worst of them", "| `hsts/header-set` | HSTS per route sets the header | 2 | 1 | true |", "1. `no header`"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, summary)
		}
	}
	// A run that recorded nothing cannot be judged: no verdict is made up.
	empty := t.TempDir()
	lines, err = Repeats(empty, files[1:2])
	if err != nil || lines[0] != "no run recorded itself: conformance.yaml is not written" {
		t.Errorf("%q %v", lines, err)
	}
	if _, err := os.Stat(filepath.Join(empty, ConformanceYAML)); !os.IsNotExist(err) {
		t.Errorf("a conformance.yaml was written without a record: %v", err)
	}
}
