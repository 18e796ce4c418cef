package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// Verdict is how a spec's outcomes in two runs compare.
type Verdict string

const (
	Same      Verdict = "same"
	Excused   Verdict = "excused"
	Different Verdict = "DIFFERENT"
)

// excuseKindPorts is why a spec the existing profile skipped is excused.
const excuseKindPorts = "needs the kind profile's own ports"

// ComparedRun is one side of a comparison.
type ComparedRun struct {
	// Name is what the output calls it (kind, existing).
	Name string
	// File is the report.json it was read from ("" when built otherwise).
	File    string
	Specs   []SpecResult
	Outcome RunOutcome
}

// ReadComparedRun reads one run's Ginkgo JSON report (report.json, one
// suite), its specs as FromGinkgo reads them.
func ReadComparedRun(name, file string) (ComparedRun, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return ComparedRun{}, fmt.Errorf("run %s: %w", name, err)
	}
	var suites []types.Report
	if err := json.Unmarshal(data, &suites); err != nil {
		return ComparedRun{}, fmt.Errorf("run %s: %s is no Ginkgo JSON report (ginkgo --json-report): %v", name, file, err)
	}
	if len(suites) != 1 {
		return ComparedRun{}, fmt.Errorf("run %s: %s holds %d suites, not 1: give the report.json of one run of the suite", name, file, len(suites))
	}
	specs, outcome := FromGinkgo(suites[0])
	return ComparedRun{Name: name, File: file, Specs: specs, Outcome: outcome}, nil
}

// SpecComparison is one spec in both runs.
type SpecComparison struct {
	ID contract.SpecID
	// Name is the spec's text in A (in B when A lacks it).
	Name string
	// A and B are the spec in each run; nil when the run lacks it.
	A, B    *SpecResult
	Verdict Verdict
	// Excuse says why an Excused spec is no difference.
	Excuse string
}

// Comparison is two runs compared spec by spec.
type Comparison struct {
	A, B ComparedRun
	// Specs: the differences, then the excused specs, then the same ones,
	// each by name.
	Specs []SpecComparison
}

// Compare compares two runs of the suite spec by spec: a (A) on the kind
// profile, where the suite made the cluster, and b (B) on the existing
// profile, a cluster the suite did not make. They must give every spec
// the same outcome, but for the specs that need the kind profile's own
// ports. The rules, exactly:
//
//   - Specs are matched by ID (SpecResult.ID, contract.SpecID), never by
//     text. A run is one suite's report; an ID twice in one run, or a
//     spec without one, is an error, as it could not be matched.
//   - A spec's state is passed, failed or skipped (pending and filtered
//     out are skipped); a flaked spec (failed, then passed on a retry)
//     is passed.
//   - A spec that ran in A (passed or failed) is the same when B gives it
//     the same state (failed in both is the same: the profiles agree on
//     it, whatever the router does). When B skipped it, it is excused if one of its
//     features (contract.FeaturesOf its labels in A) needs
//     KindHarness or OwnIngressControllers (contract.Needs): the
//     existing profile cannot offer those. Anything else is a difference.
//   - A spec skipped in A is the same when B skipped it too, and a
//     difference when it ran in B.
//   - A spec absent from either run is a difference: the runs are not of
//     the same spec list.
func Compare(a, b ComparedRun) (Comparison, error) {
	as, err := byID(a)
	if err != nil {
		return Comparison{}, err
	}
	bs, err := byID(b)
	if err != nil {
		return Comparison{}, err
	}
	ids := make([]contract.SpecID, 0, len(as)+len(bs))
	for _, s := range a.Specs {
		ids = append(ids, s.ID)
	}
	for _, s := range b.Specs {
		if as[s.ID] == nil {
			ids = append(ids, s.ID)
		}
	}
	c := Comparison{A: a, B: b}
	for _, id := range ids {
		sc := SpecComparison{ID: id, A: as[id], B: bs[id]}
		if sc.A != nil {
			sc.Name = sc.A.Name
		} else {
			sc.Name = sc.B.Name
		}
		sc.Verdict, sc.Excuse = judge(sc.A, sc.B)
		c.Specs = append(c.Specs, sc)
	}
	rank := map[Verdict]int{Different: 0, Excused: 1, Same: 2}
	slices.SortFunc(c.Specs, func(x, y SpecComparison) int {
		if d := rank[x.Verdict] - rank[y.Verdict]; d != 0 {
			return d
		}
		return strings.Compare(string(x.ID), string(y.ID))
	})
	return c, nil
}

