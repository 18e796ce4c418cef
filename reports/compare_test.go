package reports

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

// compared reads a synthetic Ginkgo report as Compare's input.
func compared(name string, r types.Report) ComparedRun {
	specs, outcome := FromGinkgo(r)
	return ComparedRun{Name: name, Specs: specs, Outcome: outcome}
}

func verdicts(c Comparison) map[string]Verdict {
	m := map[string]Verdict{}
	for _, s := range c.Specs {
		m[s.Name] = s.Verdict
	}
	return m
}

// A kind run and an existing run of the same suite: every rule once.
func TestCompareKindWithExisting(t *testing.T) {
	kind := goodSuite()
	kind.SpecReports[1].NumAttempts = 2 // specEdge flaked: passed
	setSpec(&kind, specBadHost, types.SpecStateSkipped, "")
	kind.SuiteConfig.SkipStrings = []string{"bad host"}
	setSpec(&kind, specDelegation, types.SpecStateSkipped, "needs feature delegation, which this profile does not claim")
	setSpec(&kind, specComponent, types.SpecStateFailed, "component operator never ready")

	existing := goodSuite()
	setSpec(&existing, specShard, types.SpecStateSkipped, "needs the profile's own IngressControllers")
	setSpec(&existing, specClusterNode, types.SpecStateSkipped, "needs the kind harness")
	setSpec(&existing, specHSTS, types.SpecStateFailed, "Expected\n    <string>: \nto equal max-age=31536000")
	setSpec(&existing, specPolicy, types.SpecStateSkipped, "disruptive: -allow-disruptive not given")
	setSpec(&existing, specDelegation, types.SpecStateSkipped, "needs feature delegation, which this profile does not claim")
	setSpec(&existing, specComponent, types.SpecStateFailed, "component operator never ready")
	existing.SpecReports = slices.DeleteFunc(existing.SpecReports, func(s types.SpecReport) bool { return s.FullText() == specHeaders })
	existing.SpecReports = append(existing.SpecReports, passed("Router", "serves a route only B has", []string{"router"}))

	c, err := Compare(compared("kind", kind), compared("existing", existing))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Verdict{
		specEdge:                           Same, // flaked in A counts as passed
		specRevoked:                        Same,
		specDelegation:                     Same, // skipped in both
		specComponent:                      Same, // failed in both
		specShard:                          Excused,
		specClusterNode:                    Excused,
		specHSTS:                           Different, // passed, failed
		specPolicy:                         Different, // skipped, and needs no kind port
		specHeaders:                        Different, // absent from B
		"Router serves a route only B has": Different, // absent from A
		specBadHost:                        Different, // filtered out in A, ran in B
	}
	if got := verdicts(c); !maps.Equal(got, want) {
		t.Errorf("verdicts:\n got %v\nwant %v", got, want)
	}
	if got, want := c.Summary(), "kind vs existing: 4 same, 2 excused, 5 different"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	for i, s := range c.Specs {
		if i > 0 && s.Verdict == Different && c.Specs[i-1].Verdict != Different {
			t.Fatalf("difference %q after a spec that is %s: differences come first", s.Name, c.Specs[i-1].Verdict)
		}
	}
	for _, s := range c.Specs {
		if s.Name == specShard && s.Excuse != "needs the kind profile's own ports (sharding)" {
			t.Errorf("excuse of %s: %q", specShard, s.Excuse)
		}
	}

	lines := c.DifferenceLines()
	if len(lines) != 5 {
		t.Fatalf("difference lines: %q", lines)
	}
	for _, want := range []string{
		"DIFFERENT: " + specHSTS + ": kind passed; existing failed: Expected",
		"DIFFERENT: " + specHeaders + ": kind passed; existing absent",
		"DIFFERENT: " + specBadHost + ": kind skipped: filtered out; existing passed",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("no line %q in\n%s", want, strings.Join(lines, "\n"))
		}
	}

	md := c.Markdown()
	for _, want := range []string{
		"kind vs existing: 4 same, 2 excused, 5 different\n",
		"- run kind was filtered: skip \"bad host\"\n",
		"| spec | kind | existing | verdict |\n|---|---|---|---|\n| " + specHSTS + " | passed | failed: `Expected` | **DIFFERENT** |\n",
		"| " + specPolicy + " | passed | skipped: `disruptive: -allow-disruptive not given` | **DIFFERENT** |\n",
		"| " + specShard + " | passed | skipped: `needs the profile's own IngressControllers` | excused: needs the kind profile's own ports (sharding) |\n",
		"| " + specEdge + " | passed (flaked: 2 attempts) | passed | same |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// The excuse is for a skip alone: a spec that needs the kind profile's
// ports and ran in B must agree, and one B lacks is a difference.
func TestCompareExcusesOnlyASkip(t *testing.T) {
	spec := func(state Result, labels ...string) SpecResult {
		return SpecResult{Name: "s", State: state, Labels: labels}
	}
	for _, tc := range []struct {
		name string
		a, b []SpecResult
		want Verdict
	}{
		{"kind port, skipped in B", []SpecResult{spec(Passed, "sharding")}, []SpecResult{spec(Skipped, "sharding")}, Excused},
		{"kind port, failed in A, skipped in B", []SpecResult{spec(Failed, "smoke")}, []SpecResult{spec(Skipped, "smoke")}, Excused},
		{"kind port among other features", []SpecResult{spec(Passed, "router", "sharding")}, []SpecResult{spec(Skipped, "router", "sharding")}, Excused},
		{"kind port, failed in B", []SpecResult{spec(Passed, "sharding")}, []SpecResult{spec(Failed, "sharding")}, Different},
		{"kind port, absent from B", []SpecResult{spec(Passed, "sharding")}, nil, Different},
		{"kind port, skipped in A, ran in B", []SpecResult{spec(Skipped, "sharding")}, []SpecResult{spec(Passed, "sharding")}, Different},
		{"reference router only, skipped in B", []SpecResult{spec(Passed, "delegation")}, []SpecResult{spec(Skipped, "delegation")}, Different},
		{"no feature, skipped in B", []SpecResult{spec(Passed)}, []SpecResult{spec(Skipped)}, Different},
		{"failed in A, passed in B", []SpecResult{spec(Failed, "router")}, []SpecResult{spec(Passed, "router")}, Different},
		{"skipped in A, absent from B", []SpecResult{spec(Skipped, "router")}, nil, Different},
	} {
		c, err := Compare(ComparedRun{Name: "kind", Specs: tc.a}, ComparedRun{Name: "existing", Specs: tc.b})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Specs) != 1 || c.Specs[0].Verdict != tc.want {
			t.Errorf("%s: %+v, want %s", tc.name, c.Specs, tc.want)
		}
	}
}

