// Package reports turns a run of the suite into what a vendor hands in and
// a certifier checks: the verdict (conformance.yaml / .json, summary.md),
// the bundle of the run's files with their checksums, and the verifier
// that re-derives the verdict from Ginkgo's own report. It reads Ginkgo's
// report types, never its DSL; features come from contract.Features.
package reports

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/router-conformance/suite/contract"
)

// Result is a verdict: a spec's (passed | failed | skipped), a feature's
// (passed | failed | not run | not judged | unsupported | skipped) or the
// run's (passed | failed | partial | error).
type Result string

const (
	Passed  Result = "passed"
	Failed  Result = "failed"
	Skipped Result = "skipped"
	// NotRun: a claimed feature some of whose specs did not run (filtered
	// out, skipped) or that has no spec at all, and none failed.
	NotRun Result = "not run"
	// NotJudged: a claimed feature whose specs all judge the platform and
	// all passed on a run whose platform is the suite's own stand-ins
	// (PlatformStandIns): they judged the stand-ins, not the router. It
	// neither fails nor passes the run; the summary and the verifier's
	// line name it.
	NotJudged Result = "not judged"
	// Unsupported: a feature the implementation does not claim.
	Unsupported Result = "unsupported"
	// Partial: nothing failed, but the run does not cover what a
	// conformant router must show (a claimed feature not run, a core
	// feature not claimed, a filtered run).
	Partial Result = "partial"
	// Error: the run was cut short or its set-up failed; nothing can be
	// concluded about the router.
	Error Result = "error"
)

// The report's schema; a vendor's submission is this document
// (reports/README.md).
const (
	APIVersion = "conformance.router-conformance.io/v1alpha3"
	Kind       = "RouterConformanceReport"
)

// Platform sentences for Meta.Platform: who answered the specs that judge
// the platform around the router.
const (
	PlatformStandIns = "the suite's own stand-ins (kind profile): route admission webhook, reference ingress operator, fixture component"
	PlatformCluster  = "the cluster's own"
)

// SpecResult is one spec's outcome.
type SpecResult struct {
	// ID is the spec's stable identity (contract.SpecID); Name its text,
	// prose that may be reworded.
	ID       contract.SpecID `json:"id"`
	Name     string          `json:"name"`
	Labels   []string        `json:"labels,omitempty"`
	State    Result          `json:"state"` // passed, failed or skipped
	Duration time.Duration   `json:"duration"`
	Judges   contract.Judged `json:"judges"`
	// Reason: a failed spec's failure (first line), a skipped spec's Skip
	// message, ReasonFilteredOut, ReasonPending or ReasonNeverStarted.
	Reason string `json:"reason,omitempty"`
	// Attempts: how often Ginkgo ran it, when more than once
	// (--flake-attempts; 0 otherwise). EarlierFailures are the failures
	// (first lines) of the attempts before the last, in order.
	Attempts        int      `json:"attempts,omitempty"`
	EarlierFailures []string `json:"earlierFailures,omitempty"`
}

// Flaked: it failed, then passed on a retry (--flake-attempts). It counts
// as passed for the verdict, and is listed as flaked.
func (s SpecResult) Flaked() bool { return s.State == Passed && s.Attempts > 1 }

// Reasons of specs that Ginkgo skipped without a message of ours.
const (
	// ReasonFilteredOut: the run's label filter or focus left it out.
	ReasonFilteredOut = "filtered out"
	// ReasonPending: marked pending in the suite.
	ReasonPending = "pending"
	// ReasonNeverStarted: the run ended before it (interrupt, timeout, a
	// failed set-up).
	ReasonNeverStarted = "never started: the run was cut short"
)

