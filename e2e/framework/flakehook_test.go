package framework

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

// A real Ginkgo run with --flake-attempts=2 and the hook set: the hooked
// spec fails its first attempt and passes its second, and every report
// says so (the suite's own BeforeEach and ReportAfterSuite, in small).
func TestTheHookMakesAFlakeThatEveryReportShows(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(FailOnceEnv, "flakes once")
	opts := DefaultOptions()
	opts.ReportDir, opts.Features = dir, []contract.Feature{contract.FeatureHSTS}
	f := New(opts, Capabilities{Profile: KindProfile})
	ginkgo.BeforeEach(FailOnce)
	ginkgo.Describe("HSTS per route", ginkgo.Label(string(contract.FeatureHSTS)), func() {
		ginkgo.It("flakes once", ID("hsts/flakes-once"), func() {})
		ginkgo.It("passes", ID("hsts/passes"), func() {})
	})
	ginkgo.ReportAfterSuite("conformance report", func(r ginkgo.Report) {
		gomega.Expect(f.WriteConformance(r)).To(gomega.Succeed())
	})
	gomega.RegisterFailHandler(ginkgo.Fail)
	suiteConfig, reporterConfig := ginkgo.GinkgoConfiguration()
	suiteConfig.FlakeAttempts = 2
	reporterConfig.Succinct = true
	if !ginkgo.RunSpecs(t, "flake hook", suiteConfig, reporterConfig) {
		t.Fatal("the suite failed: the flake should have passed on its retry")
	}

	data, err := os.ReadFile(filepath.Join(dir, reports.ConformanceJSON))
	if err != nil {
		t.Fatal(err)
	}
	var r reports.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	hsts, _ := r.Feature(contract.FeatureHSTS)
	if r.Flaked != 1 || len(hsts.Flaked) != 1 || hsts.Flaked[0].Name != "HSTS per route flakes once" || hsts.Flaked[0].Attempts != 2 ||
		!strings.HasPrefix(hsts.Flaked[0].Reason, `ROUTER_CONFORMANCE_TEST_FAIL_ONCE="flakes once": this spec's first attempt fails on purpose`) ||
		hsts.Result != reports.Passed || len(hsts.Router.Passed) != 2 {
		t.Errorf("conformance.json: %d flaked, hsts %+v", r.Flaked, hsts)
	}
	if r.Options[reports.OptionFailOnce] != "flakes once" || r.Options[reports.OptionFlakeAttempts] != "2" {
		t.Errorf("options %v", r.Options)
	}

	data, err = os.ReadFile(filepath.Join(dir, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatal(err)
	}
	var states []string
	for _, tc := range suites.TestSuites[0].TestCases {
		if tc.Name == "[It] HSTS per route flakes once [hsts, id:hsts.flakes-once]" {
			states = append(states, tc.Status)
		}
	}
	if strings.Join(states, ",") != "failed,passed" || suites.Failures != 1 {
		t.Errorf("junit.xml: the flake's test cases %v, %d failures", states, suites.Failures)
	}

	h, err := reports.ReadHistory(filepath.Join(dir, reports.HistoryJSONL))
	if err != nil || len(h) != 1 || h[0].Flaked != 1 {
		t.Errorf("history.jsonl: %v %+v", err, h)
	}
}

func TestFailOnceFailsOnlyTheFirstAttemptOfMatchingSpecs(t *testing.T) {
	spec := func(attempt int) types.SpecReport {
		return types.SpecReport{ContainerHierarchyTexts: []string{"HSTS per route"}, LeafNodeText: "sets the header on edge routes",
			LeafNodeType: types.NodeTypeIt, NumAttempts: attempt}
	}
	for _, tc := range []struct {
		hook    string
		attempt int
		fails   bool
	}{
		{"", 1, false},
		{"sets the header", 1, true},
		{"HSTS per route sets", 1, true},
		{"sets the header", 2, false},
		{"Client TLS", 1, false},
	} {
		var failed []string
		failOnce(tc.hook, spec(tc.attempt), func(msg string, _ ...int) { failed = append(failed, msg) })
		if (len(failed) == 1) != tc.fails {
			t.Errorf("hook %q, attempt %d: failed %v, want %v", tc.hook, tc.attempt, failed, tc.fails)
		}
		if tc.fails && !strings.HasPrefix(failed[0], `ROUTER_CONFORMANCE_TEST_FAIL_ONCE="`+tc.hook+`": this spec's first attempt fails on purpose`) {
			t.Errorf("message %q", failed[0])
		}
	}
}

func TestEffectiveOptionsRecordRetriesAndTheHook(t *testing.T) {
	f := New(DefaultOptions(), Capabilities{})
	report := types.Report{SuiteConfig: types.SuiteConfig{FlakeAttempts: 2, ParallelTotal: 4}}
	t.Setenv(FailOnceEnv, "")
	if o := f.effectiveOptions(report); o[reports.OptionFlakeAttempts] != "2" || o["ginkgo.procs"] != "4" {
		t.Errorf("options %v", o)
	} else if _, ok := o[reports.OptionFailOnce]; ok {
		t.Errorf("an unset hook is recorded: %v", o)
	}
	t.Setenv(FailOnceEnv, "sets the header")
	if o := f.effectiveOptions(report); o[reports.OptionFailOnce] != "sets the header" {
		t.Errorf("the hook is not recorded: %v", o)
	}
}
