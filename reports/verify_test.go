package reports

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// The verifier's one line and exit status for a bundle, as
// the run path's verify (make verify, ./run verify) prints them.
func verifierLine(v verifier, bundle string) (string, int) {
	got, err := v.verify(bundle)
	if err != nil {
		return "FAIL: " + err.Error(), 1
	}
	return got.Line(), got.ExitCode()
}

// The claims of goodRecord as the line names them (the harness apart),
// and what it says of the fixture's kind run.
const (
	claimedAll   = "claimed router, hsts, header-actions, sharding, hsts-policy, client-tls, component-routes, route-annotations, delegation"
	notJudged    = "not judged: hsts-policy, component-routes (every spec of them judges the platform)"
	judgedAll    = "judged 7 router specs and 3 platform specs (the suite's own stand-ins)"
	goodImageRef = "registry.example/acme/router:1.2.3"
)

var goodImage = "image sha256:" + hex64('d')

// notCertified ends the line of a bundle checked without a certifier key.
const notCertified = "; not certified: the files agree, no certifier's rerun was checked (CERTIFIER_KEY)"

// failedSuite is goodSuite with the revoked-certificate spec failed.
func failedSuite() types.Report {
	g := goodSuite()
	setSpec(&g, specRevoked, types.SpecStateFailed, "refused with the wrong alert")
	g.SuiteSucceeded = false
	return g
}

// setUpFailedSuite is a run whose set-up failed before the router image
// was known: no spec started, the record names the image the vendor gave
// but no digest or ID.
func setUpFailedSuite() types.Report {
	g := goodSuite()
	g.SuiteSucceeded = false
	g.SpecReports[0].State = types.SpecStateFailed
	g.SpecReports[0].Failure = types.Failure{Message: "router pod never ready", FailureNodeContext: types.FailureNodeIsLeafNode,
		FailureNodeType: types.NodeTypeSynchronizedBeforeSuite}
	for _, s := range g.SpecReports {
		if s.LeafNodeType == types.NodeTypeIt {
			setSpec(&g, s.FullText(), types.SpecStateSkipped, "")
			specNamed(&g, s.FullText()).RunTime = 0
		}
	}
	editRecord(&g, func(r *RunRecord) {
		r.Implementation.ImageDigest, r.Implementation.ImageID, r.Implementation.HAProxyVersion = "", "", ""
	})
	return g
}

// An honest bundle verifies whatever its verdict: OK, exit 0 for passed
// and 2 for any other, and the line says what was claimed and judged.
func TestVerifyAcceptsEveryHonestBundle(t *testing.T) {
	partial := goodSuite()
	editRecord(&partial, func(r *RunRecord) {
		r.Claimed = slices.DeleteFunc(allFeatures(), func(f contract.Feature) bool { return f == contract.FeatureHeaderActions })
	})
	setSpec(&partial, specHeaders, types.SpecStateSkipped, NeedsFeatureReason(contract.FeatureHeaderActions))
	dev := goodSuite()
	editRecord(&dev, func(r *RunRecord) { r.Suite.Version = "v0.3.0-dev" })
	devVerifier := testVerifier
	devVerifier.suiteVersion, devVerifier.allowDev = "v0.3.0-dev", true

	for _, tc := range []struct {
		name     string
		verifier verifier
		run      types.Report
		line     string
		status   int
	}{
		{"passed", testVerifier, goodSuite(),
			"CONSISTENT: acme-router 1.2.3: passed against OpenShift 5.1 — " + claimedAll + "; unsupported: none; " + notJudged + "; " + judgedAll + "; " + goodImage + notCertified, 0},
		{"failed", testVerifier, failedSuite(),
			"CONSISTENT: acme-router 1.2.3: failed against OpenShift 5.1 (features failed: client-tls) — " + claimedAll + "; unsupported: none; " + notJudged + "; " + judgedAll + "; " + goodImage + notCertified, 2},
		{"partial: a core feature not claimed", testVerifier, partial,
			"CONSISTENT: acme-router 1.2.3: partial against OpenShift 5.1 (core features not claimed: header-actions) — claimed router, hsts, sharding, hsts-policy, client-tls, component-routes, route-annotations, delegation; " +
				"unsupported: header-actions; " + notJudged + "; judged 6 router specs and 3 platform specs (the suite's own stand-ins); " + goodImage + notCertified, 2},
		{"error: the set-up failed before the router image was known", testVerifier, setUpFailedSuite(),
			"CONSISTENT: acme-router 1.2.3: error against OpenShift 5.1 (set-up failed: router pod never ready) — " + claimedAll + "; unsupported: none; " +
				"judged 0 router specs and 0 platform specs (the suite's own stand-ins); image " + goodImageRef + " (not by ID: the run ended before the router image was known)" + notCertified, 2},
		{"passed, a development build allowed", devVerifier, dev,
			"CONSISTENT: acme-router 1.2.3: passed against OpenShift 5.1 (development build) — " + claimedAll + "; unsupported: none; " + notJudged + "; " + judgedAll + "; " + goodImage + notCertified, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, status := verifierLine(tc.verifier, bundleOf(t, tc.run))
			if line != tc.line || status != tc.status {
				t.Errorf("%q exit %d\nwant %q exit %d", line, status, tc.line, tc.status)
			}
		})
	}
}