// RunOutcome is what a run as a whole says, apart from its specs: whether
// it completed, and which filters chose its specs.
type RunOutcome struct {
	// Error: the run was cut short or its set-up failed (Reason says how).
	Error       bool     `json:"error,omitempty"`
	Reason      string   `json:"reason,omitempty"`
	LabelFilter string   `json:"labelFilter,omitempty"`
	Focus       []string `json:"focus,omitempty"`
	Skip        []string `json:"skip,omitempty"`
}

// Filtered says whether a filter chose the specs of the run.
func (o RunOutcome) Filtered() bool {
	return o.LabelFilter != "" || len(o.Focus) > 0 || len(o.Skip) > 0
}

// Filters names the run's filters in a line ("" when none).
func (o RunOutcome) Filters() string {
	var parts []string
	if o.LabelFilter != "" {
		parts = append(parts, fmt.Sprintf("label filter %q", o.LabelFilter))
	}
	if len(o.Focus) > 0 {
		parts = append(parts, fmt.Sprintf("focus %q", strings.Join(o.Focus, " ")))
	}
	if len(o.Skip) > 0 {
		parts = append(parts, fmt.Sprintf("skip %q", strings.Join(o.Skip, " ")))
	}
	return strings.Join(parts, ", ")
}

// Meta are the facts of the run: what was judged, by which suite, where.
type Meta struct {
	Implementation Implementation `json:"implementation"`
	Suite          Suite          `json:"suite"`
	Profile        string         `json:"profile"`
	// OpenShiftRelease is the upstream release line whose behaviour the
	// specs asserted (-openshift-release, contract/releases.go).
	OpenShiftRelease contract.Release `json:"openshiftRelease"`
	// Platform says who answered the specs that judge the platform
	// (PlatformStandIns, PlatformCluster).
	Platform          string    `json:"platform"`
	KubernetesVersion string    `json:"kubernetesVersion"`
	NodeImage         NodeImage `json:"nodeImage,omitzero"`
	// Claimed are the features the implementation claims, in table order
	// (Build sets it).
	Claimed []contract.Feature `json:"claimed"`
	// Options are the effective options of the run (timeouts, procs,
	// label filter, ...), as the caller names them.
	Options  map[string]string `json:"options,omitempty"`
	Date     time.Time         `json:"date"`
	Duration Duration          `json:"duration"`
}

// NodeImage is the cluster's node image (kind profile).
type NodeImage struct {
	Ref string `json:"ref,omitempty"`
	ID  string `json:"id,omitempty"`
}

// Duration is written as "6m10s", not in nanoseconds.
type Duration time.Duration

func (d Duration) String() string { return time.Duration(d).String() }

func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
}

// NamedSpec is a spec that failed or did not run (by ID, its text
// beside it), and why.
type NamedSpec struct {
	ID     contract.SpecID `json:"id"`
	Name   string          `json:"name"`
	Reason string          `json:"reason"`
}

// FlakedSpec is a spec that failed, then passed on a retry.
type FlakedSpec struct {
	ID   contract.SpecID `json:"id"`
	Name string          `json:"name"`
	// Attempts it took, the passing one included.
	Attempts int `json:"attempts"`
	// Reason: the first failure (first line).
	Reason string `json:"reason"`
}

// SpecCounts are a feature's specs by state.
type SpecCounts struct {
	Passed  []contract.SpecID `json:"passed,omitempty"`
	Failed  []NamedSpec       `json:"failed,omitempty"`
	Skipped []NamedSpec       `json:"skipped,omitempty"`
}

// Total counts every spec.
func (c SpecCounts) Total() int { return len(c.Passed) + len(c.Failed) + len(c.Skipped) }

