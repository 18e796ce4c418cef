package reports

import (
	"os"
	"path/filepath"
	"testing"
)

const junitFixture = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="5">
  <testsuite name="Router conformance" tests="5">
    <properties>
      <property name="LabelFilter" value=""></property>
      <property name="conformance.result" value="failed"></property>
    </properties>
    <testcase name="[SynchronizedBeforeSuite]" classname="Router conformance" status="passed"></testcase>
    <testcase name="[It] HSTS per route edge, max-age [hsts]" classname="Router conformance" status="passed"></testcase>
    <testcase name="[It] Sharding a shard serves only its namespaces [sharding, Serial]" classname="Router conformance" status="skipped">
      <skipped message="skipped - not claimed: sharding&#xA;more"></skipped>
    </testcase>
    <testcase name="[It] Client TLS refuses an expired certificate [client-tls]" classname="Router conformance" status="failed">
      <failure message="expected remote error: tls: expired certificate&#xA;got 200" type="failed"></failure>
    </testcase>
    <testcase name="[It] Router flaky spec [router]" classname="Router conformance" status="failed"><failure message="first"></failure></testcase>
    <testcase name="[It] Router flaky spec [router]" classname="Router conformance" status="passed"></testcase>
  </testsuite>
</testsuites>`

func TestJUnitRunsAreReadAsReportJSONIs(t *testing.T) {
	file := filepath.Join(t.TempDir(), "junit_01.xml")
	if err := os.WriteFile(file, []byte(junitFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	run, err := ReadComparedRunFile("in-cluster", file)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]SpecResult{
		"HSTS per route edge, max-age":                {State: Passed},
		"Sharding a shard serves only its namespaces": {State: Skipped, Reason: "not claimed: sharding"},
		"Client TLS refuses an expired certificate":   {State: Failed, Reason: "expected remote error: tls: expired certificate"},
		"Router flaky spec":                           {State: Passed, Attempts: 1},
	}
	if len(run.Specs) != len(want) {
		t.Fatalf("%d specs, want %d: %+v", len(run.Specs), len(want), run.Specs)
	}
	for _, s := range run.Specs {
		w, ok := want[s.Name]
		if !ok || s.State != w.State || s.Reason != w.Reason || s.Attempts != w.Attempts {
			t.Errorf("spec %q: %+v, want %+v", s.Name, s, w)
		}
	}
	if got := run.Specs[1].Labels; len(got) != 2 || got[0] != "sharding" || got[1] != "Serial" {
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
