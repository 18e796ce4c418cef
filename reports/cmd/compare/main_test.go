package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// spec is an It of the Describe container, which carries the feature
// label; its ID is "<label>/<short>".
func spec(container, text, label, short string, state types.SpecState, message string) types.SpecReport {
	return types.SpecReport{
		ContainerHierarchyTexts:  []string{container},
		ContainerHierarchyLabels: [][]string{{label}},
		LeafNodeType:             types.NodeTypeIt,
		LeafNodeText:             text,
		LeafNodeLabels:           []string{contract.SpecIDLabel(contract.SpecID(label + "/" + short))},
		State:                    state,
		NumAttempts:              1,
		Failure:                  types.Failure{Message: message},
	}
}

// writeReport writes a report.json of one suite with the specs.
func writeReport(t *testing.T, dir, name string, specs ...types.SpecReport) string {
	t.Helper()
	data, err := json.Marshal([]types.Report{{SuiteDescription: "Router conformance", SuiteSucceeded: true, SpecReports: specs}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestCompareExitsByTheVerdict(t *testing.T) {
	dir := t.TempDir()
	edge := spec("Router", "serves an edge route", "router", "edge-served", types.SpecStatePassed, "")
	shard := spec("IngressController sharding", "serves only its namespaces", "sharding", "own-namespaces-only", types.SpecStatePassed, "")
	kind := writeReport(t, dir, "kind.json", edge, shard)
	// Reworded on the other side: the same spec.
	shardSkipped := spec("IngressController sharding", "serves its own namespaces only", "sharding", "own-namespaces-only", types.SpecStateSkipped, "needs the profile's own IngressControllers")
	existing := writeReport(t, dir, "existing.json", edge, shardSkipped)
	edgeFailed := spec("Router", "serves an edge route", "router", "edge-served", types.SpecStateFailed, "no answer")
	broken := writeReport(t, dir, "broken.json", edgeFailed, shardSkipped)
	out := filepath.Join(dir, "compare.md")

	var stdout, stderr bytes.Buffer
	if got := run([]string{"-a", kind, "-b", existing, "-out", out}, &stdout, &stderr); got != agree {
		t.Errorf("agreeing runs: exit %d, stderr %s", got, &stderr)
	}
	if want := "kind vs existing: 1 same, 1 excused, 0 different\nevery spec: " + out + "\n"; stdout.String() != want {
		t.Errorf("stdout %q, want %q", &stdout, want)
	}
	md, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(md), "excused: needs the kind profile's own ports (sharding)") {
		t.Errorf("%s: %v\n%s", out, err, md)
	}

	stdout.Reset()
	if got := run([]string{"-a", kind, "-b", broken, "-b-name", "ocp", "-out", out}, &stdout, &stderr); got != differ {
		t.Errorf("differing runs: exit %d, stderr %s", got, &stderr)
	}
	if want := "kind vs ocp: 0 same, 1 excused, 1 different\nDIFFERENT: router/edge-served (Router serves an edge route): kind passed; ocp failed: no answer\n"; !strings.HasPrefix(stdout.String(), want) {
		t.Errorf("stdout %q, want it to start %q", &stdout, want)
	}
}

func TestCompareRefusesWhatItCannotUse(t *testing.T) {
	dir := t.TempDir()
	kind := writeReport(t, dir, "kind.json")
	// A run of a suite before v0.3.0: its specs carry no ID.
	noID := spec("Router", "serves an edge route", "router", "edge-served", types.SpecStatePassed, "")
	noID.LeafNodeLabels = nil
	old := writeReport(t, dir, "old.json", noID)
	notJSON := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(notJSON, []byte("# Router conformance"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-a", kind}, "compare: -a and -b are required"},
		{[]string{"-a", kind, "-b", kind, "extra"}, `compare: unexpected arguments ["extra"]`},
		{[]string{"-a", kind, "-b", kind, "-b-name", "kind"}, `compare: -a-name and -b-name are both "kind"`},
		{[]string{"-a", kind, "-b", filepath.Join(dir, "absent.json")}, "compare: run existing: open " + dir + "/absent.json: no such file or directory"},
		{[]string{"-a", notJSON, "-b", kind}, "compare: run kind: " + notJSON + " is no Ginkgo JSON report"},
		{[]string{"-a", kind, "-b", old}, "compare: run existing (" + old + `) has spec "Router serves an edge route" without an ID: it was made by a suite before v0.3.0, compare runs of one suite version`},
		{[]string{"-a", kind, "-b", kind, "-out", filepath.Join(dir, "no", "such", "dir.md")}, "compare: write the comparison: open " + dir + "/no/such/dir.md"},
	} {
		var stdout, stderr bytes.Buffer
		if got := run(tc.args, &stdout, &stderr); got != unusable || !strings.HasPrefix(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q...", tc.args, got, &stderr, unusable, tc.want)
		}
	}
}
