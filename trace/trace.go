// Package trace is the statement-by-statement trace of what the suite
// checks: every testable statement of the five design documents, every
// scenario of upstream's own tests of these features and every upstream
// bug the suite guards, each mapped to the specs that check it, to a
// written reason why no spec can, or marked a gap. The statements come
// from reading the documents and upstream, never from the specs that
// exist: a gap is shown and counted, never hidden.
//
// The trace is data (one YAML file per document, compiled in); `make
// specs` renders docs/trace.md and the catalogue's counts from it, and
// `make test` fails on a spec ID that does not exist, a statement with
// nothing (or more than one of specs, reason and gap), and a stale page.
package trace

import (
	"embed"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/router-conformance/suite/contract"
)

//go:embed *.yaml
var files embed.FS

// Kind is what sort of statement an entry is.
type Kind string

const (
	Behaviour   Kind = "behaviour"
	Validation  Kind = "validation"
	FailureMode Kind = "failure-mode"
	UserStory   Kind = "user-story"
	TestPlan    Kind = "test-plan"
	// Scenario is one observable of an upstream test; Bug one upstream
	// fix's guarantee.
	Scenario Kind = "scenario"
	Bug      Kind = "bug"
)

var kinds = []Kind{Behaviour, Validation, FailureMode, UserStory, TestPlan, Scenario, Bug}

// Status is how a statement is answered.
type Status string

const (
	// Covered: a router or platform that breaks the statement as the
	// document says fails a cited spec.
	Covered Status = "covered"
	// StandIn: the only specs judge the suite's own fixture (evidence of
	// the fixture, not of a router or a platform).
	StandIn Status = "stand-in"
	// UpstreamDiffers: the specs assert upstream's behaviour against the
	// document's words, which the statement keeps.
	UpstreamDiffers Status = "upstream-differs"
	Reasoned        Status = "reasoned"
	Gap             Status = "gap"
)

// Statement is one testable claim and its answer: exactly one of Specs,
// Reason and Gap; Specs may be qualified by StandIn or UpstreamDiffers.
type Statement struct {
	// ID is stable ("<prefix>-NNN"): never renumbered, never reused.
	ID string `json:"id"`
	// Section is the document's heading, verbatim.
	Section string `json:"section,omitempty"`
	// Sentences are the fingerprints of the document's sentences the
	// statement comes from (a design document's statements only).
	Sentences []string `json:"sentences,omitempty"`
	Kind      Kind     `json:"kind"`
	Statement string   `json:"statement"`
	// Ref names an upstream test ("<repo> <file> <Test>") or a bug.
	Ref   string            `json:"ref,omitempty"`
	Specs []contract.SpecID `json:"specs,omitempty"`
	// StandIn says why the specs judge only the suite's own fixture.
	StandIn string `json:"standIn,omitempty"`
	// UpstreamDiffers names upstream's file and function and what they do
	// instead of the document's words, which the specs assert.
	UpstreamDiffers string `json:"upstreamDiffers,omitempty"`
	Reason          string `json:"reason,omitempty"`
	Gap             string `json:"gap,omitempty"`
}

// Status says how the statement is answered ("" when it is not, or more
// than once: Check refuses both).
func (s Statement) Status() Status {
	var got []Status
	standIn, differs := strings.TrimSpace(s.StandIn) != "", strings.TrimSpace(s.UpstreamDiffers) != ""
	switch {
	case standIn && differs, (standIn || differs) && len(s.Specs) == 0:
		return ""
	case standIn:
		got = append(got, StandIn)
	case differs:
		got = append(got, UpstreamDiffers)
	case len(s.Specs) > 0:
		got = append(got, Covered)
	}
	if strings.TrimSpace(s.Reason) != "" {
		got = append(got, Reasoned)
	}
	if strings.TrimSpace(s.Gap) != "" {
		got = append(got, Gap)
	}
	if len(got) != 1 {
		return ""
	}
	return got[0]
}

