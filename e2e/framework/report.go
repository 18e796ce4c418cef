package framework

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/reports"
)

// Conformance is the run's verdict, built from Ginkgo's report the same
// way the verifier re-derives it from report.json (reports.FromGinkgo).
func (f *Framework) Conformance(report types.Report) reports.Report {
	r, _ := f.conformance(report)
	return r
}

// conformance is the verdict and the specs it was built from.
func (f *Framework) conformance(report types.Report) (reports.Report, []reports.SpecResult) {
	specs, run := reports.FromGinkgo(report)
	record := f.RunRecord(report)
	return reports.Build(record.Meta, record.Claimed, specs, run), specs
}

// RunRecord is what the suite records of its run in report.json
// (reports.RunRecord), as the run ends.
func (f *Framework) RunRecord(report types.Report) reports.RunRecord {
	r := f.runRecord()
	r.Options = f.effectiveOptions(report)
	r.Date = report.StartTime
	r.Duration = reports.Duration(report.RunTime.Round(time.Second))
	return r
}

// runRecord is the record as far as the options, the build and the
// environment (when connected) say.
func (f *Framework) runRecord() reports.RunRecord {
	meta := reports.Meta{
		Implementation:    f.implementation(),
		Suite:             reports.CurrentSuite(),
		Profile:           f.Caps.Profile,
		OpenShiftRelease:  f.Opts.OpenShiftRelease,
		Platform:          f.Caps.Platform,
		Claimed:           f.Opts.Features,
		KubernetesVersion: "unknown",
	}
	// What ran the specs, by content: a spec body changed by an overlay
	// or a replaced module shows here whatever the commit says.
	if bin, err := reports.RunningBinary(); err == nil {
		meta.Suite.Binary = bin
	}
	if f.Env != nil {
		if f.KubernetesVersion != "" {
			meta.KubernetesVersion = f.KubernetesVersion
		}
		meta.NodeImage = reports.NodeImage{Ref: f.NodeImage.Ref, ID: f.NodeImage.ID}
	}
	return reports.RunRecord{Meta: meta, Certify: f.Opts.Certify, ReferenceRouter: f.judgesReferenceRouter(),
		Timeouts: f.Opts.Timeouts, Reuse: f.Opts.Reuse, FailOnceHook: FailOnceHook()}
}

// WriteConformance writes conformance.{yaml,json}, summary.md and
// junit.xml (Ginkgo's, with the provenance as properties and each flaked
// spec as a failed and a passed test case) into the report directory,
// and appends the run to history.jsonl there.
func (f *Framework) WriteConformance(report types.Report) error {
	r, specs := f.conformance(report)
	if err := r.Write(f.Opts.ReportDir); err != nil {
		return err
	}
	if err := writeJUnit(report, filepath.Join(f.Opts.ReportDir, "junit.xml"), r.JUnitProperties()); err != nil {
		return err
	}
	return reports.AppendHistory(f.Opts.ReportDir, reports.NewHistoryEntry(r, specs))
}

// effectiveOptions are the options that shaped the run, Ginkgo's included,
// and the test-only hook when it was set (a certified run never has it).
func (f *Framework) effectiveOptions(report types.Report) map[string]string {
	out := f.Opts.Effective()
	cfg := report.SuiteConfig
	out["ginkgo.procs"] = strconv.Itoa(cfg.ParallelTotal)
	out["ginkgo.label-filter"] = cfg.LabelFilter
	out["ginkgo.timeout"] = cfg.Timeout.String()
	out[reports.OptionFlakeAttempts] = strconv.Itoa(cfg.FlakeAttempts)
	for k, v := range f.topologyOptions() {
		out[k] = v
	}
	if hook := FailOnceHook(); hook != "" {
		out[reports.OptionFailOnce] = hook
	}
	return out
}

// writeJUnit writes Ginkgo's JUnit report (what CI dashboards read) with
// the run's provenance added to the suite's properties. A spec that
// failed, then passed on a retry (--flake-attempts) is written as
// openshift-tests writes a flake, which Spyglass and Sippy count: a
// failed test case per failed attempt, then the passed one, all of the
// same name.
func writeJUnit(report types.Report, path string, props map[string]string) error {
	tmp := path + ".tmp"
	if err := reporters.GenerateJUnitReport(report, tmp); err != nil {
		return err
	}
	defer os.Remove(tmp)
	data, err := os.ReadFile(tmp)
	if err != nil {
		return err
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		return fmt.Errorf("read back %s: %w", tmp, err)
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i := range suites.TestSuites {
		for _, k := range keys {
			suites.TestSuites[i].Properties.Properties = append(suites.TestSuites[i].Properties.Properties, reporters.JUnitProperty{Name: "conformance." + k, Value: props[k]})
		}
	}
	splitFlakes(&suites, report)
	out, err := xml.MarshalIndent(suites, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(out, '\n')...), 0o644)
}

