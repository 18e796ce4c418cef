package catalogue_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults/catalogue"
	"github.com/router-conformance/suite/trace"
)

var moduleRoot, _ = filepath.Abs("../..")

// Every fault is where it says, breaks statements that exist and have
// specs, and every covered statement of the five documents is broken by
// at least one fault.
func TestEveryCoveredStatementIsBrokenByAFault(t *testing.T) {
	cat, err := catalogue.Load()
	if err != nil {
		t.Fatal(err)
	}
	docs, err := trace.Load()
	if err != nil {
		t.Fatal(err)
	}
	if err := catalogue.Check(cat, docs, moduleRoot); err != nil {
		t.Error(err)
	}
	for _, d := range cat {
		statements := map[string]bool{}
		for _, f := range d.Faults {
			for _, s := range f.Statements {
				statements[s] = true
			}
		}
		t.Logf("%s: %d faults, %d statements broken", d.Key, len(d.Faults), len(statements))
	}
}

// Check refuses a catalogue that does not match the code or the trace.
func TestCheckRefuses(t *testing.T) {
	root := t.TempDir()
	code := "package p\n\nimport \"github.com/router-conformance/suite/faults\"\n\nfunc Header() string {\n\tif faults.On(\"hsts.header-dropped\") {\n\t\treturn \"\"\n\t}\n\treturn \"max-age=1\"\n}\n\nfunc Other() bool { return faults.On(\"hsts.uncatalogued\") }\n"
	if err := os.WriteFile(filepath.Join(root, "p.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	docs := []trace.Document{{Key: "hsts", Digest: "sha256:x", Statements: []trace.Statement{
		{ID: "hsts-001", Specs: []contract.SpecID{"hsts/edge-max-age"}},
		{ID: "hsts-002", Specs: []contract.SpecID{"hsts/edge-max-age"}},
		{ID: "hsts-003", Reason: "no spec can"},
	}}}
	fault := func(f catalogue.Fault) []catalogue.Document {
		return []catalogue.Document{{Key: "hsts", Faults: []catalogue.Fault{f}}}
	}
	good := catalogue.Fault{ID: "hsts.header-dropped", Statements: []string{"hsts-001", "hsts-002"}, Change: "no header", File: "p.go", Function: "Header"}
	err := catalogue.Check(fault(good), docs, root)
	if err == nil || !strings.Contains(err.Error(), `faults.On("hsts.uncatalogued") at p.go Other: no such fault`) || strings.Count(err.Error(), "\n") != 0 {
		t.Fatalf("want only the uncatalogued call refused, got %v", err)
	}
	for name, tc := range map[string]struct {
		f    catalogue.Fault
		want string
	}{
		"wrong function": {func() catalogue.Fault { f := good; f.Function = "Other"; return f }(), `no faults.On("hsts.header-dropped") in p.go Other (found at: p.go Header)`},
		"unknown statement": {func() catalogue.Fault {
			f := good
			f.Statements = []string{"hsts-001", "hsts-002", "hsts-999"}
			return f
		}(), "statement hsts-999 is in no trace file"},
		"statement, no specs": {func() catalogue.Fault {
			f := good
			f.Statements = []string{"hsts-001", "hsts-002", "hsts-003"}
			return f
		}(), "statement hsts-003 has no spec to fail"},
		"covered, unbroken": {func() catalogue.Fault { f := good; f.Statements = []string{"hsts-001"}; return f }(), "hsts-002 is covered, but no fault of faults/catalogue breaks it"},
		"another prefix":    {func() catalogue.Fault { f := good; f.ID = "client-tls.header-dropped"; return f }(), `the ID must be "hsts.<what breaks>"`},
	} {
		err := catalogue.Check(fault(tc.f), docs, root)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: want %q, got %v", name, tc.want, err)
		}
	}
}

// docs/faults.md is what the catalogue says (`make specs` writes it).
func TestTheFaultsPageIsCurrent(t *testing.T) {
	cat, err := catalogue.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := catalogue.Markdown(cat)
	path := filepath.Join(moduleRoot, catalogue.PagePath)
	if os.Getenv("UPDATE_SPECS") == "1" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != want {
		t.Errorf("%s is stale: run `make specs` and commit it", catalogue.PagePath)
	}
}
