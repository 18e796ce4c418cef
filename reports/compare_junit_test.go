package reports

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

const junitFixture = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="5">
  <testsuite name="Router conformance" tests="5">
    <properties>
      <property name="LabelFilter" value=""></property>
      <property name="conformance.result" value="failed"></property>
    </properties>
    <testcase name="[SynchronizedBeforeSuite]" classname="Router conformance" status="passed"></testcase>
    <testcase name="[It] HSTS per route edge, max-age [hsts, id:hsts.edge-max-age]" classname="Router conformance" status="passed"></testcase>
    <testcase name="[It] Sharding a shard serves only its namespaces [sharding, id:sharding.own-namespaces-only, Serial]" classname="Router conformance" status="skipped">
      <skipped message="skipped - not claimed: sharding&#xA;more"></skipped>
    </testcase>
    <testcase name="[It] Client TLS refuses an expired certificate [client-tls, id:client-tls.expired-refused]" classname="Router conformance" status="failed">
      <failure message="expected remote error: tls: expired certificate&#xA;got 200" type="failed"></failure>
    </testcase>
    <testcase name="[It] Router flaky spec [router, id:router.flaky]" classname="Router conformance" status="failed"><failure message="first"></failure></testcase>
    <testcase name="[It] Router flaky spec [router, id:router.flaky]" classname="Router conformance" status="passed"></testcase>
  </testsuite>
</testsuites>`

// writeJUnit writes a JUnit file for ReadComparedRunFile.
func writeJUnit(t *testing.T, xml string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "junit_01.xml")
	if err := os.WriteFile(file, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestJUnitRunsAreReadAsReportJSONIs(t *testing.T) {
	run, err := ReadComparedRunFile("in-cluster", writeJUnit(t, junitFixture))
	if err != nil {
		t.Fatal(err)
	}
	want := map[contract.SpecID]SpecResult{
		"hsts/edge-max-age":            {Name: "HSTS per route edge, max-age", State: Passed},
		"sharding/own-namespaces-only": {Name: "Sharding a shard serves only its namespaces", State: Skipped, Reason: "not claimed: sharding"},
		"client-tls/expired-refused":   {Name: "Client TLS refuses an expired certificate", State: Failed, Reason: "expected remote error: tls: expired certificate"},
		"router/flaky":                 {Name: "Router flaky spec", State: Passed, Attempts: 1},
	}
	if len(run.Specs) != len(want) {
		t.Fatalf("%d specs, want %d: %+v", len(run.Specs), len(want), run.Specs)
	}
	for _, s := range run.Specs {
		w, ok := want[s.ID]
		if !ok || s.Name != w.Name || s.State != w.State || s.Reason != w.Reason || s.Attempts != w.Attempts {
			t.Errorf("spec %s: %+v, want %+v", s.ID, s, w)
		}
	}
	if got := run.Specs[1].Labels; !slices.Equal(got, []string{"sharding", "id:sharding.own-namespaces-only", "Serial"}) {
		t.Errorf("labels %q", got)
	}
	// The same run compared with itself: every spec the same.
	c, err := Compare(run, ComparedRun{Name: "again", Specs: run.Specs})
	if err != nil {
		t.Fatal(err)
	}
	if c.Count(Different) != 0 || c.Count(Same) != len(want) {
		t.Errorf("self comparison: %s", c.Summary())
	}
}

// A JUnit test case is its spec by the ID among its labels: compared with
// a report.json in which the spec's text is another, it is the same spec;
// its retries are told apart from another spec of the same text by the
// ID; and a JUnit without IDs (a suite before v0.3.0) is refused by
// Compare.
func TestJUnitTakesTheIDFromTheLabels(t *testing.T) {
	junit := `<testsuites><testsuite name="Router conformance">
    <testcase name="[It] Router serves an edge route, reworded [router, id:router.edge-served]" status="passed"></testcase>
    <testcase name="[It] Router [brackets] in a text [router, judges:platform, id:router.bad-host-refused]" status="passed"></testcase>
    <testcase name="[It] Router twin [router, id:router.twin-a]" status="failed"><failure message="first attempt"></failure></testcase>
    <testcase name="[It] Router twin [router, id:router.twin-b]" status="passed"></testcase>
    <testcase name="[It] Router twin [router, id:router.twin-a]" status="passed"></testcase>
  </testsuite></testsuites>`
	run, err := ReadComparedRunFile("in-cluster", writeJUnit(t, junit))
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		id       contract.SpecID
		name     string
		state    Result
		attempts int
	}
	var specs []got
	for _, s := range run.Specs {
		specs = append(specs, got{s.ID, s.Name, s.State, s.Attempts})
	}
	want := []got{
		{"router/edge-served", "Router serves an edge route, reworded", Passed, 0},
		{"router/bad-host-refused", "Router [brackets] in a text", Passed, 0},
		{"router/twin-a", "Router twin", Passed, 1}, // its second test case: a retry
		{"router/twin-b", "Router twin", Passed, 0},
	}
	if !slices.Equal(specs, want) {
		t.Errorf("specs:\n got %+v\nwant %+v", specs, want)
	}
	if s := run.Specs[1]; !slices.Equal(s.Labels, []string{"router", contract.JudgesPlatformLabel, "id:router.bad-host-refused"}) {
		t.Errorf("labels of %s: %q", s.ID, s.Labels)
	}

	// Against a report.json of the same specs, texts apart.
	g := types.Report{SuiteSucceeded: true, SpecReports: types.SpecReports{
		passed("Router", "serves an edge route", []string{"router"}, idLabel("router/edge-served")),
		passed("Router", "refuses a route with a bad host", []string{"router"}, contract.JudgesPlatformLabel, idLabel("router/bad-host-refused")),
		passed("Router", "twin", []string{"router"}, idLabel("router/twin-a")),
		passed("Router", "twin", []string{"router"}, idLabel("router/twin-b")),
	}}
	c, err := Compare(compared("kind", g), run)
	if err != nil {
		t.Fatal(err)
	}
	if c.Count(Same) != 4 || c.Count(Different) != 0 {
		t.Errorf("report.json vs JUnit: %s\n%s", c.Summary(), c.Markdown())
	}

	old := `<testsuites><testsuite name="Router conformance">
    <testcase name="[It] Router serves an edge route [router]" status="passed"></testcase>
    <testcase name="[It] HSTS per route sets the header on edge routes [hsts]" status="passed"></testcase>
  </testsuite></testsuites>`
	file := writeJUnit(t, old)
	oldRun, err := ReadComparedRunFile("in-cluster", file)
	if err != nil {
		t.Fatal(err)
	}
	if len(oldRun.Specs) != 2 || oldRun.Specs[0].ID != "" || oldRun.Specs[1].ID != "" || oldRun.Specs[1].Attempts != 0 {
		t.Errorf("a JUnit without IDs: %+v", oldRun.Specs)
	}
	_, err = Compare(compared("kind", g), oldRun)
	if want := `run in-cluster (` + file + `) has spec "Router serves an edge route" without an ID: it was made by a suite before v0.3.0`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v\nwant %q...", err, want)
	}
}
