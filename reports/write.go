package reports

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/router-conformance/suite/contract"
)

// The files Write puts into the report directory.
const (
	ConformanceYAML = "conformance.yaml"
	ConformanceJSON = "conformance.json"
	SummaryMD       = "summary.md"
)

// MeasurementFigures is the base name of a convergence measurement's
// figures (make bench-router): <report dir>/bench-router.{json,md}.
const MeasurementFigures = "bench-router"

// Write puts conformance.yaml, conformance.json and summary.md into dir.
func (r Report) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	views, err := r.views()
	if err != nil {
		return err
	}
	for _, v := range views {
		if err := os.WriteFile(filepath.Join(dir, v.name), v.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// view is one file Write writes.
type view struct {
	name string
	data []byte
}

// views are the files Write writes, as it writes them: the verifier
// renders a bundle's report with this and compares it with the bundle's
// files, in this order (conformance.yaml first: the one a person reads).
func (r Report) views() ([]view, error) {
	j, y, err := r.marshal()
	if err != nil {
		return nil, err
	}
	return []view{{ConformanceYAML, y}, {ConformanceJSON, j}, {SummaryMD, []byte(r.Summary())}}, nil
}

// marshal is the report as JSON and as YAML.
func (r Report) marshal() (j, y []byte, err error) {
	j, err = json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	y, err = yaml.JSONToYAML(j)
	return append(j, '\n'), y, err
}

// JUnitProperties are what junit.xml's properties say of the run, so that
// a CI system reading only junit.xml knows what was judged and the verdict.
func (r Report) JUnitProperties() map[string]string {
	p := map[string]string{
		"suite.module":                  r.Suite.Module,
		"suite.version":                 r.Suite.Version,
		"suite.commit":                  r.Suite.Commit,
		"suite.dirty":                   fmt.Sprint(r.Suite.Dirty),
		"implementation.organization":   r.Implementation.Organization,
		"implementation.project":        r.Implementation.Project,
		"implementation.version":        r.Implementation.Version,
		"implementation.image":          r.Implementation.Image,
		"implementation.imageDigest":    r.Implementation.ImageDigest,
		"implementation.imageID":        r.Implementation.ImageID,
		"implementation.haproxyVersion": r.Implementation.HAProxyVersion,
		"profile":                       r.Profile,
		"openshiftRelease":              string(r.OpenShiftRelease),
		"result":                        string(r.Result),
	}
	if r.Reason != "" {
		p["result.reason"] = r.Reason
	}
	if r.Flaked > 0 {
		p["flaked"] = fmt.Sprint(r.Flaked)
	}
	if b := r.Suite.Binary; b != nil {
		p["suite.binary.sha256"], p["suite.binary.goVersion"] = b.SHA256, b.GoVersion
	}
	for k, v := range p {
		if v == "" {
			delete(p, k)
		}
	}
	return p
}

// Summary is the report for a person: the verdict first, then what was
// judged by what, the feature table, and every spec that failed or did not
// run with its reason.
func (r Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Router conformance: %s\n\n", strings.ToUpper(string(r.Result)))
	if !r.Passed() {
		fmt.Fprintf(&b, "Reason: %s\n\n", mdText(r.Reason))
	}
	if r.Flaked > 0 {
		fmt.Fprintf(&b, "Flaked: %d specs failed, then passed on a retry (below).\n\n", r.Flaked)
	}
	if nj := r.NotJudged(); len(nj) > 0 {
		fmt.Fprintf(&b, "Not judged: %s. Every spec of these claimed features judges the platform, and on this run the suite's own stand-ins were the platform: "+
			"their specs passed against the stand-ins, which says nothing of the router.\n\n", mdText(joinFeatures(nj)))
	}
	r.provenance(&b)
	b.WriteString("\n## Features\n\n")
	r.featureTable(&b, false)
	b.WriteString("\nChecks of the test environment, not of the router:\n\n")
	r.featureTable(&b, true)
	for _, f := range r.Features {
		r.featureDetails(&b, f)
	}
	r.flakedMarkdown(&b)
	b.WriteString("\nDiagnostics of failed specs: `failures/<spec>/`. Every spec: `junit.xml`, `report.json`.\n")
	return b.String()
}

func (r Report) provenance(b *strings.Builder) {
	impl := r.Implementation
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(b, "| %s | %s |\n", k, v)
		}
	}
	b.WriteString("| | |\n|---|---|\n")
	row("implementation", mdText(strings.TrimSpace(impl.Organization+" "+impl.Project+" "+impl.Version)))
	row("url", mdText(impl.URL))
	row("contact", mdText(strings.Join(impl.Contact, ", ")))
	row("image", code(impl.Image))
	row("image digest", code(impl.ImageDigest))
	row("image ID", code(impl.ImageID))
	row("HAProxy", mdText(impl.HAProxyVersion))
	row("suite", mdText(r.Suite.Module+" "+r.Suite.String()))
	if b := r.Suite.Binary; b != nil {
		row("suite binary", code("sha256:"+b.SHA256)+" "+mdText(b.GoVersion))
	}
	row("profile", mdText(r.Profile))
	row("OpenShift release", mdText(string(r.OpenShiftRelease)))
	row("platform", mdText(r.Platform))
	row("Kubernetes", mdText(r.KubernetesVersion))
	row("node image", strings.TrimSpace(code(r.NodeImage.Ref)+" "+code(r.NodeImage.ID)))
	row("claimed", mdText(joinFeatures(r.Claimed)))
	row("date", r.Date.UTC().Format(time.RFC3339))
	row("duration", r.Duration.String())
	row("run filter", mdText(r.Run.Filters()))
	keys := make([]string, 0, len(r.Options))
	for k := range r.Options {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		row("option "+code(k), code(r.Options[k]))
	}
}

