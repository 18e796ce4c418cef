package reports

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

func build(r types.Report, claimed []contract.Feature) Report {
	specs, run := FromGinkgo(r)
	return Build(goodMeta(), claimed, specs, run)
}

func results(r Report) map[contract.Feature]Result {
	out := map[contract.Feature]Result{}
	for _, f := range r.Features {
		out[f.Feature] = f.Result
	}
	return out
}

func TestBuildPassesOnlyAFullCleanRun(t *testing.T) {
	r := build(goodSuite(), allFeatures())
	if !r.Passed() || r.Result != Passed || r.Reason != "" {
		t.Fatalf("run %s (%s), want passed", r.Result, r.Reason)
	}
	if r.APIVersion != APIVersion || r.Kind != Kind {
		t.Errorf("schema %s/%s", r.APIVersion, r.Kind)
	}
	if !slices.Equal(r.Claimed, allFeatures()) {
		t.Errorf("claimed %v", r.Claimed)
	}
	router, _ := r.Feature(contract.FeatureRouter)
	want := FeatureResult{Feature: contract.FeatureRouter, Name: "Router", Description: router.Description, Level: contract.Core,
		Claimed: true, Result: Passed, Router: SpecCounts{Passed: []contract.SpecID{idEdge}}, Platform: SpecCounts{Passed: []contract.SpecID{idBadHost}}}
	if !reflect.DeepEqual(router, want) {
		t.Errorf("router feature:\n got %+v\nwant %+v", router, want)
	}
}

func TestBuildFeatureResultsAndTheRunsVerdict(t *testing.T) {
	g := goodSuite()
	setSpec(&g, specRevoked, types.SpecStateFailed, "tls: handshake succeeded\nfull message")
	setSpec(&g, specComponent, types.SpecStateSkipped, "disruptive: changes the cluster's Ingress config")
	setSpec(&g, specDelegation, types.SpecStateSkipped, "needs feature delegation, which this profile does not claim: reported as unsupported")
	claimed := slices.DeleteFunc(allFeatures(), func(f contract.Feature) bool { return f == contract.FeatureDelegation || f == contract.FeatureSmoke })
	r := build(g, claimed)
	want := map[contract.Feature]Result{
		contract.FeatureRouter: Passed, contract.FeatureHSTS: Passed, contract.FeatureHeaderActions: Passed, contract.FeatureSharding: Passed,
		contract.FeatureHSTSPolicy: NotJudged, contract.FeatureClientTLS: Failed, contract.FeatureComponentRoutes: NotRun, contract.FeatureRouteAnnotations: Passed,
		contract.FeatureDelegation: Unsupported, contract.FeatureSmoke: Skipped,
	}
	if got := results(r); !reflect.DeepEqual(got, want) {
		t.Errorf("features:\n got %v\nwant %v", got, want)
	}
	if r.Result != Failed || r.Reason != "features failed: client-tls" {
		t.Errorf("run %s (%s), want failed (features failed: client-tls)", r.Result, r.Reason)
	}
	tls, _ := r.Feature(contract.FeatureClientTLS)
	if want := []NamedSpec{{idRevoked, specRevoked, "tls: handshake succeeded"}}; !reflect.DeepEqual(tls.Router.Failed, want) || tls.Platform.Total() != 0 {
		t.Errorf("client-tls: %+v", tls)
	}
	comp, _ := r.Feature(contract.FeatureComponentRoutes)
	if want := []string{"disruptive: changes the cluster's Ingress config"}; !slices.Equal(comp.Reasons, want) || len(comp.Platform.Skipped) != 1 {
		t.Errorf("component-routes: %+v", comp)
	}
	// Without the failure, the skipped spec of a claimed feature leaves
	// the run partial, with what did not run named.
	setSpec(&g, specRevoked, types.SpecStatePassed, "")
	r = build(g, claimed)
	if r.Result != Partial || r.Reason != "not run: component-routes (disruptive: changes the cluster's Ingress config)" {
		t.Errorf("run %s (%s)", r.Result, r.Reason)
	}
}

