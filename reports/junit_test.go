package reports

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

func TestWriteJUnitWritesAFlakeAsAFailedAndAPassedTestCase(t *testing.T) {
	start := time.Date(2026, 11, 23, 5, 0, 0, 0, time.UTC)
	it := func(container, text string, state types.SpecState) types.SpecReport {
		return types.SpecReport{ContainerHierarchyTexts: []string{container}, ContainerHierarchyLabels: [][]string{{"hsts"}},
			LeafNodeType: types.NodeTypeIt, LeafNodeText: text, State: state, NumAttempts: 1,
			StartTime: start, EndTime: start.Add(10 * time.Second), RunTime: 10 * time.Second}
	}
	flaked := it("HSTS per route", "sets the header", types.SpecStatePassed)
	flaked.NumAttempts, flaked.MaxFlakeAttempts = 3, 3
	flaked.EndTime, flaked.RunTime = start.Add(30*time.Second), 30*time.Second
	flaked.AdditionalFailures = []types.AdditionalFailure{
		{State: types.SpecStateFailed, Failure: types.Failure{Message: "Failure recorded during attempt 1:\nno header\nafter 2m"}},
		{State: types.SpecStateFailed, Failure: types.Failure{Message: "namespace not deleted"}},
		{State: types.SpecStateTimedout, Failure: types.Failure{Message: "Failure recorded during attempt 2:\ntimed out"}},
	}
	flaked.SpecEvents = types.SpecEvents{
		{SpecEventType: types.SpecEventSpecRetry, Attempt: 1, TimelineLocation: types.TimelineLocation{Time: start.Add(12 * time.Second)}},
		{SpecEventType: types.SpecEventSpecRetry, Attempt: 2, TimelineLocation: types.TimelineLocation{Time: start.Add(20 * time.Second)}},
	}
	failed := it("HSTS per route", "refuses", types.SpecStateFailed)
	failed.Failure = types.Failure{Message: "admitted"}
	report := types.Report{
		SuiteDescription: "Router conformance", StartTime: start, RunTime: time.Minute,
		SpecReports: types.SpecReports{
			{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStatePassed},
			it("HSTS per route", "sets max-age", types.SpecStatePassed),
			flaked,
			failed,
		},
	}
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteJUnit(report, path, map[string]string{"result": "failed"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatal(err)
	}
	s := suites.TestSuites[0]
	if suites.Tests != 6 || suites.Failures != 3 || s.Tests != 6 || s.Failures != 3 || s.Properties.WithName("conformance.result") != "failed" {
		t.Errorf("counts: suites %d/%d, suite %d/%d, properties %v", suites.Tests, suites.Failures, s.Tests, s.Failures, s.Properties)
	}
	name := "[It] HSTS per route sets the header [hsts]"
	type row struct {
		name, status string
		time         float64
		failure      string
	}
	var got []row
	for _, tc := range s.TestCases {
		r := row{tc.Name, tc.Status, tc.Time, ""}
		if tc.Failure != nil {
			r.failure = tc.Failure.Type + ": " + tc.Failure.Message
		}
		got = append(got, r)
	}
	want := []row{
		{"[SynchronizedBeforeSuite]", "passed", 0, ""},
		{"[It] HSTS per route sets max-age [hsts]", "passed", 10, ""},
		{name, "failed", 12, "failed: no header\nafter 2m"},
		{name, "timedout", 8, "timedout: timed out"},
		{name, "passed", 10, ""},
		{"[It] HSTS per route refuses [hsts]", "failed", 10, "failed: admitted"},
	}
	if len(got) != len(want) {
		t.Fatalf("test cases:\n%+v\nwant\n%+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("test case %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if d := s.TestCases[2].Failure.Description; !strings.HasPrefix(d, "[FLAKE] attempt 1 of 3 failed; a later attempt passed\nno header") {
		t.Errorf("description %q", d)
	}
}
