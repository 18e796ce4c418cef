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
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/router-conformance/suite/reports"
	"github.com/router-conformance/suite/runner"
)

// Paths inside the conformance image.
const (
	GinkgoPath   = "/usr/local/bin/ginkgo"
	SuitePath    = "/usr/local/bin/e2e.test"
	RunnerPath   = "/usr/local/bin/conformance-runner"
	ImagesPath   = "/etc/router-conformance/images.json"
	ResultsDir   = "/tmp/results"
	KubeConform  = `\[Conformance\]`
	defaultProcs = 4
)

// Env reads the environment (os.LookupEnv in the image).
type Env func(string) (string, bool)

// Binaries are the image's: Ginkgo's CLI, the precompiled suite, the
// fixture images' manifest, the build they were stamped with.
func Binaries() runner.Binaries {
	return runner.Binaries{Ginkgo: []string{GinkgoPath}, Suite: SuitePath, RepoRoot: "/", Images: ImagesPath, Build: runner.StampedBuild()}
}

// RunnerOptions turn the conformance image's environment into the run
// path's options: the existing profile inside the cluster, every report
// into the results directory; hydrophone's focus, skip and dry run go to
// Ginkgo, its extra arguments to the suite (-certify among them makes
// the run a certification, bundled and verified in the pod).
func RunnerOptions(env Env) runner.Options {
	get := func(k string) string { v, _ := env(k); return strings.TrimSpace(v) }
	o := runner.Options{Procs: 1, Repeat: 1, ReportDir: get("RESULTS_DIR"), Suite: []string{"-profile=existing", "-in-cluster"}}
	if o.ReportDir == "" {
		o.ReportDir = ResultsDir
	}
	o.GinkgoArgs = []string{"--no-color"}
	// hydrophone's default focus is Kubernetes' conformance tag, which no
	// spec of this suite carries: the whole suite is the conformance run.
	if focus := get("E2E_FOCUS"); focus != "" && focus != KubeConform {
		o.GinkgoArgs = append(o.GinkgoArgs, "--focus="+focus)
	}
	if skip := get("E2E_SKIP"); skip != "" {
		o.GinkgoArgs = append(o.GinkgoArgs, "--skip="+skip)
	}
	if p := get("E2E_PARALLEL"); p != "" && p != "false" && p != "n" && p != "N" {
		o.Procs = defaultProcs
		if n, err := strconv.Atoi(p); err == nil && n > 0 {
			o.Procs = n
		}
	}
	for _, a := range strings.Fields(get("E2E_EXTRA_GINKGO_ARGS")) {
		name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if n, err := strconv.Atoi(value); err == nil && n > 0 && (name == "procs" || name == "nodes") {
			o.Procs = n
			continue
		}
		o.GinkgoArgs = append(o.GinkgoArgs, a)
	}
	if get("E2E_DRYRUN") != "" {
		o.GinkgoArgs = append(o.GinkgoArgs, "--dry-run")
	}
	for _, a := range strings.Fields(get("E2E_EXTRA_ARGS")) {
		if name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); name == "certify" {
			o.Certify = value == "" || value == "true"
			continue
		}
		o.Suite = append(o.Suite, a)
	}
	return o
}

// Run is the conformance image's entry point: the one run path with the
// image's binaries (its console on stdout and in e2e.log), then
// junit_01.xml for hydrophone and the summary appended to e2e.log. The
// console ends with Ginkgo's last line, which hydrophone waits for: what
// the run path says after it goes to e2e.log only. Its exit status is 0
// only for a passed verdict, as make e2e's.
func Run(env Env, stdout, stderr io.Writer) int {
	o := RunnerOptions(env)
	var after strings.Builder
	o.After = &after
	status := runner.Run(context.Background(), Binaries(), o, stdout, stderr)
	results := o.ReportDir
	// hydrophone fetches junit_01.xml, the name Kubernetes' e2e writes;
	// the suite writes junit.xml (with the run's provenance).
	if data, err := os.ReadFile(filepath.Join(results, "junit.xml")); err == nil {
		if err := os.WriteFile(filepath.Join(results, "junit_01.xml"), data, 0o644); err != nil {
			fmt.Fprintf(stderr, "conformance-runner: junit_01.xml: %v\n", err)
		}
	} else {
		fmt.Fprintf(stderr, "conformance-runner: the suite wrote no junit.xml: %v\n", err)
	}
	summary, err := os.ReadFile(filepath.Join(results, reports.SummaryMD))
	if err != nil {
		summary = []byte(fmt.Sprintf("no summary.md was written: %v\n", err))
	}
	if err := reports.AppendFile(filepath.Join(results, "e2e.log"), fmt.Sprintf("\n%s%s\n%s%s\n", after.String(), SummaryBegin, summary, SummaryEnd)); err != nil {
		fmt.Fprintf(stderr, "conformance-runner: e2e.log: %v\n", err)
	}
	return status
}

// The summary's markers in e2e.log (SummaryFromLog reads it back).
const (
	SummaryBegin = "===== router-conformance summary.md ====="
	SummaryEnd   = "===== end of summary.md ====="
)

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
