package runner

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/faults/catalogue"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/internal/dockertest"
	"github.com/router-conformance/suite/trace"
)

func mutantsFixture() ([]catalogue.Fault, []trace.Document) {
	docs := []trace.Document{{Key: "hsts", Statements: []trace.Statement{
		{ID: "hsts-001", Specs: []contract.SpecID{"hsts/edge-max-age"}},
		{ID: "hsts-002", Specs: []contract.SpecID{"hsts-policy/refused"}},
	}}, {Key: "delegation", Statements: []trace.Statement{
		{ID: "ir-001", Specs: []contract.SpecID{"delegation/a", "delegation/b"}},
	}}}
	all := []catalogue.Fault{
		{ID: "hsts.a", Statements: []string{"hsts-001"}, Killed: "abc"},
		{ID: "hsts.b", Statements: []string{"hsts-002"}},
		{ID: "delegation.c", Statements: []string{"ir-001"}, Killed: "abc"},
		{ID: "delegation.d", Statements: []string{"ir-001"}, Killed: "abc"},
		{ID: "delegation.e", Statements: []string{"ir-001"}, Killed: "abc"},
	}
	return all, docs
}

func faultIDs(fs []catalogue.Fault) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.ID)
	}
	return out
}

// MUTANTS names faults, documents or features; ci draws from the killed
// faults by the commit, the same few for one commit.
func TestSelectFaults(t *testing.T) {
	all, docs := mutantsFixture()
	for sel, want := range map[string][]string{
		"hsts":                {"hsts.a", "hsts.b"},
		"hsts-policy":         {"hsts.b"},
		"delegation.d,hsts.a": {"delegation.d", "hsts.a"},
		"all":                 {"hsts.a", "hsts.b", "delegation.c", "delegation.d", "delegation.e"},
	} {
		got, err := SelectFaults(all, docs, sel, "")
		if err != nil || !slices.Equal(faultIDs(got), want) {
			t.Errorf("%s: %v %v, want %v", sel, faultIDs(got), err, want)
		}
	}
	if _, err := SelectFaults(all, docs, "hsts.zzz", ""); err == nil || !strings.Contains(err.Error(), `"hsts.zzz" is no fault`) {
		t.Errorf("an unknown fault: %v", err)
	}
	seen := map[string]bool{}
	for _, commit := range []string{"1111", "2222", "3333", "4444", "5555"} {
		got, err := SelectFaults(all, docs, "ci", commit)
		if err != nil || len(got) != CISample {
			t.Fatalf("ci at %s: %v %v", commit, faultIDs(got), err)
		}
		again, _ := SelectFaults(all, docs, "ci", commit)
		if !slices.Equal(faultIDs(got), faultIDs(again)) {
			t.Errorf("ci at %s: %v, then %v", commit, faultIDs(got), faultIDs(again))
		}
		for _, f := range got {
			if f.Killed == "" {
				t.Errorf("ci drew %s, which no run has killed", f.ID)
			}
			seen[f.ID] = true
		}
	}
	if len(seen) < 4 {
		t.Errorf("five commits drew only %v", seen)
	}
}

// A spec of an Ordered container runs with its whole container; the
// sanity specs always run; each spec once.
func TestFocusTakesOrderedContainersWhole(t *testing.T) {
	tree := []treeSpec{
		{ID: "delegation/a", Ordered: true, Container: "x"},
		{ID: "delegation/b", Ordered: true, Container: "x"},
		{ID: "delegation/c", Ordered: true, Container: "y"},
		{ID: "hsts/edge-max-age"},
	}
	got, focus := focusOn(tree, []contract.SpecID{"delegation/b", "hsts/edge-max-age", "delegation/b"})
	want := append([]contract.SpecID{"delegation/b", "hsts/edge-max-age"}, append(Sanity, "delegation/a")...)
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if !strings.HasPrefix(focus, "id:delegation.b || id:hsts.edge-max-age || ") {
		t.Errorf("focus %q", focus)
	}
}

// What needs an answer: a survivor without the catalogue's reason, a
// fault that broke the sanity specs, a killed fault's unbroken
// statement; a known survivor does not.
func TestFindings(t *testing.T) {
	run := MutantsRun{Results: []MutantResult{
		{Fault: "a", Outcome: Killed},
		{Fault: "b", Outcome: Survived, Specs: 2},
		{Fault: "c", Outcome: Survived, Survives: "known"},
		{Fault: "d", Outcome: Invalid},
		{Fault: "e", Outcome: Killed, Unbroken: []string{"hsts-002"}},
	}}
	got := strings.Join(run.Findings(), "\n")
	for _, want := range []string{"b: SURVIVED: all 2 specs passed", "d: INVALID", "e: statements none of whose specs failed: hsts-002"} {
		if !strings.Contains(got, want) {
			t.Errorf("findings lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "a:") || strings.Contains(got, "c:") {
		t.Errorf("a killed fault or a known survivor is a finding:\n%s", got)
	}
}

// A certification refuses a router image labelled test-only (a fault
// build), read from the image itself; an image without the label passes
// (the control).
func TestATestOnlyRouterImageIsNotCertified(t *testing.T) {
	const faulty, shipped = "router-conformance/runner-test:faults", "router-conformance/runner-test:shipped"
	dockertest.Image(t, faulty, "a router", "LABEL "+images.TestOnlyLabel+"="+faults.Tag)
	dockertest.Image(t, shipped, "a router")
	img, err := images.Inspect(context.Background(), faulty)
	if err != nil {
		t.Fatal(err)
	}
	want := `the router image router-conformance/runner-test:faults is a test-only build (Go build tags "conformance_faults", label io.router-conformance.test-only): a certification judges a router as shipped`
	if err := certifiableRouterImage(img); err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if img, err := images.Inspect(context.Background(), shipped); err != nil || certifiableRouterImage(img) != nil {
		t.Errorf("an image as shipped: %+v %v", img, err)
	}
}
