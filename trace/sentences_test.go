package trace_test

import (
	"slices"
	"testing"

	"github.com/router-conformance/suite/trace"
)

// The cut of SentenceRule, case by case.
func TestSentencesFollowTheRule(t *testing.T) {
	doc := "---\ntitle: x\n---\n\n# Heading must go\n\nOne sentence, e.g. with an abbreviation. Two\nlines joined?  Yes! and not cut before lower case.\n\n" +
		"- an item. Its second\n- another item\n\n| a | b |\n|---|:--|\n| must | be one |\n\n" +
		"```go\n// A comment\n// goes on.\n// +optional\n// +kubebuilder:validation:MaxItems=3\nField []string `json:\"f\"`\ncode := 1\n```\n"
	var got []string
	for _, s := range trace.Sentences(doc) {
		got = append(got, s.Text)
	}
	want := []string{
		"One sentence, e.g. with an abbreviation.", "Two lines joined?", "Yes! and not cut before lower case.",
		"an item.", "Its second", "another item",
		"a | b", "must | be one",
		"A comment goes on.", "+optional +kubebuilder:validation:MaxItems=3 Field []string `json:\"f\"`",
	}
	if !slices.Equal(got, want) {
		t.Errorf("sentences:\n got %q\nwant %q", got, want)
	}
}

// The fingerprint is of the whitespace-normalised text, and normative
// sentences are found by their words or as API markers.
func TestFingerprintAndNormative(t *testing.T) {
	if a, b := trace.Fingerprint("A  b\n c"), trace.Fingerprint("A b c"); a != b || len(a) != 12 {
		t.Errorf("fingerprints %q and %q: want one 12-digit fingerprint", a, b)
	}
	for text, want := range map[string]bool{
		"The router must refuse it.": true, "It cannot start.": true, "Routes are admitted only once.": true,
		"+optional Field string": true, "This is history.": false, "Mustard is yellow.": false,
	} {
		if got := (trace.Sentence{Text: text}).Normative(); got != want {
			t.Errorf("%q normative: %v, want %v", text, got, want)
		}
	}
}
