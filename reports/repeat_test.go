package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTallyCountsEverySpecAcrossRuns(t *testing.T) {
	r := Tally([][]SpecRun{
		{{Name: "a", State: Passed}, {Name: "b", State: Failed, Failure: "timed out\nmore"}, {Name: "c", State: Passed}},
		{{Name: "a", State: Passed}, {Name: "b", State: Passed}, {Name: "c", State: Skipped}},
		{{Name: "a", State: Failed, Failure: "refused"}, {Name: "b", State: Failed, Failure: "again"}, {Name: "c", State: Passed}},
	})
	if r.Runs != 3 || len(r.Specs) != 3 {
		t.Fatalf("%+v", r)
	}
	want := map[string][3]int{"a": {2, 1, 0}, "b": {1, 2, 0}, "c": {2, 0, 1}}
	for _, s := range r.Specs {
		if got := [3]int{s.Passed, s.Failed, s.Skipped}; got != want[s.Name] {
			t.Errorf("%s: %v, want %v", s.Name, got, want[s.Name])
		}
	}
	failed := r.Failed()
	if len(failed) != 2 || failed[0].Name != "a" || !failed[1].Flaky() || len(failed[1].Failures) != 2 {
		t.Errorf("failed: %+v", failed)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "summary.md"), []byte("# Router conformance: FAILED\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(dir); err != nil {
		t.Fatal(err)
	}
	s, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	for _, w := range []string{"# Router conformance", "3 runs, 3 specs ran, 2 failed at least once", "| b | 1 | 2 | true |", "1. `timed out`", "2. `again`"} {
		if !strings.Contains(string(s), w) {
			t.Errorf("summary lacks %q:\n%s", w, s)
		}
	}
}

func TestTallyOfCleanRuns(t *testing.T) {
	r := Tally([][]SpecRun{{{Name: "a", State: Passed}}, {{Name: "a", State: Passed}}})
	if len(r.Failed()) != 0 || !strings.Contains(r.Markdown(), "Every spec passed in every run.") {
		t.Errorf("%s", r.Markdown())
	}
}
