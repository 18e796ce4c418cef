package contract

import (
	"fmt"
	"regexp"
	"strings"
)

// SpecID is a spec's stable identity, "<feature>/<short-name>" (as
// knative's ingress conformance names its tests, `dispatch/path`, and
// Gateway API's a test's ShortName). The spec's text is prose that may be
// reworded; everything that outlives a run keys on the ID: specs.json,
// report lookups, history, trend, compare, the bundle and its verifier.
// An ID once published is renamed only in a new suite version
// (specs.json records the version that introduced each ID).
type SpecID string

// specIDPattern: the feature part is a feature's label, the short name
// lower-case words joined by dashes.
var specIDPattern = regexp.MustCompile(`^([a-z0-9]+(?:-[a-z0-9]+)*)/([a-z0-9]+(?:-[a-z0-9]+)*)$`)

// Feature is the ID's feature part.
func (id SpecID) Feature() Feature {
	feature, _, _ := strings.Cut(string(id), "/")
	return Feature(feature)
}

// Validate says what is wrong with an ID's form or its feature part.
func (id SpecID) Validate() error {
	if !specIDPattern.MatchString(string(id)) {
		return fmt.Errorf("spec ID %q is not <feature>/<short-name> (lower-case words joined by dashes)", id)
	}
	if _, ok := LookupFeature(string(id.Feature())); !ok {
		return fmt.Errorf("spec ID %q: %q is no feature of contract/features.go", id, id.Feature())
	}
	return nil
}

// A spec carries its ID as a Ginkgo label, so that every record of a run
// (report.json, junit.xml, a dry run, PreviewSpecs) has it, skipped specs
// included. Ginkgo refuses "/" in a label: the label writes the ID's
// slash as a dot ("id:hsts.passthrough-never"), which no feature or short
// name contains.
const specIDLabelPrefix = "id:"

// SpecIDLabel is the Ginkgo label that carries id.
func SpecIDLabel(id SpecID) string {
	return specIDLabelPrefix + strings.Replace(string(id), "/", ".", 1)
}

// SpecIDsOf returns the IDs among a spec's labels (a well-formed spec has
// exactly one).
func SpecIDsOf(labels []string) []SpecID {
	var out []SpecID
	for _, l := range labels {
		if rest, ok := strings.CutPrefix(l, specIDLabelPrefix); ok {
			out = append(out, SpecID(strings.Replace(rest, ".", "/", 1)))
		}
	}
	return out
}

// SpecIDOf is a spec's ID from its labels, "" when it has none or several.
func SpecIDOf(labels []string) SpecID {
	if ids := SpecIDsOf(labels); len(ids) == 1 {
		return ids[0]
	}
	return ""
}

// isSpecIDLabel: the label carries an ID.
func isSpecIDLabel(label string) bool {
	return strings.HasPrefix(label, specIDLabelPrefix)
}