// Every shortcut to a verdict the router did not earn, each made as a
// forger would make it with the suite's own code (Build, Write,
// WriteBundle, Ginkgo's reporters), is refused in one line, exit 1.
func TestVerifyRefusesEveryShortcut(t *testing.T) {
	// forge is a run directory of g with its report.json and views
	// replaced by those of forged: what regenerating conformance.* and
	// summary.md after editing report.json leaves (Repeats,
	// Build and Write); junit.xml and e2e.log are still g's.
	forge := func(g, forged types.Report) string {
		dir := runDir(t, g)
		writeReportJSON(t, dir, forged)
		writeViews(t, dir, forged)
		return dir
	}
	flipped := failedSuite()
	setSpec(&flipped, specRevoked, types.SpecStatePassed, "")
	flipped.SuiteSucceeded = true

	withRecord := func(g types.Report, change func(*RunRecord)) types.Report {
		editRecord(&g, change)
		return g
	}
	unclaimed := func(f contract.Feature) func(*RunRecord) {
		return func(r *RunRecord) {
			r.Claimed = slices.DeleteFunc(slices.Clone(r.Claimed), func(c contract.Feature) bool { return c == f })
		}
	}
	dryRun := goodSuite()
	dryRun.SuiteConfig.DryRun = true
	for i := range dryRun.SpecReports {
		dryRun.SpecReports[i].RunTime = 0
	}
	otherTimeout := goodSuite()
	otherTimeout.SuiteConfig.Timeout = 2 * time.Hour
	disruptiveSkip := withRecord(goodSuite(), unclaimed(contract.FeatureDelegation))
	setSpec(&disruptiveSkip, specDelegation, types.SpecStateSkipped, "disruptive: it changes cluster-wide objects")
	const allClaims = "[router, hsts, header-actions, sharding, hsts-policy, client-tls, component-routes, route-annotations, delegation, smoke]"
	const withoutTLS = "[router, hsts, header-actions, sharding, hsts-policy, component-routes, route-annotations, delegation, smoke]"
	// claimsWithout rewrites a view from a report built with fewer
	// claims than the record's.
	claimsWithout := func(name string) func(map[string][]byte) {
		return func(c map[string][]byte) {
			g := failedSuite()
			specs, run := FromGinkgo(g)
			views, err := Build(goodRecord().Meta, slices.DeleteFunc(allFeatures(), func(f contract.Feature) bool { return f == contract.FeatureClientTLS }), specs, run).views()
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range views {
				if v.name == name || name == "" {
					c[v.name] = v.data
				}
			}
		}
	}
	otherVerifier := func(change func(*verifier)) verifier {
		v := testVerifier
		change(&v)
		return v
	}

	for _, tc := range []struct {
		name     string
		verifier verifier
		bundle   func() string
		line     string
	}{
		// What ran.
		{"a dry run's report", testVerifier, func() string { return bundleOf(t, dryRun) },
			"FAIL: a dry run tests nothing: drop --dry-run"},
		{"a dry run's report, --dry-run edited out of report.json", testVerifier, func() string {
			return tamper(t, bundleOf(t, dryRun), true, editGinkgo(t, func(r *types.Report) { r.SuiteConfig.DryRun = false }))
		}, "FAIL: spec client-tls/revoked-refused passed in zero time: no run of it is recorded in report.json"},
		{"a passed spec with zero run time", testVerifier, func() string {
			return tamper(t, bundleOf(t, goodSuite()), true, editGinkgo(t, func(r *types.Report) { specNamed(r, specHSTS).RunTime = 0 }))
		}, "FAIL: spec hsts/edge-header-set passed in zero time: no run of it is recorded in report.json"},
		{"an unclaimed feature's spec that passed", testVerifier, func() string {
			return bundleOf(t, withRecord(goodSuite(), unclaimed(contract.FeatureDelegation)))
		}, "FAIL: spec delegation/delegated-path-served of unclaimed feature delegation passed: the suite skips every spec of a feature the run does not claim"},
		{"an unclaimed feature's spec skipped for another reason", testVerifier, func() string { return bundleOf(t, disruptiveSkip) },
			`FAIL: spec delegation/delegated-path-served of unclaimed feature delegation was skipped with "disruptive: it changes cluster-wide objects", ` +
				`not the suite's "needs feature delegation, which this run does not claim: reported as unsupported"`},

		// Against what.
		{"a run against an OpenShift release this verifier does not track", testVerifier, func() string {
			return bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) { r.OpenShiftRelease = "4.19" }))
		}, `FAIL: the run was judged against OpenShift "4.19": no release line this suite tracks: pick one of 4.20, 4.21, 4.22, 4.23, 5.0, 5.1, master (the line your customers run)`},

		{"a run against 4.20 relabelled 5.1 in report.json, the sums recomputed", testVerifier, func() string {
			return tamper(t, bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) { r.OpenShiftRelease = "4.20" })), true,
				editGinkgo(t, func(g *types.Report) { editRecord(g, func(r *RunRecord) { r.OpenShiftRelease = "5.1" }) }))
		}, "FAIL: conformance.yaml differs from the report re-derived from report.json"},

		// A failed spec made passed in report.json, the views regenerated.
		{"a failed spec flipped to passed, conformance.* and summary.md regenerated", testVerifier, func() string {
			return bundleOfDir(t, forge(failedSuite(), flipped))
		}, "FAIL: spec client-tls/revoked-refused is passed in report.json, failed in junit.xml"},
		{"... and junit.xml regenerated too", testVerifier, func() string {
			dir := forge(failedSuite(), flipped)
			writeRunJUnit(t, dir, flipped)
			return bundleOfDir(t, dir)
		}, "FAIL: e2e.log has a [FAIL] line for spec client-tls/revoked-refused, which is passed in report.json"},

		// The claims are the record's.
		{"a claim removed in conformance.yaml (and .json, summary.md)", testVerifier, func() string {
			return tamper(t, bundleOf(t, failedSuite()), true, claimsWithout(""))
		}, "FAIL: conformance.yaml claims " + withoutTLS + ", the run record in report.json " + allClaims + ": conformance.yaml is a view of the record, never an input"},
		{"a claim removed in conformance.json", testVerifier, func() string {
			return tamper(t, bundleOf(t, failedSuite()), true, claimsWithout(ConformanceJSON))
		}, "FAIL: conformance.json claims " + withoutTLS + ", the run record in report.json " + allClaims + ": conformance.json is a view of the record, never an input"},
		{"a failed feature's claim removed from the run record", testVerifier, func() string {
			return bundleOf(t, withRecord(failedSuite(), unclaimed(contract.FeatureClientTLS)))
		}, "FAIL: spec client-tls/revoked-refused of unclaimed feature client-tls failed: the suite skips every spec of a feature the run does not claim"},

		// The certification rules.
		{"a run without -certify", testVerifier, func() string {
			return bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) { r.Certify = false }))
		}, "FAIL: the run was not made with -certify (make certify, ./run certify)"},
		{"a non-default poll interval", testVerifier, func() string {
			return bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) { r.Timeouts.Poll = time.Second }))
		}, "FAIL: a certification run waits exactly the documented times (contract/timeouts.go): -poll-interval 1s (want 250ms)"},
		{"a longer wait", testVerifier, func() string {
			return bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) { r.Timeouts.Converge = 24 * time.Hour }))
		}, "FAIL: a certification run waits exactly the documented times (contract/timeouts.go): -timeout-converge 24h0m0s (want 30s)"},
		{"Ginkgo's timeout not the run's", testVerifier, func() string { return bundleOf(t, otherTimeout) },
			"FAIL: Ginkgo's --timeout is 2h0m0s, more than the run's -timeout-run 1h25m0s: the run path passes it"},
		{"a reused cluster", testVerifier, func() string {
			return bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) { r.Reuse = true }))
		}, "FAIL: a certification run makes its own cluster: drop -reuse (REUSE=1)"},
		{"a reference-router run named as another implementation", testVerifier, func() string {
			return bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) { r.ReferenceRouter = true }))
		}, `FAIL: the router judged is the suite's reference router: it certifies only as reference-router, not as "acme-router"`},
		{"a judged image without an ID", testVerifier, func() string {
			return bundleOf(t, withRecord(failedSuite(), func(r *RunRecord) { r.Implementation.ImageID = "" }))
		}, "FAIL: the router image registry.example/acme/router:1.2.3 has no content ID: the judged image must be named by ID"},
		{"a judged image not named at all", testVerifier, func() string {
			return bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) {
				r.Implementation.Image, r.Implementation.ImageDigest, r.Implementation.ImageID = "", "", ""
			}))
		}, "FAIL: the run record names no router image: a run that judged a router names its image by ID"},

		// The suite build.
		{"a dirty build", testVerifier, func() string {
			return bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) { r.Suite.Dirty = true }))
		}, "FAIL: the suite was built from a tree with uncommitted changes (commit 0123abc): commit or stash them"},
		{"an unknown commit", testVerifier, func() string {
			return bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) { r.Suite.Commit = "unknown" }))
		}, "FAIL: the suite build names no commit: build it from a git checkout (make certify, make kit)"},
		{"another commit than the verifier's", testVerifier, func() string {
			return bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) { r.Suite.Commit = "4567def" }))
		}, "FAIL: the bundle was made by suite commit 4567def, this verifier was built from 0123abc: verify it with the verifier built from 4567def"},
		{"a verifier that names no commit", otherVerifier(func(v *verifier) { v.commit = "unknown" }), func() string { return bundleOf(t, goodSuite()) },
			"FAIL: the bundle was made by suite commit 0123abc, this verifier names no commit: build it from a checkout of 0123abc with the suite's LDFLAGS (reports.SuiteCommit)"},
		{"a development version without -allow-dev", otherVerifier(func(v *verifier) { v.suiteVersion = "v0.3.0-dev" }), func() string {
			return bundleOf(t, withRecord(goodSuite(), func(r *RunRecord) { r.Suite.Version = "v0.3.0-dev" }))
		}, "FAIL: the bundle was made by suite v0.3.0-dev, which is a development build: verify it with -allow-dev to accept it"},

		// Every file, and each agrees with report.json.
		{"a bundle without junit.xml", testVerifier, func() string {
			return tamper(t, bundleOf(t, failedSuite()), true, func(c map[string][]byte) { delete(c, JUnitXML) })
		}, "FAIL: the bundle lacks junit.xml"},
		{"a bundle without e2e.log", testVerifier, func() string {
			return tamper(t, bundleOf(t, failedSuite()), true, func(c map[string][]byte) { delete(c, E2ELog) })
		}, "FAIL: the bundle lacks e2e.log"},
		{"a junit.xml that says another spec failed", testVerifier, func() string {
			dir := runDir(t, goodSuite())
			other := goodSuite()
			setSpec(&other, specHSTS, types.SpecStateFailed, "no header")
			writeRunJUnit(t, dir, other)
			return bundleOfDir(t, dir)
		}, "FAIL: spec hsts/edge-header-set is passed in report.json, failed in junit.xml"},
		{"a junit.xml with a failure injected into a suite node", testVerifier, func() string {
			dir := runDir(t, goodSuite())
			other := goodSuite()
			for i := range other.SpecReports {
				if other.SpecReports[i].LeafNodeType == types.NodeTypeSynchronizedBeforeSuite {
					other.SpecReports[i].State = types.SpecStateFailed
					other.SpecReports[i].Failure = types.Failure{Message: "the cluster did not come up"}
				}
			}
			writeRunJUnit(t, dir, other)
			return bundleOfDir(t, dir)
		}, "FAIL: suite node [SynchronizedBeforeSuite] is not failed in report.json, failed in junit.xml"},
		{"a junit.xml without a spec", testVerifier, func() string {
			dir := runDir(t, goodSuite())
			other := goodSuite()
			other.SpecReports = slices.DeleteFunc(other.SpecReports, func(s types.SpecReport) bool { return s.FullText() == specShard })
			writeRunJUnit(t, dir, other)
			return bundleOfDir(t, dir)
		}, "FAIL: junit.xml lacks spec sharding/own-namespaces-only of report.json"},
		{"an e2e.log whose Ran line disagrees", testVerifier, func() string {
			return tamper(t, bundleOf(t, goodSuite()), true, func(c map[string][]byte) {
				c[E2ELog] = replaceOnce(t, c[E2ELog], "Ran 11 of 11 Specs", "Ran 10 of 11 Specs")
			})
		}, "FAIL: e2e.log says Ran 10 of 11 Specs, report.json 11 of 11"},
		{"an e2e.log without a Ran line", testVerifier, func() string {
			return tamper(t, bundleOf(t, goodSuite()), true, func(c map[string][]byte) { c[E2ELog] = []byte("make: *** [certify] Error 1\n") })
		}, `FAIL: e2e.log has no "Ran N of M Specs" line: it is not the console of a Ginkgo run`},
		{"an e2e.log without the failed spec's [FAIL] line", testVerifier, func() string {
			return tamper(t, bundleOf(t, failedSuite()), true, func(c map[string][]byte) { c[E2ELog] = consoleOf(goodSuite()) })
		}, "FAIL: spec client-tls/revoked-refused failed in report.json, but e2e.log has no [FAIL] line for it"},
		{"an e2e.log with a [FAIL] line for a passed spec", testVerifier, func() string {
			return tamper(t, bundleOf(t, goodSuite()), true, func(c map[string][]byte) { c[E2ELog] = consoleOf(failedSuite()) })
		}, "FAIL: e2e.log has a [FAIL] line for spec client-tls/revoked-refused, which is passed in report.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, status := verifierLine(tc.verifier, tc.bundle())
			if line != tc.line || status != 1 {
				t.Errorf("%q exit %d\nwant %q exit 1", line, status, tc.line)
			}
		})
	}
}

