package runner

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/internal/runfixture"
	"github.com/router-conformance/suite/reports"
)

// verifierBuild is the build the run path verifies as (its commit is the
// one a bundle must name: SourceBuild's in a checkout, the stamped one in
// the kit).
var verifierBuild Build

// asBuiltFrom makes the verifier the fixture's commit's build.
func asBuiltFrom(t *testing.T, commit string) {
	old := verifierBuild
	verifierBuild = Build{Version: reports.SuiteVersion, Commit: commit}
	t.Cleanup(func() { verifierBuild = old })
}

// bundleRun writes the run's report directory and bundles it, as the
// suite and make certify do.
func bundleRun(t *testing.T, g types.Report) string {
	t.Helper()
	dir := t.TempDir()
	if err := runfixture.WriteDir(dir, g); err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(dir, "bundle.tar.gz")
	files := []string{reports.ConformanceYAML, reports.ConformanceJSON, reports.ReportJSON, reports.JUnitXML, reports.E2ELog, reports.SummaryMD}
	if err := reports.WriteBundle(dir, bundle, files, nil); err != nil {
		t.Fatal(err)
	}
	return bundle
}

// verify is `make verify` (`./run verify`): the run path's verify.
func verifyCmd(args ...string) (stdout, stderr string, status int) {
	var out, errOut bytes.Buffer
	status = Main("verify-test", Binaries{Build: verifierBuild}, nil, append([]string{"verify"}, args...), &out, &errOut)
	return out.String(), errOut.String(), status
}

// A run of every published spec, bundled and verified with this suite's
// own list, version and commit: the line, the table and the exit status.
func TestVerifyPrintsOneLineAndExits(t *testing.T) {
	published := reports.PublishedSpecs()
	asBuiltFrom(t, runfixture.Commit)
	var router, platform int
	var claimed []string
	for _, f := range contract.Features {
		if !f.Harness {
			claimed = append(claimed, string(f.Feature))
		}
	}
	for _, s := range published {
		info, _ := contract.LookupFeature(string(s.Features[0]))
		switch {
		case info.Harness:
		case s.Judges == contract.JudgesPlatform:
			platform++
		default:
			router++
		}
	}
	dev := reports.DevVersion(reports.SuiteVersion)
	// notes is what the line says after the result: the development
	// build, why the run is not passed.
	notes := func(reason string) string {
		var n []string
		if dev {
			n = append(n, "development build")
		}
		if reason != "" {
			n = append(n, reason)
		}
		if len(n) == 0 {
			return ""
		}
		return " (" + strings.Join(n, "; ") + ")"
	}
	rest := fmt.Sprintf(" — claimed %s; unsupported: none; judged %d router specs and %d platform specs (the cluster's own); image sha256:%s; "+
		"not certified: the files agree, no certifier's rerun was checked (CERTIFIER_KEY)\n",
		strings.Join(claimed, ", "), router, platform, strings.Repeat("e", 64))

	passed := bundleRun(t, runfixture.Run(published, runfixture.Record()))
	stdout, stderr, status := verifyCmd("-allow-dev", passed)
	if want := "CONSISTENT: acme-router 1.2.3: passed against OpenShift 5.1" + notes("") + rest; stdout != want || stderr != "" || status != 0 {
		t.Errorf("a passed run: %q %q exit %d\nwant %q exit 0", stdout, stderr, status, want)
	}
	stdout, _, status = verifyCmd("-allow-dev", "-v", passed)
	if !strings.HasPrefix(stdout, "CONSISTENT: acme-router 1.2.3: passed") || !strings.Contains(stdout, "\nfeature  ") ||
		!strings.HasSuffix(stdout, "platform: "+reports.PlatformCluster+"\n") || status != 0 {
		t.Errorf("-v: %q exit %d", stdout, status)
	}

	g := runfixture.Run(published, runfixture.Record())
	runfixture.Fail(&g, published[0].ID, "refused")
	stdout, _, status = verifyCmd("-allow-dev", bundleRun(t, g))
	if want := "CONSISTENT: acme-router 1.2.3: failed against OpenShift 5.1" + notes("features failed: "+string(published[0].Features[0])) + rest; stdout != want || status != 2 {
		t.Errorf("a failed run: %q exit %d\nwant %q exit 2", stdout, status, want)
	}

	if dev {
		want := "FAIL: the bundle was made by suite " + reports.SuiteVersion + ", which is a development build: verify it with -allow-dev to accept it\n"
		if stdout, _, status := verifyCmd(passed); stdout != want || status != 1 {
			t.Errorf("a development build without -allow-dev: %q exit %d\nwant %q exit 1", stdout, status, want)
		}
	}
}

