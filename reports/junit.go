package reports

import (
	"encoding/xml"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

// junitPropertyPrefix starts the suite's own properties in junit.xml
// (JUnitProperties), beside Ginkgo's.
const junitPropertyPrefix = "conformance."

// WriteJUnit writes Ginkgo's JUnit report (what CI dashboards read) with
// the run's provenance added to the suite's properties. A spec that
// failed, then passed on a retry (--flake-attempts) is written as
// openshift-tests writes a flake, which Spyglass and Sippy count: a
// failed test case per failed attempt, then the passed one, all of the
// same name.
func WriteJUnit(report types.Report, path string, props map[string]string) error {
	tmp := path + ".tmp"
	if err := reporters.GenerateJUnitReport(report, tmp); err != nil {
		return err
	}
	defer os.Remove(tmp)
	data, err := os.ReadFile(tmp)
	if err != nil {
		return err
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		return fmt.Errorf("read back %s: %w", tmp, err)
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i := range suites.TestSuites {
		for _, k := range keys {
			suites.TestSuites[i].Properties.Properties = append(suites.TestSuites[i].Properties.Properties, reporters.JUnitProperty{Name: junitPropertyPrefix + k, Value: props[k]})
		}
	}
	splitFlakes(&suites, report)
	out, err := xml.MarshalIndent(suites, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(out, '\n')...), 0o644)
}

// splitFlakes puts a failed test case before each flaked spec's passed
// one, per failed attempt, and counts them in the suite's totals. Ginkgo
// writes one suite and a test case per spec report, in the report's
// order; were it ever otherwise, the file is left as Ginkgo wrote it
// (conformance.yaml and summary.md still list the flakes).
func splitFlakes(suites *reporters.JUnitTestSuites, report types.Report) {
	if len(suites.TestSuites) != 1 || len(suites.TestSuites[0].TestCases) != len(report.SpecReports) {
		return
	}
	suite := &suites.TestSuites[0]
	var cases []reporters.JUnitTestCase
	for i, tc := range suite.TestCases {
		spec := report.SpecReports[i]
		if spec.LeafNodeType != types.NodeTypeIt || !spec.State.Is(types.SpecStatePassed) || spec.NumAttempts < 2 {
			cases = append(cases, tc)
			continue
		}
		failures := AttemptFailures(spec)
		if len(failures) == 0 {
			failures = []types.AdditionalFailure{{State: types.SpecStateFailed}}
		}
		times := attemptTimes(spec)
		for k, af := range failures {
			msg := af.Failure.Message
			if af.Failure.ForwardedPanic != "" {
				msg = strings.TrimSpace(msg + "\n" + af.Failure.ForwardedPanic)
			}
			if msg == "" {
				msg = "failed on an earlier attempt (no failure recorded)"
			}
			failed := reporters.JUnitTestCase{Name: tc.Name, Classname: tc.Classname, Status: af.State.String(), Owner: tc.Owner, Time: times[k],
				Failure: &reporters.JUnitFailure{Message: msg, Type: af.State.String(),
					Description: fmt.Sprintf("[FLAKE] attempt %d of %d failed; a later attempt passed\n%s\n%s", k+1, spec.NumAttempts, msg, af.Failure.Location)}}
			cases = append(cases, failed)
		}
		if last := times[len(times)-1]; last > 0 {
			tc.Time = last
		}
		cases = append(cases, tc)
		suite.Tests += len(failures)
		suite.Failures += len(failures)
		suites.Tests += len(failures)
		suites.Failures += len(failures)
	}
	suite.TestCases = cases
}

// attemptTimes are the seconds each attempt of a retried spec took, from
// Ginkgo's Retry events (each marks the start of the next attempt); 0
// where the report does not say.
func attemptTimes(spec types.SpecReport) []float64 {
	times := make([]float64, spec.NumAttempts)
	start := spec.StartTime
	attempt := 0
	for _, e := range spec.SpecEvents {
		if e.SpecEventType != types.SpecEventSpecRetry || attempt >= len(times)-1 {
			continue
		}
		if t := e.TimelineLocation.Time; !t.IsZero() && !start.IsZero() && t.After(start) {
			times[attempt] = t.Sub(start).Seconds()
		}
		start = e.TimelineLocation.Time
		attempt++
	}
	if !spec.EndTime.IsZero() && !start.IsZero() && spec.EndTime.After(start) {
		times[len(times)-1] = spec.EndTime.Sub(start).Seconds()
	}
	return times
}
