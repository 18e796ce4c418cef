package reports

import (
	"encoding/xml"
	"fmt"
	"os"
	"strings"

	"github.com/router-conformance/suite/contract"
)

// The JUnit a run writes (junit.xml; junit_01.xml in the conformance
// image, which is all hydrophone brings back with e2e.log), as much of it
// as a comparison needs.
type junitSuites struct {
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name    string        `xml:"name,attr"`
	Status  string        `xml:"status,attr"`
	Failure *junitMessage `xml:"failure"`
	Error   *junitMessage `xml:"error"`
	Skipped *junitMessage `xml:"skipped"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
}

// ReadComparedRunJUnit reads one run's JUnit (Ginkgo's, as the suite
// writes it) for Compare: every "[It] <text> [<labels>]" test case, by the
// ID among its labels (its text as FromGinkgo names it); a spec listed
// twice (a flake: failed, then passed) counts as its last attempt. Test
// cases without an ID (a suite before v0.3.0) are kept apart by their
// text, so that Compare refuses the run rather than read them as one
// spec's attempts. The run's error, if any, comes from the
// conformance.result and conformance.result.reason properties.
func ReadComparedRunJUnit(name, file string) (ComparedRun, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return ComparedRun{}, fmt.Errorf("run %s: %w", name, err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(data, &doc); err != nil {
		return ComparedRun{}, fmt.Errorf("run %s: %s is no JUnit report: %v", name, file, err)
	}
	if len(doc.Suites) != 1 {
		return ComparedRun{}, fmt.Errorf("run %s: %s holds %d test suites, not 1: give the JUnit of one run of the suite", name, file, len(doc.Suites))
	}
	suite := doc.Suites[0]
	run := ComparedRun{Name: name, File: file}
	// index: where each spec is in run.Specs, by its ID (by its text
	// when it has none).
	type key struct {
		id   contract.SpecID
		text string
	}
	index := map[key]int{}
	for _, c := range suite.Cases {
		text, ok := strings.CutPrefix(c.Name, "[It] ")
		if !ok {
			continue // suite nodes: [SynchronizedBeforeSuite], ...
		}
		spec := SpecResult{Name: text}
		if i := strings.LastIndex(text, " ["); i >= 0 && strings.HasSuffix(text, "]") {
			spec.Name = text[:i]
			spec.Labels = strings.Split(text[i+2:len(text)-1], ", ")
			spec.ID = contract.SpecIDOf(spec.Labels)
		}
		switch c.Status {
		case "passed":
			spec.State = Passed
		case "failed", "panicked", "timedout", "interrupted", "aborted":
			spec.State = Failed
			if c.Failure != nil {
				spec.Reason = firstLine(c.Failure.Message)
			}
		default: // skipped, pending
			spec.State = Skipped
			if c.Skipped != nil {
				spec.Reason = firstLine(strings.TrimPrefix(c.Skipped.Message, "skipped - "))
			}
		}
		k := key{id: spec.ID}
		if spec.ID == "" {
			k.text = spec.Name
		}
		if i, seen := index[k]; seen {
			spec.Attempts = run.Specs[i].Attempts + 1
			run.Specs[i] = spec
			continue
		}
		index[k] = len(run.Specs)
		run.Specs = append(run.Specs, spec)
	}
	props := map[string]string{}
	for _, p := range suite.Properties {
		props[p.Name] = p.Value
	}
	if props["conformance.result"] == string(Error) {
		run.Outcome = RunOutcome{Error: true, Reason: props["conformance.result.reason"]}
	}
	if f := props["LabelFilter"]; f != "" {
		run.Outcome.LabelFilter = f
	}
	return run, nil
}

// ReadComparedRunFile reads a run's report.json (Ginkgo's JSON report) or,
// for a .xml file, its JUnit.
func ReadComparedRunFile(name, file string) (ComparedRun, error) {
	if strings.HasSuffix(file, ".xml") {
		return ReadComparedRunJUnit(name, file)
	}
	return ReadComparedRun(name, file)
}
