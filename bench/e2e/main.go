// Command e2e measures the conformance run on a warm hermetic cluster:
// the whole suite serial (-procs 1) and parallel (-procs 2, and 4 as make
// e2e runs it), and the time of each feature's specs. Writes <out>.json and <out>.md. The cluster is
// created (or reused) first and deleted at the end unless -keep.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/bench/warm"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
	"github.com/router-conformance/suite/runner"
)

func main() {
	out := flag.String("out", "_output/bench-e2e", "output prefix")
	cluster := flag.String("cluster-name", "router-conformance", "kind cluster name")
	keep := flag.Bool("keep", false, "keep the cluster afterwards")
	procs := flag.String("procs", "1,2,4", "the parallelism levels to measure, serial first")
	flag.Parse()
	if err := run(*out, *cluster, *keep, strings.Split(*procs, ",")); err != nil {
		log.Fatal(err)
	}
}

type runResult struct {
	Procs    string             `json:"procs"`
	Seconds  float64            `json:"seconds"`
	Specs    int                `json:"specs"`
	Failed   int                `json:"failed"`
	Features map[string]float64 `json:"featureSeconds"`
	// Longest are the slowest specs, the ones that bound a parallel run.
	Longest []specTime `json:"longest"`
}

type specTime struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

// longestSpecs is how many of the slowest specs the report lists.
const longestSpecs = 10

func run(out, cluster string, keep bool, levels []string) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	// REPORTS may be relative to the checkout or absolute.
	reportDir, err := filepath.Abs(filepath.Dir(out))
	if err != nil {
		return err
	}
	down, err := warm.Up(cluster, keep)
	if err != nil {
		return err
	}
	defer down()
	// A first run installs the router and builds nothing twice afterwards.
	var results []runResult
	var failed []string
	for _, p := range levels {
		procs, err := strconv.Atoi(p)
		if err != nil {
			return fmt.Errorf("-procs %q: %w", p, err)
		}
		runDir := filepath.Join(reportDir, "bench-e2e-p"+p)
		start := time.Now()
		status := warm.RunSuite(root, cluster, procs, runDir)
		elapsed := time.Since(start)
		if status != runner.ExitPassed {
			err = fmt.Errorf("exit status %d", status)
		}
		r, perr := summarize(filepath.Join(runDir, reports.ReportJSON))
		if perr != nil {
			return perr
		}
		r.Procs, r.Seconds = p, elapsed.Round(100*time.Millisecond).Seconds()
		results = append(results, r)
		if err != nil {
			log.Printf("procs %s: the suite failed (%v); figures kept", p, err)
			failed = append(failed, p)
		}
	}
	b, _ := json.MarshalIndent(map[string]any{"date": time.Now().UTC().Format(time.RFC3339), "runs": results}, "", "  ")
	// REPORTS may name a directory nothing has made yet.
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out+".json", append(b, '\n'), 0o644); err != nil {
		return err
	}
	var md strings.Builder
	fmt.Fprintf(&md, "# Conformance run time (%s, warm cluster reused)\n\n| procs | wall time | specs | failed |\n|---|---|---|---|\n", time.Now().UTC().Format("2006-01-02"))
	for _, r := range results {
		fmt.Fprintf(&md, "| %s | %.0f s | %d | %d |\n", r.Procs, r.Seconds, r.Specs, r.Failed)
	}
	for _, r := range results[min(1, len(results)):] {
		if r.Seconds > 0 {
			fmt.Fprintf(&md, "\nSpeed-up of procs %s over procs %s: %.2fx\n", r.Procs, results[0].Procs, results[0].Seconds/r.Seconds)
		}
	}
	md.WriteString("\nSpec time per feature (sum of its specs' run times, serial run):\n\n| feature | seconds |\n|---|---|\n")
	if len(results) > 0 {
		var names []string
		for n := range results[0].Features {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(&md, "| %s | %.0f |\n", n, results[0].Features[n])
		}
	}
	if len(results) > 0 {
		fmt.Fprintf(&md, "\nThe %d longest specs (serial run):\n\n| spec | seconds |\n|---|---|\n", longestSpecs)
		for _, t := range results[0].Longest {
			fmt.Fprintf(&md, "| %s | %.0f |\n", t.Name, t.Seconds)
		}
	}
	fmt.Print(md.String())
	if err := os.WriteFile(out+".md", []byte(md.String()), 0o644); err != nil {
		return err
	}
	// Figures of a failed run are kept for whoever reads them, but the
	// benchmark did not measure what it claims.
	if len(failed) > 0 {
		return fmt.Errorf("the suite failed at procs %s: see the log above; the figures of those runs are not comparable", strings.Join(failed, ", "))
	}
	return nil
}

func summarize(path string) (runResult, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return runResult{}, err
	}
	var reports []types.Report
	if err := json.Unmarshal(data, &reports); err != nil {
		return runResult{}, fmt.Errorf("%s: %w", path, err)
	}
	r := runResult{Features: map[string]float64{}}
	for _, rep := range reports {
		for _, s := range rep.SpecReports {
			if s.LeafNodeType != types.NodeTypeIt || s.State.Is(types.SpecStateSkipped) {
				continue
			}
			r.Specs++
			if s.State.Is(types.SpecStateFailureStates) {
				r.Failed++
			}
			if fs := contract.FeaturesOf(s.Labels()); len(fs) > 0 {
				r.Features[string(fs[0])] += s.RunTime.Seconds()
			}
			r.Longest = append(r.Longest, specTime{Name: s.FullText(), Seconds: s.RunTime.Seconds()})
		}
	}
	sort.Slice(r.Longest, func(i, j int) bool { return r.Longest[i].Seconds > r.Longest[j].Seconds })
	if len(r.Longest) > longestSpecs {
		r.Longest = r.Longest[:longestSpecs]
	}
	return r, nil
}
