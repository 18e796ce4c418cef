package reports

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// FromGinkgo reads a Ginkgo report: one SpecResult per It, and what the
// run as a whole says (cut short, set-up failed, filters). The verifier
// calls it on the bundle's report.json, so the verdict is re-derived from
// Ginkgo's own record, never from ours.
func FromGinkgo(r types.Report) (specs []SpecResult, run RunOutcome) {
	cfg := r.SuiteConfig
	run.LabelFilter = cfg.LabelFilter
	run.Focus = filters(cfg.FocusStrings, cfg.FocusFiles)
	if r.SuiteHasProgrammaticFocus {
		run.Focus = append(run.Focus, "programmatic focus (FIt, FDescribe...)")
	}
	if cfg.SemVerFilter != "" {
		run.Focus = append(run.Focus, "semver:"+cfg.SemVerFilter)
	}
	run.Skip = filters(cfg.SkipStrings, cfg.SkipFiles)

	var why, echoes []string
	failedSpec := false
	for _, s := range r.SpecReports {
		switch {
		case s.LeafNodeType == types.NodeTypeIt:
			spec := SpecResult{ID: contract.SpecIDOf(s.Labels()), Name: s.FullText(), Labels: s.Labels(), Duration: s.RunTime, Judges: contract.JudgedBy(s.Labels())}
			if s.NumAttempts > 1 {
				spec.Attempts, spec.EarlierFailures = s.NumAttempts, EarlierFailures(s)
			}
			switch {
			case s.State.Is(types.SpecStatePassed):
				spec.State = Passed
			case s.State.Is(types.SpecStatePending):
				spec.State, spec.Reason = Skipped, ReasonPending
			case s.State.Is(types.SpecStateSkipped):
				spec.State, spec.Reason = Skipped, firstLine(s.Failure.Message)
				if spec.Reason == "" && filteredOut(r, s) {
					spec.Reason = ReasonFilteredOut
				} else if spec.Reason == "" {
					spec.Reason = ReasonNeverStarted
				}
			default:
				spec.State, spec.Reason = Failed, failureLine(s)
				failedSpec = true
				// An aborted spec ends the run: the specs after it never ran.
				if s.State.Is(types.SpecStateAborted) {
					why = append(why, fmt.Sprintf("aborted by spec %s (%q): %s", spec.ID, spec.Name, spec.Reason))
				}
			}
			specs = append(specs, spec)
		case s.LeafNodeType.Is(types.NodeTypesForSuiteLevelNodes) && s.State.Is(types.SpecStateFailureStates):
			line := suiteNodeStage(s.LeafNodeType) + " failed: " + failureLine(s)
			if s.State.Is(types.SpecStateInterrupted) {
				// Not a failure of its own: every process's node says so
				// in its words, and Ginkgo's reason below says why.
				line = "interrupted during " + suiteNodeStage(s.LeafNodeType)
			}
			if strings.Contains(line, echoedSetUpFailure) {
				echoes = append(echoes, line)
				continue
			}
			why = append(why, line)
		}
	}
	// The other processes only echo process 1's failed set-up: named when
	// process 1's own failure is missing from the report.
	if len(why) == 0 {
		why = echoes
	}
	// A dry run walks the tree and reports every spec passed: nothing ran.
	if cfg.DryRun {
		why = append(why, ReasonDryRun)
	}
	for _, reason := range r.SpecialSuiteFailureReasons {
		why = append(why, firstLine(reason))
	}
	if len(why) == 0 && !r.SuiteSucceeded && !failedSpec {
		why = append(why, "Ginkgo reports the suite unsuccessful, and no spec or suite node failed")
	}
	if len(why) > 0 {
		run.Error, run.Reason = true, strings.Join(once(why), "; ")
	}
	return specs, run
}

// ReasonDryRun is a dry run's verdict reason: an error, never a pass.
const ReasonDryRun = "dry run: no spec ran"

