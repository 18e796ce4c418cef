// Package incluster runs the suite inside the cluster: the conformance
// image's entry point (runner.go: the environment contract hydrophone
// drives, as the Kubernetes conformance image's go-runner honours it),
// the image itself (image.go) and the proof that hydrophone runs it
// (hydrophone.go, make e2e-incluster).
//
// The contract, from sigs.k8s.io/hydrophone v0.8.0 (pkg/conformance
// deploy.go Deploy, client/logs.go, client/download.go): hydrophone gives
// the container no command, only E2E_FOCUS (`\[Conformance\]` unless
// --focus), E2E_SKIP, E2E_EXTRA_ARGS, E2E_EXTRA_GINKGO_ARGS (with
// --procs=N for --parallel N), E2E_DRYRUN, E2E_VERBOSITY, E2E_PROVIDER
// and E2E_USE_GO_RUNNER; it follows the container's log until it ends
// with Ginkgo's "Ginkgo ran 1 suite" line; then it cats
// /tmp/results/e2e.log and /tmp/results/junit_01.xml in its busybox
// container and takes the conformance container's exit status as its own.
package incluster

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

// Paths inside the conformance image.
const (
	GinkgoPath   = "/usr/local/bin/ginkgo"
	SuitePath    = "/usr/local/bin/e2e.test"
	RunnerPath   = "/usr/local/bin/conformance-runner"
	ImagesPath   = "/etc/router-conformance/images.json"
	ResultsDir   = "/tmp/results"
	KubeConform  = `\[Conformance\]`
	defaultProcs = "4"
)

// Env reads the environment (os.LookupEnv in the image).
type Env func(string) (string, bool)

// RunnerArgs turns the conformance image's environment into the Ginkgo
// CLI's arguments: the precompiled suite on the existing profile inside
// the cluster, its fixture images from the image's manifest, every
// report into the results directory.
func RunnerArgs(env Env) (results string, args []string) {
	get := func(k string) string { v, _ := env(k); return strings.TrimSpace(v) }
	results = get("RESULTS_DIR")
	if results == "" {
		results = ResultsDir
	}
	args = []string{"--no-color", "--timeout=" + contract.DefaultTimeouts().Run.String(), "--output-dir=" + results, "--json-report=" + reports.ReportJSON}
	// hydrophone's default focus is Kubernetes' conformance tag, which no
	// spec of this suite carries: the whole suite is the conformance run.
	if focus := get("E2E_FOCUS"); focus != "" && focus != KubeConform {
		args = append(args, "--focus="+focus)
	}
	if skip := get("E2E_SKIP"); skip != "" {
		args = append(args, "--skip="+skip)
	}
	extraGinkgo := strings.Fields(get("E2E_EXTRA_GINKGO_ARGS"))
	procsGiven := false
	for _, a := range extraGinkgo {
		procsGiven = procsGiven || strings.HasPrefix(a, "--procs") || strings.HasPrefix(a, "-procs") || strings.HasPrefix(a, "--nodes")
	}
	if !procsGiven {
		if p := get("E2E_PARALLEL"); p != "" && p != "false" && p != "n" && p != "N" {
			if _, err := fmt.Sscan(p, new(int)); err == nil {
				args = append(args, "--procs="+p)
			} else {
				args = append(args, "--procs="+defaultProcs)
			}
		}
	}
	args = append(args, extraGinkgo...)
	if get("E2E_DRYRUN") != "" {
		args = append(args, "--dry-run")
	}
	args = append(args, SuitePath, "--",
		"-profile=existing", "-in-cluster", "-repo=/", "-report-dir="+results, "-images="+ImagesPath)
	args = append(args, strings.Fields(get("E2E_EXTRA_ARGS"))...)
	return results, args
}

// Run is the conformance image's entry point: it runs the suite, its
// console on stdout and in e2e.log, then gives hydrophone junit_01.xml
// and appends the summary to e2e.log (after the console's last line, so
// the log hydrophone follows still ends with Ginkgo's). Its exit status
// is 0 only for a passed verdict, as make e2e's.
func Run(env Env, stdout, stderr io.Writer) int {
	results, args := RunnerArgs(env)
	if err := os.MkdirAll(results, 0o755); err != nil {
		fmt.Fprintf(stderr, "conformance-runner: results directory %s: %v\n", results, err)
		return 1
	}
	logPath := filepath.Join(results, "e2e.log")
	log, err := os.Create(logPath)
	if err != nil {
		fmt.Fprintf(stderr, "conformance-runner: %v\n", err)
		return 1
	}
	defer log.Close()
	console := io.MultiWriter(stdout, log)
	fmt.Fprintf(console, "conformance-runner: %s %s\n", GinkgoPath, strings.Join(args, " "))
	cmd := exec.Command(GinkgoPath, args...)
	cmd.Stdout, cmd.Stderr = console, console
	status := 0
	if err := cmd.Run(); err != nil {
		status = 1
		if exit, ok := err.(*exec.ExitError); ok {
			status = exit.ExitCode()
		} else {
			fmt.Fprintf(console, "conformance-runner: %v\n", err)
		}
	}
	// hydrophone fetches junit_01.xml, the name Kubernetes' e2e writes;
	// the suite writes junit.xml (with the run's provenance).
	if data, err := os.ReadFile(filepath.Join(results, "junit.xml")); err == nil {
		if err := os.WriteFile(filepath.Join(results, "junit_01.xml"), data, 0o644); err != nil {
			fmt.Fprintf(stderr, "conformance-runner: junit_01.xml: %v\n", err)
		}
	} else {
		fmt.Fprintf(stderr, "conformance-runner: the suite wrote no junit.xml: %v\n", err)
	}
	result, summary := verdict(results)
	fmt.Fprintf(log, "\n%s\n%s%s\n", SummaryBegin, summary, SummaryEnd)
	if result != string(reports.Passed) && status == 0 {
		status = 1
	}
	return status
}

// The summary's markers in e2e.log (SummaryFromLog reads it back).
const (
	SummaryBegin = "===== router-conformance summary.md ====="
	SummaryEnd   = "===== end of summary.md ====="
)

// verdict reads the run's result and summary.md.
func verdict(results string) (result, summary string) {
	data, err := os.ReadFile(filepath.Join(results, reports.SummaryMD))
	if err != nil {
		return "", fmt.Sprintf("no summary.md was written: %v\n", err)
	}
	return string(reports.ReadResult(results)), string(data)
}

// SummaryFromLog takes the summary the runner appended out of a
// retrieved e2e.log.
func SummaryFromLog(log string) (string, bool) {
	_, rest, ok := strings.Cut(log, SummaryBegin+"\n")
	if !ok {
		return "", false
	}
	summary, _, ok := strings.Cut(rest, SummaryEnd)
	return summary, ok
}
