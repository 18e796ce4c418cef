package reports

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/onsi/ginkgo/v2/types"
)

// Repeats sums up the repeated runs (REPEAT=N) whose Ginkgo reports are
// files, into dir: each run's verdict is re-derived from its own report
// and the run record it holds (as the verifier re-derives a bundle's;
// a run cut short before it recorded itself takes another run's record,
// its facts being the same invocation's); conformance.{yaml,json} and
// summary.md become the worst run's (error > failed > partial > passed,
// the last of equals), not the last one's; repeat.json and summary.md
// list every spec that failed at least once with its failures. It
// returns what to print.
func Repeats(dir string, files []string) ([]string, error) {
	var suites []types.Report
	var records []*RunRecord
	var runs [][]SpecRun
	for _, file := range files {
		g, err := readSuite(file)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		suites = append(suites, g)
		var rec *RunRecord
		if r, err := ReadRunRecord(g); err == nil {
			rec = &r
		}
		records = append(records, rec)
		specs, _ := FromGinkgo(g)
		var run []SpecRun
		for _, s := range specs {
			sr := SpecRun{ID: s.ID, Name: s.Name, State: s.State}
			if s.State == Failed {
				sr.Failure = s.Reason
			}
			run = append(run, sr)
		}
		runs = append(runs, run)
	}
	var lines []string
	var any *RunRecord
	for _, r := range records {
		if r != nil {
			any = r
		}
	}
	if any == nil {
		lines = append(lines, "no run recorded itself: "+ConformanceYAML+" is not written")
	} else {
		var verdicts []Report
		for i, g := range suites {
			rec := records[i]
			if rec == nil {
				rec = any
			}
			specs, outcome := FromGinkgo(g)
			meta := rec.Meta
			meta.Date, meta.Duration = g.StartTime, Duration(g.RunTime.Round(time.Second))
			verdicts = append(verdicts, Build(meta, rec.Claimed, specs, outcome))
		}
		i := Worst(verdicts)
		if err := verdicts[i].Write(dir); err != nil {
			return nil, err
		}
		note := fmt.Sprintf("\nThe verdict above is run %d's of %d, the worst of them (error > failed > partial > passed).\n", i+1, len(verdicts))
		if err := AppendFile(filepath.Join(dir, SummaryMD), note); err != nil {
			return nil, err
		}
		lines = append(lines, fmt.Sprintf("%s: run %d of %d, %s (the worst)", ConformanceYAML, i+1, len(verdicts), verdicts[i].Result))
	}
	tally := Tally(runs)
	if err := tally.Write(dir); err != nil {
		return nil, err
	}
	lines = append(lines, fmt.Sprintf("%d runs: %d of %d specs that ran failed at least once (%s)", tally.Runs, len(tally.Failed()), tally.Ran(), filepath.Join(dir, SummaryMD)))
	return lines, nil
}

// ReadRun reads one run's report.json: Ginkgo's report and the suite's
// record of the run in it.
func ReadRun(file string) (types.Report, RunRecord, error) {
	g, err := readSuite(file)
	if err != nil {
		return types.Report{}, RunRecord{}, fmt.Errorf("%s: %w", file, err)
	}
	rec, err := ReadRunRecord(g)
	return g, rec, err
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

// AppendFile adds text at the end of the file at path, made if missing.
func AppendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