// once keeps each reason's first occurrence: every parallel process
// reports a failed SynchronizedBeforeSuite.
func once(s []string) []string {
	var out []string
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// suiteNodeStage names what a failed suite-level node was doing.
func suiteNodeStage(t types.NodeType) string {
	switch {
	case t.Is(types.NodeTypeBeforeSuite | types.NodeTypeSynchronizedBeforeSuite):
		return "set-up"
	case t.Is(types.NodeTypeAfterSuite | types.NodeTypeSynchronizedAfterSuite | types.NodeTypeCleanupAfterSuite):
		return "tear-down"
	}
	return "reporting"
}

// failureLine is a failed spec's reason in one line: its failure message,
// with the panic when it panicked.
func failureLine(s types.SpecReport) string {
	msg := firstLine(stripANSI(s.Failure.Message))
	if cause := gomegaError(stripANSI(s.Failure.Message)); cause != "" {
		msg = strings.TrimSuffix(msg, ":") + ": " + cause
	}
	if p := firstLine(s.Failure.ForwardedPanic); p != "" {
		msg = strings.TrimSpace(msg + ": " + p)
	}
	if msg == "" {
		return s.State.String()
	}
	return msg
}

// echoedSetUpFailure is what every other parallel process reports when
// process 1's SynchronizedBeforeSuite failed.
const echoedSetUpFailure = "SynchronizedBeforeSuite failed on Ginkgo parallel process"

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// stripANSI takes Ginkgo's colours out of a message.
func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }

// gomegaError is the error an `Expect(err).NotTo(HaveOccurred(), what)`
// failure carries: Gomega writes the description, "Unexpected error:",
// the error's type, then its text on the next line. "" for any other
// message.
func gomegaError(msg string) string {
	_, rest, ok := strings.Cut(msg, "Unexpected error:\n")
	if !ok {
		return ""
	}
	lines := strings.Split(rest, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "<") && strings.HasSuffix(l, ">:") && i+1 < len(lines) {
			return strings.TrimSpace(lines[i+1])
		}
		if strings.HasPrefix(l, "<") {
			// "<*errors.errorString | 0x...>: text" on one line.
			if _, text, ok := strings.Cut(l, ">: "); ok {
				return strings.TrimSpace(text)
			}
		}
	}
	return ""
}

// filters are Ginkgo's regular expressions and then its file filters
// ("file:..."); nil when none.
func filters(regexps, files []string) []string {
	out := slices.Clone(regexps)
	for _, f := range files {
		out = append(out, "file:"+f)
	}
	return out
}

// filteredOut says whether the run's filters left a spec out. Ginkgo marks
// a filtered spec skipped with no message, as it does the specs an
// interrupted run never reached, so the filters are evaluated again as
// Ginkgo does (internal/focus.go); those it cannot evaluate from the report
// (programmatic focus, semver) count as filtering.
func filteredOut(r types.Report, s types.SpecReport) bool {
	cfg := r.SuiteConfig
	if r.SuiteHasProgrammaticFocus || cfg.SemVerFilter != "" {
		return true
	}
	if cfg.LabelFilter != "" {
		if match, err := types.ParseLabelFilter(cfg.LabelFilter); err != nil || !match(union(r.SuiteLabels, s.Labels())) {
			return true
		}
	}
	locations := append(append([]types.CodeLocation(nil), s.ContainerHierarchyLocations...), s.LeafNodeLocation)
	if len(cfg.FocusFiles) > 0 {
		if f, err := types.ParseFileFilters(cfg.FocusFiles); err != nil || !f.Matches(locations) {
			return true
		}
	}
	if len(cfg.SkipFiles) > 0 {
		if f, err := types.ParseFileFilters(cfg.SkipFiles); err != nil || f.Matches(locations) {
			return true
		}
	}
	text := r.SuiteDescription + " " + s.FullText()
	if len(cfg.FocusStrings) > 0 {
		if re, err := regexp.Compile(strings.Join(cfg.FocusStrings, "|")); err != nil || !re.MatchString(text) {
			return true
		}
	}
	if len(cfg.SkipStrings) > 0 {
		if re, err := regexp.Compile(strings.Join(cfg.SkipStrings, "|")); err != nil || re.MatchString(text) {
			return true
		}
	}
	return false
}

// union is a's labels and then b's, each once (as Ginkgo unites suite and
// spec labels).
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, l := range b {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}