func TestBuildPartialRuns(t *testing.T) {
	for _, tc := range []struct {
		name    string
		change  func(*types.Report)
		claimed []contract.Feature
		reason  string
	}{
		{"a core feature not claimed", func(*types.Report) {},
			slices.DeleteFunc(allFeatures(), func(f contract.Feature) bool { return f == contract.FeatureHSTS || f == contract.FeatureHeaderActions }),
			"core features not claimed: hsts, header-actions"},
		{"a label filter", func(r *types.Report) {
			r.SuiteConfig.LabelFilter = "!delegation"
			setSpec(r, specDelegation, types.SpecStateSkipped, "")
		}, allFeatures(), `not run: delegation (filtered out); filtered run: label filter "!delegation"`},
		{"a focus that left nothing out", func(r *types.Report) { r.SuiteConfig.FocusStrings = []string{"."} },
			allFeatures(), `filtered run: focus "."`},
		{"a claimed feature without specs", func(r *types.Report) {
			r.SpecReports = slices.DeleteFunc(r.SpecReports, func(s types.SpecReport) bool { return s.FullText() == specShard })
		}, allFeatures(), "not run: sharding (no spec of this feature in the run)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := goodSuite()
			tc.change(&g)
			r := build(g, tc.claimed)
			if r.Result != Partial || r.Reason != tc.reason || r.Passed() {
				t.Errorf("run %s (%s), want partial (%s)", r.Result, r.Reason, tc.reason)
			}
		})
	}
}

func TestBuildFailuresAndErrors(t *testing.T) {
	// A broken harness fails the run: nothing it checked can be trusted.
	g := goodSuite()
	setSpec(&g, specClusterNode, types.SpecStateFailed, "node NotReady")
	if r := build(g, allFeatures()); r.Result != Failed || r.Reason != "features failed: smoke" {
		t.Errorf("harness failed: run %s (%s)", r.Result, r.Reason)
	}
	// A failed spec that judges the platform fails its feature too.
	g = goodSuite()
	setSpec(&g, specPolicy, types.SpecStateFailed, "admitted a route without HSTS")
	if r := build(g, allFeatures()); r.Result != Failed || r.Reason != "features failed: hsts-policy" {
		t.Errorf("platform spec failed: run %s (%s)", r.Result, r.Reason)
	}
	// A failed spec of an unclaimed feature changes nothing.
	g = goodSuite()
	setSpec(&g, specDelegation, types.SpecStateFailed, "no IngressRoute CRD")
	claimed := slices.DeleteFunc(allFeatures(), func(f contract.Feature) bool { return f == contract.FeatureDelegation })
	if r := build(g, claimed); r.Result != Passed {
		t.Errorf("unclaimed feature failed: run %s (%s)", r.Result, r.Reason)
	}
	// A run cut short is an error whatever its specs did.
	g = goodSuite()
	g.SpecialSuiteFailureReasons = []string{"Interrupted by User"}
	setSpec(&g, specRevoked, types.SpecStateFailed, "refused")
	if r := build(g, allFeatures()); r.Result != Error || r.Reason != "Interrupted by User" {
		t.Errorf("interrupted: run %s (%s)", r.Result, r.Reason)
	}
	if r := Build(goodMeta(), allFeatures(), nil, RunOutcome{Error: true}); r.Result != Error || r.Reason != "the run did not complete" {
		t.Errorf("error without reason: run %s (%s)", r.Result, r.Reason)
	}
	// A spec with no feature is a defect of the suite: no verdict.
	g = goodSuite()
	g.SpecReports = append(g.SpecReports, passed("Misc", "checks nothing", []string{"mtls"}))
	if r := build(g, allFeatures()); r.Result != Error || r.Reason != `suite defect: spec "Misc checks nothing" carries no feature label of contract/features.go` {
		t.Errorf("orphan spec: run %s (%s)", r.Result, r.Reason)
	}
}