// The console as Ginkgo prints it: colours, the failures summarized by
// their text and labels, a failed set-up's node among them; without an
// ID label a [FAIL] line names its spec by its text.
func TestCheckConsoleReadsGinkgosSummary(t *testing.T) {
	g := failedSuite()
	specs, _ := FromGinkgo(g)
	console := consoleOf(g)
	if !bytes.Contains(console, []byte("\x1b[")) || !strings.Contains(stripANSI(string(console)),
		"Summarizing 1 Failure:\n  [FAIL] Client TLS [It] refuses a revoked certificate [client-tls, id:client-tls.revoked-refused]\n") {
		t.Fatalf("not Ginkgo's console:\n%s", stripANSI(string(console)))
	}
	if err := checkConsole(console, g, specs); err != nil {
		t.Errorf("Ginkgo's console: %v", err)
	}
	noLabels := []byte(strings.ReplaceAll(stripANSI(string(console)), " [client-tls, id:client-tls.revoked-refused]", ""))
	if err := checkConsole(noLabels, g, specs); err != nil {
		t.Errorf("a [FAIL] line without labels: %v", err)
	}
	setUp := setUpFailedSuite()
	specs, _ = FromGinkgo(setUp)
	if err := checkConsole(consoleOf(setUp), setUp, specs); err != nil {
		t.Errorf("a failed set-up: %v", err)
	}
	want := `e2e.log has a [FAIL] line for "[SynchronizedBeforeSuite]", which is no failed spec or suite node of report.json`
	if err := checkConsole(consoleOf(setUp), goodSuite(), specs); err == nil || err.Error() != want {
		t.Errorf("a failed set-up report.json does not record: %v\nwant %q", err, want)
	}
}