// Document is one traced source: a design document, upstream's tests,
// or upstream's bugs.
type Document struct {
	Key   string `json:"document"`
	Title string `json:"title"`
	// Home is where the source lives in public (a design document's
	// repository and path).
	Home string `json:"home"`
	// Digest is the sha256 of a design document's text, by which the
	// check finds it among the documents (DocumentsEnv): a design
	// document has one, upstream's tests and bugs none.
	Digest string `json:"digest,omitempty"`
	// Normative is how many of the document's sentences are normative
	// (SentenceRule), so the page can say it without the documents.
	Normative     int            `json:"normative,omitempty"`
	Statements    []Statement    `json:"statements"`
	NotStatements []NotStatement `json:"notStatements,omitempty"`
}

// NotStatement is a normative sentence that states nothing a router or
// the platform around it could be held to, and why.
type NotStatement struct {
	Sentence string `json:"sentence"`
	Reason   string `json:"reason"`
}

// Designed says whether the source is a design document (its statements
// point at its sentences) rather than upstream's tests or bugs.
func (d Document) Designed() bool { return d.Digest != "" }

// Seeds are the five design documents, as shared/seeds numbers them: the
// trace's test fails when one of their texts is missing from the folders
// it is given (a changed document), and only skips a public document's
// (PublicTexts) on a machine that keeps no copy.
var Seeds = []string{"hsts", "header-actions", "client-tls", "delegation", "component-routes"}

// Order is the order of the traced sources on the page: the five design
// documents, OpenShift's documentation of the route annotations, the
// Route API's weighted backends, then upstream's tests and bugs.
var Order = append(slices.Clone(Seeds), "route-annotations", "route-api", "upstream-tests", "upstream-bugs")

// Load reads every trace file, in Order.
func Load() ([]Document, error) {
	var docs []Document
	for _, key := range Order {
		data, err := files.ReadFile(key + ".yaml")
		if err != nil {
			return nil, fmt.Errorf("trace/%s.yaml: %w", key, err)
		}
		var d Document
		if err := yaml.UnmarshalStrict(data, &d); err != nil {
			return nil, fmt.Errorf("trace/%s.yaml: %w", key, err)
		}
		if d.Key != key {
			return nil, fmt.Errorf("trace/%s.yaml: document is %q, want %q (the file's name)", key, d.Key, key)
		}
		docs = append(docs, d)
	}
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if key := strings.TrimSuffix(e.Name(), ".yaml"); !slices.Contains(Order, key) {
			return nil, fmt.Errorf("trace/%s is no traced source of trace.Order", e.Name())
		}
	}
	return docs, nil
}

