// Package reports writes what a run of the suite hands in: the
// conformance report (YAML and JSON) and summary.md, from the results of
// the specs grouped by feature. It knows nothing of Ginkgo; the suite
// converts its report into SpecResults.
package reports

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"sigs.k8s.io/yaml"
)

// Feature is one row of the conformance table.
type Feature struct {
	Name  string `json:"name"`
	Label string `json:"label"` // the Ginkgo label of its specs
	// Description says what conforming means, in a line.
	Description string `json:"description"`
	// Harness marks a check of the test environment itself (the hermetic
	// cluster), not of the router: reported apart from the conformance
	// table, though its failure still fails the run.
	Harness bool `json:"harness,omitempty"`
}

// SpecResult is one spec's outcome.
type SpecResult struct {
	Name     string
	Labels   []string
	State    string // passed, failed, skipped, pending
	Duration time.Duration
}

// Outcomes of a feature and of the run.
const (
	Passed      = "passed"
	Failed      = "failed"
	Skipped     = "skipped"
	Unsupported = "unsupported"
	// Incomplete: nothing failed, but a claimed feature ran no spec (a
	// filtered run).
	Incomplete = "incomplete"
)

// The report's schema; a vendor's submission is this document
// (reports/README.md).
const (
	APIVersion = "conformance.router-conformance.io/v1alpha1"
	Kind       = "RouterConformanceReport"
)

// Implementation under test.
type Implementation struct {
	// Organization and Name (the project) say whose router it is; URL
	// and Contact where to find it and whom to ask.
	Organization string   `json:"organization,omitempty"`
	Name         string   `json:"name"`
	URL          string   `json:"url,omitempty"`
	Contact      []string `json:"contact,omitempty"`
	Version      string   `json:"version"`
	// Image is the router image reference, ImageID its content ID, and
	// HAProxyVersion what the image's haproxy reports (kind profile).
	Image          string `json:"image,omitempty"`
	ImageID        string `json:"imageID,omitempty"`
	HAProxyVersion string `json:"haproxyVersion,omitempty"`
}

// Meta are the facts of the run.
type Meta struct {
	Implementation    Implementation `json:"implementation"`
	SuiteVersion      string         `json:"suiteVersion"`
	KubernetesVersion string         `json:"kubernetesVersion"`
	Profile           string         `json:"profile"`
	Date              time.Time      `json:"date"`
	Duration          string         `json:"duration"`
}

// FeatureResult is a feature's outcome with its specs by state.
type FeatureResult struct {
	Feature
	Result  string   `json:"result"`
	Passed  []string `json:"passed,omitempty"`
	Failed  []string `json:"failed,omitempty"`
	Skipped []string `json:"skipped,omitempty"`
}

// Report is the conformance report.
type Report struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Meta       `json:",inline"`
	Result     string          `json:"result"`
	Features   []FeatureResult `json:"features"`
}

// Build groups the specs by feature (a spec belongs to the first feature
// whose label it carries). A feature the implementation does not claim is
// unsupported whatever its specs did; one with a failed spec failed; one
// with a passed spec and no failure passed; otherwise it was skipped. The
// run failed when a feature failed, is incomplete when a claimed feature
// was skipped, and passed otherwise.
func Build(meta Meta, features []Feature, claimed map[string]bool, specs []SpecResult) Report {
	r := Report{APIVersion: APIVersion, Kind: Kind, Meta: meta, Result: Passed}
	r.Features = make([]FeatureResult, len(features))
	byLabel := map[string]*FeatureResult{}
	for i, f := range features {
		r.Features[i].Feature = f
		byLabel[f.Label] = &r.Features[i]
	}
	for _, s := range specs {
		var fr *FeatureResult
		for _, l := range s.Labels {
			if f, ok := byLabel[l]; ok {
				fr = f
				break
			}
		}
		if fr == nil {
			continue
		}
		switch s.State {
		case Passed:
			fr.Passed = append(fr.Passed, s.Name)
		case Failed:
			fr.Failed = append(fr.Failed, s.Name)
		default:
			fr.Skipped = append(fr.Skipped, s.Name)
		}
	}
	for i := range r.Features {
		f := &r.Features[i]
		sort.Strings(f.Passed)
		sort.Strings(f.Failed)
		sort.Strings(f.Skipped)
		switch {
		case !claimed[f.Label] && f.Harness:
			f.Result = Skipped
		case !claimed[f.Label]:
			f.Result = Unsupported
		case len(f.Failed) > 0:
			f.Result = Failed
		case len(f.Passed) > 0:
			f.Result = Passed
		default:
			f.Result = Skipped
		}
		switch {
		case f.Result == Failed:
			r.Result = Failed
		case f.Result == Skipped && r.Result == Passed && !f.Harness:
			r.Result = Incomplete
		}
	}
	return r
}

// Write puts conformance.yaml, conformance.json and summary.md into dir.
func (r Report) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	j, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	y, err := yaml.JSONToYAML(j)
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{"conformance.json": append(j, '\n'), "conformance.yaml": y, "summary.md": []byte(r.Summary())} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Summary is the report for a person.
func (r Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Router conformance: %s\n\n", strings.ToUpper(r.Result))
	fmt.Fprintf(&b, "| | |\n|---|---|\n| implementation | %s %s |\n", r.Implementation.Name, r.Implementation.Version)
	if r.Implementation.Image != "" {
		fmt.Fprintf(&b, "| image | `%s` |\n", r.Implementation.Image)
	}
	if r.Implementation.ImageID != "" {
		fmt.Fprintf(&b, "| image ID | `%s` |\n", r.Implementation.ImageID)
	}
	if r.Implementation.HAProxyVersion != "" {
		fmt.Fprintf(&b, "| HAProxy | %s |\n", r.Implementation.HAProxyVersion)
	}
	fmt.Fprintf(&b, "| profile | %s |\n| Kubernetes | %s |\n| suite | %s |\n| date | %s |\n| duration | %s |\n\n",
		r.Profile, r.KubernetesVersion, r.SuiteVersion, r.Date.UTC().Format(time.RFC3339), r.Duration)
	table := func(harness bool) {
		b.WriteString("| feature | result | passed | failed | skipped |\n|---|---|---|---|---|\n")
		for _, f := range r.Features {
			if f.Harness == harness {
				fmt.Fprintf(&b, "| %s | %s | %d | %d | %d |\n", f.Name, f.Result, len(f.Passed), len(f.Failed), len(f.Skipped))
			}
		}
	}
	table(false)
	b.WriteString("\nChecks of the test environment (not of the router):\n\n")
	table(true)
	for _, f := range r.Features {
		if len(f.Failed) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s: failed specs\n\n", f.Name)
		for _, s := range f.Failed {
			fmt.Fprintf(&b, "- %s\n", s)
		}
	}
	b.WriteString("\nDiagnostics of failed specs: `failures/<spec>/`. Every spec: `junit.xml`.\n")
	return b.String()
}
