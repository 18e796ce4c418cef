package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/reports"
)

// worst makes the report directory's conformance report the worst run's
// (error > failed > partial > passed, the last of equals), not the last
// run's: each run of make e2e REPEAT=N wrote its own over the one before.
// Each run's verdict is re-derived from its Ginkgo report with the last
// report's facts (implementation, suite, claims, options), as the
// verifier re-derives a bundle's, and its own date and duration. It
// rewrites conformance.{yaml,json} and summary.md and says which run it
// chose; without a conformance report (no run wrote one) it does nothing.
func worst(dir string, files []string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, reports.ConformanceJSON))
	if os.IsNotExist(err) {
		return "no run wrote " + reports.ConformanceJSON, nil
	}
	if err != nil {
		return "", err
	}
	var last reports.Report
	if err := json.Unmarshal(data, &last); err != nil {
		return "", fmt.Errorf("%s: %w", reports.ConformanceJSON, err)
	}
	var runs []reports.Report
	for _, file := range files {
		g, err := readSuite(file)
		if err != nil {
			return "", fmt.Errorf("%s: %w", file, err)
		}
		specs, run := reports.FromGinkgo(g)
		meta := last.Meta
		meta.Date, meta.Duration = g.StartTime, reports.Duration(g.RunTime.Round(time.Second))
		runs = append(runs, reports.Build(meta, last.Claimed, specs, run))
	}
	i := reports.Worst(runs)
	if i < 0 {
		return "no run to choose from", nil
	}
	if err := runs[i].Write(dir); err != nil {
		return "", err
	}
	note := fmt.Sprintf("\nThe verdict above is run %d's of %d, the worst of them (error > failed > partial > passed).\n", i+1, len(runs))
	f, err := os.OpenFile(filepath.Join(dir, reports.SummaryMD), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return "", err
	}
	if _, err := f.WriteString(note); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s: run %d of %d, %s (the worst)", reports.ConformanceYAML, i+1, len(runs), runs[i].Result), nil
}

// readSuite reads one run's Ginkgo JSON report: one suite.
func readSuite(file string) (types.Report, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return types.Report{}, err
	}
	var suites []types.Report
	if err := json.Unmarshal(data, &suites); err != nil {
		return types.Report{}, err
	}
	if len(suites) != 1 {
		return types.Report{}, fmt.Errorf("%d suites, not 1", len(suites))
	}
	return suites[0], nil
}
