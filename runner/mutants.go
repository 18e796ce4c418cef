package runner

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/faults/catalogue"
	"github.com/router-conformance/suite/reports"
	"github.com/router-conformance/suite/trace"
)

// Sanity are the specs every fault's run includes: a fault under which
// a plain route is not served breaks the whole router and proves nothing
// of the statements it names.
var Sanity = []contract.SpecID{"router/edge-served", "router/insecure-served"}

// CISample is how many faults `MUTANTS=ci` takes, chosen by the commit.
const CISample = 3

// Mutants results, in the report directory.
const (
	MutantsJSON = "mutants.json"
	MutantsMD   = "mutants.md"
)

// MutantResult is one fault's run.
type MutantResult struct {
	Fault string `json:"fault"`
	// Outcome: killed (a spec of its statements failed, the sanity specs
	// passed), survived (every spec passed), invalid (a sanity spec
	// failed: the fault breaks more than its statements), error (the run
	// did not finish).
	Outcome string `json:"outcome"`
	// Survives is the catalogue's reason a known survivor survives.
	Survives string `json:"survives,omitempty"`
	// Failed are the specs that failed, with their failure's first line.
	Failed []reports.NamedSpec `json:"failed,omitempty"`
	// Unbroken are the statements the fault names all of whose specs
	// ran and passed: each is a finding (the spec is weak, or the trace
	// wrong).
	Unbroken []string `json:"unbroken,omitempty"`
	// Skipped are specs Ginkgo skipped after an earlier spec of their
	// Ordered container failed; Unjudged the statements none of whose
	// specs failed because theirs were skipped so. Neither is shown
	// broken: the fault's kill is not recorded while any is unjudged.
	Skipped  []contract.SpecID `json:"skipped,omitempty"`
	Unjudged []string          `json:"unjudged,omitempty"`
	Specs    int               `json:"specs"`
	Seconds  float64           `json:"seconds"`
	Error    string            `json:"error,omitempty"`
}

// Mutant outcomes.
const (
	Killed   = "killed"
	Survived = "survived"
	Invalid  = "invalid"
	Errored  = "error"
)

// MutantsRun is what make mutants writes.
type MutantsRun struct {
	Selection string `json:"selection"`
	Commit    string `json:"commit"`
	// Dirty: the suite was built from a tree with uncommitted changes; its
	// kills are not recorded (faults/cmd/record).
	Dirty   bool           `json:"dirty,omitempty"`
	Control MutantResult   `json:"control"`
	Results []MutantResult `json:"results"`
	Seconds float64        `json:"seconds"`
}

