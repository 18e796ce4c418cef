package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/router-conformance/suite/runner"
)

// A killed fault with every statement broken gets the run's commit; a
// survivor, an invalid fault and an unbroken statement lose theirs; an
// errored run, a kill with a statement not judged (its specs skipped)
// and a fault the run did not take keep what they had; a run of
// uncommitted changes records nothing.
func TestRecord(t *testing.T) {
	dir := t.TempDir()
	catalogue := "document: hsts\nfaults:\n  - id: hsts.a\n    statements: [hsts-001]\n    function: A\n\n  # next\n  - id: hsts.b\n    function: B\n    killed: \"old\"\n  - id: hsts.c\n    function: C\n    killed: \"old\"\n  - id: hsts.d\n    function: D\n    killed: \"old\"\n  - id: hsts.e\n    function: E\n    killed: \"old\"\n"
	file := filepath.Join(dir, "hsts.yaml")
	if err := os.WriteFile(file, []byte(catalogue), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(run runner.MutantsRun) {
		data, _ := json.Marshal(run)
		if err := os.WriteFile(filepath.Join(dir, runner.MutantsJSON), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	results := []runner.MutantResult{
		{Fault: "hsts.a", Outcome: runner.Killed},
		{Fault: "hsts.b", Outcome: runner.Survived},
		{Fault: "hsts.c", Outcome: runner.Killed, Unbroken: []string{"hsts-002"}},
		{Fault: "hsts.d", Outcome: runner.Errored},
		{Fault: "hsts.e", Outcome: runner.Killed, Unjudged: []string{"hsts-003"}},
	}
	write(runner.MutantsRun{Commit: "0123456789abcdef", Dirty: true, Results: results})
	if err := record(dir, dir); err == nil || !strings.Contains(err.Error(), "uncommitted changes") {
		t.Fatalf("a dirty run: %v", err)
	}
	write(runner.MutantsRun{Commit: "0123456789abcdef", Results: results})
	if err := record(dir, dir); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	want := "document: hsts\nfaults:\n  - id: hsts.a\n    statements: [hsts-001]\n    function: A\n    killed: \"0123456789ab\"\n\n  # next\n  - id: hsts.b\n    function: B\n  - id: hsts.c\n    function: C\n  - id: hsts.d\n    function: D\n    killed: \"old\"\n  - id: hsts.e\n    function: E\n    killed: \"old\"\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