// A spec without an ID cannot be kept apart from the others across runs
// and versions: like a spec without a feature, it is a defect of the
// suite, and the run is an error however its specs did.
func TestBuildMakesASpecWithoutAnIDAnErrorRun(t *testing.T) {
	g := goodSuite()
	dropID(&g, specHSTS)
	specs, run := FromGinkgo(g)
	r := Build(goodMeta(), allFeatures(), specs, run)
	if r.Result != Error || r.Reason != `suite defect: spec "HSTS per route sets the header on edge routes" carries no spec ID (contract.SpecID)` {
		t.Errorf("a spec without an ID: run %s (%s)", r.Result, r.Reason)
	}
	// It is counted nowhere: no feature holds a spec without an ID.
	hsts, _ := r.Feature(contract.FeatureHSTS)
	if hsts.Router.Total()+hsts.Platform.Total() != 0 {
		t.Errorf("hsts holds the spec without an ID: %+v", hsts)
	}
	// A failure elsewhere does not hide the defect: error, not failed.
	setSpec(&g, specRevoked, types.SpecStateFailed, "refused")
	if r := build(g, allFeatures()); r.Result != Error {
		t.Errorf("a spec without an ID and a failure: run %s (%s)", r.Result, r.Reason)
	}
	// Nor does it matter how the spec ended.
	for _, state := range []types.SpecState{types.SpecStateFailed, types.SpecStateSkipped} {
		g := goodSuite()
		dropID(&g, specEdge)
		setSpec(&g, specEdge, state, "whatever")
		if r := build(g, allFeatures()); r.Result != Error || !strings.HasPrefix(r.Reason, `suite defect: spec "Router serves an edge route" carries no spec ID`) {
			t.Errorf("a %s spec without an ID: run %s (%s)", state, r.Result, r.Reason)
		}
	}
}

// On the kind profile the suite's own stand-ins answer the specs that
// judge the platform: a claimed feature whose specs all judge the
// platform judged the stand-ins, not the router. It is not judged: no
// pass of the router's, and no failure of the run either.
func TestBuildDoesNotCreditTheRouterWithTheStandInsPasses(t *testing.T) {
	r := build(goodSuite(), allFeatures())
	got := results(r)
	if got[contract.FeatureHSTSPolicy] != NotJudged || got[contract.FeatureComponentRoutes] != NotJudged {
		t.Errorf("platform-only features on the stand-ins: %v", got)
	}
	// A feature with a router spec beside its platform specs is judged.
	if got[contract.FeatureRouter] != Passed {
		t.Errorf("router: %s", got[contract.FeatureRouter])
	}
	if r.Result != Passed || r.Reason != "" || !slices.Equal(r.NotJudged(), []contract.Feature{contract.FeatureHSTSPolicy, contract.FeatureComponentRoutes}) {
		t.Errorf("run %s (%s), not judged %v", r.Result, r.Reason, r.NotJudged())
	}
	// A failure is the feature's whoever answered.
	g := goodSuite()
	setSpec(&g, specPolicy, types.SpecStateFailed, "admitted a route without HSTS")
	if r := build(g, allFeatures()); results(r)[contract.FeatureHSTSPolicy] != Failed || r.Result != Failed {
		t.Errorf("a failed platform-only feature: %s, run %s", results(r)[contract.FeatureHSTSPolicy], r.Result)
	}
	// On the cluster's own platform, the same specs judge it: passed.
	meta := goodMeta()
	meta.Platform = PlatformCluster
	specs, run := FromGinkgo(goodSuite())
	r = Build(meta, allFeatures(), specs, run)
	if got := results(r); got[contract.FeatureHSTSPolicy] != Passed || got[contract.FeatureComponentRoutes] != Passed || len(r.NotJudged()) != 0 {
		t.Errorf("platform-only features on the cluster's own platform: %v", got)
	}
}
