package reports

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"
	"sigs.k8s.io/yaml"

	"github.com/router-conformance/suite/contract"
)

// flake makes the It named name fail its first attempts with the given
// messages, then pass, as Ginkgo records it under --flake-attempts.
func flake(r *types.Report, name string, failures ...string) {
	r.SuiteConfig.FlakeAttempts = len(failures) + 1
	for i, s := range r.SpecReports {
		if s.FullText() != name {
			continue
		}
		s.State, s.NumAttempts, s.MaxFlakeAttempts = types.SpecStatePassed, len(failures)+1, len(failures)+1
		for k, msg := range failures {
			s.AdditionalFailures = append(s.AdditionalFailures, types.AdditionalFailure{State: types.SpecStateFailed,
				Failure: types.Failure{Message: "Failure recorded during attempt " + string(rune('1'+k)) + ":\n" + msg}})
		}
		// A cleanup failure within an attempt is no attempt of its own.
		s.AdditionalFailures = append(s.AdditionalFailures, types.AdditionalFailure{State: types.SpecStateFailed,
			Failure: types.Failure{Message: "namespace not deleted"}})
		r.SpecReports[i] = s
		return
	}
	panic("no spec " + name)
}

func TestAFlakedSpecCountsAsPassedAndIsListed(t *testing.T) {
	g := goodSuite()
	flake(&g, specRevoked, "Expected\n    <int>: 200\nto equal 403", "timed out after 2m")
	specs, run := FromGinkgo(g)
	var revoked SpecResult
	for _, s := range specs {
		if s.Name == specRevoked {
			revoked = s
		}
	}
	if !revoked.Flaked() || revoked.Attempts != 3 || !reflect.DeepEqual(revoked.EarlierFailures, []string{"Expected", "timed out after 2m"}) {
		t.Errorf("the flaked spec: %+v", revoked)
	}
	meta := goodMeta()
	meta.Options[OptionFlakeAttempts] = "3"
	r := Build(meta, allFeatures(), specs, run)
	if r.Result != Passed || r.Flaked != 1 {
		t.Errorf("run %s (%s), %d flaked; want passed, 1 flaked", r.Result, r.Reason, r.Flaked)
	}
	tls, _ := r.Feature(contract.FeatureClientTLS)
	if want := []FlakedSpec{{ID: idRevoked, Name: specRevoked, Attempts: 3, Reason: "Expected"}}; !reflect.DeepEqual(tls.Flaked, want) ||
		tls.Result != Passed || len(tls.Router.Passed) != 1 {
		t.Errorf("client-tls: %+v", tls)
	}
	if other, _ := r.Feature(contract.FeatureRouter); other.Flaked != nil {
		t.Errorf("router flaked: %+v", other.Flaked)
	}

	dir := t.TempDir()
	if err := r.Write(dir); err != nil {
		t.Fatal(err)
	}
	y, _ := os.ReadFile(filepath.Join(dir, ConformanceYAML))
	var back Report
	if err := yaml.UnmarshalStrict(y, &back); err != nil || !sameJSON(back, r) {
		t.Errorf("conformance.yaml does not round-trip (%v)", err)
	}
	for _, line := range []string{"\nflaked: 1\n", "  flaked:\n  - attempts: 3\n    id: " + string(idRevoked) + "\n    name: " + specRevoked + "\n    reason: Expected\n"} {
		if !strings.Contains(string(y), line) {
			t.Errorf("conformance.yaml lacks %q:\n%s", line, y)
		}
	}
	s, _ := os.ReadFile(filepath.Join(dir, SummaryMD))
	for _, want := range []string{
		"# Router conformance: PASSED\n\nFlaked: 1 specs failed, then passed on a retry (below).\n",
		"## Flaked: 1 specs failed, then passed on a retry\n\nThey count as passed for the verdict (`--flake-attempts=3`)",
		"| `" + string(idRevoked) + "` " + specRevoked + " | 3 | `Expected` |\n",
	} {
		if !strings.Contains(string(s), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, s)
		}
	}
	if p := r.JUnitProperties(); p["flaked"] != "1" {
		t.Errorf("JUnit properties: %v", p)
	}
	if p := build(goodSuite(), allFeatures()).JUnitProperties(); p["flaked"] != "" {
		t.Errorf("a run without flakes says flaked=%q", p["flaked"])
	}
}

