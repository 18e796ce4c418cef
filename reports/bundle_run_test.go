package reports_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/internal/runfixture"
	"github.com/router-conformance/suite/reports"
)

// runDir writes a run of every published spec, all passed, as the suite
// does.
func runDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := runfixture.WriteDir(dir, runfixture.Run(reports.PublishedSpecs(), runfixture.Record())); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A run's directory makes a bundle named after the implementation, and
// the bundle verifies.
func TestBundleOfARunVerifies(t *testing.T) {
	dir := runDir(t)
	got, err := reports.BundleRun(dir, nil)
	if want := filepath.Join(dir, "Acme-acme_router-1.2.3.tar.gz"); got != want || err != nil {
		t.Fatalf("%q %v, want %q", got, err, want)
	}
	v, err := reports.Verify(got, reports.VerifyOptions{AllowDev: true, Commit: runfixture.Commit})
	if err != nil || v.ExitCode() != 0 {
		t.Fatalf("the bundle: %v, exit %d", err, v.ExitCode())
	}
	// The bundle names the release it was judged against: its report, its
	// summary, its attestation and the verifier's line.
	if v.Report.OpenShiftRelease != contract.DefaultRelease || !strings.Contains(v.Line(), "against OpenShift "+string(contract.DefaultRelease)) {
		t.Errorf("release %q, line %q", v.Report.OpenShiftRelease, v.Line())
	}
	for name, want := range map[string]string{reports.SummaryMD: "| OpenShift release | 5.1 |", reports.StatementFile: `"openshiftRelease":"5.1"`} {
		data, err := exec.Command("tar", "-xzOf", got, name).Output()
		if err != nil || !strings.Contains(strings.ReplaceAll(string(data), " ", ""), strings.ReplaceAll(want, " ", "")) {
			t.Errorf("%s in the bundle does not name the release (%q): %v", name, want, err)
		}
	}
}

// A run directory without one of the files the verifier holds to
// report.json makes no bundle: one line names it.
func TestBundleRefusesARunWithoutAFile(t *testing.T) {
	const every = "every bundle holds report.json, junit.xml, e2e.log, conformance.yaml, conformance.json, summary.md"
	for _, name := range []string{reports.JUnitXML, reports.E2ELog, reports.ReportJSON, reports.SummaryMD} {
		t.Run(name, func(t *testing.T) {
			dir := runDir(t)
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			_, err := reports.BundleRun(dir, nil)
			if want := "bundle: the report directory lacks " + name + ": " + every; err == nil || err.Error() != want {
				t.Errorf("%v, want %q", err, want)
			}
			if matches, _ := filepath.Glob(filepath.Join(dir, "*.tar.gz")); len(matches) > 0 {
				t.Errorf("a bundle was written: %v", matches)
			}
		})
	}
}
