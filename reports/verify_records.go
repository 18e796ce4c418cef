package reports

import (
	"encoding/xml"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// The run's other records, which the verifier holds to report.json: Ginkgo
// writes junit.xml and the console (e2e.log) from the same run, so every
// spec is in the same state in all three.

// checkJUnit: junit.xml's spec test cases ("[It] <text> [<labels>]") are
// report.json's specs, by ID, each once, each in the same state.
func checkJUnit(data []byte, specs []SpecResult) error {
	var doc junitSuites
	if err := xml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s is no JUnit report: %v", JUnitXML, oneLine(err))
	}
	if len(doc.Suites) != 1 {
		return fmt.Errorf("%s holds %d test suites, not 1", JUnitXML, len(doc.Suites))
	}
	states := map[contract.SpecID]Result{}
	for _, c := range doc.Suites[0].Cases {
		text, ok := strings.CutPrefix(c.Name, "[It] ")
		if !ok {
			continue // suite nodes: [SynchronizedBeforeSuite], ...
		}
		id := contract.SpecIDOf(bracketedLabels(text))
		if id == "" {
			return fmt.Errorf("%s has a test case without a spec ID: %q", JUnitXML, c.Name)
		}
		state, ok := junitState(c.Status)
		if !ok {
			return fmt.Errorf("%s gives spec %s the status %q", JUnitXML, id, c.Status)
		}
		// A reader of the JUnit goes by its elements, not the status
		// attribute: each must say what the status says.
		if failed := c.Failure != nil || c.Error != nil; failed != (state == Failed) || (c.Skipped != nil) != (state == Skipped) {
			return fmt.Errorf("%s says spec %s %s, but its test case's elements say otherwise (failure %t, error %t, skipped %t)",
				JUnitXML, id, c.Status, c.Failure != nil, c.Error != nil, c.Skipped != nil)
		}
		if _, dup := states[id]; dup {
			return fmt.Errorf("%s lists spec %s more than once", JUnitXML, id)
		}
		states[id] = state
	}
	want := map[contract.SpecID]Result{}
	for _, s := range specs {
		want[s.ID] = s.State
	}
	for _, id := range slices.Sorted(maps.Keys(want)) {
		g, ok := states[id]
		switch {
		case !ok:
			return fmt.Errorf("%s lacks spec %s of %s", JUnitXML, id, ReportJSON)
		case g != want[id]:
			return fmt.Errorf("spec %s is %s in %s, %s in %s", id, want[id], ReportJSON, g, JUnitXML)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(states)) {
		if _, ok := want[id]; !ok {
			return fmt.Errorf("%s has spec %s, which %s lacks", JUnitXML, id, ReportJSON)
		}
	}
	return nil
}

// checkJUnitProperties: the run's provenance and verdict as a CI system
// reads them from junit.xml's suite properties are exactly what
// report.json gives (JUnitProperties).
func checkJUnitProperties(data []byte, props map[string]string) error {
	var doc junitSuites
	if err := xml.Unmarshal(data, &doc); err != nil || len(doc.Suites) != 1 {
		return fmt.Errorf("%s is no JUnit report of one test suite", JUnitXML)
	}
	got := map[string]string{}
	for _, p := range doc.Suites[0].Properties {
		if k, ok := strings.CutPrefix(p.Name, junitPropertyPrefix); ok {
			got[k] = p.Value
		}
	}
	for _, k := range slices.Sorted(maps.Keys(props)) {
		if v, ok := got[k]; !ok || v != props[k] {
			return fmt.Errorf("%s's property %s%s is %q, but %s gives %q", JUnitXML, junitPropertyPrefix, k, v, ReportJSON, props[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := props[k]; !ok {
			return fmt.Errorf("%s has the property %s%s, which %s does not give", JUnitXML, junitPropertyPrefix, k, ReportJSON)
		}
	}
	return nil
}

// junitState maps a JUnit test case's status (Ginkgo's SpecState) onto a
// spec's state as FromGinkgo reads it.
func junitState(status string) (Result, bool) {
	switch status {
	case "passed":
		return Passed, true
	case "failed", "panicked", "timedout", "interrupted", "aborted":
		return Failed, true
	case "skipped", "pending":
		return Skipped, true
	}
	return "", false
}

var bracketed = regexp.MustCompile(`\[([^\[\]]*)\]`)

// bracketedLabels are the labels of every "[a, b]" group in a line:
// Ginkgo prints a spec's labels so, after its text, in the JUnit test
// case's name and on the console.
func bracketedLabels(line string) []string {
	var out []string
	for _, m := range bracketed.FindAllStringSubmatch(line, -1) {
		out = append(out, strings.Split(m[1], ", ")...)
	}
	return out
}

// The lines of Ginkgo's console (reporters/default_reporter.go) that the
// verifier reads: SuiteDidEnd's "Summarizing N Failures:" block, a line
// per failed spec or suite node ("[FAIL] <text> [<labels>]", the heading
// [PANICKED!], [ABORTED], [TIMEDOUT] or [INTERRUPTED] by its state) and
// its location, then "Ran N of M Specs in S seconds".
var (
	consoleRan       = regexp.MustCompile(`Ran (\d+) of (\d+) Specs in [0-9.]+ seconds`)
	consoleSummarize = regexp.MustCompile(`^\s*Summarizing \d+ Failures?:\s*$`)
	consoleFailure   = regexp.MustCompile(`^\s*\[(FAIL|PANICKED!|ABORTED|TIMEDOUT|INTERRUPTED)\] (.*?)\s*$`)
)

// checkConsole: e2e.log is the console of the run report.json records:
// every "Ran N of M Specs" line counts report.json's specs (N that ran,
// passed or failed; M in all, as its tree had them), every failure it summarizes is a failed
// spec (by its ID label, else its text) or suite node of report.json,
// and every failed spec of report.json is summarized.
func checkConsole(data []byte, g types.Report, specs []SpecResult) error {
	ran := 0
	for _, s := range specs {
		if s.State == Passed || s.State == Failed {
			ran++
		}
	}
	var failures []string
	sawRan, inSummary := false, false
	for _, line := range strings.Split(stripANSI(string(data)), "\n") {
		line = strings.TrimRight(line, "\r")
		if m := consoleRan.FindStringSubmatch(line); m != nil {
			sawRan, inSummary = true, false
			n, _ := strconv.Atoi(m[1])
			total, _ := strconv.Atoi(m[2])
			// M is Ginkgo's count of the tree (PreRunStats), which a run
			// whose parallel set-up failed holds without a spec report.
			if n != ran || total != g.PreRunStats.TotalSpecs || (len(specs) > 0 && total != len(specs)) {
				return fmt.Errorf("%s says Ran %d of %d Specs, %s %d of %d", E2ELog, n, total, ReportJSON, ran, g.PreRunStats.TotalSpecs)
			}
			continue
		}
		if consoleSummarize.MatchString(line) {
			inSummary = true
			continue
		}
		if m := consoleFailure.FindStringSubmatch(line); inSummary && m != nil {
			failures = append(failures, m[2])
		}
	}
	if !sawRan {
		return fmt.Errorf("%s has no \"Ran N of M Specs\" line: it is not the console of a Ginkgo run", E2ELog)
	}

	byID := map[contract.SpecID]SpecResult{}
	for _, s := range specs {
		byID[s.ID] = s
	}
	var suiteNodes []string
	for _, s := range g.SpecReports {
		if s.LeafNodeType.Is(types.NodeTypesForSuiteLevelNodes) && s.State.Is(types.SpecStateFailureStates) {
			suiteNodes = append(suiteNodes, strings.TrimSpace(fmt.Sprintf("[%s] %s", s.LeafNodeType, s.LeafNodeText)))
		}
	}
	summarized := map[contract.SpecID]bool{}
	for _, text := range failures {
		id := contract.SpecIDOf(bracketedLabels(text))
		if id == "" {
			id = specByText(specs, text)
		}
		if id == "" {
			if slices.Contains(suiteNodes, text) {
				continue
			}
			return fmt.Errorf("%s has a [FAIL] line for %q, which is no failed spec or suite node of %s", E2ELog, text, ReportJSON)
		}
		s, ok := byID[id]
		switch {
		case !ok:
			return fmt.Errorf("%s has a [FAIL] line for spec %s, which %s lacks", E2ELog, id, ReportJSON)
		case s.State != Failed:
			return fmt.Errorf("%s has a [FAIL] line for spec %s, which is %s in %s", E2ELog, id, s.State, ReportJSON)
		}
		summarized[id] = true
	}
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		if byID[id].State == Failed && !summarized[id] {
			return fmt.Errorf("spec %s failed in %s, but %s has no [FAIL] line for it", id, ReportJSON, E2ELog)
		}
	}
	return nil
}

// specByText is the ID of the spec whose text a [FAIL] line without an
// ID label names ("<containers> [It] <text>"), "" when none.
func specByText(specs []SpecResult, text string) contract.SpecID {
	text = strings.Join(strings.Fields(strings.Replace(text, "[It] ", "", 1)), " ")
	for _, s := range specs {
		if strings.Join(strings.Fields(s.Name), " ") == text {
			return s.ID
		}
	}
	return ""
}
