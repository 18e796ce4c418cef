package framework

import (
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/reports"
)

// WriteConformance writes conformance.{yaml,json} and summary.md into the
// report directory from the suite's report.
func WriteConformance(report types.Report) error {
	meta := reports.Meta{
		Implementation: reports.Implementation{Name: Opts.ImplementationName, Version: Opts.ImplementationVersion},
		SuiteVersion:   SuiteVersion,
		Profile:        Opts.Profile,
		Date:           report.StartTime,
		Duration:       report.RunTime.Round(time.Second).String(),
	}
	meta.KubernetesVersion = "unknown"
	if E != nil {
		meta.Implementation.Image = E.Images["router"]
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
