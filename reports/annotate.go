package reports

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DirAnnotations are the annotations of the run whose reports are in dir
// (its conformance.json), or one error saying why there are none.
func DirAnnotations(dir string) []string {
	file := filepath.Join(dir, ConformanceJSON)
	data, err := os.ReadFile(file)
	if err != nil {
		return []string{Annotation("error", "Router conformance: no report",
			fmt.Sprintf("the run wrote no %s (%v): its set-up or the suite itself failed, see the log above", file, err))}
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return []string{Annotation("error", "Router conformance: unreadable report", fmt.Sprintf("%s: %v", file, err))}
	}
	return r.GitHubAnnotations()
}

// GitHubAnnotations are the report as GitHub Actions workflow commands
// (`::error title=...::message`), which the Actions UI shows on the run's
// summary page: the verdict first unless it is passed, then each failed
// spec, then each flaked spec as a warning. GitHub shows at most ten
// errors of a step, so the verdict leads.
func (r Report) GitHubAnnotations() []string {
	var out []string
	if !r.Passed() {
		out = append(out, Annotation("error", "Router conformance: "+string(r.Result), r.Reason))
	}
	for _, f := range r.Features {
		for _, s := range append(append([]NamedSpec(nil), f.Router.Failed...), f.Platform.Failed...) {
			out = append(out, Annotation("error", fmt.Sprintf("%s failed: %s", s.ID, s.Name), s.Reason))
		}
	}
	for _, f := range r.Features {
		for _, s := range f.Flaked {
			out = append(out, Annotation("warning", fmt.Sprintf("%s flaked: %s", s.ID, s.Name),
				fmt.Sprintf("failed, then passed on attempt %d; first failure: %s", s.Attempts, s.Reason)))
		}
	}
	return out
}

// Annotation is one workflow command of the given level (error, warning,
// notice), its title and message escaped as GitHub's toolkit does
// (@actions/core command.ts: escapeProperty, escapeData).
func Annotation(level, title, message string) string {
	data := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	property := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	return fmt.Sprintf("::%s title=%s::%s", level, property.Replace(title), data.Replace(message))
}
