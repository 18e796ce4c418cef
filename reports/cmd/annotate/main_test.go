package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/router-conformance/suite/reports"
)

func TestAnnotationsOfARunWithoutAReportAndOfAFailedRun(t *testing.T) {
	dir := t.TempDir()
	if got := annotations(dir); len(got) != 1 || !strings.HasPrefix(got[0], "::error title=Router conformance%3A no report::the run wrote no "+dir+"/conformance.json") {
		t.Errorf("no report: %v", got)
	}
	r := reports.Report{Result: reports.Error, Reason: "set-up failed: router pod never ready"}
	if err := r.Write(dir); err != nil {
		t.Fatal(err)
	}
	if got := annotations(dir); len(got) != 1 || got[0] != "::error title=Router conformance%3A error::set-up failed: router pod never ready" {
		t.Errorf("error run: %v", got)
	}
	if err := os.WriteFile(filepath.Join(dir, reports.ConformanceJSON), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := annotations(dir); len(got) != 1 || !strings.HasPrefix(got[0], "::error title=Router conformance%3A unreadable report::") {
		t.Errorf("unreadable: %v", got)
	}
}
