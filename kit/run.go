package kit

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
	"strconv"
	"strings"
	"syscall"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/reports"
)

// Exit statuses of ./run, as make's: 0 only for a passed verdict.
const (
	exitOK      = 0
	exitNotPass = 1
	exitUsage   = 2
)

// usage is ./run's help.
const usage = `usage: ./run <command> [flags]

  e2e          bring up the hermetic cluster from the kit's images, run the
               conformance specs, write the reports, delete the cluster
  certify      a certification run, then the bundle, verified (as make certify)
  verify F     check a certification bundle (as make verify)
  list-images  the images the kit carries (name, reference, ID)
  load-images  load images.tar into Docker unless every image is there
  help         this text; ./run e2e -help lists every flag

e2e and certify take the run's flags (-procs, -focus, -repeat,
-flake-attempts, -reports) and every flag of the suite (-router-image,
-keep, -reuse, -cluster-name, -implementation-*, -timeout-*, ...), as
make e2e takes PROCS, FOCUS, REPEAT, FLAKE_ATTEMPTS and ARGS.
Exit status: 0 when the verdict is passed, 1 otherwise, 2 for bad usage.
`

// Main runs ./run with args (without the program name) from the kit in
// dir and returns the exit status.
func Main(dir string, args []string, stdout, stderr io.Writer) int {
	k := &runner{dir: dir, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmd, args := args[0], args[1:]
	var err error
	switch cmd {
	case "e2e", "certify":
		return k.e2e(cmd == "certify", args)
	case "verify":
		if len(args) != 1 {
			fmt.Fprintln(stderr, "run verify: give one bundle: ./run verify <organization>-<project>-<version>.tar.gz")
			return exitUsage
		}
		return k.exec(filepath.Join(dir, VerifyBin), args...)
	case "list-images":
		err = k.listImages()
	case "load-images":
		err = k.loadImages(context.Background())
	case "help", "-help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "run: unknown command %q\n%s", cmd, usage)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintln(stderr, "run:", err)
		return exitNotPass
	}
	return exitOK
}

type runner struct {
	dir            string
	stdout, stderr io.Writer
}

func (k *runner) manifest() (images.Manifest, error) {
	return images.ReadManifest(filepath.Join(k.dir, ImagesJSON))
}

func (k *runner) listImages() error {
	m, err := k.manifest()
	if err != nil {
		return err
	}
	for _, img := range m.Images {
		fmt.Fprintf(k.stdout, "%s\t%s\t%s\n", img.Name, img.Ref, img.ID)
	}
	return nil
}

// loadImages loads images.tar when Docker lacks an image of the manifest
// (or holds another under its name), then checks that all are there.
func (k *runner) loadImages(ctx context.Context) error {
	if out, err := exec.CommandContext(ctx, "docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		return fmt.Errorf("no Docker engine answers (docker info: %s): install or start Docker; the kit needs it and nothing else", firstLine(string(out), err))
	}
	m, err := k.manifest()
	if err != nil {
		return err
	}
	missing, err := m.Missing(ctx)
	if err != nil {
		return err
	}
	if len(missing) == 0 {
		return nil
	}
	fmt.Fprintf(k.stderr, "run: loading %s into Docker (%d of %d images missing, first %s)\n", ImagesTar, len(missing), len(m.Images), missing[0].Ref)
	load := exec.CommandContext(ctx, "docker", "load", "-q", "-i", filepath.Join(k.dir, ImagesTar))
	load.Stdout, load.Stderr = k.stderr, k.stderr
	if err := load.Run(); err != nil {
		return fmt.Errorf("docker load -i %s: %w", ImagesTar, err)
	}
	return m.Present(ctx, ImagesTar)
}

// runFlags are ./run's own flags of e2e and certify; every other flag is
// the suite's and goes to it as given.
type runFlags struct {
	procs         int
	focus         string
	repeat        int
	flakeAttempts int
	reports       string
	suite         []string
	reuse, keep   bool
	cluster       string
}

// passThrough records a suite flag as it was given, to pass it on.
type passThrough struct {
	name   string
	isBool bool
	args   *[]string
	onSet  func(string)
}

func (p passThrough) String() string   { return "" }
func (p passThrough) IsBoolFlag() bool { return p.isBool }
func (p passThrough) Set(v string) error {
	// Ginkgo starts the suite in its binary's directory: a file named
	// relative to where ./run was called must be made absolute.
	if p.name == "config" || p.name == "kubeconfig" {
		if abs, err := filepath.Abs(v); err == nil {
			v = abs
		}
	}
	*p.args = append(*p.args, "-"+p.name+"="+v)
	if p.onSet != nil {
		p.onSet(v)
	}
	return nil
}

// parseRunFlags reads e2e's and certify's flags: the run's own, then the
// suite's (framework.RegisterFlags, so a misspelt flag is refused here,
// before anything is loaded).
func parseRunFlags(name string, args []string, stderr io.Writer) (*runFlags, error) {
	rf := &runFlags{}
	fs := flag.NewFlagSet("run "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&rf.procs, "procs", 4, "parallel Ginkgo processes (PROCS; the kind profile has shard ports for 4)")
	fs.StringVar(&rf.focus, "focus", "", "a Ginkgo label expression (FOCUS), e.g. 'router || hsts'")
	fs.IntVar(&rf.repeat, "repeat", 1, "run the suite N times on one cluster (REPEAT)")
	fs.IntVar(&rf.flakeAttempts, "flake-attempts", 0, "run a failing spec up to N times (FLAKE_ATTEMPTS)")
	fs.StringVar(&rf.reports, "reports", "_output", "where the reports go (REPORTS)")
	suite := flag.NewFlagSet("suite", flag.ContinueOnError)
	framework.RegisterFlags(suite)
	suite.VisitAll(func(f *flag.Flag) {
		switch f.Name {
		case "repo", "report-dir", "images", "certify":
			return // the run sets them
		}
		b, _ := f.Value.(interface{ IsBoolFlag() bool })
		p := passThrough{name: f.Name, isBool: b != nil && b.IsBoolFlag(), args: &rf.suite}
		switch f.Name {
		case "reuse":
			p.onSet = func(v string) { rf.reuse, _ = strconv.ParseBool(v) }
		case "keep":
			p.onSet = func(v string) { rf.keep, _ = strconv.ParseBool(v) }
		case "cluster-name":
			p.onSet = func(v string) { rf.cluster = v }
		}
		fs.Var(p, f.Name, f.Usage)
	})
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q: flags only (./run %s -help lists them)", fs.Args(), name)
	}
	if rf.procs < 1 || rf.repeat < 1 || rf.flakeAttempts < 0 {
		return nil, errors.New("-procs and -repeat must be at least 1, -flake-attempts at least 0")
	}
	return rf, nil
}

