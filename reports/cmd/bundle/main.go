// Command bundle packs a certification run's reports into one archive a
// certifier can check (reports.BundleRun, as the run path's certify
// does):
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
	"flag"
	"fmt"
	"io"
	"os"
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

// bundle writes the archive and returns its path (reports.BundleRun).
func bundle(dir string) (string, error) {
	return reports.BundleRun(dir)
}
