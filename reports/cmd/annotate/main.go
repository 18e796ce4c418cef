// Command annotate prints a run's verdict, failed and flaked specs as
// GitHub Actions annotations (`::error title=...::message`), read from
// the report directory's conformance.json; make e2e runs it after the
// suite when GITHUB_ACTIONS=true. A run that wrote no report is itself an
// error annotation. It exits 0: the verdict's exit status is make's.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/router-conformance/suite/reports"
)

func main() {
	dir := flag.String("dir", "_output", "the report directory (conformance.json)")
	flag.Parse()
	for _, line := range annotations(*dir) {
		fmt.Println(line)
	}
}

func annotations(dir string) []string {
	file := filepath.Join(dir, reports.ConformanceJSON)
	data, err := os.ReadFile(file)
	if err != nil {
		return []string{reports.Annotation("error", "Router conformance: no report",
			fmt.Sprintf("the run wrote no %s (%v): its set-up or the suite itself failed, see the log above", file, err))}
	}
	var r reports.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return []string{reports.Annotation("error", "Router conformance: unreadable report", fmt.Sprintf("%s: %v", file, err))}
	}
	return r.GitHubAnnotations()
}