// byID indexes a run's specs by ID; an ID twice, or none, cannot be
// matched.
func byID(r ComparedRun) (map[contract.SpecID]*SpecResult, error) {
	m := make(map[contract.SpecID]*SpecResult, len(r.Specs))
	for i := range r.Specs {
		s := &r.Specs[i]
		if s.ID == "" {
			return nil, fmt.Errorf("run %s%s has spec %q without an ID: it was made by a suite before v0.3.0, compare runs of one suite version", r.Name, inFile(r.File), s.Name)
		}
		if m[s.ID] != nil {
			return nil, fmt.Errorf("run %s%s has spec %s twice", r.Name, inFile(r.File), s.ID)
		}
		m[s.ID] = s
	}
	return m, nil
}

func inFile(file string) string {
	if file == "" {
		return ""
	}
	return " (" + file + ")"
}

// ran: passed (flaked included) or failed.
func ran(s *SpecResult) bool { return s != nil && (s.State == Passed || s.State == Failed) }

// judge applies the rules to one spec's outcome in A and in B.
func judge(a, b *SpecResult) (Verdict, string) {
	switch {
	case a == nil || b == nil:
		return Different, ""
	case ran(a) && b.State == a.State:
		return Same, ""
	case ran(a) && b.State == Skipped:
		if why, ok := kindPortsExcuse(a.Labels); ok {
			return Excused, why
		}
		return Different, ""
	case ran(a) || ran(b):
		return Different, ""
	}
	return Same, "" // skipped in both
}

// kindPortsExcuse: a feature of the spec needs what only the kind profile
// offers (its node and port mappings, IngressControllers of the spec's
// own on ports of their own).
func kindPortsExcuse(labels []string) (string, bool) {
	for _, f := range contract.FeaturesOf(labels) {
		info, _ := contract.LookupFeature(string(f))
		if info.Needs.KindHarness || info.Needs.OwnIngressControllers {
			return fmt.Sprintf("%s (%s)", excuseKindPorts, f), true
		}
	}
	return "", false
}

// Count is how many specs have the verdict.
func (c Comparison) Count(v Verdict) int {
	n := 0
	for _, s := range c.Specs {
		if s.Verdict == v {
			n++
		}
	}
	return n
}

// Differences are the specs whose verdict is Different.
func (c Comparison) Differences() []SpecComparison {
	return slices.DeleteFunc(slices.Clone(c.Specs), func(s SpecComparison) bool { return s.Verdict != Different })
}

// Summary is the comparison in one line.
func (c Comparison) Summary() string {
	return fmt.Sprintf("%s vs %s: %d same, %d excused, %d different", c.A.Name, c.B.Name, c.Count(Same), c.Count(Excused), c.Count(Different))
}

// DifferenceLines are the differences in a line of plain text each:
// "DIFFERENT: <spec>: kind passed; existing skipped: <why>".
func (c Comparison) DifferenceLines() []string {
	var lines []string
	for _, s := range c.Differences() {
		lines = append(lines, fmt.Sprintf("%s: %s (%s): %s %s; %s %s", s.Verdict, s.ID, s.Name, c.A.Name, outcome(s.A), c.B.Name, outcome(s.B)))
	}
	return lines
}

