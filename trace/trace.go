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
	Covered  Status = "covered"
	Reasoned Status = "reasoned"
	Gap      Status = "gap"
)

// Statement is one testable claim and its answer: exactly one of Specs,
// Reason and Gap.
type Statement struct {
	// ID is stable ("<prefix>-NNN"): never renumbered, never reused.
	ID string `json:"id"`
	// Section is the document's heading, verbatim.
	Section   string `json:"section,omitempty"`
	Kind      Kind   `json:"kind"`
	Statement string `json:"statement"`
	// Ref names an upstream test ("<repo> <file> <Test>") or a bug.
	Ref    string            `json:"ref,omitempty"`
	Specs  []contract.SpecID `json:"specs,omitempty"`
	Reason string            `json:"reason,omitempty"`
	Gap    string            `json:"gap,omitempty"`
}

// Status says how the statement is answered ("" when it is not, or more
// than once: Check refuses both).
func (s Statement) Status() Status {
	var got []Status
	if len(s.Specs) > 0 {
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
	Key        string      `json:"document"`
	Title      string      `json:"title"`
	Source     string      `json:"source"`
	Statements []Statement `json:"statements"`
}

// Order is the order of the traced sources on the page: the five design
// documents as shared/seeds numbers them, then upstream's tests and bugs.
var Order = []string{"hsts", "header-actions", "client-tls", "delegation", "component-routes", "upstream-tests", "upstream-bugs"}

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

var idPattern = regexp.MustCompile(`^[a-z]+-[0-9]{3}$`)

// Check says everything wrong with the trace: a malformed or repeated ID,
// an unknown kind, an empty statement, a statement answered by nothing or
// by more than one of specs, reason and gap, a spec ID that is not in the
// published spec list (known).
func Check(docs []Document, known map[contract.SpecID]bool) error {
	var errs []error
	seen := map[string]bool{}
	for _, d := range docs {
		if d.Title == "" || d.Source == "" {
			errs = append(errs, fmt.Errorf("trace/%s.yaml: title and source are required", d.Key))
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
				errs = append(errs, fmt.Errorf("%s: give exactly one of specs, reason and gap", where))
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
	Statements, Covered, Reasoned, Gaps int
}

// Count counts a document's statements by status.
func (d Document) Count() Counts {
	c := Counts{Statements: len(d.Statements)}
	for _, s := range d.Statements {
		switch s.Status() {
		case Covered:
			c.Covered++
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