var (
	idPattern          = regexp.MustCompile(`^[a-z]+-[0-9]{3}$`)
	fingerprintPattern = regexp.MustCompile(`^[0-9a-f]{12}$`)
	digestPattern      = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

// Check says everything wrong with the trace: a malformed or repeated ID,
// an unknown kind, an empty statement, a statement answered by nothing or
// by more than one of specs, reason and gap (or stand-in and
// upstream-differs both, or either without specs), a spec ID that is not
// in the published spec list (known); a design document's statement that
// points at no sentence, a malformed fingerprint, a sentence both stated
// and not a statement. Whether the fingerprints are the documents' own is
// CheckAgainst's, which needs the documents.
func Check(docs []Document, known map[contract.SpecID]bool) error {
	var errs []error
	seen := map[string]bool{}
	for _, d := range docs {
		if d.Title == "" || d.Home == "" {
			errs = append(errs, fmt.Errorf("trace/%s.yaml: title and home are required", d.Key))
		}
		if d.Digest != "" && !digestPattern.MatchString(d.Digest) {
			errs = append(errs, fmt.Errorf("trace/%s.yaml: digest %q is not sha256:<64 hex digits>", d.Key, d.Digest))
		}
		stated := map[string]bool{}
		for _, s := range d.Statements {
			for _, fp := range s.Sentences {
				stated[fp] = true
			}
		}
		notStated := map[string]bool{}
		for _, n := range d.NotStatements {
			where := fmt.Sprintf("trace/%s.yaml not-a-statement %s", d.Key, n.Sentence)
			switch {
			case !d.Designed():
				errs = append(errs, fmt.Errorf("%s: only a design document has sentences", where))
			case !fingerprintPattern.MatchString(n.Sentence):
				errs = append(errs, fmt.Errorf("%s: a sentence is named by 12 hex digits (go run ./trace/cmd/sentences)", where))
			case strings.TrimSpace(n.Reason) == "":
				errs = append(errs, fmt.Errorf("%s: say why it is not a statement", where))
			case stated[n.Sentence]:
				errs = append(errs, fmt.Errorf("%s: a statement points at it too", where))
			case notStated[n.Sentence]:
				errs = append(errs, fmt.Errorf("%s: listed twice", where))
			}
			notStated[n.Sentence] = true
		}
		if len(d.Statements) == 0 {
			errs = append(errs, fmt.Errorf("trace/%s.yaml: no statements", d.Key))
		}
		for _, s := range d.Statements {
			where := fmt.Sprintf("trace/%s.yaml %s", d.Key, s.ID)
			if !idPattern.MatchString(s.ID) {
				errs = append(errs, fmt.Errorf("%s: the ID is not <prefix>-NNN", where))
			}
			if seen[s.ID] {
				errs = append(errs, fmt.Errorf("%s: the ID is used twice", where))
			}
			seen[s.ID] = true
			if !slices.Contains(kinds, s.Kind) {
				errs = append(errs, fmt.Errorf("%s: kind %q is none of %v", where, s.Kind, kinds))
			}
			if strings.TrimSpace(s.Statement) == "" {
				errs = append(errs, fmt.Errorf("%s: the statement is empty", where))
			}
			if s.Status() == "" {
				errs = append(errs, fmt.Errorf("%s: give exactly one of specs, reason and gap (standIn or upstreamDiffers only beside specs, never both)", where))
			}
			switch {
			case d.Designed() && len(s.Sentences) == 0:
				errs = append(errs, fmt.Errorf("%s: point at the document's sentences it comes from (sentences: fingerprints of go run ./trace/cmd/sentences)", where))
			case !d.Designed() && len(s.Sentences) > 0:
				errs = append(errs, fmt.Errorf("%s: only a design document's statements point at sentences (upstream's are named by ref)", where))
			}
			for _, fp := range s.Sentences {
				if !fingerprintPattern.MatchString(fp) {
					errs = append(errs, fmt.Errorf("%s: sentence %q is not 12 hex digits", where, fp))
				}
			}
			for _, id := range s.Specs {
				if !known[id] {
					errs = append(errs, fmt.Errorf("%s: spec %q does not exist (reports/specs.json)", where, id))
				}
			}
		}
	}
	return errors.Join(errs...)
}

// Counts are a document's statements by status.
type Counts struct {
	Normative, Statements, Covered, StandIn, UpstreamDiffers, Reasoned, NotStatements, Gaps int
}

// Count counts a document's statements by status.
func (d Document) Count() Counts {
	c := Counts{Normative: d.Normative, Statements: len(d.Statements), NotStatements: len(d.NotStatements)}
	for _, s := range d.Statements {
		switch s.Status() {
		case Covered:
			c.Covered++
		case StandIn:
			c.StandIn++
		case UpstreamDiffers:
			c.UpstreamDiffers++
		case Reasoned:
			c.Reasoned++
		case Gap:
			c.Gaps++
		}
	}
	return c
}

// StatementsOf is, for every spec, the statements it is traced to.
func StatementsOf(docs []Document) map[contract.SpecID][]string {
	out := map[contract.SpecID][]string{}
	for _, d := range docs {
		for _, s := range d.Statements {
			for _, id := range s.Specs {
				out[id] = append(out[id], s.ID)
			}
		}
	}
	return out
}
