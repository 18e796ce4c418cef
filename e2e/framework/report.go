package framework

import (
	"path/filepath"
	"strconv"
	"time"

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
	if err := reports.WriteJUnit(report, filepath.Join(f.Opts.ReportDir, reports.JUnitXML), r.JUnitProperties()); err != nil {
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
