package framework

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/reports"
)

// Conformance is the run's verdict, built from Ginkgo's report the same
// way the verifier re-derives it from report.json (reports.FromGinkgo).
func (f *Framework) Conformance(report types.Report) reports.Report {
	specs, run := reports.FromGinkgo(report)
	meta := reports.Meta{
		Implementation: f.implementation(),
		Suite:          reports.CurrentSuite(),
		Profile:        f.Caps.Profile,
		Platform:       f.Caps.Platform,
		Options:        f.effectiveOptions(report),
		Date:           report.StartTime,
		Duration:       reports.Duration(report.RunTime.Round(time.Second)),
	}
	meta.KubernetesVersion = "unknown"
	if f.Env != nil {
		if f.KubernetesVersion != "" {
			meta.KubernetesVersion = f.KubernetesVersion
		}
		meta.NodeImage = reports.NodeImage{Ref: f.NodeImage.Ref, ID: f.NodeImage.ID}
	}
	return reports.Build(meta, f.Opts.Features, specs, run)
}

// WriteConformance writes conformance.{yaml,json}, summary.md and
// junit.xml (Ginkgo's, with the provenance as properties) into the report
// directory.
func (f *Framework) WriteConformance(report types.Report) error {
	r := f.Conformance(report)
	if err := r.Write(f.Opts.ReportDir); err != nil {
		return err
	}
	return writeJUnit(report, filepath.Join(f.Opts.ReportDir, "junit.xml"), r.JUnitProperties())
}

// effectiveOptions are the options that shaped the run, Ginkgo's included.
func (f *Framework) effectiveOptions(report types.Report) map[string]string {
	out := f.Opts.Effective()
	cfg := report.SuiteConfig
	out["ginkgo.procs"] = strconv.Itoa(cfg.ParallelTotal)
	out["ginkgo.label-filter"] = cfg.LabelFilter
	out["ginkgo.timeout"] = cfg.Timeout.String()
	return out
}

// writeJUnit writes Ginkgo's JUnit report (what CI dashboards read) with
// the run's provenance added to the suite's properties.
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
	out, err := xml.MarshalIndent(suites, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(out, '\n')...), 0o644)
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
		if !f.Caps.ReferenceRouter && name != "" {
			impl.Project = name
		}
	}
	if impl.Version == "" {
		switch {
		case img.Version != "":
			impl.Version = img.Version
		case !f.Caps.ReferenceRouter && tag != "":
			impl.Version = tag
		case f.Caps.ReferenceRouter:
			impl.Version = reports.CurrentSuite().Version
		}
	}
	return impl
}
