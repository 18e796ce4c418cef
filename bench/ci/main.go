// Command ci times CI's run, .ci/run, phase by phase, from a clean clone
// of HEAD: each `make` line of .ci/run in order, in a fresh clone, warm
// (this machine's caches) or -cold (empty Go build and module caches, an
// empty image cache directory and an image prefix of its own, so that
// every image — the kind node image from source included — is built
// again without touching the machine's images). Writes <out>.json and
// <out>.md (make bench-ci). A failed phase ends the run: its time is
// recorded, the later phases are not run.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func main() {
	out := flag.String("out", "_output/bench-ci", "output prefix (<out>.json, <out>.md)")
	cold := flag.Bool("cold", false, "empty caches: Go build and module caches, the image cache directory and an image prefix of the run's own")
	keep := flag.Bool("keep", false, "keep the clone (and, -cold, its caches) afterwards")
	flag.Parse()
	if err := run(*out, *cold, *keep); err != nil {
		log.Fatal(err)
	}
}

type phase struct {
	Command string  `json:"command"`
	Seconds float64 `json:"seconds"`
	Passed  bool    `json:"passed"`
}

type result struct {
	Date   time.Time `json:"date"`
	Commit string    `json:"commit"`
	Cold   bool      `json:"cold"`
	CPUs   int       `json:"cpus"`
	Phases []phase   `json:"phases"`
	Total  float64   `json:"totalSeconds"`
	Passed bool      `json:"passed"`
}

func run(out string, cold, keep bool) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	commit, err := output(root, "git", "rev-parse", "HEAD")
	if err != nil {
		return fmt.Errorf("the commit to clone: %w", err)
	}
	phases, err := ciPhases(filepath.Join(root, ".ci/run"))
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "bench-ci-")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(work)
	}
	clone := filepath.Join(work, "clone")
	if _, err := output(root, "git", "clone", "--quiet", "--no-local", root, clone); err != nil {
		return fmt.Errorf("clone: %w", err)
	}
	if _, err := output(clone, "git", "checkout", "--quiet", commit); err != nil {
		return err
	}
	env := ciEnv(os.Environ())
	if cold {
		env = append(env,
			"GOCACHE="+filepath.Join(work, "gocache"),
			"GOMODCACHE="+filepath.Join(work, "gomodcache"),
			"E2E_CACHE_DIR="+filepath.Join(work, "cache"),
			"IMAGE_PREFIX=router-conformance-bench-ci-"+filepath.Base(work),
			// Another cluster than a developer's, and another lab.
			"CLUSTER=bench-ci", "EXISTING_CLUSTER=bench-ci-existing")
	}
	r := result{Date: time.Now().UTC(), Commit: commit, Cold: cold, CPUs: runtime.NumCPU(), Passed: true}
	for _, p := range phases {
		log.Printf("bench-ci: %s", p)
		start := time.Now()
		cmd := exec.Command("bash", "-c", p)
		cmd.Dir, cmd.Env = clone, env
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		err := cmd.Run()
		ph := phase{Command: p, Seconds: time.Since(start).Round(time.Second).Seconds(), Passed: err == nil}
		r.Phases = append(r.Phases, ph)
		r.Total += ph.Seconds
		if err != nil {
			r.Passed = false
			log.Printf("bench-ci: %s failed: %v (later phases not run)", p, err)
			break
		}
	}
	if err := write(out, r); err != nil {
		return err
	}
	if !r.Passed {
		return fmt.Errorf("a phase failed: see %s.md", out)
	}
	return nil
}

// ciPhases are the make lines of .ci/run, in order: what CI runs.
func ciPhases(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var phases []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "make ") {
			phases = append(phases, line)
		}
	}
	if len(phases) == 0 {
		return nil, fmt.Errorf("%s runs no make line", file)
	}
	return phases, sc.Err()
}

func write(out string, r result) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	j, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(out+".json", append(j, '\n'), 0o644); err != nil {
		return err
	}
	kind := "warm (this machine's caches)"
	if r.Cold {
		kind = "cold (empty Go and image caches)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# .ci/run, phase by phase\n\n%s, commit %s, %s, %d CPUs\n\n| phase | seconds | result |\n|---|---|---|\n",
		r.Date.Format("2006-01-02"), r.Commit[:min(12, len(r.Commit))], kind, r.CPUs)
	for _, p := range r.Phases {
		res := "passed"
		if !p.Passed {
			res = "FAILED"
		}
		fmt.Fprintf(&b, "| `%s` | %.0f | %s |\n", p.Command, p.Seconds, res)
	}
	fmt.Fprintf(&b, "| total | %.0f (%s) | |\n", r.Total, time.Duration(r.Total)*time.Second)
	return os.WriteFile(out+".md", []byte(b.String()), 0o644)
}

func output(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return strings.TrimSpace(string(out)), nil
}

// ciEnv is the environment CI gives .ci/run: the caller's, without what
// make passes to the makes it runs (make bench-ci REPORTS=... would
// otherwise reach every make line of the clone through MAKEFLAGS).
func ciEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES":
			continue
		}
		out = append(out, kv)
	}
	return out
}
