// Command bundle packs a certification run's reports into one archive a
// certifier can check (`make certify` runs it; reports.WriteBundle):
//
//	go run ./reports/cmd/bundle -dir reports
//
// It writes <dir>/<organization>-<project>-<version>.tar.gz with
// conformance.yaml, report.json, junit.xml, e2e.log, summary.md,
// failures/ (when any spec failed), the published spec list and
// SHA256SUMS, and prints the archive's path.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/router-conformance/suite/reports"
)

func main() {
	dir := flag.String("dir", "_output", "the run's report directory")
	flag.Parse()
	out, err := bundle(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
	fmt.Println(out)
}

// bundle writes the archive and returns its path.
func bundle(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, reports.ConformanceJSON))
	if err != nil {
		return "", fmt.Errorf("%w (run make certify: the bundle is made from a finished run)", err)
	}
	var r reports.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return "", fmt.Errorf("%s: %w", reports.ConformanceJSON, err)
	}
	files := []string{reports.ConformanceYAML, reports.ConformanceJSON, reports.ReportJSON, "junit.xml", "e2e.log", reports.SummaryMD}
	if _, err := os.Stat(filepath.Join(dir, "failures")); err == nil {
		files = append(files, "failures")
	}
	impl := r.Implementation
	name := strings.Join([]string{slug(impl.Organization), slug(impl.Project), slug(impl.Version)}, "-") + ".tar.gz"
	out := filepath.Join(dir, name)
	return out, reports.WriteBundle(dir, out, files)
}

var unsafe = regexp.MustCompile(`[^A-Za-z0-9._]+`)

// slug keeps a name safe as part of a file name.
func slug(s string) string {
	if s = strings.Trim(unsafe.ReplaceAllString(s, "_"), "_"); s == "" {
		return "unknown"
	}
	return s
}
