// Package runner is the one run path: everything around the suite's
// binary that makes a run a run — clearing the previous run's outputs,
// Ginkgo's command line, the repeats, the certification's preconditions,
// the bundle and its verification, the verdict line and the exit status.
// `make e2e`, `make certify`, `make e2e-existing` and `make verify` call
// it through runner/cmd/run; the air-gapped kit's ./run, the conformance
// image's entry point and bench/e2e call it as a library. They differ
// only in where the binaries are (Binaries). Gateway API's
// RunConformanceWithOptions is the model.
package runner

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/reports"
)

// Exit statuses, as make's: 0 only for a passed verdict.
const (
	ExitPassed  = 0
	ExitNotPass = 1
	ExitUsage   = 2
)

// Binaries say where a run's programs are.
type Binaries struct {
	// Ginkgo is the Ginkgo CLI: `go tool ginkgo` in a checkout, the
	// kit's bin/ginkgo.
	Ginkgo []string
	// Suite is what Ginkgo runs: the ./e2e package (compiled by Ginkgo
	// with the e2e tag and Build stamped) or a precompiled e2e.test.
	Suite string
	// Compile: Suite is a package Ginkgo compiles.
	Compile bool
	// Dir is where Ginkgo runs (the checkout; "" is the current one).
	Dir string
	// RepoRoot is the suite's -repo (a checkout, a kit, the image's /).
	RepoRoot string
	// Images is a prebuilt images manifest the suite uses (-images), ""
	// when the suite builds its images.
	Images string
	// Build is the suite build (stamped when Compile, and what the
	// verifier expects of a bundle).
	Build Build
	// Prepare, when set, readies the binaries for a run of options o once
	// they hold (a checkout builds its images, the kit checks its
	// checksums and loads its images).
	Prepare func(ctx context.Context, o Options) error
}

// prepare readies the binaries (Prepare), when they need it.
func (b Binaries) prepare(ctx context.Context, o Options) error {
	if b.Prepare == nil {
		return nil
	}
	return b.Prepare(ctx, o)
}

// progress: while a node runs longer, Ginkgo says every minute what it
// waits for (a report's cadence, not a wait).
var progress = []string{"--poll-progress-after=60s", "--poll-progress-interval=60s"}

