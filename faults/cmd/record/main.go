// Command record writes what a make mutants run proved into the
// catalogue: `killed: <commit>` on each fault the run killed with every
// statement broken, and no killed: on one that survived, broke the
// sanity specs or left a statement unbroken (what it proved before no
// longer holds); a run that did not finish, or whose statements' specs
// were skipped after an Ordered container's failure, changes nothing. CI's sample (MUTANTS=ci) is drawn from the killed.
//
//	go run ./faults/cmd/record [-reports _output]
//
// A run of a suite built from uncommitted changes names no commit: it is
// refused.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/router-conformance/suite/runner"
)

func main() {
	reportsDir := flag.String("reports", "_output", "where make mutants wrote mutants.json (REPORTS)")
	flag.Parse()
	if err := record(*reportsDir, "faults/catalogue"); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func record(reportsDir, catalogueDir string) error {
	data, err := os.ReadFile(filepath.Join(reportsDir, runner.MutantsJSON))
	if err != nil {
		return fmt.Errorf("%w: run make mutants first", err)
	}
	var run runner.MutantsRun
	if err := json.Unmarshal(data, &run); err != nil {
		return err
	}
	if run.Dirty || run.Commit == "" || run.Commit == "unknown" {
		return errors.New("the run's suite was built from uncommitted changes (or names no commit): commit, then run make mutants again")
	}
	verdict := map[string]string{} // fault -> the killed: value, "" to remove it
	for _, r := range run.Results {
		switch {
		case r.Outcome == runner.Killed && len(r.Unbroken) == 0 && len(r.Unjudged) == 0:
			verdict[r.Fault] = run.Commit[:min(12, len(run.Commit))]
		case r.Outcome == runner.Errored, r.Outcome == runner.Killed && len(r.Unbroken) == 0:
			// it proved nothing either way (the run did not finish, or a
			// statement's specs were skipped): the record stays
		default:
			verdict[r.Fault] = ""
		}
	}
	files, err := filepath.Glob(filepath.Join(catalogueDir, "*.yaml"))
	if err != nil {
		return err
	}
	changed := 0
	for _, file := range files {
		n, err := rewrite(file, verdict)
		if err != nil {
			return err
		}
		changed += n
	}
	fmt.Printf("record: %d faults of %s updated (commit %s)\n", changed, filepath.Join(reportsDir, runner.MutantsJSON), run.Commit)
	return nil
}

// rewrite sets or removes the killed: line of each fault of verdict in
// one catalogue file, whose faults are "  - id: ..." blocks of
// "    key: value" lines.
func rewrite(file string, verdict map[string]string) (int, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	var out []string
	changed, current := 0, ""
	flush := func() {
		v, ok := verdict[current]
		if !ok || v == "" {
			return
		}
		// After the block's last key, before the blank lines and
		// comments that open the next.
		at := len(out)
		for at > 0 && (strings.TrimSpace(out[at-1]) == "" || strings.HasPrefix(strings.TrimSpace(out[at-1]), "#")) {
			at--
		}
		out = append(out[:at], append([]string{"    killed: \"" + v + "\""}, out[at:]...)...)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for _, line := range lines {
		if id, ok := strings.CutPrefix(line, "  - id: "); ok {
			flush()
			current = strings.TrimSpace(id)
			if _, ok := verdict[current]; ok {
				changed++
			}
		}
		if _, ok := verdict[current]; ok && strings.HasPrefix(line, "    killed: ") {
			continue // replaced at the block's end
		}
		out = append(out, line)
	}
	flush()
	return changed, os.WriteFile(file, []byte(strings.Join(out, "\n")+"\n"), 0o644)
}