// What is refused before the spec list is read: one FAIL line, exit 1.
func TestVerifyFailsInOneLine(t *testing.T) {
	asBuiltFrom(t, runfixture.Commit)
	// The specs do not matter here: the suite build is checked first.
	published := []reports.PublishedSpec{{ID: "router/edge-served", Name: "Router serves an edge route", Features: []contract.Feature{contract.FeatureRouter}, Judges: contract.JudgesRouter}}
	record := func(change func(*reports.RunRecord)) types.Report {
		rec := runfixture.Record()
		change(&rec)
		return runfixture.Run(published, rec)
	}
	for _, tc := range []struct {
		name string
		run  types.Report
		want string
	}{
		{"a dirty tree", record(func(r *reports.RunRecord) { r.Suite.Dirty = true }),
			"FAIL: the suite was built from a tree with uncommitted changes (commit 0123abc): commit or stash them\n"},
		{"another suite version", record(func(r *reports.RunRecord) { r.Suite.Version = "v0.2.0-dev" }),
			"FAIL: the bundle was made by suite v0.2.0-dev, this verifier is " + reports.SuiteVersion + ": verify it with the verifier of v0.2.0-dev\n"},
		{"another suite commit", record(func(r *reports.RunRecord) { r.Suite.Commit = "4567def" }),
			"FAIL: the bundle was made by suite commit 4567def, this verifier was built from 0123abc: verify it with the verifier built from 4567def\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := verifyCmd("-allow-dev", bundleRun(t, tc.run))
			if stdout != tc.want || stderr != "" || status != 1 {
				t.Errorf("%q %q exit %d, want %q exit 1", stdout, stderr, status, tc.want)
			}
		})
	}
	// A verifier built without the suite's LDFLAGS names no commit: it
	// verifies nothing.
	asBuiltFrom(t, "unknown")
	want := "FAIL: the bundle was made by suite commit 0123abc, this verifier names no commit: build it from a checkout of 0123abc with the suite's LDFLAGS (reports.SuiteCommit)\n"
	if stdout, _, status := verifyCmd("-allow-dev", bundleRun(t, runfixture.Run(published, runfixture.Record()))); stdout != want || status != 1 {
		t.Errorf("%q exit %d, want %q exit 1", stdout, status, want)
	}
}

func TestVerifyUsage(t *testing.T) {
	const usage = "verify-test verify: give one bundle: verify-test verify [-allow-dev] [-v] [-key <public key>] [-certifier-key <public key>] <organization>-<project>-<version>.tar.gz"
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{nil, usage + "\n"},
		{[]string{"a.tar.gz", "b.tar.gz"}, usage + "\n"},
		{[]string{"-allow-dev"}, usage + "\n"},
		{[]string{"-strict", "a.tar.gz"}, usage + " (flag provided but not defined: -strict)\n"},
	} {
		stdout, stderr, status := verifyCmd(tc.args...)
		if stdout != "" || stderr != tc.stderr || status != ExitUsage {
			t.Errorf("%q: %q %q exit %d, want %q exit %d", tc.args, stdout, stderr, status, tc.stderr, ExitUsage)
		}
	}
	if stdout, _, status := verifyCmd(filepath.Join(t.TempDir(), "none.tar.gz")); !strings.HasPrefix(stdout, "FAIL: bundle: open ") || strings.Count(stdout, "\n") != 1 || status != ExitNotPass {
		t.Errorf("a missing bundle: %q exit %d", stdout, status)
	}
}

// A release's bundle verifies from a checkout of its tag: the verifier is
// that release (git describes it) though compiled as its development
// version.
func TestVerifyAReleaseBundleFromItsTag(t *testing.T) {
	old := verifierBuild
	verifierBuild = Build{Version: reports.IntroducingVersion(), Commit: runfixture.Commit}
	t.Cleanup(func() { verifierBuild = old })
	rec := runfixture.Record()
	rec.Suite.Version = reports.IntroducingVersion()
	stdout, stderr, status := verifyCmd(bundleRun(t, runfixture.Run(reports.PublishedSpecs(), rec)))
	if !strings.HasPrefix(stdout, "CONSISTENT: ") || stderr != "" || status != ExitPassed {
		t.Errorf("%q %q exit %d, want OK exit 0", stdout, stderr, status)
	}
}

// A parallel run whose set-up failed reports no spec at all (Ginkgo's
// processes never reach one): its bundle verifies with the error verdict,
// never as a bundle that lacks specs.
func TestVerifyAParallelSetUpFailureIsAnError(t *testing.T) {
	asBuiltFrom(t, runfixture.Commit)
	g := runfixture.Run(reports.PublishedSpecs(), runfixture.Record())
	g.SpecReports = slices.DeleteFunc(g.SpecReports, func(s types.SpecReport) bool { return s.LeafNodeType == types.NodeTypeIt })
	for range 2 {
		g.SpecReports = append(g.SpecReports, types.SpecReport{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStateFailed,
			Failure: types.Failure{Message: "the cluster did not come up", FailureNodeType: types.NodeTypeSynchronizedBeforeSuite}})
	}
	g.SuiteSucceeded = false
	stdout, stderr, status := verifyCmd("-allow-dev", bundleRun(t, g))
	if !strings.Contains(stdout, "error") || strings.Contains(stdout, "FAIL") || stderr != "" || status != 2 {
		t.Errorf("%q %q exit %d, want the error verdict, exit 2", stdout, stderr, status)
	}
}