// FeatureResult is a feature's outcome, its specs split by what they judge:
// the router, or the platform around it (contract.JudgedBy).
type FeatureResult struct {
	Feature     contract.Feature `json:"label"`
	Name        string           `json:"name"`
	Description string           `json:"description"`
	Level       contract.Level   `json:"level"`
	// Harness: a check of the test environment, not of the router.
	Harness bool   `json:"harness,omitempty"`
	Claimed bool   `json:"claimed"`
	Result  Result `json:"result"`
	// Reasons why specs of a claimed feature did not run, each once.
	Reasons  []string   `json:"reasons,omitempty"`
	Router   SpecCounts `json:"router"`
	Platform SpecCounts `json:"platform"`
	// Flaked are its specs that failed, then passed on a retry; they
	// are among the passed above too.
	Flaked []FlakedSpec `json:"flaked,omitempty"`
}

func (f *FeatureResult) counts(j contract.Judged) *SpecCounts {
	if j == contract.JudgesPlatform {
		return &f.Platform
	}
	return &f.Router
}

// Report is the conformance report.
type Report struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Meta       `json:",inline"`
	Result     Result `json:"result"`
	// Reason says why the run is not passed.
	Reason string     `json:"reason,omitempty"`
	Run    RunOutcome `json:"run"`
	// Flaked counts the specs that failed, then passed on a retry
	// (--flake-attempts): passed for the verdict, listed per feature.
	Flaked   int             `json:"flaked,omitempty"`
	Features []FeatureResult `json:"features"`
}

// Passed: nothing but a passed run passes.
func (r Report) Passed() bool { return r.Result == Passed }

// Feature returns the result of one feature.
func (r Report) Feature(f contract.Feature) (FeatureResult, bool) {
	i := slices.IndexFunc(r.Features, func(fr FeatureResult) bool { return fr.Feature == f })
	if i < 0 {
		return FeatureResult{}, false
	}
	return r.Features[i], true
}

// Build decides the verdict. A spec belongs to the first feature label it
// carries. Per feature: unsupported when not claimed (a harness row:
// skipped), else failed when a spec failed, not run when a spec did not
// run or there is none, passed when every spec ran and passed — but not
// judged when those specs all judge the platform and the platform is the
// suite's own stand-ins (meta.Platform is PlatformStandIns). The run:
// error when run.Error (or a spec has no feature or no ID, a defect of
// the suite); else failed when a claimed feature failed (the harness too:
// a broken harness fails the run); else partial when a claimed feature
// did not run, a core feature is not claimed or a filter chose the specs;
// else passed.
func Build(meta Meta, claimed []contract.Feature, specs []SpecResult, run RunOutcome) Report {
	meta.Claimed = nil
	for _, f := range contract.Features {
		if slices.Contains(claimed, f.Feature) {
			meta.Claimed = append(meta.Claimed, f.Feature)
		}
	}
	r := Report{APIVersion: APIVersion, Kind: Kind, Meta: meta, Run: run}
	r.Features = make([]FeatureResult, len(contract.Features))
	byFeature := map[contract.Feature]*FeatureResult{}
	for i, f := range contract.Features {
		r.Features[i] = FeatureResult{Feature: f.Feature, Name: f.Name, Description: f.Description, Level: f.Level,
			Harness: f.Harness, Claimed: slices.Contains(meta.Claimed, f.Feature)}
		byFeature[f.Feature] = &r.Features[i]
	}
	// orphans say why a spec has no place in the report.
	var orphans []string
	for _, s := range specs {
		features := contract.FeaturesOf(s.Labels)
		switch {
		case len(features) == 0:
			orphans = append(orphans, fmt.Sprintf("spec %q carries no feature label of contract/features.go", s.Name))
			continue
		case s.ID == "":
			orphans = append(orphans, fmt.Sprintf("spec %q carries no spec ID (contract.SpecID)", s.Name))
			continue
		}
		fr := byFeature[features[0]]
		c := fr.counts(s.Judges)
		if s.Flaked() {
			fr.Flaked = append(fr.Flaked, FlakedSpec{ID: s.ID, Name: s.Name, Attempts: s.Attempts, Reason: firstOf(s.EarlierFailures)})
			r.Flaked++
		}
		switch s.State {
		case Passed:
			c.Passed = append(c.Passed, s.ID)
		case Failed:
			c.Failed = append(c.Failed, NamedSpec{s.ID, s.Name, s.Reason})
		default:
			c.Skipped = append(c.Skipped, NamedSpec{s.ID, s.Name, s.Reason})
		}
	}
	for i := range r.Features {
		r.Features[i].decide(meta.Platform)
	}
	r.Result, r.Reason = r.decide(orphans)
	return r
}

