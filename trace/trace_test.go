package trace_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
	"github.com/router-conformance/suite/trace"
)

var moduleRoot, _ = filepath.Abs("..")

func load(t *testing.T) []trace.Document {
	t.Helper()
	docs, err := trace.Load()
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// Every statement is answered once, by specs that exist in the published
// spec list, by a reason, or as a gap.
func TestTheTraceIsWellFormed(t *testing.T) {
	known := map[contract.SpecID]bool{}
	for _, s := range reports.PublishedSpecs() {
		known[s.ID] = true
	}
	if err := trace.Check(load(t), known); err != nil {
		t.Error(err)
	}
}

// docs/trace.md is what the trace files say (`make specs` writes it).
func TestTheTracePageIsCurrent(t *testing.T) {
	want := trace.Markdown(load(t))
	path := filepath.Join(moduleRoot, trace.PagePath)
	if os.Getenv("UPDATE_SPECS") == "1" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != want {
		t.Errorf("%s is stale: run `make specs` and commit it", trace.PagePath)
	}
}

// Check refuses what the trace must never hold.
func TestCheckRefuses(t *testing.T) {
	known := map[contract.SpecID]bool{"hsts/edge-max-age": true}
	doc := func(s trace.Statement) []trace.Document {
		return []trace.Document{{Key: "hsts", Title: "t", Source: "s", Statements: []trace.Statement{s}}}
	}
	ok := trace.Statement{ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", Specs: []contract.SpecID{"hsts/edge-max-age"}}
	if err := trace.Check(doc(ok), known); err != nil {
		t.Fatalf("a well-formed statement refused: %v", err)
	}
	for name, s := range map[string]trace.Statement{
		"unknown spec":   {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", Specs: []contract.SpecID{"hsts/no-such-spec"}},
		"nothing":        {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x"},
		"spec and gap":   {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", Specs: []contract.SpecID{"hsts/edge-max-age"}, Gap: "y"},
		"reason and gap": {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", Reason: "r", Gap: "y"},
		"bad ID":         {ID: "hsts-1", Kind: trace.Behaviour, Statement: "x", Gap: "y"},
		"bad kind":       {ID: "hsts-001", Kind: "wish", Statement: "x", Gap: "y"},
		"no statement":   {ID: "hsts-001", Kind: trace.Behaviour, Gap: "y"},
	} {
		if err := trace.Check(doc(s), known); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	twice := doc(ok)
	twice[0].Statements = append(twice[0].Statements, ok)
	if err := trace.Check(twice, known); err == nil {
		t.Error("an ID used twice: accepted")
	}
}

// untraced are the specs no statement of a document or of upstream's
// tests names, each with why.
var untraced = map[contract.SpecID]string{
	"delegation/fqdn-conflict":            "the design document is silent on two roots with one fqdn: shipped Contour v1.0.1 decides (the spec's Upstream line)",
	"delegation/status-written-on-change": "the design document is silent on when status is written: shipped Contour v1.0.1 decides (the spec's Upstream line)",
	"delegation/tls-http-redirect":        "the design document is silent on plain HTTP to a TLS root: shipped Contour v1.0.1 decides (the spec's Upstream line)",
}

// Every published spec answers a statement of the trace, but a harness
// feature's (it checks the test environment) and the few above.
func TestEverySpecIsTraced(t *testing.T) {
	traced := trace.StatementsOf(load(t))
	for _, s := range reports.PublishedSpecs() {
		if info, ok := contract.LookupFeature(string(s.Features[0])); ok && info.Harness {
			continue
		}
		_, exempt := untraced[s.ID]
		switch {
		case len(traced[s.ID]) == 0 && !exempt:
			t.Errorf("spec %s answers no statement of trace/: name it on the statements it checks (add the statement if the trace lacks it)", s.ID)
		case len(traced[s.ID]) > 0 && exempt:
			t.Errorf("spec %s is traced (%v) and listed as untraced", s.ID, traced[s.ID])
		}
	}
}
