package reports

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
)

// Options the report records about retries (Meta.Options keys, set by
// the framework): a run with either is never certifiable.
const (
	// OptionFlakeAttempts is Ginkgo's --flake-attempts (make e2e
	// FLAKE_ATTEMPTS=N): how often a failing spec is run before it fails.
	OptionFlakeAttempts = "ginkgo.flake-attempts"
	// OptionFailOnce is the test-only hook that fails the first attempt
	// of the specs whose full text contains its value
	// (ROUTER_CONFORMANCE_TEST_FAIL_ONCE); present only when set.
	OptionFailOnce = "test.fail-once"
)

// attemptPrefix opens the message Ginkgo records for each failed attempt
// but the last (internal/group.go: "Failure recorded during attempt %d:\n").
const attemptPrefix = "Failure recorded during attempt "

// AttemptFailures are the failures of a retried spec's attempts before
// its last, in order, each message without Ginkgo's "Failure recorded
// during attempt N:" line: Ginkgo keeps them in AdditionalFailures with
// that line (the other additional failures are of cleanup nodes within
// one attempt).
func AttemptFailures(s types.SpecReport) []types.AdditionalFailure {
	var out []types.AdditionalFailure
	for _, af := range s.AdditionalFailures {
		rest, ok := strings.CutPrefix(af.Failure.Message, attemptPrefix)
		if !ok {
			continue
		}
		_, af.Failure.Message, _ = strings.Cut(rest, "\n")
		out = append(out, af)
	}
	return out
}

// EarlierFailures are AttemptFailures in a line each, as failed specs'
// reasons are (the panic added when one was forwarded).
func EarlierFailures(s types.SpecReport) []string {
	var out []string
	for _, af := range AttemptFailures(s) {
		line := firstLine(af.Failure.Message)
		if p := firstLine(af.Failure.ForwardedPanic); p != "" {
			line = strings.TrimSpace(line + ": " + p)
		}
		if line == "" {
			line = af.State.String()
		}
		out = append(out, line)
	}
	return out
}

// firstOf is a flaked spec's first failure; Ginkgo always records one,
// but a hand-made report may not.
func firstOf(failures []string) string {
	if len(failures) == 0 {
		return "failed on an earlier attempt (no failure recorded)"
	}
	return failures[0]
}

// FlakedSpecs lists every flaked spec of the report, feature by feature.
func (r Report) FlakedSpecs() []FlakedSpec {
	var out []FlakedSpec
	for _, f := range r.Features {
		out = append(out, f.Flaked...)
	}
	return out
}

// oneAttemptEach: a certifiable run ran every spec once. Retries
// (--flake-attempts, the FlakeAttempts or MustPassRepeatedly decorators)
// would let a router that fails a spec now and then pass, and the test
// hook that fails a spec on purpose is for the suite's own tests.
func oneAttemptEach(g types.Report, options map[string]string) error {
	if v, ok := options[OptionFailOnce]; ok {
		return fmt.Errorf("the run had the test-only hook %s=%q set", OptionFailOnce, v)
	}
	if n := g.SuiteConfig.FlakeAttempts; n > 1 {
		return fmt.Errorf("the run retried failing specs (--flake-attempts=%d)", n)
	}
	if n := g.SuiteConfig.MustPassRepeatedly; n > 1 {
		return fmt.Errorf("the run repeated specs (--must-pass-repeatedly=%d)", n)
	}
	for _, s := range g.SpecReports {
		if s.NumAttempts > 1 {
			return fmt.Errorf("spec %q ran %d times: a certification run runs every spec once", s.FullText(), s.NumAttempts)
		}
	}
	return nil
}

// severity orders run verdicts, worst last: passed < partial < failed <
// error. Anything else (a report from elsewhere) counts as error.
func severity(r Result) int {
	if i := slices.Index([]Result{Passed, Partial, Failed, Error}, r); i >= 0 {
		return i
	}
	return 3
}

// Worst is the index of the report with the worst verdict (error >
// failed > partial > passed), the last of equals; -1 when there is none.
func Worst(reports []Report) int {
	worst := -1
	for i, r := range reports {
		if worst < 0 || severity(r.Result) >= severity(reports[worst].Result) {
			worst = i
		}
	}
	return worst
}

// flakedMarkdown is the summary's section on flaked specs.
func (r Report) flakedMarkdown(b *strings.Builder) {
	flaked := r.FlakedSpecs()
	if len(flaked) == 0 {
		return
	}
	retries := r.Options[OptionFlakeAttempts]
	fmt.Fprintf(b, "\n## Flaked: %d specs failed, then passed on a retry\n\n", len(flaked))
	b.WriteString("They count as passed for the verdict")
	if n, err := strconv.Atoi(retries); err == nil && n > 1 {
		fmt.Fprintf(b, " (`--flake-attempts=%d`)", n)
	}
	b.WriteString("; `junit.xml` has a failed and a passed test case for each.\n\n")
	b.WriteString("| spec | attempts | first failure |\n|---|---|---|\n")
	for _, f := range flaked {
		fmt.Fprintf(b, "| %s %s | %d | %s |\n", code(string(f.ID)), mdText(f.Name), f.Attempts, code(f.Reason))
	}
}
