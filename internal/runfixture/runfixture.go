// Package runfixture makes the report directory of a synthetic
// certification run as the suite and Ginkgo write it — report.json with
// the suite's run record, junit.xml, the console (e2e.log) and the
// conformance report — for the tests of the commands that bundle and
// verify runs.
package runfixture

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

// Commit is the suite commit the fixture's record names.
const Commit = "0123abc"

// Record is the record of a certification run of every feature of acme-router,
// by this build's suite version at Commit, on a cluster's own platform.
func Record() reports.RunRecord {
	var claimed []contract.Feature
	for _, f := range contract.Features {
		claimed = append(claimed, f.Feature)
	}
	return reports.RunRecord{
		Meta: reports.Meta{
			Implementation: reports.Implementation{
				Organization: "Acme", Project: "acme-router", URL: "https://acme.example/router", Version: "1.2.3",
				Contact: []string{"@acme/router-team"}, Image: "registry.example/acme/router:1.2.3",
				ImageID: "sha256:" + string(bytes.Repeat([]byte("e"), 64)),
			},
			Suite:             reports.Suite{Module: reports.SuiteModule, Version: reports.SuiteVersion, Commit: Commit},
			Profile:           "existing",
			OpenShiftRelease:  contract.DefaultRelease,
			Platform:          reports.PlatformCluster,
			KubernetesVersion: "v1.33.13",
			Claimed:           claimed,
			Options:           map[string]string{"procs": "4"},
			Date:              time.Date(2026, 11, 23, 5, 0, 0, 0, time.UTC),
			Duration:          reports.Duration(370 * time.Second),
		},
		Certify:  true,
		Timeouts: contract.CertificationTimeouts(),
	}
}

// Run is a run of every spec of the published list, all passed, each
// labelled as the list says (its features, what it judges, its ID), with
// the record on the suite's "conformance report" node.
func Run(published []reports.PublishedSpec, rec reports.RunRecord) types.Report {
	g := types.Report{
		SuiteDescription: "Router conformance", SuitePath: "/src/suite/e2e", SuiteSucceeded: true,
		StartTime: rec.Date, RunTime: time.Duration(rec.Duration),
		PreRunStats: types.PreRunStats{TotalSpecs: len(published), SpecsThatWillRun: len(published)},
		SuiteConfig: types.SuiteConfig{ParallelTotal: 4, Timeout: rec.Timeouts.Run},
	}
	loc := types.CodeLocation{FileName: "/src/suite/e2e/conformance/spec.go", LineNumber: 1}
	for _, s := range published {
		labels := make([]string, 0, len(s.Features)+2)
		for _, f := range s.Features {
			labels = append(labels, string(f))
		}
		if s.Judges == contract.JudgesPlatform {
			labels = append(labels, contract.JudgesPlatformLabel)
		}
		if s.ID != "" {
			labels = append(labels, contract.SpecIDLabel(s.ID))
		}
		for _, c := range s.Changes {
			labels = append(labels, contract.ChangeLabelPrefix+string(c))
		}
		g.SpecReports = append(g.SpecReports, types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: s.Name, LeafNodeLabels: labels,
			LeafNodeLocation: loc, State: types.SpecStatePassed, RunTime: time.Second, NumAttempts: 1})
	}
	value := types.WrapEntryValue(rec)
	j, err := json.Marshal(rec)
	if err != nil {
		panic(err)
	}
	value.AsJSON = string(j)
	g.SpecReports = append(g.SpecReports, types.SpecReport{LeafNodeType: types.NodeTypeReportAfterSuite, LeafNodeText: "conformance report",
		LeafNodeLocation: loc, State: types.SpecStatePassed, RunTime: time.Millisecond,
		ReportEntries: types.ReportEntries{{Name: reports.RunRecordEntry, Value: value}}})
	return g
}

// Fail makes the spec with the given ID failed, as Ginkgo records a
// failure in the It.
func Fail(g *types.Report, id contract.SpecID, message string) {
	for i, s := range g.SpecReports {
		if s.LeafNodeType == types.NodeTypeIt && contract.SpecIDOf(s.Labels()) == id {
			g.SpecReports[i].State = types.SpecStateFailed
			g.SpecReports[i].Failure = types.Failure{Message: message, FailureNodeContext: types.FailureNodeIsLeafNode, FailureNodeType: types.NodeTypeIt,
				Location: s.LeafNodeLocation}
			g.SuiteSucceeded = false
			return
		}
	}
	panic("no spec " + string(id))
}

// Console is the console Ginkgo's default reporter prints for the run.
func Console(g types.Report) []byte {
	var b bytes.Buffer
	r := reporters.NewDefaultReporter(types.ReporterConfig{}, &b)
	r.SuiteWillBegin(g)
	for _, s := range g.SpecReports {
		r.DidRun(s)
	}
	r.SuiteDidEnd(g)
	return b.Bytes()
}

// WriteReportJSON writes report.json as Ginkgo does.
func WriteReportJSON(dir string, g types.Report) error {
	j, err := json.Marshal([]types.Report{g})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, reports.ReportJSON), j, 0o644)
}

// WriteDir writes the run's report directory as the suite does:
// report.json, junit.xml and e2e.log as Ginkgo writes them, and the
// conformance report built from the run record (Build, Write).
func WriteDir(dir string, g types.Report) error {
	if err := WriteReportJSON(dir, g); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, reports.E2ELog), Console(g), 0o644); err != nil {
		return err
	}
	rec, err := reports.ReadRunRecord(g)
	if err != nil {
		return err
	}
	specs, run := reports.FromGinkgo(g)
	r := reports.Build(rec.Meta, rec.Claimed, specs, run)
	if err := reports.WriteJUnit(g, filepath.Join(dir, reports.JUnitXML), r.JUnitProperties()); err != nil {
		return err
	}
	return r.Write(dir)
}