func TestASpecThatFailsEveryAttemptFailed(t *testing.T) {
	g := goodSuite()
	flake(&g, specRevoked, "refused once")
	setSpec(&g, specRevoked, types.SpecStateFailed, "refused again")
	r := build(g, allFeatures())
	tls, _ := r.Feature(contract.FeatureClientTLS)
	if r.Result != Failed || r.Flaked != 0 || tls.Flaked != nil || tls.Router.Failed[0].Reason != "refused again" {
		t.Errorf("run %s, %d flaked, client-tls %+v", r.Result, r.Flaked, tls)
	}
}

func TestVerifyBundleRefusesRetriedSpecsAndTheTestHook(t *testing.T) {
	flaked := goodSuite()
	flake(&flaked, specHSTS, "no header")
	retries := goodSuite()
	retries.SuiteConfig.FlakeAttempts = 2
	hooked, hookedOption := goodSuite(), goodSuite()
	editRecord(&hooked, func(r *RunRecord) { r.FailOnceHook, r.Options[OptionFailOnce] = "HSTS", "HSTS" })
	editRecord(&hookedOption, func(r *RunRecord) { r.Options[OptionFailOnce] = "HSTS" })
	good := bundleOf(t, goodSuite())
	for _, tc := range []struct {
		name   string
		bundle string
		reason string
	}{
		{"a flaked spec", bundleOf(t, flaked), `--flake-attempts=2 retries failing specs: a certification counts every spec as it ran (unset FLAKE_ATTEMPTS)`},
		{"a flaked spec, the flag edited out of report.json", tamper(t, bundleOf(t, flaked), true, editGinkgo(t, func(r *types.Report) {
			r.SuiteConfig.FlakeAttempts = 0
		})), `spec "HSTS per route sets the header on edge routes" ran 2 times: a certification run runs every spec once`},
		{"retries allowed, none needed", bundleOf(t, retries), `--flake-attempts=2 retries failing specs: a certification counts every spec as it ran (unset FLAKE_ATTEMPTS)`},
		{"the test hook", bundleOf(t, hooked), `the test-only hook "HSTS" fails specs on purpose: unset ROUTER_CONFORMANCE_TEST_FAIL_ONCE`},
		{"the test hook among the options only", bundleOf(t, hookedOption), `the run had the test-only hook test.fail-once="HSTS" set`},
		{"a spec run twice in a report.json edited", tamper(t, good, true, editGinkgo(t, func(r *types.Report) {
			for i := range r.SpecReports {
				if r.SpecReports[i].FullText() == specEdge {
					r.SpecReports[i].NumAttempts = 2
				}
			}
		})), `spec "Router serves an edge route" ran 2 times: a certification run runs every spec once`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := testVerifier.verify(tc.bundle); err == nil || err.Error() != tc.reason {
				t.Errorf("error %v\nwant %q", err, tc.reason)
			}
		})
	}
}

func TestWorstIsTheWorstVerdictTheLastOfEquals(t *testing.T) {
	runs := func(results ...Result) []Report {
		var out []Report
		for _, r := range results {
			out = append(out, Report{Result: r})
		}
		return out
	}
	for _, tc := range []struct {
		results []Result
		want    int
	}{
		{nil, -1},
		{[]Result{Passed, Passed}, 1},
		{[]Result{Failed, Passed}, 0},
		{[]Result{Passed, Partial, Passed}, 1},
		{[]Result{Failed, Error, Partial}, 1},
		{[]Result{Partial, Failed, Passed, Failed, Passed}, 3},
		{[]Result{Error, Failed}, 0},
	} {
		if got := Worst(runs(tc.results...)); got != tc.want {
			t.Errorf("Worst(%v) = %d, want %d", tc.results, got, tc.want)
		}
	}
}