// e2e is ./run e2e (and certify): what make e2e (make certify) does.
func (k *runner) e2e(certify bool, args []string) int {
	name := map[bool]string{false: "e2e", true: "certify"}[certify]
	rf, err := parseRunFlags(name, args, k.stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(k.stderr, "run %s: %v\n", name, err)
		return exitUsage
	}
	if certify {
		switch {
		case rf.focus != "":
			err = errors.New("a certification runs the whole claimed suite: drop -focus")
		case rf.repeat != 1:
			err = errors.New("a certification runs the suite once: drop -repeat")
		case rf.flakeAttempts != 0:
			err = errors.New("a certification counts every spec as it ran: drop -flake-attempts")
		case rf.reuse:
			err = errors.New("a certification makes its own cluster: drop -reuse")
		}
		if err != nil {
			fmt.Fprintf(k.stderr, "run certify: %v\n", err)
			return exitUsage
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	// Ctrl-C reaches Ginkgo from the terminal, which runs the cleanups;
	// ./run waits for it and still reports.
	signal.Ignore(syscall.SIGINT)
	if err := CheckSums(k.dir); err != nil {
		fmt.Fprintln(k.stderr, "run:", err)
		return exitNotPass
	}
	if err := k.loadImages(ctx); err != nil {
		fmt.Fprintln(k.stderr, "run:", err)
		return exitNotPass
	}
	reportDir, err := filepath.Abs(rf.reports)
	if err != nil {
		fmt.Fprintln(k.stderr, "run:", err)
		return exitNotPass
	}
	if err := clearPreviousRun(reportDir); err != nil {
		fmt.Fprintln(k.stderr, "run:", err)
		return exitNotPass
	}
	status := exitOK
	if rf.repeat == 1 {
		var log io.Writer
		if certify {
			f, err := os.Create(filepath.Join(reportDir, "e2e.log"))
			if err != nil {
				fmt.Fprintln(k.stderr, "run:", err)
				return exitNotPass
			}
			defer f.Close()
			log = f
		}
		if k.ginkgo(ctx, rf, reportDir, reports.ReportJSON, certify, log, nil) != nil {
			status = exitNotPass
		}
	} else {
		var files []string
		for i := 1; i <= rf.repeat; i++ {
			fmt.Fprintf(k.stdout, "== run %d of %d\n", i, rf.repeat)
			// Every run keeps the cluster for the next; it goes after
			// the last (a reused cluster is the user's and stays).
			extra := []string{"-keep"}
			if i > 1 {
				extra = append(extra, "-reuse")
			}
			file := fmt.Sprintf("report-%d.json", i)
			files = append(files, filepath.Join(reportDir, file))
			if k.ginkgo(ctx, rf, reportDir, file, false, nil, extra) != nil {
				status = exitNotPass
			}
		}
		if !rf.keep && !rf.reuse {
			if err := k.deleteCluster(ctx, rf.cluster); err != nil {
				fmt.Fprintln(k.stderr, "run:", err)
				status = exitNotPass
			}
		}
		if k.exec(filepath.Join(k.dir, RepeatSumBin), append([]string{"-dir", reportDir}, files...)...) != exitOK {
			status = exitNotPass
		}
	}
	if certify {
		out, err := exec.Command(filepath.Join(k.dir, BundleBin), "-dir", reportDir).Output()
		if err != nil {
			fmt.Fprintln(k.stderr, "run certify: no bundle:", exitText(err))
			return exitNotPass
		}
		bundle := strings.TrimSpace(string(out))
		fmt.Fprintln(k.stdout, "bundle:", bundle)
		if s := k.exec(filepath.Join(k.dir, VerifyBin), bundle); s != exitOK {
			status = exitNotPass
		}
	}
	return k.verdict(reportDir, status)
}

// deleteCluster removes the kind cluster a repeated run made (each run
// kept it for the next), as make e2e REPEAT=N does.
func (k *runner) deleteCluster(ctx context.Context, name string) error {
	if name == "" {
		name = framework.DefaultOptions().ClusterName
	}
	return kind.Delete(ctx, kind.Options{Name: name, RepoRoot: k.dir})
}

// clearPreviousRun removes what a previous run left that this one might
// not write (make e2e does the same).
func clearPreviousRun(dir string) error {
	for _, f := range []string{"failures", reports.ConformanceYAML, reports.ConformanceJSON, reports.SummaryMD} {
		if err := os.RemoveAll(filepath.Join(dir, f)); err != nil {
			return err
		}
	}
	return os.MkdirAll(dir, 0o755)
}

// ginkgo runs the precompiled suite under Ginkgo's CLI as make e2e runs
// it from source; log, when set, also receives the console.
func (k *runner) ginkgo(ctx context.Context, rf *runFlags, reportDir, jsonReport string, certify bool, log io.Writer, extra []string) error {
	args := []string{"--procs=" + strconv.Itoa(rf.procs), "--timeout=" + contract.DefaultTimeouts().Run.String(),
		"--poll-progress-after=60s", "--poll-progress-interval=60s",
		"--output-dir=" + reportDir, "--json-report=" + jsonReport}
	if rf.flakeAttempts > 0 {
		args = append(args, "--flake-attempts="+strconv.Itoa(rf.flakeAttempts))
	}
	if rf.focus != "" {
		args = append(args, "--label-filter="+rf.focus)
	}
	args = append(args, filepath.Join(k.dir, SuiteBin), "--",
		"-repo="+k.dir, "-report-dir="+reportDir, "-images="+filepath.Join(k.dir, ImagesJSON))
	args = append(args, rf.suite...)
	args = append(args, extra...)
	if certify {
		args = append(args, "-certify")
	}
	cmd := exec.Command(filepath.Join(k.dir, GinkgoBin), args...)
	cmd.Stdout, cmd.Stderr = k.stdout, k.stderr
	if log != nil {
		cmd.Stdout, cmd.Stderr = io.MultiWriter(k.stdout, log), io.MultiWriter(k.stderr, log)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		// SIGTERM (a CI job cancelled): Ginkgo's interrupt runs the
		// cleanups, the cluster's deletion among them.
		_ = cmd.Process.Signal(os.Interrupt)
		return <-done
	}
}

// exec runs one of the kit's tools with the console attached and returns
// its exit status.
func (k *runner) exec(bin string, args ...string) int {
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = k.stdout, k.stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		fmt.Fprintf(k.stderr, "run: %s: %v\n", filepath.Base(bin), err)
		return exitNotPass
	}
	return exitOK
}

// verdict prints the run's result as make does and returns the exit
// status: not passed is a failure even when every process exited 0.
func (k *runner) verdict(reportDir string, status int) int {
	result := string(reports.ReadResult(reportDir))
	if result == "" {
		result = "no report was written"
	}
	fmt.Fprintf(k.stdout, "conformance: %s (%s)\n", result, filepath.Join(reportDir, reports.SummaryMD))
	if result != string(reports.Passed) && status == exitOK {
		status = exitNotPass
	}
	return status
}

func exitText(err error) string {
	var exit *exec.ExitError
	if errors.As(err, &exit) && len(exit.Stderr) > 0 {
		return strings.TrimSpace(string(exit.Stderr))
	}
	return err.Error()
}

func firstLine(out string, err error) string {
	if line, _, _ := strings.Cut(strings.TrimSpace(out), "\n"); line != "" {
		return line
	}
	return err.Error()
}
