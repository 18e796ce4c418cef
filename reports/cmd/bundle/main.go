// Command bundle packs a certification run's reports into one archive a
// certifier can check (`make certify` runs it; reports.WriteBundle):
//
//	go run ./reports/cmd/bundle -dir _output
//
// It writes <dir>/<organization>-<project>-<version>.tar.gz with
// conformance.yaml, conformance.json, report.json, junit.xml, e2e.log,
// summary.md, failures/ (when any spec failed), the published spec list
// and SHA256SUMS, and prints the archive's path. A run directory that
// lacks one of those files makes no bundle (one line names it).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/router-conformance/suite/reports"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run bundles the run directory args name, prints the bundle's path (or
// one line saying why there is none) and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("bundle", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	dir := flags.String("dir", "_output", "the run's report directory")
	if err := flags.Parse(args); err != nil || flags.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: bundle [-dir DIR]")
		return 1
	}
	out, err := bundle(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "bundle:", strings.TrimPrefix(err.Error(), "bundle: "))
		return 1
	}
	fmt.Fprintln(stdout, out)
	return 0
}

// files are the run's files a bundle holds (reports.WriteBundle refuses
// a bundle without any of them); failures/ is added when there is one.
var files = []string{reports.ConformanceYAML, reports.ConformanceJSON, reports.ReportJSON, reports.JUnitXML, reports.E2ELog, reports.SummaryMD}

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
	list := append([]string(nil), files...)
	if _, err := os.Stat(filepath.Join(dir, "failures")); err == nil {
		list = append(list, "failures")
	}
	impl := r.Implementation
	name := strings.Join([]string{slug(impl.Organization), slug(impl.Project), slug(impl.Version)}, "-") + ".tar.gz"
	out := filepath.Join(dir, name)
	return out, reports.WriteBundle(dir, out, list)
}

var unsafe = regexp.MustCompile(`[^A-Za-z0-9._]+`)

// slug keeps a name safe as part of a file name.
func slug(s string) string {
	if s = strings.Trim(unsafe.ReplaceAllString(s, "_"), "_"); s == "" {
		return "unknown"
	}
	return s
}