// The verifier's -v table: every feature, claimed or not, its result and
// specs, then the image.
func TestVerifiedTable(t *testing.T) {
	v, err := testVerifier.verify(bundleOf(t, failedSuite()))
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"feature            claimed  result      router passed/failed/skipped  platform passed/failed/skipped\n" +
		"router             yes      passed      1/0/0                         1/0/0\n" +
		"hsts               yes      passed      1/0/0                         0/0/0\n" +
		"header-actions     yes      passed      1/0/0                         0/0/0\n" +
		"sharding           yes      passed      1/0/0                         0/0/0\n" +
		"hsts-policy        yes      not judged  0/0/0                         1/0/0\n" +
		"client-tls         yes      failed      0/1/0                         0/0/0\n" +
		"component-routes   yes      not judged  0/0/0                         1/0/0\n" +
		"route-annotations  yes      passed      1/0/0                         0/0/0\n" +
		"delegation         yes      passed      1/0/0                         0/0/0\n" +
		"smoke (harness)    yes      passed      1/0/0                         0/0/0\n" +
		"image: " + goodImageRef + "\nimage digest: sha256:" + hex64('d') + "\nimage ID: sha256:" + hex64('e') + "\n" +
		"platform: " + PlatformStandIns + "\n"
	if got := v.Table(); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}

// The forger's own tool is the suite's: the repeat summary (Repeats,
// REPEAT=N) re-derives conformance.* and summary.md from the report.json
// it is given, so a spec flipped to passed there gets views that agree.
// The run's junit.xml still says what happened.
func TestVerifyRefusesAFlippedSpecWhoseViewsTheRepeatSummaryRegenerated(t *testing.T) {
	dir := runDir(t, failedSuite())
	flipped := failedSuite()
	setSpec(&flipped, specRevoked, types.SpecStatePassed, "")
	flipped.SuiteSucceeded = true
	writeReportJSON(t, dir, flipped)
	if _, err := Repeats(dir, []string{filepath.Join(dir, ReportJSON)}); err != nil {
		t.Fatal(err)
	}
	if got := ReadResult(dir); got != Passed {
		t.Fatalf("the repeat summary wrote %q, not the forged passed", got)
	}
	want := "FAIL: spec client-tls/revoked-refused is passed in report.json, failed in junit.xml"
	if line, status := verifierLine(testVerifier, bundleOfDir(t, dir)); line != want || status != 1 {
		t.Errorf("%q exit %d\nwant %q exit 1", line, status, want)
	}
}
