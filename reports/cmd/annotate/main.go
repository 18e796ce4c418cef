// Command annotate prints a run's verdict, failed and flaked specs as
// GitHub Actions annotations (`::error title=...::message`), read from
// the report directory's conformance.json; make e2e runs it after the
// suite when GITHUB_ACTIONS=true. A run that wrote no report is itself an
// error annotation. It exits 0: the verdict's exit status is make's.
package main

import (
	"flag"
	"fmt"

	"github.com/router-conformance/suite/reports"
)

func main() {
	dir := flag.String("dir", "_output", "the report directory (conformance.json)")
	flag.Parse()
	for _, line := range annotations(*dir) {
		fmt.Println(line)
	}
}

func annotations(dir string) []string { return reports.DirAnnotations(dir) }
