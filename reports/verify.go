package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/onsi/ginkgo/v2/types"
	"sigs.k8s.io/yaml"

	"github.com/router-conformance/suite/contract"
)

// VerifyBundle checks a bundle as a certifier would, and returns its
// report when every check holds; the error is one line saying which did
// not. The checks: the checksums (no file missing or unlisted); the suite
// that ran is this verifier's version and was built from a clean tree;
// every spec ran once (no retries, no test hook); report.json and
// specs.json hold exactly the published specs of that version, labelled
// as published; no filter chose the specs and every spec of a claimed
// feature ran; the verdict re-derived from report.json
// is conformance.yaml's; the implementation names who answers for it.
//
// The bundle is not signed: the checks prove it consistent and complete,
// not who made it.
func VerifyBundle(path string) (Report, error) {
	return verifier{published: PublishedSpecs(), suiteVersion: SuiteVersion}.verify(path)
}

// verifier holds what the bundle is checked against: this suite's spec
// list and version (tests set their own).
type verifier struct {
	published    []PublishedSpec
	suiteVersion string
}

func (v verifier) verify(file string) (Report, error) {
	contents, err := readBundle(file)
	if err != nil {
		return Report{}, fmt.Errorf("bundle: %w", err)
	}
	if err := checkSums(contents); err != nil {
		return Report{}, err
	}
	for _, name := range []string{ConformanceYAML, ReportJSON, SpecsJSON} {
		if _, ok := contents[name]; !ok {
			return Report{}, fmt.Errorf("the bundle lacks %s", name)
		}
	}
	var rep Report
	if err := yaml.UnmarshalStrict(contents[ConformanceYAML], &rep); err != nil {
		return Report{}, fmt.Errorf("%s: %v", ConformanceYAML, oneLine(err))
	}
	// The version first: a bundle of another suite version has another
	// schema and spec list, and the line should say so.
	if err := v.checkSuite(rep.Suite); err != nil {
		return Report{}, err
	}
	if rep.APIVersion != APIVersion || rep.Kind != Kind {
		return Report{}, fmt.Errorf("%s is %s %s, not %s %s", ConformanceYAML, rep.Kind, rep.APIVersion, Kind, APIVersion)
	}
	var suites []types.Report
	if err := json.Unmarshal(contents[ReportJSON], &suites); err != nil {
		return Report{}, fmt.Errorf("%s: %v", ReportJSON, oneLine(err))
	}
	if len(suites) != 1 {
		return Report{}, fmt.Errorf("%s holds %d suites, not 1", ReportJSON, len(suites))
	}
	if err := oneAttemptEach(suites[0], rep.Options); err != nil {
		return Report{}, err
	}
	specs, run := FromGinkgo(suites[0])
	bundled, err := parsePublished(contents[SpecsJSON])
	if err != nil {
		return Report{}, fmt.Errorf("%v", oneLine(err))
	}
	if err := sameSpecs(bundled, v.published, SpecsJSON, "the published list of suite "+v.suiteVersion); err != nil {
		return Report{}, err
	}
	if err := sameSpecs(publish(specs), v.published, ReportJSON, "the published list"); err != nil {
		return Report{}, err
	}
	derived := Build(rep.Meta, rep.Claimed, specs, run)
	if err := everySpecRan(derived); err != nil {
		return Report{}, err
	}
	if err := sameVerdict(rep, derived); err != nil {
		return Report{}, err
	}
	if err := rep.Implementation.Validate(); err != nil {
		return Report{}, err
	}
	return rep, nil
}

func (v verifier) checkSuite(s Suite) error {
	switch {
	case s.Module != SuiteModule:
		return fmt.Errorf("the suite is %s, not %s", s.Module, SuiteModule)
	case s.Version != v.suiteVersion:
		return fmt.Errorf("the bundle was made by suite %s, this verifier is %s: verify it with the verifier of %s", s.Version, v.suiteVersion, s.Version)
	case s.Dirty:
		return fmt.Errorf("the suite was built from a dirty or unknown tree (commit %s)", s.Commit)
	}
	return nil
}

// sameSpecs compares a spec list with the published one by ID, as
// multisets: the first spec missing, added or labelled otherwise is
// named. Texts are prose, not compared.
func sameSpecs(got, published []PublishedSpec, gotName, publishedName string) error {
	count := func(specs []PublishedSpec) map[contract.SpecID]int {
		m := map[contract.SpecID]int{}
		for _, s := range specs {
			m[s.ID]++
		}
		return m
	}
	g, p := count(got), count(published)
	for _, id := range slices.Sorted(maps.Keys(p)) {
		if g[id] < p[id] {
			return fmt.Errorf("%s lacks spec %s of %s", gotName, id, publishedName)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(g)) {
		switch {
		case id == "" && g[id] > p[id]:
			return fmt.Errorf("%s has a spec without an ID: it was written by a suite older than v0.3.0", gotName)
		case g[id] > p[id]:
			return fmt.Errorf("%s has spec %s, which is not in %s", gotName, id, publishedName)
		}
	}
	byID := map[contract.SpecID]PublishedSpec{}
	for _, s := range published {
		byID[s.ID] = s
	}
	for _, s := range got {
		want := byID[s.ID]
		if !slices.Equal(s.Features, want.Features) || s.Judges != want.Judges {
			return fmt.Errorf("spec %s has features %v judging the %s in %s, but %v judging the %s in %s",
				s.ID, s.Features, s.Judges, gotName, want.Features, want.Judges, publishedName)
		}
	}
	return nil
}

// everySpecRun: a certifiable run has no filter and ran every spec of
// every claimed feature.
func everySpecRan(r Report) error {
	if r.Run.Filtered() {
		return fmt.Errorf("the run was filtered: %s", r.Run.Filters())
	}
	for _, f := range r.Features {
		if !f.Claimed {
			continue
		}
		if s := slices.Concat(f.Router.Skipped, f.Platform.Skipped); len(s) > 0 {
			return fmt.Errorf("claimed feature %s has a spec that did not run: %s (%q): %s", f.Feature, s[0].ID, s[0].Name, s[0].Reason)
		}
	}
	return nil
}

// sameVerdict compares conformance.yaml with the report re-derived from
// report.json, and names the first difference.
func sameVerdict(stated, derived Report) error {
	if stated.Result != derived.Result {
		return fmt.Errorf("%s says %s, report.json gives %s", ConformanceYAML, stated.Result, derived.Result)
	}
	if stated.Reason != derived.Reason {
		return fmt.Errorf("%s gives the reason %q, report.json %q", ConformanceYAML, stated.Reason, derived.Reason)
	}
	if !sameJSON(stated.Run, derived.Run) {
		return fmt.Errorf("%s's run outcome differs from report.json's", ConformanceYAML)
	}
	for _, d := range derived.Features {
		s, ok := stated.Feature(d.Feature)
		switch {
		case !ok:
			return fmt.Errorf("%s lacks feature %s", ConformanceYAML, d.Feature)
		case s.Result != d.Result:
			return fmt.Errorf("feature %s: %s says %s, report.json gives %s", d.Feature, ConformanceYAML, s.Result, d.Result)
		case !sameJSON(s, d):
			return fmt.Errorf("feature %s: %s's specs differ from report.json's", d.Feature, ConformanceYAML)
		}
	}
	if !sameJSON(stated, derived) {
		return fmt.Errorf("%s differs from the report re-derived from report.json", ConformanceYAML)
	}
	return nil
}

func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// oneLine keeps a parse error on the verifier's one line.
func oneLine(err error) string {
	return firstLine(err.Error())
}
