package framework

import (
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/reports"
)

// WriteConformance writes conformance.{yaml,json} and summary.md into the
// report directory from the suite's report.
func (f *Framework) WriteConformance(report types.Report) error {
	meta := reports.Meta{
		Implementation: f.implementation(),
		SuiteVersion:   SuiteVersion,
		Profile:        f.Opts.Profile,
		Date:           report.StartTime,
		Duration:       report.RunTime.Round(time.Second).String(),
	}
	meta.KubernetesVersion = "unknown"
	if f.Env != nil && f.KubernetesVersion != "" {
		meta.KubernetesVersion = f.KubernetesVersion
	}
	var specs []reports.SpecResult
	for _, s := range report.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		state := reports.Failed
		switch {
		case s.State.Is(types.SpecStatePassed):
			state = reports.Passed
		case s.State.Is(types.SpecStateSkipped | types.SpecStatePending):
			state = reports.Skipped
		}
		specs = append(specs, reports.SpecResult{Name: s.FullText(), Labels: s.Labels(), State: state, Duration: s.RunTime})
	}
	return reports.Build(meta, Features, f.Claimed(), specs).Write(f.Opts.ReportDir)
}

// implementation names the router under test: the options win, then what
// the router image says of itself.
func (f *Framework) implementation() reports.Implementation {
	impl := reports.Implementation{
		Organization: f.Opts.ImplementationOrganization, Name: f.Opts.ImplementationName, URL: f.Opts.ImplementationURL,
		Contact: f.Opts.ImplementationContact, Version: f.Opts.ImplementationVersion,
	}
	var img images.RouterImage
	if f.Env != nil {
		img = f.Router
		impl.Image, impl.ImageID, impl.HAProxyVersion = img.Ref, img.ID, img.HAProxyVersion
	}
	repo, tag := splitRef(img.Ref)
	if impl.Name == "" {
		impl.Name = "reference-router"
		if f.Opts.RouterImage != "" {
			impl.Name = repo
		}
	}
	if impl.Version == "" {
		switch {
		case img.Version != "":
			impl.Version = img.Version
		case f.Opts.RouterImage != "" && tag != "":
			impl.Version = tag
		default:
			impl.Version = SuiteVersion
		}
	}
	return impl
}

// splitRef splits "repo:tag" (a registry port is not a tag).
func splitRef(ref string) (repo, tag string) {
	i := strings.LastIndex(ref, ":")
	if i < 0 || strings.Contains(ref[i:], "/") {
		return ref, ""
	}
	return ref[:i], ref[i+1:]
}
