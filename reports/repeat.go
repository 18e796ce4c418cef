package reports

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/router-conformance/suite/contract"
)

// SpecRun is one spec's outcome in one run of a repeated suite.
type SpecRun struct {
	ID      contract.SpecID
	Name    string
	State   Result // passed, failed, skipped
	Failure string // the failure message, when failed
}

// SpecTally is one spec's outcomes across the runs.
type SpecTally struct {
	ID       contract.SpecID `json:"id"`
	Name     string          `json:"name"`
	Passed   int             `json:"passed"`
	Failed   int             `json:"failed"`
	Skipped  int             `json:"skipped"`
	Failures []string        `json:"failures,omitempty"`
}

// Flaky: it passed in one run and failed in another.
func (t SpecTally) Flaky() bool { return t.Passed > 0 && t.Failed > 0 }

// RepeatReport counts, per spec, passes and failures over repeated runs
// of the suite on one cluster (make e2e REPEAT=N): what a nightly job
// needs to know which specs flake.
type RepeatReport struct {
	Runs  int         `json:"runs"`
	Specs []SpecTally `json:"specs"`
}

// Tally builds the report from each run's specs.
func Tally(runs [][]SpecRun) RepeatReport {
	by := map[contract.SpecID]*SpecTally{}
	for _, run := range runs {
		for _, s := range run {
			t := by[s.ID]
			if t == nil {
				t = &SpecTally{ID: s.ID, Name: s.Name}
				by[s.ID] = t
			}
			switch s.State {
			case Passed:
				t.Passed++
			case Failed:
				t.Failed++
				t.Failures = append(t.Failures, s.Failure)
			default:
				t.Skipped++
			}
		}
	}
	r := RepeatReport{Runs: len(runs)}
	for _, t := range by {
		r.Specs = append(r.Specs, *t)
	}
	sort.Slice(r.Specs, func(i, j int) bool { return r.Specs[i].ID < r.Specs[j].ID })
	return r
}

// Failed lists the specs that failed at least once.
func (r RepeatReport) Failed() []SpecTally {
	var out []SpecTally
	for _, t := range r.Specs {
		if t.Failed > 0 {
			out = append(out, t)
		}
	}
	return out
}

// Ran counts the specs that ran (passed or failed) at least once.
func (r RepeatReport) Ran() int {
	n := 0
	for _, t := range r.Specs {
		if t.Passed+t.Failed > 0 {
			n++
		}
	}
	return n
}

// Markdown is the section summary.md gains after repeated runs.
func (r RepeatReport) Markdown() string {
	var b strings.Builder
	failed := r.Failed()
	fmt.Fprintf(&b, "\n## Repeated runs: %d runs, %d specs ran, %d failed at least once\n\n", r.Runs, r.Ran(), len(failed))
	if len(failed) == 0 {
		b.WriteString("Every spec passed in every run.\n")
		return b.String()
	}
	b.WriteString("| spec | text | passed | failed | flaky |\n|---|---|---|---|---|\n")
	for _, t := range failed {
		fmt.Fprintf(&b, "| `%s` | %s | %d | %d | %v |\n", t.ID, t.Name, t.Passed, t.Failed, t.Flaky())
	}
	for _, t := range failed {
		fmt.Fprintf(&b, "\n### `%s` %s\n\n", t.ID, t.Name)
		for i, f := range t.Failures {
			fmt.Fprintf(&b, "%d. `%s`\n", i+1, strings.ReplaceAll(firstLine(f), "`", "'"))
		}
	}
	return b.String()
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Write puts repeat.json into dir and appends the section to summary.md.
func (r RepeatReport) Write(dir string) error {
	j, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "repeat.json"), append(j, '\n'), 0o644); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, "summary.md"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(r.Markdown()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