// Run runs the suite as o says and returns the exit status; the console
// goes to stdout/stderr and, whole, to e2e.log in the report directory.
func Run(ctx context.Context, b Binaries, o Options, stdout, stderr io.Writer) int {
	name := o.Name
	if name == "" {
		name = map[bool]string{false: "e2e", true: "certify"}[o.Certify]
		if o.Smoke {
			name = "smoke"
		}
		if o.Measure {
			name = "bench-router"
		}
		if o.Mutate {
			name = "mutants"
		}
	}
	if o.Measure {
		if !b.Compile {
			fmt.Fprintf(stderr, "%s: the measurement is compiled from a checkout of the suite (make bench-router), not run from a kit\n", name)
			return ExitUsage
		}
		b.Suite = MeasurementSuite
	}
	if o.Certify {
		if err := reports.CertifiableRun(o.Repeat); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return ExitUsage
		}
		if err := reports.CertifiableBuild(reports.Suite{Commit: b.Build.Commit, Dirty: b.Build.Dirty}); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return ExitUsage
		}
		if err := certifiableGoEnv(os.Getenv); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return ExitUsage
		}
		if err := certifiableTools(exec.LookPath); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return ExitUsage
		}
		dockerContext := func() (string, error) {
			out, err := exec.CommandContext(ctx, "docker", "context", "show").Output()
			return strings.TrimSpace(string(out)), err
		}
		if err := certifiableDocker(os.Getenv, dockerContext); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return ExitUsage
		}
		if err := verifyModules(ctx, b); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return ExitUsage
		}
	}
	// The kind profile never pulls: a router image that is not in the
	// local Docker engine is said before anything is built or loaded
	// (any other failure to ask Docker is the profile's to report).
	if o.RouterImage != "" && o.onKind() {
		var notLocal images.ErrNotLocal
		img, err := images.Inspect(ctx, o.RouterImage)
		if errors.As(err, &notLocal) {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return ExitUsage
		}
		// A test-only build (make mutants' fault points) is never
		// certified: said here, before anything is built (the suite's
		// set-up says it again of the image it describes).
		if err == nil && o.Certify {
			if err := certifiableRouterImage(img); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", name, err)
				return ExitUsage
			}
		}
	}
	if o.Mutate && !b.Compile {
		fmt.Fprintf(stderr, "%s: the fault build is compiled from a checkout of the suite (make mutants), not run from a kit\n", name)
		return ExitUsage
	}
	if err := b.prepare(ctx, o); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ExitNotPass
	}
	if o.Mutate {
		return mutants(ctx, b, o, stdout, stderr)
	}
	reportDir, err := filepath.Abs(o.ReportDir)
	if err == nil {
		err = clearPreviousRun(reportDir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ExitNotPass
	}
	log, err := os.Create(filepath.Join(reportDir, "e2e.log"))
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ExitNotPass
	}
	defer log.Close()
	console, consoleErr := io.MultiWriter(stdout, log), io.MultiWriter(stderr, log)

	after := o.After
	if after == nil {
		after = stdout
	}
	status := ExitPassed
	if o.Repeat == 1 {
		if ginkgo(ctx, b, o, reportDir, reports.ReportJSON, nil, console, consoleErr) != nil {
			status = ExitNotPass
		}
	} else {
		var files []string
		for i := 1; i <= o.Repeat; i++ {
			fmt.Fprintf(console, "== run %d of %d\n", i, o.Repeat)
			// Every run keeps the cluster for the next; it goes after
			// the last (a reused cluster is the user's and stays).
			extra := []string{"-keep"}
			if i > 1 {
				extra = append(extra, "-reuse")
			}
			file := fmt.Sprintf("report-%d.json", i)
			files = append(files, filepath.Join(reportDir, file))
			if ginkgo(ctx, b, o, reportDir, file, extra, console, consoleErr) != nil {
				status = ExitNotPass
			}
		}
		// Only a cluster the kind profile made is the run's to delete.
		if !o.Keep && !o.Reuse && o.onKind() {
			if err := deleteCluster(ctx, b, o.Cluster); err != nil {
				fmt.Fprintf(consoleErr, "%s: %v\n", name, err)
				status = ExitNotPass
			}
		}
		lines, err := reports.Repeats(reportDir, files)
		if err != nil {
			fmt.Fprintf(consoleErr, "%s: %v\n", name, err)
			status = ExitNotPass
		}
		for _, l := range lines {
			fmt.Fprintln(after, l)
		}
	}
	if o.Certify && !o.Rerun {
		log.Close() // the bundle takes e2e.log whole: what follows is not in it
		bundle, err := reports.BundleRun(reportDir, o.SignKey)
		if err != nil {
			fmt.Fprintf(stderr, "certify: no bundle: %v\n", err)
			return ExitNotPass
		}
		fmt.Fprintln(after, "bundle:", bundle)
		// The run checks its own bundle; a development build says so on the
		// line (a certifier's verify refuses it without -allow-dev).
		if s := verify(bundle, b.Build, true, false, nil, nil, after); s != ExitPassed {
			status = s
		}
	}
	if o.Measure {
		// A measurement has figures, not a verdict: its status is the
		// specs'.
		fmt.Fprintf(after, "bench-router: %s\n", filepath.Join(reportDir, reports.MeasurementFigures+".md"))
		return status
	}
	return verdict(reportDir, status, after)
}

// verify checks a bundle as a certifier does, against the build the
// verifier is (its commit is the one the bundle must name), prints its one
// line (and with verbose the table) and returns the exit status: 0 a
// verified passed verdict, 2 a verified verdict that is not passed, 1 a
// bundle that fails.
func verify(bundle string, b Build, allowDev, verbose bool, key, certifierKey *reports.Key, w io.Writer) int {
	v, err := reports.Verify(bundle, reports.VerifyOptions{AllowDev: allowDev, Commit: b.Commit, Version: b.Version, Key: key, CertifierKey: certifierKey})
	if err != nil {
		fmt.Fprintln(w, "FAIL:", err)
		return ExitNotPass
	}
	fmt.Fprintln(w, v.Line())
	if verbose {
		fmt.Fprint(w, v.Table())
	}
	return v.ExitCode()
}

// clearPreviousRun removes what a previous run wrote that this one might
// not (a stale verdict must never be read as this run's). history.jsonl
// stays: it is every run's.
func clearPreviousRun(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	stale := []string{"failures", reports.ConformanceYAML, reports.ConformanceJSON, reports.SummaryMD, reports.ReportJSON, "junit.xml", "e2e.log", "repeat.json"}
	more, err := filepath.Glob(filepath.Join(dir, "report-*.json"))
	if err != nil {
		return err
	}
	for _, f := range stale {
		more = append(more, filepath.Join(dir, f))
	}
	for _, f := range more {
		if err := os.RemoveAll(f); err != nil {
			return err
		}
	}
	return nil
}