// RunNotes say what a run as a whole did that explains many differences:
// cut short, set-up failed, filtered.
func (c Comparison) RunNotes() []string {
	var notes []string
	for _, r := range []ComparedRun{c.A, c.B} {
		if r.Outcome.Error {
			notes = append(notes, fmt.Sprintf("run %s did not complete: %s", r.Name, r.Outcome.Reason))
		}
		if r.Outcome.Filtered() {
			notes = append(notes, fmt.Sprintf("run %s was filtered: %s", r.Name, r.Outcome.Filters()))
		}
	}
	return notes
}

// outcome is a spec's state in plain text: "passed", "failed: <why>",
// "skipped: <why>", "absent".
func outcome(s *SpecResult) string {
	switch {
	case s == nil:
		return "absent"
	case s.Flaked():
		return fmt.Sprintf("passed (flaked: %d attempts)", s.Attempts)
	case s.Reason != "" && s.State != Passed:
		return string(s.State) + ": " + s.Reason
	}
	return string(s.State)
}

// cell is a spec's state on a table row.
func cell(s *SpecResult) string {
	if s == nil || s.Reason == "" || s.State == Passed {
		return mdText(outcome(s))
	}
	return string(s.State) + ": " + code(s.Reason)
}

// Markdown is the comparison for a person: the summary, what explains
// it, and every spec, the differences first.
func (c Comparison) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Spec by spec: %s vs %s\n\n%s\n\n", mdText(c.A.Name), mdText(c.B.Name), c.Summary())
	for _, r := range []ComparedRun{c.A, c.B} {
		if r.File != "" {
			fmt.Fprintf(&b, "- %s: %s\n", mdText(r.Name), code(r.File))
		}
	}
	for _, n := range c.RunNotes() {
		fmt.Fprintf(&b, "- %s\n", mdText(n))
	}
	fmt.Fprintf(&b, "\nA spec that ran in %s must have the same state in %s, unless %s skipped it and it "+
		"needs the kind profile's own ports (a feature that needs `KindHarness` or `OwnIngressControllers`); "+
		"a spec skipped in %s must be skipped in %s; a spec absent from either is a difference.\n\n",
		mdText(c.A.Name), mdText(c.B.Name), mdText(c.B.Name), mdText(c.A.Name), mdText(c.B.Name))
	fmt.Fprintf(&b, "| spec | text | %s | %s | verdict |\n|---|---|---|---|---|\n", mdText(c.A.Name), mdText(c.B.Name))
	for _, s := range c.Specs {
		verdict := string(s.Verdict)
		switch s.Verdict {
		case Excused:
			verdict += ": " + s.Excuse
		case Different:
			verdict = "**" + verdict + "**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", code(string(s.ID)), mdText(s.Name), cell(s.A), cell(s.B), mdText(verdict))
	}
	return b.String()
}

// CompareFiles compares run A (aName, its report.json or JUnit in aFile)
// with run B, writes the markdown to out, and prints the summary line,
// the run notes and the differences to w: what make e2e-existing's and
// make e2e-incluster's checks both do.
func CompareFiles(aName, aFile, bName, bFile, out string, w io.Writer) (Comparison, error) {
	runA, err := ReadComparedRunFile(aName, aFile)
	if err != nil {
		return Comparison{}, err
	}
	runB, err := ReadComparedRunFile(bName, bFile)
	if err != nil {
		return Comparison{}, err
	}
	c, err := Compare(runA, runB)
	if err != nil {
		return Comparison{}, err
	}
	if err := os.WriteFile(out, []byte(c.Markdown()), 0o644); err != nil {
		return Comparison{}, fmt.Errorf("write the comparison: %w", err)
	}
	fmt.Fprintln(w, c.Summary())
	for _, n := range c.RunNotes() {
		fmt.Fprintln(w, "note:", n)
	}
	for _, l := range c.DifferenceLines() {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w, "every spec:", out)
	return c, nil
}
