package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/reports"
	"github.com/router-conformance/suite/reports/internal/runfixture"
)

// runDir writes a run of every published spec, all passed, as the suite
// does.
func runDir(t *testing.T) (string, types.Report) {
	t.Helper()
	dir := t.TempDir()
	g := runfixture.Run(reports.PublishedSpecs(), runfixture.Record())
	if err := runfixture.WriteDir(dir, g); err != nil {
		t.Fatal(err)
	}
	return dir, g
}

func bundleDir(dir string) (stdout, stderr string, status int) {
	var out, errOut bytes.Buffer
	status = run([]string{"-dir", dir}, &out, &errOut)
	return out.String(), errOut.String(), status
}

// A run's directory makes a bundle named after the implementation, and
// the bundle verifies.
func TestBundleOfARunVerifies(t *testing.T) {
	dir, _ := runDir(t)
	stdout, stderr, status := bundleDir(dir)
	want := filepath.Join(dir, "Acme-acme_router-1.2.3.tar.gz")
	if stdout != want+"\n" || stderr != "" || status != 0 {
		t.Fatalf("%q %q exit %d, want %q", stdout, stderr, status, want)
	}
	if !runfixture.HasIDs(reports.PublishedSpecs()) {
		t.Skip("reports/specs.json lists specs without an ID: run make specs")
	}
	v, err := reports.Verify(want, reports.VerifyOptions{AllowDev: true, Commit: runfixture.Commit})
	if err != nil || v.ExitCode() != 0 {
		t.Errorf("the bundle: %v, exit %d", err, v.ExitCode())
	}
}

// A run directory without one of the files the verifier holds to
// report.json makes no bundle: one line names it.
func TestBundleRefusesARunWithoutAFile(t *testing.T) {
	const every = "every bundle holds report.json, junit.xml, e2e.log, conformance.yaml, conformance.json, summary.md"
	for _, name := range []string{reports.JUnitXML, reports.E2ELog, reports.ReportJSON, reports.SummaryMD} {
		t.Run(name, func(t *testing.T) {
			dir, _ := runDir(t)
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, status := bundleDir(dir)
			if want := "bundle: the report directory lacks " + name + ": " + every + "\n"; stdout != "" || stderr != want || status != 1 {
				t.Errorf("%q %q exit %d, want %q exit 1", stdout, stderr, status, want)
			}
			if matches, _ := filepath.Glob(filepath.Join(dir, "*.tar.gz")); len(matches) > 0 {
				t.Errorf("a bundle was written: %v", matches)
			}
		})
	}
}