// GinkgoArgs is Ginkgo's command line for one run of the suite.
func GinkgoArgs(b Binaries, o Options, reportDir, jsonReport string, extra []string) []string {
	args := slices.Clone(b.Ginkgo[1:])
	if b.Compile {
		args = append(args, "-tags", "e2e", "--ldflags="+b.Build.LDFlags())
		if o.Certify {
			args = append(args, "-trimpath")
		}
	}
	args = append(args, "--procs="+strconv.Itoa(o.Procs), "--timeout="+runTimeout(o.Suite).String())
	args = append(args, progress...)
	args = append(args, "--output-dir="+reportDir, "--json-report="+jsonReport)
	if o.FlakeAttempts > 0 {
		args = append(args, "--flake-attempts="+strconv.Itoa(o.FlakeAttempts))
	}
	if o.Focus != "" {
		args = append(args, "--label-filter="+o.Focus)
	}
	args = append(args, o.GinkgoArgs...)
	args = append(args, b.Suite, "--", "-repo="+b.RepoRoot, "-report-dir="+reportDir)
	if b.Images != "" {
		args = append(args, "-images="+b.Images)
	}
	args = append(args, o.Suite...)
	args = append(args, extra...)
	if o.Certify {
		args = append(args, "-certify")
	}
	return args
}

// compileEnv is the environment Ginkgo compiles the suite in: the
// checkout as it is, whatever GOFLAGS (an -overlay, a -modfile) or a
// go.work the caller's environment holds.
func compileEnv(env []string) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, "GOFLAGS=") || strings.HasPrefix(kv, "GOWORK=")
	})
	return append(out, "GOFLAGS=-buildvcs=false", "GOWORK=off")
}

// certifiableRouterImage: a test-only build (make mutants' fault points,
// images.TestOnlyLabel) is never certified.
func certifiableRouterImage(img images.RouterImage) error {
	if img.TestOnly == "" {
		return nil
	}
	return fmt.Errorf("the router image %s is a test-only build (Go build tags %q, label %s): a certification judges a router as shipped", img.Ref, img.TestOnly, images.TestOnlyLabel)
}

// systemTools are where a system's docker and git live. A certification
// reads image IDs through docker and the build's commit through git: one
// earlier on PATH could answer what it likes, so the run path refuses it
// rather than record its answers. /snap/bin is not one: a snap comes from
// any publisher of a store, not the system's packages.
var systemTools = []string{"/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin"}

// certifiableDocker: the system's docker talks to the local engine, not
// to another chosen by the environment (DOCKER_HOST, DOCKER_CONTEXT) or by
// a context made current in docker's configuration (context shows what
// `docker context show` says): that engine would answer for the image
// IDs the run records.
func certifiableDocker(getenv func(string) string, context func() (string, error)) error {
	for _, v := range []string{"DOCKER_HOST", "DOCKER_CONTEXT"} {
		if getenv(v) != "" {
			return fmt.Errorf("%s=%q: a certification reads image IDs from the local Docker engine only; unset %s", v, getenv(v), v)
		}
	}
	current, err := context()
	switch {
	case err != nil:
		return fmt.Errorf("docker context show: %v: a certification needs the local Docker engine (make docker starts it)", err)
	case current != "default":
		return fmt.Errorf("docker's current context is %q: a certification reads image IDs from the local Docker engine only; docker context use default", current)
	}
	return nil
}

func certifiableTools(lookPath func(string) (string, error)) error {
	for _, tool := range []string{"docker", "git"} {
		path, err := lookPath(tool)
		if err != nil {
			return fmt.Errorf("no %s on PATH: a certification needs the system's %s", tool, tool)
		}
		if !slices.Contains(systemTools, filepath.Dir(path)) {
			return fmt.Errorf("%s on PATH is %s, not the system's (%s): a certification reads image IDs and the suite's commit only through the system's tools; put its directory first on PATH", tool, path, strings.Join(systemTools, ", "))
		}
	}
	return nil
}

// verifyModules: the modules a certification compiles in are the ones
// go.sum names (go mod verify: nothing in the module cache was changed
// since it was downloaded). A prebuilt suite (the kit) compiles nothing.
func verifyModules(ctx context.Context, b Binaries) error {
	if !b.Compile {
		return nil
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "verify")
	cmd.Dir = b.Dir
	cmd.Env = compileEnv(os.Environ())
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod verify: %s: the module cache holds modules that differ from go.sum; run `go clean -modcache` and certify again", strings.TrimSpace(string(out)))
	}
	return nil
}

