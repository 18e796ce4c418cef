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

	"github.com/router-conformance/suite/contract"
)

// compared reads a synthetic Ginkgo report as Compare's input.
func compared(name string, r types.Report) ComparedRun {
	specs, outcome := FromGinkgo(r)
	return ComparedRun{Name: name, Specs: specs, Outcome: outcome}
}

func verdicts(c Comparison) map[contract.SpecID]Verdict {
	m := map[contract.SpecID]Verdict{}
	for _, s := range c.Specs {
		m[s.ID] = s.Verdict
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
	want := map[contract.SpecID]Verdict{
		idEdge:                             Same, // flaked in A counts as passed
		idRevoked:                          Same,
		idDelegation:                       Same, // skipped in both
		idComponent:                        Same, // failed in both
		idAnnotations:                      Same,
		idShard:                            Excused,
		idClusterNode:                      Excused,
		idHSTS:                             Different, // passed, failed
		idPolicy:                           Different, // skipped, and needs no kind port
		idHeaders:                          Different, // absent from B
		"router/serves-a-route-only-b-has": Different, // absent from A
		idBadHost:                          Different, // filtered out in A, ran in B
	}
	if got := verdicts(c); !maps.Equal(got, want) {
		t.Errorf("verdicts:\n got %v\nwant %v", got, want)
	}
	if got, want := c.Summary(), "kind vs existing: 5 same, 2 excused, 5 different"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	for i, s := range c.Specs {
		if i > 0 && s.Verdict == Different && c.Specs[i-1].Verdict != Different {
			t.Fatalf("difference %s after a spec that is %s: differences come first", s.ID, c.Specs[i-1].Verdict)
		}
	}
	for _, s := range c.Specs {
		if s.ID == idShard && s.Excuse != "needs the kind profile's own ports (sharding)" {
			t.Errorf("excuse of %s: %q", idShard, s.Excuse)
		}
		// A spec's text is the one it has in A, in B when A lacks it.
		if s.ID == "router/serves-a-route-only-b-has" && s.Name != "Router serves a route only B has" || s.ID == idHeaders && s.Name != specHeaders {
			t.Errorf("%s is named %q", s.ID, s.Name)
		}
	}

	lines := c.DifferenceLines()
	if len(lines) != 5 {
		t.Fatalf("difference lines: %q", lines)
	}
	for _, want := range []string{
		"DIFFERENT: hsts/edge-header-set (" + specHSTS + "): kind passed; existing failed: Expected",
		"DIFFERENT: header-actions/request-header-set (" + specHeaders + "): kind passed; existing absent",
		"DIFFERENT: router/bad-host-refused (" + specBadHost + "): kind skipped: filtered out; existing passed",
		"DIFFERENT: router/serves-a-route-only-b-has (Router serves a route only B has): kind absent; existing passed",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("no line %q in\n%s", want, strings.Join(lines, "\n"))
		}
	}

	md := c.Markdown()
	for _, want := range []string{
		"kind vs existing: 5 same, 2 excused, 5 different\n",
		"- run kind was filtered: skip \"bad host\"\n",
		"| spec | text | kind | existing | verdict |\n|---|---|---|---|---|\n",
		"| `hsts/edge-header-set` | " + specHSTS + " | passed | failed: `Expected` | **DIFFERENT** |\n",
		"| `hsts-policy/route-without-hsts-refused` | " + specPolicy + " | passed | skipped: `disruptive: -allow-disruptive not given` | **DIFFERENT** |\n",
		"| `sharding/own-namespaces-only` | " + specShard + " | passed | skipped: `needs the profile's own IngressControllers` | excused: needs the kind profile's own ports (sharding) |\n",
		"| `router/edge-served` | " + specEdge + " | passed (flaked: 2 attempts) | passed | same |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// The excuse is for a skip alone: a spec that needs the kind profile's
// ports and ran in B must agree, and one B lacks is a difference.
func TestCompareExcusesOnlyASkip(t *testing.T) {
	// spec is one spec, its ID of its first feature.
	spec := func(state Result, labels ...string) SpecResult {
		id := contract.SpecID("misc/the-spec")
		if features := contract.FeaturesOf(labels); len(features) > 0 {
			id = contract.SpecID(features[0]) + "/the-spec"
		}
		return SpecResult{ID: id, Name: "s", State: state, Labels: labels}
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

func TestCompareRefusesAnIDTwice(t *testing.T) {
	twice := ComparedRun{Name: "existing", File: "existing/report.json", Specs: []SpecResult{
		{ID: idEdge, Name: specEdge, State: Passed}, {ID: idEdge, Name: "Router serves an edge route again", State: Failed}}}
	_, err := Compare(compared("kind", goodSuite()), twice)
	if err == nil || err.Error() != "run existing (existing/report.json) has spec router/edge-served twice" {
		t.Errorf("error %v", err)
	}
}

// Specs are matched by ID, never by text: a spec reworded between the
// runs (two suite builds, a text fixed in a hurry) is the same spec, and
// two specs of one text are two. A run with a spec without an ID, as a
// suite before v0.3.0 wrote it, cannot be matched: refused, in A or in B.
func TestCompareMatchesSpecsByIDNotByText(t *testing.T) {
	kind, existing := goodSuite(), goodSuite()
	reword(&existing, specHSTS, "sends Strict-Transport-Security on edge routes")
	reword(&existing, specRevoked, "refuses a certificate its CA revoked")
	setSpec(&existing, "Client TLS refuses a certificate its CA revoked", types.SpecStateFailed, "handshake succeeded")
	c, err := Compare(compared("kind", kind), compared("existing", existing))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Specs) != 11 || c.Count(Different) != 1 || c.Count(Same) != 10 {
		t.Fatalf("%s, %d specs: %+v", c.Summary(), len(c.Specs), c.Specs)
	}
	for _, s := range c.Specs {
		switch s.ID {
		case idHSTS:
			if s.Verdict != Same || s.Name != specHSTS || s.A.Name != specHSTS || s.B.Name != "HSTS per route sends Strict-Transport-Security on edge routes" {
				t.Errorf("the reworded spec: %+v", s)
			}
		case idRevoked:
			if s.Verdict != Different || s.A == nil || s.B == nil {
				t.Errorf("the reworded spec that failed in B: %+v", s)
			}
		}
	}
	if lines := c.DifferenceLines(); len(lines) != 1 || lines[0] != "DIFFERENT: client-tls/revoked-refused ("+specRevoked+"): kind passed; existing failed: handshake succeeded" {
		t.Errorf("difference lines %q", lines)
	}

	// One text, two IDs: two specs, each matched by its ID (matched by
	// text, the run would have a spec twice).
	twins := goodSuite()
	reword(&twins, specBadHost, "serves an edge route")
	c, err = Compare(compared("kind", kind), compared("twins", twins))
	if err != nil {
		t.Fatal(err)
	}
	if c.Count(Same) != 11 || c.Count(Different) != 0 {
		t.Errorf("a spec reworded to another's text: %s", c.Summary())
	}

	old := goodSuite()
	dropID(&old, specHeaders)
	want := `run existing (existing/report.json) has spec "HTTP header actions sets a request header" without an ID: it was made by a suite before v0.3.0, compare runs of one suite version`
	oldRun := compared("existing", old)
	oldRun.File = "existing/report.json"
	if _, err := Compare(compared("kind", kind), oldRun); err == nil || err.Error() != want {
		t.Errorf("B without an ID: error %v\nwant %q", err, want)
	}
	oldRun.Name = "kind"
	want = strings.Replace(want, "run existing", "run kind", 1)
	if _, err := Compare(oldRun, compared("existing", kind)); err == nil || err.Error() != want {
		t.Errorf("A without an ID: error %v\nwant %q", err, want)
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
	if r.Name != "kind" || r.File != good || len(r.Specs) != 11 {
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
