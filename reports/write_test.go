package reports

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
	"sigs.k8s.io/yaml"

	"github.com/router-conformance/suite/contract"
)

func TestWriteRoundTripsYAMLAndJSON(t *testing.T) {
	g := goodSuite()
	setSpec(&g, specRevoked, types.SpecStateFailed, "refused with the wrong alert")
	r := build(g, allFeatures())
	dir := t.TempDir()
	if err := r.Write(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{ConformanceYAML, ConformanceJSON} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var back Report
		if name == ConformanceYAML {
			err = yaml.UnmarshalStrict(data, &back)
		} else {
			err = json.Unmarshal(data, &back)
		}
		if err != nil || !sameJSON(back, r) {
			t.Errorf("%s does not round-trip (%v):\n%s", name, err, data)
		}
	}
	y, _ := os.ReadFile(filepath.Join(dir, ConformanceYAML))
	for _, line := range []string{"apiVersion: conformance.router-conformance.io/v1alpha3\n", "result: failed\n", "reason: 'features failed: client-tls'\n",
		"duration: 6m10s\n", "  dirty: false\n", "  imageDigest: sha256:" + hex64('d') + "\n",
		// Passed specs by ID; failed and skipped ones by ID, their text beside it.
		"    passed:\n    - " + string(idEdge) + "\n",
		"    failed:\n    - id: " + string(idRevoked) + "\n      name: " + specRevoked + "\n      reason: refused with the wrong alert\n"} {
		if !strings.Contains(string(y), line) {
			t.Errorf("conformance.yaml lacks %q:\n%s", line, y)
		}
	}
}