// certifiableGoEnv: a certification's run path itself was compiled from
// the checkout (go run reads the same environment): GOFLAGS beyond
// -buildvcs=false and a go.work could have replaced its code.
func certifiableGoEnv(getenv func(string) string) error {
	for _, f := range strings.Fields(getenv("GOFLAGS")) {
		if f != "-buildvcs=false" {
			return fmt.Errorf("GOFLAGS=%q can change what is compiled (%s): a certification is built from the checkout as it is; unset GOFLAGS (make certify sets it)", getenv("GOFLAGS"), f)
		}
	}
	if w := getenv("GOWORK"); w != "" && w != "off" {
		return fmt.Errorf("GOWORK=%q compiles other modules in: a certification is built from the checkout as it is; set GOWORK=off (make certify does)", w)
	}
	return nil
}

// runTimeout is the run's -timeout-run as the suite reads it (the flags
// given, over a -config file, over the table): Ginkgo's --timeout must be
// the same bound. Flags the suite would refuse leave the table's: the
// suite then fails on them with its own message.
func runTimeout(suite []string) time.Duration {
	fs := flag.NewFlagSet("suite", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fl := framework.RegisterFlags(fs)
	if fs.Parse(suite) != nil {
		return contract.DefaultTimeouts().Run
	}
	o, err := fl.Options()
	if err != nil {
		return contract.DefaultTimeouts().Run
	}
	return o.Timeouts.Run
}

// ginkgo runs the suite once. Ginkgo and its parallel processes are a
// process group of their own, and the run path is what interrupts them:
// a terminal's Ctrl-C (SIGINT to the run path's group) or a cancelled CI
// job's SIGTERM reaches the run path, which sends one SIGINT to every
// process of Ginkgo's group (each runs its cleanups, the cluster's
// deletion among them), and another for each signal after (Ginkgo's
// second interrupt skips to the report). A process that sent only to the
// Ginkgo CLI would leave the parallel processes running.
func ginkgo(ctx context.Context, b Binaries, o Options, reportDir, jsonReport string, extra []string, stdout, stderr io.Writer) error {
	cmd := exec.Command(b.Ginkgo[0], GinkgoArgs(b, o, reportDir, jsonReport, extra)...)
	cmd.Dir = b.Dir
	cmd.Env = compileEnv(os.Environ())
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", b.Ginkgo[0], err)
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	interrupt := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		interrupt()
	}
	// The signal that ended ctx was passed on; each one after it is too.
	more := make(chan os.Signal, 1)
	signal.Notify(more, interruptSignals...)
	defer signal.Stop(more)
	for {
		select {
		case err := <-done:
			return err
		case <-more:
			interrupt()
		}
	}
}

// interruptSignals stop a run: Ctrl-C and a cancelled CI job's SIGTERM.
var interruptSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM}

// deleteCluster removes the kind cluster a repeated run made (each run
// kept it for the next).
func deleteCluster(ctx context.Context, b Binaries, name string) error {
	if name == "" {
		name = framework.DefaultOptions().ClusterName
	}
	return kind.Delete(ctx, kind.Options{Name: name, RepoRoot: b.RepoRoot})
}

// verdict prints the run's result and returns the exit status: not
// passed is a failure even when every process exited 0, but for a
// filtered run (FOCUS, make smoke) whose chosen specs all passed: its
// verdict says partial, its status 0.
func verdict(reportDir string, status int, w io.Writer) int {
	// Under GitHub Actions the verdict, failed and flaked specs become
	// annotations on the run's page.
	if os.Getenv("GITHUB_ACTIONS") == "true" {
		for _, line := range reports.DirAnnotations(reportDir) {
			fmt.Fprintln(w, line)
		}
	}
	r := reports.ReadReport(reportDir)
	line := string(r.Result) + " against OpenShift " + string(r.OpenShiftRelease)
	if r.Reason != "" && (r.Result == reports.Error || r.Result == reports.Failed) {
		// Why, as summary.md's first lines say it: the console's last
		// line is enough to act on. (A partial run's reason lists every
		// feature a filter left out: summary.md has it.)
		line += ": " + r.Reason
	}
	if r.Result == "" {
		line = "no report was written"
	}
	fmt.Fprintf(w, "conformance: %s (%s)\n", line, filepath.Join(reportDir, reports.SummaryMD))
	if r.Result != reports.Passed && !r.FilteredPass() && status == ExitPassed {
		status = ExitNotPass
	}
	return status
}