func TestHistoryAppendsOneLineARunAndReadsBackInDateOrder(t *testing.T) {
	g := goodSuite()
	flake(&g, specRevoked, "refused")
	setSpec(&g, specHSTS, types.SpecStateFailed, "no header\nat all")
	specs, run := FromGinkgo(g)
	r := Build(goodMeta(), allFeatures(), specs, run)
	e := NewHistoryEntry(r, specs)
	if e.Result != Failed || e.SuiteCommit != "0123abc" || e.RouterImage != "registry.example/acme/router:1.2.3" ||
		e.Implementation != "acme-router 1.2.3" || e.Seconds != 370 || e.Flaked != 1 || len(e.Features) != len(contract.Features) {
		t.Errorf("entry %+v", e)
	}
	byFeature := map[contract.Feature]FeatureHistory{}
	for _, f := range e.Features {
		byFeature[f.Feature] = f
	}
	if f := byFeature[contract.FeatureClientTLS]; f.Passed != 1 || f.Flaked != 1 || f.Failed != 0 || f.Seconds != 2 ||
		!reflect.DeepEqual(f.FlakedSpecs, []contract.SpecID{idRevoked}) {
		t.Errorf("client-tls %+v", f)
	}
	if f := byFeature[contract.FeatureHSTS]; f.Failed != 1 || f.Result != Failed || !reflect.DeepEqual(f.FailedSpecs, []contract.SpecID{idHSTS}) {
		t.Errorf("hsts %+v", f)
	}
	if f := byFeature[contract.FeatureRouter]; f.Passed != 2 || f.Seconds != 4 {
		t.Errorf("router %+v", f)
	}
	if rate, ok := byFeature[contract.FeatureRouter].PassRate(); !ok || rate != 1 {
		t.Errorf("router pass rate %v %v", rate, ok)
	}
	if _, ok := (FeatureHistory{Skipped: 2}).PassRate(); ok {
		t.Errorf("a feature that did not run has a pass rate")
	}

	dir := t.TempDir()
	earlier := e
	earlier.Date = e.Date.Add(-24 * time.Hour)
	earlier.Result = Passed
	for _, entry := range []HistoryEntry{e, earlier} {
		if err := AppendHistory(dir, entry); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, HistoryJSONL)
	data, _ := os.ReadFile(file)
	if lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[0], `{"date":"2026-11-23T05:00:00Z","suiteVersion":"v0.3.0","suiteCommit":"0123abc",`) {
		t.Errorf("history.jsonl:\n%s", data)
	}
	// A night's file carries the nights before: each run counts once.
	carried := filepath.Join(t.TempDir(), HistoryJSONL)
	if err := os.WriteFile(carried, append(append([]byte{}, data...), []byte("\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := ReadHistory(file, carried)
	if err != nil || len(h) != 2 || h[0].Result != Passed || h[1].Result != Failed || !sameJSON(h[1], e) {
		t.Errorf("read back %v: %+v", err, h)
	}
	if err := os.WriteFile(carried, []byte("{\"date\": 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadHistory(carried); err == nil || !strings.HasPrefix(err.Error(), carried+":1: ") {
		t.Errorf("a broken line: %v", err)
	}
}

func TestGitHubAnnotations(t *testing.T) {
	g := goodSuite()
	setSpec(&g, specHSTS, types.SpecStateFailed, "no header: 100% missing\nmore")
	flake(&g, specRevoked, "refused")
	got := build(g, allFeatures()).GitHubAnnotations()
	want := []string{
		"::error title=Router conformance%3A failed::features failed: hsts",
		"::error title=hsts/edge-header-set failed%3A HSTS per route sets the header on edge routes::no header: 100%25 missing",
		"::warning title=client-tls/revoked-refused flaked%3A Client TLS refuses a revoked certificate::failed, then passed on attempt 2; first failure: refused",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("annotations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if a := Annotation("error", "a, b: c\nd", "line 1\r\nline 2"); a != "::error title=a%2C b%3A c%0Ad::line 1%0D%0Aline 2" {
		t.Errorf("escaping: %s", a)
	}
	if got := build(goodSuite(), allFeatures()).GitHubAnnotations(); len(got) != 0 {
		t.Errorf("a passed run: %v", got)
	}
}