func TestSummaryForAPerson(t *testing.T) {
	g := goodSuite()
	setSpec(&g, specRevoked, types.SpecStateFailed, "refused with the wrong alert\nmore")
	setSpec(&g, specComponent, types.SpecStateSkipped, "disruptive: changes the cluster's Ingress config")
	setSpec(&g, specDelegation, types.SpecStateSkipped, "needs feature delegation, which this profile does not claim")
	claimed := []contract.Feature{contract.FeatureRouter, contract.FeatureHSTS, contract.FeatureHeaderActions, contract.FeatureClientTLS,
		contract.FeatureComponentRoutes, contract.FeatureSmoke}
	s := build(g, claimed).Summary()
	if !strings.HasPrefix(s, "# Router conformance: FAILED\n\nReason: features failed: client-tls\n\n| | |\n|---|---|\n| implementation | Acme acme-router 1.2.3 |\n") {
		t.Errorf("summary does not open with the verdict and the implementation:\n%s", s)
	}
	for _, want := range []string{
		"| image | `registry.example/acme/router:1.2.3` |\n",
		"| image digest | `sha256:" + hex64('d') + "` |\n",
		"| HAProxy | 3.0.11-1 |\n",
		"| suite | github.com/router-conformance/suite v0.3.0 (commit 0123abc) |\n",
		"| platform | " + PlatformStandIns + " |\n",
		"| Kubernetes | v1.33.13 |\n",
		"| node image | `kindest/node:v1.33.13-hermetic` `sha256:" + hex64('f') + "` |\n",
		"| claimed | router, hsts, header-actions, client-tls, component-routes, smoke |\n",
		"| date | 2026-11-23T05:00:00Z |\n| duration | 6m10s |\n",
		"| option `consecutive` | `3` |\n| option `procs` | `4` |\n| option `timeout-route` | `2m0s` |\n",
		"| feature | level | result | router specs passed/failed/skipped | platform specs passed/failed/skipped |\n",
		"| Router (`router`) | core | passed | 1/0/0 | 1/0/0 |\n",
		"| Client TLS (`client-tls`) | extended | failed | 0/1/0 | 0/0/0 |\n",
		"| Component routes (`component-routes`) | extended | not run | 0/0/0 | 0/0/1 |\n",
		"| Delegation (IngressRoute) (`delegation`) | extended | unsupported | 0/0/1 | 0/0/0 |\n",
		"Checks of the test environment, not of the router:\n\n| feature | level | result | router specs passed/failed/skipped | platform specs passed/failed/skipped |\n|---|---|---|---|---|\n| Smoke (the hermetic kind cluster) (`smoke`) | extended | passed | 1/0/0 | 0/0/0 |\n",
		"## Client TLS: failed\n\n- failed (judges the router) `" + string(idRevoked) + "` " + specRevoked + ": `refused with the wrong alert`\n",
		"## Component routes: not run\n\n- skipped (judges the platform) `" + string(idComponent) + "` " + specComponent + ": `disruptive: changes the cluster's Ingress config`\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	// An unclaimed feature's skipped specs are no news.
	if strings.Contains(s, "## Delegation") {
		t.Errorf("summary details an unsupported feature:\n%s", s)
	}
	// A passed run has no reason line; the features the stand-ins
	// answered for are named as not judged.
	if p := build(goodSuite(), allFeatures()).Summary(); !strings.HasPrefix(p, "# Router conformance: PASSED\n\n"+
		"Not judged: hsts-policy, component-routes. Every spec of these claimed features judges the platform, and on this run the suite's own stand-ins were the platform: "+
		"their specs passed against the stand-ins, which says nothing of the router.\n\n| | |\n") ||
		!strings.Contains(p, "| Required HSTS policies (`hsts-policy`) | extended | not judged | 0/0/0 | 1/0/0 |\n") {
		t.Errorf("a passed run:\n%s", p)
	}
	meta := goodMeta()
	meta.Platform = PlatformCluster
	specs, run := FromGinkgo(goodSuite())
	if p := Build(meta, allFeatures(), specs, run).Summary(); !strings.HasPrefix(p, "# Router conformance: PASSED\n\n| | |\n") {
		t.Errorf("a passed run on the cluster's own platform:\n%s", p)
	}
}

func TestJUnitProperties(t *testing.T) {
	g := goodSuite()
	g.SuiteConfig.LabelFilter = "hsts"
	got := build(g, allFeatures()).JUnitProperties()
	want := map[string]string{
		"suite.module": SuiteModule, "suite.version": "v0.3.0", "suite.commit": "0123abc", "suite.dirty": "false",
		"implementation.organization": "Acme", "implementation.project": "acme-router", "implementation.version": "1.2.3",
		"implementation.image": "registry.example/acme/router:1.2.3", "implementation.imageDigest": "sha256:" + hex64('d'),
		"implementation.imageID": "sha256:" + hex64('e'), "implementation.haproxyVersion": "3.0.11-1",
		"profile": "kind", "openshiftRelease": "5.1", "result": "partial", "result.reason": `filtered run: label filter "hsts"`,
		"suite.binary.sha256": hex64('b'), "suite.binary.goVersion": "go1.25.0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("properties:\n got %v\nwant %v", got, want)
	}
}

func TestReadResultIsTheWrittenVerdict(t *testing.T) {
	dir := t.TempDir()
	if got := ReadResult(dir); got != "" {
		t.Errorf("no report: %q, want empty", got)
	}
	if err := (Report{Result: Partial}).Write(dir); err != nil {
		t.Fatal(err)
	}
	if got := ReadResult(dir); got != Partial {
		t.Errorf("ReadResult = %q, want partial", got)
	}
}

// A filtered run (FOCUS, make smoke) stays partial, but when every spec
// it chose passed it says so: each passed spec is named in summary.md and
// FilteredPass lets the runner exit 0. A failure, no spec run, or a run
// that was not filtered is not a filtered pass (the controls).
func TestAFilteredRunThatPassedIsNamed(t *testing.T) {
	g := goodSuite()
	g.SuiteConfig.LabelFilter = "router"
	r := build(g, allFeatures())
	if r.Result != Partial || !r.FilteredPass() {
		t.Fatalf("a filtered run whose specs passed: result %q, FilteredPass %v", r.Result, r.FilteredPass())
	}
	if s := r.Summary(); !strings.Contains(s, "- passed (judges the router) `"+string(idEdge)+"`\n") {
		t.Errorf("summary does not name the spec that passed:\n%s", s)
	}
	if s := build(goodSuite(), allFeatures()).Summary(); strings.Contains(s, "- passed (") {
		t.Errorf("a whole run's summary lists its passed specs:\n%s", s)
	}

	failed := goodSuite()
	failed.SuiteConfig.LabelFilter = "router"
	setSpec(&failed, specRevoked, types.SpecStateFailed, "refused with the wrong alert")
	if r := build(failed, allFeatures()); r.FilteredPass() {
		t.Errorf("a filtered run with a failed spec (%s) is a filtered pass", r.Result)
	}
	none := goodSuite()
	none.SuiteConfig.LabelFilter = "nothing"
	for i := range none.SpecReports {
		if none.SpecReports[i].LeafNodeType == types.NodeTypeIt {
			none.SpecReports[i].State = types.SpecStateSkipped
		}
	}
	if r := build(none, allFeatures()); r.FilteredPass() {
		t.Errorf("a filtered run in which no spec ran (%s) is a filtered pass", r.Result)
	}
	unfiltered := goodSuite()
	setSpec(&unfiltered, specDelegation, types.SpecStateSkipped, "needs feature delegation, which this profile does not claim")
	if r := build(unfiltered, allFeatures()); r.Result != Partial || r.FilteredPass() {
		t.Errorf("an unfiltered partial run (%s) is a filtered pass", r.Result)
	}
}