func (r Report) featureTable(b *strings.Builder, harness bool) {
	b.WriteString("| feature | level | result | router specs passed/failed/skipped | platform specs passed/failed/skipped |\n|---|---|---|---|---|\n")
	for _, f := range r.Features {
		if f.Harness == harness {
			fmt.Fprintf(b, "| %s (`%s`) | %s | %s | %s | %s |\n", f.Name, f.Feature, f.Level, f.Result, f.Router.tally(), f.Platform.tally())
		}
	}
}

func (c SpecCounts) tally() string {
	return fmt.Sprintf("%d/%d/%d", len(c.Passed), len(c.Failed), len(c.Skipped))
}

func (r Report) featureDetails(b *strings.Builder, f FeatureResult) {
	type line struct {
		judged contract.Judged
		state  Result
		spec   NamedSpec
	}
	var lines []line
	for _, j := range []contract.Judged{contract.JudgesRouter, contract.JudgesPlatform} {
		c := f.counts(j)
		// A filtered run chose few specs: each that passed is named too.
		if r.Run.Filtered() {
			for _, id := range c.Passed {
				lines = append(lines, line{j, Passed, NamedSpec{ID: id}})
			}
		}
		for _, s := range c.Failed {
			lines = append(lines, line{j, Failed, s})
		}
		for _, s := range c.Skipped {
			lines = append(lines, line{j, Skipped, s})
		}
	}
	// An unclaimed feature's specs skip by design: no noise about them.
	if len(lines) == 0 || !f.Claimed {
		return
	}
	fmt.Fprintf(b, "\n## %s: %s\n\n", f.Name, f.Result)
	for _, l := range lines {
		if l.state == Passed { // a passed spec has its ID alone
			fmt.Fprintf(b, "- %s (judges the %s) %s\n", l.state, l.judged, code(string(l.spec.ID)))
			continue
		}
		fmt.Fprintf(b, "- %s (judges the %s) %s %s: %s\n", l.state, l.judged, code(string(l.spec.ID)), mdText(l.spec.Name), code(l.spec.Reason))
	}
}

// joinFeatures is "router, hsts, ...".
func joinFeatures(features []contract.Feature) string {
	s := make([]string, len(features))
	for i, f := range features {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

// mdText keeps a value on its table row.
func mdText(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// code quotes a value as inline code ("" stays "").
func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.NewReplacer("`", "'", "\n", " ", "|", `\|`).Replace(s) + "`"
}

// ReadResult is the verdict of the run whose reports are in dir, from its
// conformance.json; "" when no report was written.
func ReadResult(dir string) Result {
	return ReadReport(dir).Result
}

// ReadReport is the report of the run whose reports are in dir, from its
// conformance.json; the zero Report (no result) when none was written.
func ReadReport(dir string) Report {
	data, err := os.ReadFile(filepath.Join(dir, ConformanceJSON))
	if err != nil {
		return Report{}
	}
	var r Report
	if json.Unmarshal(data, &r) != nil {
		return Report{}
	}
	return r
}

// FilteredPass says whether this is a filtered run (FOCUS, make smoke)
// in which at least one spec ran and none failed. Its verdict stays
// partial (a filter chose the specs); its exit status is 0, so a script
// tells a passing focused run from a failing one.
func (r Report) FilteredPass() bool {
	if r.Result != Partial || r.Run.Error || !r.Run.Filtered() {
		return false
	}
	passed := 0
	for _, f := range r.Features {
		for _, c := range []SpecCounts{f.Router, f.Platform} {
			if len(c.Failed) > 0 {
				return false
			}
			passed += len(c.Passed)
		}
	}
	return passed > 0
}
