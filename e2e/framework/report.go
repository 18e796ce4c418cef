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
func WriteConformance(report types.Report) error {
	meta := reports.Meta{
		Implementation: implementation(),
		SuiteVersion:   SuiteVersion,
		Profile:        Opts.Profile,
		Date:           report.StartTime,
		Duration:       report.RunTime.Round(time.Second).String(),
	}
	meta.KubernetesVersion = "unknown"
	if E != nil {
		if E.KubernetesVersion != "" {
			meta.KubernetesVersion = E.KubernetesVersion
		}
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
	return reports.Build(meta, Features, Claimed(), specs).Write(Opts.ReportDir)
}

// implementation names the router under test: the options win, then what
// the router image says of itself.
func implementation() reports.Implementation {
	impl := reports.Implementation{
		Organization: Opts.ImplementationOrganization, Name: Opts.ImplementationName, URL: Opts.ImplementationURL,
		Contact: Opts.ImplementationContact, Version: Opts.ImplementationVersion,
	}
	var img images.RouterImage
	if E != nil {
		img = E.Router
		impl.Image, impl.ImageID, impl.HAProxyVersion = img.Ref, img.ID, img.HAProxyVersion
	}
	repo, tag := splitRef(img.Ref)
	if impl.Name == "" {
		impl.Name = "reference-router"
		if Opts.RouterImage != "" {
			impl.Name = repo
		}
	}
	if impl.Version == "" {
		switch {
		case img.Version != "":
			impl.Version = img.Version
		case Opts.RouterImage != "" && tag != "":
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