// mutants runs make mutants: the fault build's images on one cluster, the
// control (the chosen faults' specs and the sanity specs, no fault: all
// must pass), then each fault switched on in turn against the specs of
// its statements. Progress on the console, Ginkgo's output in each run's
// e2e.log under <reports>/mutants/.
func mutants(ctx context.Context, b Binaries, o Options, stdout, stderr io.Writer) int {
	start := time.Now()
	cat, err := catalogue.Load()
	if err == nil {
		var docs []trace.Document
		if docs, err = trace.Load(); err == nil {
			err = mutate(ctx, b, o, cat, docs, start, stdout)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", o.Name, err)
		return ExitNotPass
	}
	return ExitPassed
}

func mutate(ctx context.Context, b Binaries, o Options, cat []catalogue.Document, docs []trace.Document, start time.Time, stdout io.Writer) (err error) {
	chosen, err := SelectFaults(catalogue.All(cat), docs, o.Mutants, b.Build.Commit)
	if err != nil {
		return err
	}
	reportDir, err := filepath.Abs(o.ReportDir)
	if err != nil {
		return err
	}
	runsDir := filepath.Join(reportDir, "mutants")
	for _, stale := range []string{runsDir, filepath.Join(reportDir, MutantsJSON), filepath.Join(reportDir, MutantsMD)} {
		if err := os.RemoveAll(stale); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(runsDir, 0o755); err != nil {
		return err
	}
	ids := make([]string, len(chosen))
	for i, f := range chosen {
		ids[i] = f.ID
	}
	fmt.Fprintf(stdout, "mutants: %d faults: %s\n", len(chosen), strings.Join(ids, ", "))
	tree, err := specTree(ctx, b, o, filepath.Join(runsDir, "tree"))
	if err != nil {
		return err
	}
	run := MutantsRun{Selection: o.Mutants, Commit: b.Build.Commit, Dirty: b.Build.Dirty}
	// The cluster is made by the control and kept for the faults; it goes
	// at the end unless it is the user's (-reuse) or kept (-keep).
	if !o.Keep && !o.Reuse {
		defer func() {
			if derr := deleteCluster(context.WithoutCancel(ctx), b, o.Cluster); derr != nil {
				err = errors.Join(err, derr)
			}
		}()
	}
	var all []contract.SpecID
	for _, f := range chosen {
		all = append(all, f.Specs(docs)...)
	}
	run.Control = mutantRun(ctx, b, o, tree, framework.NoFault, all, nil, filepath.Join(runsDir, "control"), !o.Reuse)
	fmt.Fprintf(stdout, "mutants: control (no fault, %d specs): %s (%.0f s)\n", run.Control.Specs, controlLine(run.Control), run.Control.Seconds)
	if run.Control.Outcome != Survived {
		return writeMutants(reportDir, run, start, stdout, errors.New("the control run failed: with no fault switched on, every chosen spec must pass ("+filepath.Join(runsDir, "control", "e2e.log")+")"))
	}
	for i, f := range chosen {
		if ctx.Err() != nil {
			break
		}
		r := mutantRun(ctx, b, o, tree, f.ID, f.Specs(docs), statementSpecs(f, docs), filepath.Join(runsDir, f.ID), false)
		r.Survives = f.Survives
		run.Results = append(run.Results, r)
		fmt.Fprintf(stdout, "mutants: [%d/%d] %s: %s (%.0f s)\n", i+1, len(chosen), f.ID, resultLine(r), r.Seconds)
	}
	if ctx.Err() != nil {
		return writeMutants(reportDir, run, start, stdout, fmt.Errorf("interrupted after %d of %d faults", len(run.Results), len(chosen)))
	}
	return writeMutants(reportDir, run, start, stdout, nil)
}

// SelectFaults reads MUTANTS: comma-separated fault IDs, documents
// (hsts: every fault of faults/catalogue/hsts.yaml) or features
// (hsts-policy: the faults one of whose specs is of it), "all", or "ci"
// (CISample of the faults once killed, chosen by the commit: a different
// few on each).
func SelectFaults(all []catalogue.Fault, docs []trace.Document, sel, commit string) ([]catalogue.Fault, error) {
	if len(all) == 0 {
		return nil, errors.New("faults/catalogue lists no fault")
	}
	var out []catalogue.Fault
	add := func(f catalogue.Fault) {
		if !slices.ContainsFunc(out, func(g catalogue.Fault) bool { return g.ID == f.ID }) {
			out = append(out, f)
		}
	}
	for _, word := range strings.Split(sel, ",") {
		word = strings.TrimSpace(word)
		n := len(out)
		switch word {
		case "", "all":
			for _, f := range all {
				add(f)
			}
			continue
		case "ci":
			// Drawn from the faults a run has killed (catalogue: killed),
			// by consecutive bytes of the commit's hash; a fault drawn
			// twice gives way to the next one.
			proven := slices.DeleteFunc(slices.Clone(all), func(f catalogue.Fault) bool { return f.Killed == "" })
			if len(proven) == 0 {
				return nil, errors.New("MUTANTS=ci draws from the faults make mutants has killed (killed: in faults/catalogue), and none is")
			}
			sum := sha256.Sum256([]byte(commit))
			for i := range min(CISample, len(proven)) {
				j := int(sum[2*i])<<8 | int(sum[2*i+1])
				for k := range proven {
					if f := proven[(j+k)%len(proven)]; !slices.ContainsFunc(out, func(g catalogue.Fault) bool { return g.ID == f.ID }) {
						add(f)
						break
					}
				}
			}
			continue
		}
		for _, f := range all {
			doc, _, _ := strings.Cut(f.ID, ".")
			inFeature := slices.ContainsFunc(f.Specs(docs), func(id contract.SpecID) bool { return string(id.Feature()) == word })
			if f.ID == word || doc == word || inFeature {
				add(f)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("MUTANTS: %q is no fault, document or feature of faults/catalogue (give fault IDs, a document such as hsts, a feature such as hsts-policy, all, or ci)", word)
		}
	}
	return out, nil
}

// statementSpecs: each statement the fault names, with its specs.
func statementSpecs(f catalogue.Fault, docs []trace.Document) map[string][]contract.SpecID {
	out := map[string][]contract.SpecID{}
	for _, d := range docs {
		for _, s := range d.Statements {
			if slices.Contains(f.Statements, s.ID) {
				out[s.ID] = s.Specs
			}
		}
	}
	return out
}

// treeSpec is one spec of the suite's tree (a dry run).
type treeSpec struct {
	ID      contract.SpecID
	Ordered bool
	// Container is the spec's containers' texts: the specs of one
	// Ordered container share it.
	Container string
}

// specTree lists the suite's specs by a Ginkgo dry run (nothing runs).
func specTree(ctx context.Context, b Binaries, o Options, dir string) ([]treeSpec, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	dry := o
	dry.Procs, dry.Focus, dry.GinkgoArgs = 1, "", []string{"--dry-run"}
	log, err := os.Create(filepath.Join(dir, "e2e.log"))
	if err != nil {
		return nil, err
	}
	defer log.Close()
	if err := ginkgo(ctx, b, dry, dir, reports.ReportJSON, nil, log, log); err != nil {
		return nil, fmt.Errorf("the spec tree (ginkgo --dry-run): %w (%s)", err, log.Name())
	}
	suite, err := readGinkgo(filepath.Join(dir, reports.ReportJSON))
	if err != nil {
		return nil, err
	}
	var out []treeSpec
	for _, s := range suite.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		if id := contract.SpecIDOf(s.Labels()); id != "" {
			out = append(out, treeSpec{ID: id, Ordered: s.IsInOrderedContainer, Container: strings.Join(s.ContainerHierarchyTexts, " / ")})
		}
	}
	return out, nil
}

func readGinkgo(file string) (types.Report, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return types.Report{}, err
	}
	var suites []types.Report
	if err := json.Unmarshal(data, &suites); err != nil {
		return types.Report{}, fmt.Errorf("%s is no Ginkgo JSON report: %v", file, err)
	}
	if len(suites) != 1 {
		return types.Report{}, fmt.Errorf("%s holds %d suites, not 1", file, len(suites))
	}
	return suites[0], nil
}

// focusOn is the label expression of specs, with the sanity specs and
// every spec of an Ordered container one of them is in (its specs build
// on each other's state).
func focusOn(tree []treeSpec, specs []contract.SpecID) ([]contract.SpecID, string) {
	var want []contract.SpecID
	for _, id := range append(slices.Clone(specs), Sanity...) {
		if !slices.Contains(want, id) {
			want = append(want, id)
		}
	}
	for _, t := range tree {
		if !slices.Contains(want, t.ID) || !t.Ordered {
			continue
		}
		for _, sibling := range tree {
			if sibling.Ordered && sibling.Container == t.Container && !slices.Contains(want, sibling.ID) {
				want = append(want, sibling.ID)
			}
		}
	}
	labels := make([]string, len(want))
	for i, id := range want {
		labels[i] = contract.SpecIDLabel(id)
	}
	return want, strings.Join(labels, " || ")
}

// mutantRun runs specs (and the sanity specs) with fault switched on and
// judges it: statements are the fault's, each with its specs (nil for
// the control, judged on every spec passing).
func mutantRun(ctx context.Context, b Binaries, o Options, tree []treeSpec, fault string, specs []contract.SpecID, statements map[string][]contract.SpecID, dir string, create bool) MutantResult {
	start := time.Now()
	r := MutantResult{Fault: fault}
	focused, focus := focusOn(tree, specs)
	r.Specs = len(focused)
	fail := func(err error) MutantResult {
		r.Outcome, r.Error, r.Seconds = Errored, err.Error(), time.Since(start).Seconds()
		return r
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	log, err := os.Create(filepath.Join(dir, "e2e.log"))
	if err != nil {
		return fail(err)
	}
	defer log.Close()
	one := o
	one.Focus, one.Repeat = focus, 1
	extra := []string{"-fault=" + fault, "-keep"}
	if !create {
		extra = append(extra, "-reuse")
	}
	// A failing spec is what a fault is for: Ginkgo's status is read from
	// the report, spec by spec.
	_ = ginkgo(ctx, b, one, dir, reports.ReportJSON, extra, log, log)
	ran, err := reports.ReadComparedRun(fault, filepath.Join(dir, reports.ReportJSON))
	if err != nil {
		return fail(fmt.Errorf("no report: %w (%s)", err, log.Name()))
	}
	if ran.Outcome.Error {
		return fail(fmt.Errorf("%s (%s)", ran.Outcome.Reason, log.Name()))
	}
	state := map[contract.SpecID]reports.SpecResult{}
	for _, s := range ran.Specs {
		state[s.ID] = s
	}
	for _, id := range focused {
		s, ok := state[id]
		switch {
		case ok && s.State == reports.Failed:
			r.Failed = append(r.Failed, reports.NamedSpec{ID: id, Name: s.Name, Reason: firstLine(s.Reason)})
		case ok && s.State == reports.Skipped:
			r.Skipped = append(r.Skipped, id)
		case !ok || s.State != reports.Passed:
			return fail(fmt.Errorf("spec %s did not run (%s)", id, log.Name()))
		}
	}
	r.Seconds = time.Since(start).Seconds()
	// A spec skips only after a failure before it in its Ordered
	// container; a skip with no failure is a run that did not happen.
	if len(r.Skipped) > 0 && len(r.Failed) == 0 {
		return fail(fmt.Errorf("specs %v did not run (%s)", r.Skipped, log.Name()))
	}
	failed := func(id contract.SpecID) bool {
		return slices.ContainsFunc(r.Failed, func(n reports.NamedSpec) bool { return n.ID == id })
	}
	skipped := func(id contract.SpecID) bool { return slices.Contains(r.Skipped, id) }
	switch {
	case slices.ContainsFunc(Sanity, failed):
		r.Outcome = Invalid
	case len(r.Failed) == 0:
		r.Outcome = Survived
	default:
		r.Outcome = Killed
	}
	for id, its := range statements {
		switch {
		case slices.ContainsFunc(its, failed):
		case slices.ContainsFunc(its, skipped):
			r.Unjudged = append(r.Unjudged, id)
		default:
			r.Unbroken = append(r.Unbroken, id)
		}
	}
	slices.Sort(r.Unbroken)
	slices.Sort(r.Unjudged)
	return r
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// controlLine: the control passes when every spec passed (a "survivor").
func controlLine(r MutantResult) string {
	switch r.Outcome {
	case Survived:
		return "every spec passed"
	case Errored:
		return "error: " + r.Error
	}
	return fmt.Sprintf("%d specs failed: %s", len(r.Failed), namedIDs(r.Failed))
}

func resultLine(r MutantResult) string {
	switch r.Outcome {
	case Killed:
		line := fmt.Sprintf("killed (%d of %d specs failed: %s)", len(r.Failed), r.Specs, namedIDs(r.Failed))
		if len(r.Unbroken) > 0 {
			line += fmt.Sprintf("; statements none of whose specs failed: %s", strings.Join(r.Unbroken, ", "))
		}
		if len(r.Unjudged) > 0 {
			line += fmt.Sprintf("; statements whose specs were skipped after an earlier failure of their Ordered container (not judged): %s", strings.Join(r.Unjudged, ", "))
		}
		return line
	case Survived:
		if r.Survives != "" {
			return "survived, as the catalogue says: " + r.Survives
		}
		return fmt.Sprintf("SURVIVED: all %d specs passed", r.Specs)
	case Invalid:
		return fmt.Sprintf("INVALID: a sanity spec failed (%s): the fault breaks more than its statements", namedIDs(r.Failed))
	}
	return "ERROR: " + r.Error
}

func namedIDs(specs []reports.NamedSpec) string {
	ids := make([]string, len(specs))
	for i, s := range specs {
		ids[i] = string(s.ID)
	}
	return strings.Join(ids, ", ")
}

// Findings are the results that need an answer: a fault that survived
// without the catalogue's reason, a fault that broke the sanity specs or
// did not run, and a killed fault's unbroken statements.
func (run MutantsRun) Findings() []string {
	var out []string
	for _, r := range run.Results {
		switch {
		case r.Outcome == Survived && r.Survives == "", r.Outcome == Invalid, r.Outcome == Errored:
			out = append(out, r.Fault+": "+resultLine(r))
		case r.Outcome == Killed && len(r.Unbroken) > 0:
			out = append(out, fmt.Sprintf("%s: statements none of whose specs failed: %s", r.Fault, strings.Join(r.Unbroken, ", ")))
		}
	}
	return out
}

func writeMutants(dir string, run MutantsRun, start time.Time, stdout io.Writer, runErr error) error {
	run.Seconds = time.Since(start).Seconds()
	data, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, MutantsJSON), append(data, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, MutantsMD), []byte(run.Markdown()), 0o644); err != nil {
		return err
	}
	killed := 0
	for _, r := range run.Results {
		if r.Outcome == Killed {
			killed++
		}
	}
	fmt.Fprintf(stdout, "mutants: %d of %d faults killed in %.0f s (%s)\n", killed, len(run.Results), run.Seconds, filepath.Join(dir, MutantsMD))
	if runErr != nil {
		return runErr
	}
	if f := run.Findings(); len(f) > 0 {
		return fmt.Errorf("%d findings (a spec to strengthen or the trace to correct, docs/mutants.md):\n  %s", len(f), strings.Join(f, "\n  "))
	}
	return nil
}

// Markdown is mutants.md: the score by document, then every fault.
func (run MutantsRun) Markdown() string {
	var b strings.Builder
	commit := run.Commit
	if run.Dirty {
		commit += " (with uncommitted changes)"
	}
	fmt.Fprintf(&b, "# Mutants\n\nSelection `%s`, commit `%s`, %.0f s in all; the control (no fault, %d specs): %s.\n\n", run.Selection, commit, run.Seconds, run.Control.Specs, controlLine(run.Control))
	b.WriteString("| document | faults | killed | survived | invalid | error |\n|---|---|---|---|---|---|\n")
	type score struct{ n, killed, survived, invalid, errored int }
	scores := map[string]*score{}
	var order []string
	for _, r := range run.Results {
		doc, _, _ := strings.Cut(r.Fault, ".")
		if scores[doc] == nil {
			scores[doc] = &score{}
			order = append(order, doc)
		}
		s := scores[doc]
		s.n++
		switch r.Outcome {
		case Killed:
			s.killed++
		case Survived:
			s.survived++
		case Invalid:
			s.invalid++
		default:
			s.errored++
		}
	}
	for _, doc := range order {
		s := scores[doc]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d |\n", doc, s.n, s.killed, s.survived, s.invalid, s.errored)
	}
	b.WriteString("\n| fault | outcome | specs | failed (first line) | seconds |\n|---|---|---|---|---|\n")
	for _, r := range run.Results {
		var failed []string
		for _, f := range r.Failed {
			failed = append(failed, fmt.Sprintf("`%s`: %s", f.ID, strings.ReplaceAll(f.Reason, "|", `\|`)))
		}
		outcome := r.Outcome
		if len(r.Unbroken) > 0 {
			outcome += "; unbroken: " + strings.Join(r.Unbroken, ", ")
		}
		if len(r.Unjudged) > 0 {
			outcome += "; not judged (skipped in an Ordered container): " + strings.Join(r.Unjudged, ", ")
		}
		if r.Survives != "" {
			outcome += "; " + r.Survives
		}
		if r.Error != "" {
			outcome += ": " + r.Error
		}
		fmt.Fprintf(&b, "| `%s` | %s | %d | %s | %.0f |\n", r.Fault, outcome, r.Specs, strings.Join(failed, "<br>"), r.Seconds)
	}
	return b.String()
}