func TestCompareRefusesASpecNamedTwice(t *testing.T) {
	twice := ComparedRun{Name: "existing", File: "existing/report.json", Specs: []SpecResult{{Name: specEdge, State: Passed}, {Name: specEdge, State: Failed}}}
	_, err := Compare(compared("kind", goodSuite()), twice)
	if err == nil || !strings.Contains(err.Error(), `run existing (existing/report.json) has spec "Router serves an edge route" twice`) {
		t.Errorf("error %v", err)
	}
}

func TestReadComparedRunNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, v any) string {
		file := filepath.Join(dir, name)
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	good := write("good.json", []types.Report{goodSuite()})
	r, err := ReadComparedRun("kind", good)
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "kind" || r.File != good || len(r.Specs) != 10 {
		t.Errorf("read %s: %s %s, %d specs", good, r.Name, r.File, len(r.Specs))
	}
	for _, tc := range []struct{ file, want string }{
		{filepath.Join(dir, "absent.json"), "run kind: open " + dir + "/absent.json: no such file or directory"},
		{write("object.json", goodSuite()), "run kind: " + dir + "/object.json is no Ginkgo JSON report"},
		{write("two.json", []types.Report{goodSuite(), goodSuite()}), "run kind: " + dir + "/two.json holds 2 suites, not 1"},
	} {
		if _, err := ReadComparedRun("kind", tc.file); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q...", tc.file, err, tc.want)
		}
	}
}