// splitFlakes puts a failed test case before each flaked spec's passed
// one, per failed attempt, and counts them in the suite's totals. Ginkgo
// writes one suite and a test case per spec report, in the report's
// order; were it ever otherwise, the file is left as Ginkgo wrote it
// (conformance.yaml and summary.md still list the flakes).
func splitFlakes(suites *reporters.JUnitTestSuites, report types.Report) {
	if len(suites.TestSuites) != 1 || len(suites.TestSuites[0].TestCases) != len(report.SpecReports) {
		return
	}
	suite := &suites.TestSuites[0]
	var cases []reporters.JUnitTestCase
	for i, tc := range suite.TestCases {
		spec := report.SpecReports[i]
		if spec.LeafNodeType != types.NodeTypeIt || !spec.State.Is(types.SpecStatePassed) || spec.NumAttempts < 2 {
			cases = append(cases, tc)
			continue
		}
		failures := reports.AttemptFailures(spec)
		if len(failures) == 0 {
			failures = []types.AdditionalFailure{{State: types.SpecStateFailed}}
		}
		times := attemptTimes(spec)
		for k, af := range failures {
			msg := af.Failure.Message
			if af.Failure.ForwardedPanic != "" {
				msg = strings.TrimSpace(msg + "\n" + af.Failure.ForwardedPanic)
			}
			if msg == "" {
				msg = "failed on an earlier attempt (no failure recorded)"
			}
			failed := reporters.JUnitTestCase{Name: tc.Name, Classname: tc.Classname, Status: af.State.String(), Owner: tc.Owner, Time: times[k],
				Failure: &reporters.JUnitFailure{Message: msg, Type: af.State.String(),
					Description: fmt.Sprintf("[FLAKE] attempt %d of %d failed; a later attempt passed\n%s\n%s", k+1, spec.NumAttempts, msg, af.Failure.Location)}}
			cases = append(cases, failed)
		}
		if last := times[len(times)-1]; last > 0 {
			tc.Time = last
		}
		cases = append(cases, tc)
		suite.Tests += len(failures)
		suite.Failures += len(failures)
		suites.Tests += len(failures)
		suites.Failures += len(failures)
	}
	suite.TestCases = cases
}

// attemptTimes are the seconds each attempt of a retried spec took, from
// Ginkgo's Retry events (each marks the start of the next attempt); 0
// where the report does not say.
func attemptTimes(spec types.SpecReport) []float64 {
	times := make([]float64, spec.NumAttempts)
	start := spec.StartTime
	attempt := 0
	for _, e := range spec.SpecEvents {
		if e.SpecEventType != types.SpecEventSpecRetry || attempt >= len(times)-1 {
			continue
		}
		if t := e.TimelineLocation.Time; !t.IsZero() && !start.IsZero() && t.After(start) {
			times[attempt] = t.Sub(start).Seconds()
		}
		start = e.TimelineLocation.Time
		attempt++
	}
	if !spec.EndTime.IsZero() && !start.IsZero() && spec.EndTime.After(start) {
		times[len(times)-1] = spec.EndTime.Sub(start).Seconds()
	}
	return times
}

// judgesReferenceRouter: the router under test is the suite's own, as the
// profile says before it is up (no -router-image) or, once up, by the
// image's content (the reference router under another name is still the
// reference router).
func (f *Framework) judgesReferenceRouter() bool {
	return f.Caps.ReferenceRouter || (f.Env != nil && f.Router.Reference)
}

// implementation names the router under test: the options win, then what
// the router image says of itself.
func (f *Framework) implementation() reports.Implementation {
	impl := reports.Implementation{
		Organization: f.Opts.ImplementationOrganization, Project: f.Opts.ImplementationProject, URL: f.Opts.ImplementationURL,
		Contact: f.Opts.ImplementationContact, Version: f.Opts.ImplementationVersion,
	}
	var img RouterImage
	if f.Env != nil {
		img = f.Router
	} else if f.Opts.RouterImage != "" {
		img.Ref = f.Opts.RouterImage
	}
	impl.Image, impl.ImageDigest, impl.ImageID, impl.HAProxyVersion = img.Ref, img.Digest, img.ID, img.HAProxyVersion
	name, tag, _, _ := reports.ParseImageRef(img.Ref)
	if impl.Project == "" {
		impl.Project = "reference-router"
		if !f.judgesReferenceRouter() && name != "" {
			impl.Project = name
		}
	}
	if impl.Version == "" {
		switch {
		case img.Version != "":
			impl.Version = img.Version
		case !f.judgesReferenceRouter() && tag != "":
			impl.Version = tag
		case f.judgesReferenceRouter():
			impl.Version = reports.CurrentSuite().Version
		}
	}
	return impl
}
