package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/router-conformance/suite/contract"
)

func TestTallyCountsEverySpecAcrossRuns(t *testing.T) {
	const a, b, c contract.SpecID = "router/a", "router/b", "hsts/c"
	r := Tally([][]SpecRun{
		{{ID: a, Name: "A", State: Passed}, {ID: b, Name: "B", State: Failed, Failure: "timed out\nmore"}, {ID: c, Name: "C", State: Passed}},
		{{ID: a, Name: "A", State: Passed}, {ID: b, Name: "B", State: Passed}, {ID: c, Name: "C", State: Skipped}},
		{{ID: a, Name: "A", State: Failed, Failure: "refused"}, {ID: b, Name: "B", State: Failed, Failure: "again"}, {ID: c, Name: "C", State: Passed}},
	})
	if r.Runs != 3 || len(r.Specs) != 3 {
		t.Fatalf("%+v", r)
	}
	want := map[contract.SpecID][3]int{a: {2, 1, 0}, b: {1, 2, 0}, c: {2, 0, 1}}
	for _, s := range r.Specs {
		if got := [3]int{s.Passed, s.Failed, s.Skipped}; got != want[s.ID] {
			t.Errorf("%s: %v, want %v", s.ID, got, want[s.ID])
		}
	}
	failed := r.Failed()
	if len(failed) != 2 || failed[0].ID != a || failed[0].Name != "A" || !failed[1].Flaky() || len(failed[1].Failures) != 2 {
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
	for _, w := range []string{"# Router conformance", "3 runs, 3 specs ran, 2 failed at least once",
		"| spec | text | passed | failed | flaky |\n", "| `router/b` | B | 1 | 2 | true |", "### `router/b` B\n", "1. `timed out`", "2. `again`"} {
		if !strings.Contains(string(s), w) {
			t.Errorf("summary lacks %q:\n%s", w, s)
		}
	}
	j, _ := os.ReadFile(filepath.Join(dir, "repeat.json"))
	if !strings.Contains(string(j), `"id": "router/b",`) {
		t.Errorf("repeat.json lacks the IDs:\n%s", j)
	}
}

// Runs are tallied by spec ID: a spec reworded between runs is one spec,
// two specs of one text are two.
func TestTallyKeysOnTheID(t *testing.T) {
	r := Tally([][]SpecRun{
		{{ID: "hsts/header-set", Name: "HSTS sets the header", State: Failed, Failure: "no header"}, {ID: "router/a", Name: "same text", State: Passed}},
		{{ID: "hsts/header-set", Name: "HSTS sends Strict-Transport-Security", State: Passed}, {ID: "router/b", Name: "same text", State: Passed}},
	})
	if len(r.Specs) != 3 {
		t.Fatalf("%d specs, want 3: %+v", len(r.Specs), r.Specs)
	}
	if s := r.Specs[0]; s.ID != "hsts/header-set" || s.Passed != 1 || s.Failed != 1 || !s.Flaky() || s.Name != "HSTS sets the header" {
		t.Errorf("the reworded spec: %+v", s)
	}
}

func TestTallyOfCleanRuns(t *testing.T) {
	r := Tally([][]SpecRun{{{ID: "router/a", Name: "a", State: Passed}}, {{ID: "router/a", Name: "a", State: Passed}}})
	if len(r.Failed()) != 0 || !strings.Contains(r.Markdown(), "Every spec passed in every run.") {
		t.Errorf("%s", r.Markdown())
	}
}
