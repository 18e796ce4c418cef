package trace_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults/catalogue"
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
	cat, err := catalogue.Load()
	if err != nil {
		t.Fatal(err)
	}
	brokenBy := map[string][]string{}
	for _, f := range catalogue.All(cat) {
		for _, s := range f.Statements {
			brokenBy[s] = append(brokenBy[s], f.ID)
		}
	}
	want := trace.Markdown(load(t), brokenBy)
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
		return []trace.Document{{Key: "upstream-tests", Title: "t", Home: "h", Statements: []trace.Statement{s}}}
	}
	ok := trace.Statement{ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", Specs: []contract.SpecID{"hsts/edge-max-age"}}
	if err := trace.Check(doc(ok), known); err != nil {
		t.Fatalf("a well-formed statement refused: %v", err)
	}
	for name, s := range map[string]trace.Statement{
		"unknown spec":              {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", Specs: []contract.SpecID{"hsts/no-such-spec"}},
		"nothing":                   {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x"},
		"spec and gap":              {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", Specs: []contract.SpecID{"hsts/edge-max-age"}, Gap: "y"},
		"reason and gap":            {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", Reason: "r", Gap: "y"},
		"bad ID":                    {ID: "hsts-1", Kind: trace.Behaviour, Statement: "x", Gap: "y"},
		"bad kind":                  {ID: "hsts-001", Kind: "wish", Statement: "x", Gap: "y"},
		"no statement":              {ID: "hsts-001", Kind: trace.Behaviour, Gap: "y"},
		"stand-in, no specs":        {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", StandIn: "fixture", Reason: "r"},
		"upstream-differs, no spec": {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", UpstreamDiffers: "u", Gap: "y"},
		"stand-in and upstream-differs": {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", Specs: []contract.SpecID{"hsts/edge-max-age"},
			StandIn: "fixture", UpstreamDiffers: "u"},
		"a sentence outside a design document": {ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", Gap: "y", Sentences: []string{"0123456789ab"}},
	} {
		if err := trace.Check(doc(s), known); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	designed := func(s trace.Statement, not ...trace.NotStatement) []trace.Document {
		return []trace.Document{{Key: "hsts", Title: "t", Home: "h", Digest: trace.Digest([]byte("d")), Statements: []trace.Statement{s}, NotStatements: not}}
	}
	pointing := ok
	pointing.Sentences = []string{"0123456789ab"}
	if err := trace.Check(designed(pointing, trace.NotStatement{Sentence: "ba9876543210", Reason: "history"}), known); err != nil {
		t.Fatalf("a design document's well-formed statement refused: %v", err)
	}
	badFingerprint := pointing
	badFingerprint.Sentences = []string{"0123"}
	for name, d := range map[string][]trace.Document{
		"a design document's statement with no sentence": designed(ok),
		"a malformed fingerprint":                        designed(badFingerprint),
		"a not-a-statement without a reason":             designed(pointing, trace.NotStatement{Sentence: "ba9876543210"}),
		"a sentence stated and not a statement":          designed(pointing, trace.NotStatement{Sentence: "0123456789ab", Reason: "history"}),
	} {
		if err := trace.Check(d, known); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	twice := doc(ok)
	twice[0].Statements = append(twice[0].Statements, ok)
	if err := trace.Check(twice, known); err == nil {
		t.Error("an ID used twice: accepted")
	}
}

// documentsDir is where the documents are: DOCUMENTS (make test passes
// it), or the folder beside the checkout where CI has the design
// documents and this machine's copies of the public ones.
func documentsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(trace.DocumentsEnv)
	if dir == "" {
		seeds := filepath.Join(moduleRoot, "..", "shared", "seeds")
		if _, err := os.Stat(seeds); err != nil {
			t.Skipf("skipped: the design documents are not at %s (%v); set %s to the folders that hold them to check every fingerprint and every normative sentence", seeds, err, trace.DocumentsEnv)
		}
		dir = seeds + string(filepath.ListSeparator) + trace.PublicTexts()
	}
	return dir
}

// Every fingerprint is a sentence of its document, and every normative
// sentence is pointed at by a statement or listed as not-a-statement.
func TestTheTraceAccountsForEveryNormativeSentence(t *testing.T) {
	documents, err := trace.ReadDocuments(documentsDir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range load(t) {
		if !d.Designed() {
			continue
		}
		t.Run(d.Key, func(t *testing.T) {
			text, err := trace.DocumentText(d, documents)
			if err != nil && !slices.Contains(trace.Seeds, d.Key) {
				t.Skipf("skipped: %v; copy it to %s to check its fingerprints", err, trace.PublicTexts())
			}
			if err != nil {
				t.Fatal(err)
			}
			c := d.Count()
			t.Logf("%s: %d normative sentences; %d statements (%d covered, %d stand-in, %d upstream-differs, %d reasoned, %d gaps); %d not statements",
				d.Key, c.Normative, c.Statements, c.Covered, c.StandIn, c.UpstreamDiffers, c.Reasoned, c.Gaps, c.NotStatements)
			if err := trace.CheckAgainst(d, text); err != nil {
				t.Error(err)
			}
		})
	}
}

// CheckAgainst refuses a fingerprint of no sentence and a normative
// sentence nothing accounts for; it accepts either answer.
func TestCheckAgainstRefuses(t *testing.T) {
	text := "# Title\n\nThe router must answer. It is fast.\n\n```go\n// +kubebuilder:validation:MaxItems=20\nItems []string\n```\n"
	must, marker := trace.Fingerprint("The router must answer."), trace.Fingerprint("+kubebuilder:validation:MaxItems=20 Items []string")
	stmt := func(fps ...string) trace.Statement {
		return trace.Statement{ID: "hsts-001", Kind: trace.Behaviour, Statement: "x", Gap: "y", Sentences: fps}
	}
	doc := func(s trace.Statement, not ...trace.NotStatement) trace.Document {
		return trace.Document{Key: "hsts", Normative: 2, Statements: []trace.Statement{s}, NotStatements: not}
	}
	if err := trace.CheckAgainst(doc(stmt(must), trace.NotStatement{Sentence: marker, Reason: "r"}), text); err != nil {
		t.Fatalf("a trace that accounts for both normative sentences refused: %v", err)
	}
	for name, d := range map[string]trace.Document{
		"a normative sentence unaccounted": doc(stmt(must)),
		"a fingerprint of no sentence":     doc(stmt(must, "0123456789ab"), trace.NotStatement{Sentence: marker, Reason: "r"}),
		"a wrong normative count":          {Key: "hsts", Normative: 3, Statements: []trace.Statement{stmt(must, marker)}},
	} {
		if err := trace.CheckAgainst(d, text); err == nil {
			t.Errorf("%s: accepted", name)
		}
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