// decide sets a feature's result from its specs; platform is who answered
// the specs that judge the platform (Meta.Platform).
func (f *FeatureResult) decide(platform string) {
	for _, c := range []*SpecCounts{&f.Router, &f.Platform} {
		slices.Sort(c.Passed)
		sortNamed(c.Failed)
		sortNamed(c.Skipped)
	}
	slices.SortFunc(f.Flaked, func(a, b FlakedSpec) int { return strings.Compare(string(a.ID), string(b.ID)) })
	switch {
	case !f.Claimed && f.Harness:
		f.Result = Skipped
	case !f.Claimed:
		f.Result = Unsupported
	case len(f.Router.Failed)+len(f.Platform.Failed) > 0:
		f.Result = Failed
	case len(f.Router.Skipped)+len(f.Platform.Skipped) > 0:
		f.Result = NotRun
		for _, s := range slices.Concat(f.Router.Skipped, f.Platform.Skipped) {
			if !slices.Contains(f.Reasons, s.Reason) {
				f.Reasons = append(f.Reasons, s.Reason)
			}
		}
		slices.Sort(f.Reasons)
	case f.Router.Total()+f.Platform.Total() == 0:
		f.Result = NotRun
		f.Reasons = []string{"no spec of this feature in the run"}
	case platform == PlatformStandIns && !f.Harness && f.Router.Total() == 0:
		// Every spec passed, and every one judged the suite's own
		// stand-ins: nothing of the router was judged.
		f.Result = NotJudged
	default:
		f.Result = Passed
	}
}

// NotJudged lists the claimed features that are not judged (NotJudged),
// in table order.
func (r Report) NotJudged() []contract.Feature {
	var out []contract.Feature
	for _, f := range r.Features {
		if f.Result == NotJudged {
			out = append(out, f.Feature)
		}
	}
	return out
}

func sortNamed(s []NamedSpec) {
	slices.SortFunc(s, func(a, b NamedSpec) int { return strings.Compare(string(a.ID), string(b.ID)) })
}

// decide is the run's verdict and, unless passed, why.
func (r Report) decide(orphans []string) (Result, string) {
	switch {
	case r.Run.Error && r.Run.Reason != "":
		return Error, r.Run.Reason
	case r.Run.Error:
		return Error, "the run did not complete"
	case len(orphans) > 0:
		return Error, "suite defect: " + orphans[0]
	}
	var failed, notRun []string
	for _, f := range r.Features {
		switch f.Result {
		case Failed:
			failed = append(failed, string(f.Feature))
		case NotRun:
			notRun = append(notRun, fmt.Sprintf("%s (%s)", f.Feature, strings.Join(f.Reasons, "; ")))
		}
	}
	if len(failed) > 0 {
		return Failed, "features failed: " + strings.Join(failed, ", ")
	}
	var why []string
	if len(notRun) > 0 {
		why = append(why, "not run: "+strings.Join(notRun, ", "))
	}
	var unclaimed []string
	for _, f := range contract.CoreFeatures() {
		if !slices.Contains(r.Claimed, f) {
			unclaimed = append(unclaimed, string(f))
		}
	}
	if len(unclaimed) > 0 {
		why = append(why, "core features not claimed: "+strings.Join(unclaimed, ", "))
	}
	if r.Run.Filtered() {
		why = append(why, "filtered run: "+r.Run.Filters())
	}
	if len(why) > 0 {
		return Partial, strings.Join(why, "; ")
	}
	return Passed, ""
}
