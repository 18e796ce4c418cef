package incluster

import (
	"slices"
	"strings"
	"testing"

	"github.com/router-conformance/suite/runner"
)

func envOf(m map[string]string) Env {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// runnerArgs is Ginkgo's command line the run path makes of env.
func runnerArgs(env Env) (string, []string) {
	o := RunnerOptions(env)
	return o.ReportDir, runner.GinkgoArgs(Binaries(), o, o.ReportDir, "report.json", nil)
}

func TestHydrophonesDefaultsRunTheWholeSuiteInTheCluster(t *testing.T) {
	// What hydrophone v0.8.0 sets without --focus: Kubernetes'
	// conformance tag, which no spec here carries.
	results, args := runnerArgs(envOf(map[string]string{
		"E2E_FOCUS": `\[Conformance\]`, "E2E_SKIP": "", "E2E_PROVIDER": "skeleton", "E2E_VERBOSITY": "4",
		"E2E_USE_GO_RUNNER": "true", "E2E_EXTRA_GINKGO_ARGS": "--procs=4",
		"E2E_EXTRA_ARGS": "--domain=apps.example.test --allow-disruptive=true",
	}))
	if results != ResultsDir {
		t.Errorf("results %s", results)
	}
	joined := strings.Join(args, " ")
	for _, want := range []string{"--procs=4", SuitePath + " --", "-profile=existing", "-in-cluster", "-images=" + ImagesPath,
		"-report-dir=" + ResultsDir, "--domain=apps.example.test", "--allow-disruptive=true", "--json-report=report.json"} {
		if !strings.Contains(joined, want) {
			t.Errorf("args lack %q: %s", want, joined)
		}
	}
	if strings.Contains(joined, "--focus") {
		t.Errorf("the conformance tag became a focus: %s", joined)
	}
	// The suite's flags come after the binary and "--", Ginkgo's before.
	sep := slices.Index(args, "--")
	if sep < 0 || slices.Index(args, "--procs=4") > sep || slices.Index(args, "--domain=apps.example.test") < sep {
		t.Errorf("flags on the wrong side of --: %q", args)
	}
}

func TestFocusSkipDryRunAndParallelAreHonoured(t *testing.T) {
	_, args := runnerArgs(envOf(map[string]string{
		"E2E_FOCUS": "HSTS", "E2E_SKIP": "CRL", "E2E_DRYRUN": "true", "E2E_PARALLEL": "y", "RESULTS_DIR": "/out",
	}))
	for _, want := range []string{"--focus=HSTS", "--skip=CRL", "--dry-run", "--procs=4", "--output-dir=/out", "-report-dir=/out"} {
		if !slices.Contains(args, want) {
			t.Errorf("args lack %q: %q", want, args)
		}
	}
	// Positive control: nothing set, no parallelism asked for.
	_, args = runnerArgs(envOf(nil))
	for _, a := range args {
		if (strings.HasPrefix(a, "--procs") && a != "--procs=1") || strings.HasPrefix(a, "--focus") || a == "--dry-run" || a == "-certify" {
			t.Errorf("unasked %q in %q", a, args)
		}
	}
	// -certify among hydrophone's extra arguments makes a certification
	// (the run path adds the flag itself, once).
	o := RunnerOptions(envOf(map[string]string{"E2E_EXTRA_ARGS": "--domain=d -certify"}))
	if !o.Certify || slices.Contains(o.Suite, "-certify") {
		t.Errorf("certify %v, suite flags %q", o.Certify, o.Suite)
	}
}

func TestSummaryIsTakenBackOutOfTheLog(t *testing.T) {
	log := "Ginkgo ran 1 suite in 3m\nTest Suite Passed\n\n" + SummaryBegin + "\n# Router conformance: PASSED\n| a | b |\n" + SummaryEnd + "\n"
	got, ok := SummaryFromLog(log)
	if !ok || got != "# Router conformance: PASSED\n| a | b |\n" {
		t.Errorf("summary %q, %v", got, ok)
	}
	if _, ok := SummaryFromLog("Ginkgo ran 1 suite in 3m\n"); ok {
		t.Error("a log without the summary gave one")
	}
}
