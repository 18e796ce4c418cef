// Command repeat-summary counts, per spec, the passes and failures of
// repeated runs (make e2e REPEAT=N): it reads each run's Ginkgo JSON
// report, makes conformance.yaml the worst run's verdict (worst.go),
// writes repeat.json and adds the specs that failed at least once, with
// their failure messages, to summary.md.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/reports"
)

func main() {
	dir := flag.String("dir", "_output", "where summary.md is and repeat.json goes")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: repeat-summary -dir DIR report-1.json [report-2.json ...]")
		os.Exit(2)
	}
	var runs [][]reports.SpecRun
	for _, file := range flag.Args() {
		run, err := read(file)
		if err != nil {
			fmt.Fprintf(os.Stderr, "repeat-summary: %s: %v\n", file, err)
			os.Exit(1)
		}
		runs = append(runs, run)
	}
	chosen, err := worst(*dir, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "repeat-summary:", err)
		os.Exit(1)
	}
	fmt.Println(chosen)
	r := reports.Tally(runs)
	if err := r.Write(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "repeat-summary:", err)
		os.Exit(1)
	}
	fmt.Printf("%d runs: %d of %d specs that ran failed at least once (%s/summary.md)\n", r.Runs, len(r.Failed()), r.Ran(), *dir)
}

// read turns one run's Ginkgo JSON report into its specs' outcomes, as the
// conformance report reads them (reports.FromGinkgo).
func read(file string) ([]reports.SpecRun, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var suites []types.Report
	if err := json.Unmarshal(data, &suites); err != nil {
		return nil, err
	}
	var out []reports.SpecRun
	for _, suite := range suites {
		specs, _ := reports.FromGinkgo(suite)
		for _, s := range specs {
			run := reports.SpecRun{ID: s.ID, Name: s.Name, State: s.State}
			if s.State == reports.Failed {
				run.Failure = s.Reason
			}
			out = append(out, run)
		}
	}
	return out, nil
}
