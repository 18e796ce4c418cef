package reports

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/router-conformance/suite/contract"
)

// SpecsJSON is the name of the published spec list, in the repository
// (reports/specs.json) and in a bundle.
const SpecsJSON = "specs.json"

// PublishedSpec is one spec of the suite's published list: a bundle must
// hold exactly these specs, so that no spec can be dropped or added
// between the suite's release and a vendor's run.
type PublishedSpec struct {
	ID       contract.SpecID    `json:"id"`
	Name     string             `json:"name"`
	Features []contract.Feature `json:"features"`
	Judges   contract.Judged    `json:"judges"`
	// Since is the suite version that introduced the ID ("v0.3.0"): an
	// ID is renamed or dropped only in a new version.
	Since string `json:"since,omitempty"`
	// Changes are the upstream behaviour changes between release lines
	// the spec asserts (contract/releases.go): its expectation follows
	// the run's -openshift-release.
	Changes []contract.Change `json:"changes,omitempty"`
}

// specsJSON is generated from the spec tree (a test fails when it is
// stale).
//
//go:embed specs.json
var specsJSON []byte

// PublishedSpecs is the spec list of this suite version.
func PublishedSpecs() []PublishedSpec {
	specs, err := parsePublished(specsJSON)
	if err != nil {
		// Compiled in and checked by a test: only a broken build gets here.
		panic(err)
	}
	return specs
}

func parsePublished(data []byte) ([]PublishedSpec, error) {
	var specs []PublishedSpec
	if err := json.Unmarshal(data, &specs); err != nil {
		return nil, fmt.Errorf("%s: %w", SpecsJSON, err)
	}
	return specs, nil
}

// publish is a run's specs as a published list.
func publish(specs []SpecResult) []PublishedSpec {
	out := make([]PublishedSpec, len(specs))
	for i, s := range specs {
		out[i] = PublishedSpec{ID: s.ID, Name: s.Name, Features: contract.FeaturesOf(s.Labels), Judges: s.Judges, Changes: contract.ChangesOf(s.Labels)}
	}
	return out
}
