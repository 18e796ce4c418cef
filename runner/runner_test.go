package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/internal/dockertest"
	"github.com/router-conformance/suite/reports"
)

// git runs git in dir for a test.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.test", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.test")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// committedRepo is a git repository of one commit (a file "a").
func committedRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "a")
	git(t, dir, "commit", "-qm", "a")
	return dir
}

// The build is what git says of the checkout, whatever the environment
// claims: a make variable or an environment variable cannot make a dirty
// tree clean, and a tree git cannot describe is dirty and unknown.
func TestSourceBuildIsWhatGitSays(t *testing.T) {
	dir := committedRepo(t)
	clean := SourceBuild(dir)
	if clean.Dirty || len(clean.Commit) != 40 || clean.Version != reports.SuiteVersion {
		t.Errorf("a clean checkout: %+v", clean)
	}
	// A release tag on a clean HEAD is the version.
	git(t, dir, "tag", "v1.2.3")
	if b := SourceBuild(dir); b.Version != "v1.2.3" || b.Dirty {
		t.Errorf("a tagged release: %+v", b)
	}
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SUITE_DIRTY", "false")
	t.Setenv("SUITE_COMMIT", "0123456789abcdef0123456789abcdef01234567")
	dirty := SourceBuild(dir)
	if !dirty.Dirty || dirty.Commit != clean.Commit || dirty.Version != reports.SuiteVersion {
		t.Errorf("a changed tree, SUITE_DIRTY=false in the environment: %+v", dirty)
	}
	if err := os.WriteFile(filepath.Join(dir, "b"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "checkout", "-q", "a")
	if b := SourceBuild(dir); !b.Dirty {
		t.Errorf("an untracked file: %+v", b)
	}
	// Edits git was told not to see: a tracked file marked
	// skip-worktree or assume-unchanged, an untracked file hidden by the
	// checkout's own .git/info/exclude (the repository's .gitignore, the
	// control, hides what the build never compiles).
	if err := os.Remove(filepath.Join(dir, "b")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("/out/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", ".gitignore")
	git(t, dir, "commit", "-qm", "ignore")
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "out", "report.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if b := SourceBuild(dir); b.Dirty {
		t.Errorf("a file the repository's .gitignore names: %+v", b)
	}
	for _, hide := range []string{"--skip-worktree", "--assume-unchanged"} {
		git(t, dir, "update-index", hide, "a")
		if err := os.WriteFile(filepath.Join(dir, "a"), []byte("hidden"), 0o644); err != nil {
			t.Fatal(err)
		}
		if b := SourceBuild(dir); !b.Dirty {
			t.Errorf("an edit hidden by git update-index %s: %+v", hide, b)
		}
		git(t, dir, "update-index", "--no"+strings.TrimPrefix(hide, "-"), "a")
		git(t, dir, "checkout", "-q", "a")
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("extra.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "extra.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b := SourceBuild(dir); !b.Dirty {
		t.Errorf("a file hidden by .git/info/exclude: %+v", b)
	}
	if b := SourceBuild(t.TempDir()); !b.Dirty || b.Commit != "unknown" {
		t.Errorf("no git checkout: %+v", b)
	}
	want := "-X github.com/router-conformance/suite/reports.SuiteVersion=v0.3.0-dev -X github.com/router-conformance/suite/reports.SuiteCommit=abc -X github.com/router-conformance/suite/reports.SuiteDirty=true"
	if got := (Build{Version: "v0.3.0-dev", Commit: "abc", Dirty: true}).LDFlags(); got != want {
		t.Errorf("LDFlags %q", got)
	}
}

// Ginkgo's command line: the table's run timeout, the build stamped when
// Ginkgo compiles, the suite's flags after "--", -certify added once by
// the run path.
func TestGinkgoArgs(t *testing.T) {
	b := Binaries{Ginkgo: []string{"go", "tool", "ginkgo"}, Suite: "./e2e", Compile: true, RepoRoot: "/src",
		Build: Build{Version: "v9.9.9", Commit: "c0ffee", Dirty: false}}
	o := Options{Procs: 4, Repeat: 1, Focus: "hsts", FlakeAttempts: 2, Certify: true, Suite: []string{"-router-image=r:1"}}
	args := GinkgoArgs(b, o, "/out", "report.json", []string{"-keep"})
	sep := slices.Index(args, "--")
	for _, want := range []string{"tool", "ginkgo", "-tags", "--procs=4", "--timeout=" + contract.DefaultTimeouts().Run.String(),
		"--output-dir=/out", "--json-report=report.json", "--flake-attempts=2", "--label-filter=hsts", "./e2e"} {
		if i := slices.Index(args, want); i < 0 || i > sep {
			t.Errorf("Ginkgo's side lacks %q: %q", want, args)
		}
	}
	if !slices.Contains(args, "--ldflags="+b.Build.LDFlags()) {
		t.Errorf("the build is not stamped: %q", args)
	}
	// A certification (and a certifier's rerun) compiles a binary that
	// does not depend on where the checkout is; a development run keeps
	// its file paths for the editor.
	if i := slices.Index(args, "-trimpath"); i < 0 || i > sep {
		t.Errorf("certify compiles without -trimpath: %q", args)
	}
	if slices.Contains(GinkgoArgs(b, Options{Procs: 1}, "/out", "report.json", nil), "-trimpath") {
		t.Error("a development run compiles with -trimpath")
	}
	if tail := strings.Join(args[sep+1:], " "); tail != "-repo=/src -report-dir=/out -router-image=r:1 -keep -certify" {
		t.Errorf("the suite's side: %q", tail)
	}
	// -timeout-run is Ginkgo's --timeout, from a flag or a -config file.
	config := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(config, []byte("timeouts:\n  run: 30m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for suite, want := range map[string][]string{
		"--timeout=2h0m0s": {"-timeout-run=2h"},
		"--timeout=30m0s":  {"-config=" + config},
		"--timeout=1h0m0s": {"-config=" + config, "-timeout-run", "1h"},
	} {
		if args := GinkgoArgs(b, Options{Procs: 1, Suite: want}, "/out", "report.json", nil); !slices.Contains(args, suite) {
			t.Errorf("suite flags %q: Ginkgo's side lacks %q: %q", want, suite, args)
		}
	}
	// A precompiled suite: no compile flags.
	b.Compile = false
	if args := GinkgoArgs(b, Options{Procs: 1}, "/out", "report.json", nil); slices.Contains(args, "-tags") || slices.Contains(args, "-certify") {
		t.Errorf("precompiled: %q", args)
	}
}

// The run path's flags: a misspelt flag is refused before anything runs;
// the flags the run path sets itself cannot be passed.
func TestParseFlags(t *testing.T) {
	var stderr bytes.Buffer
	o, err := ParseFlags("e2e", []string{"-procs", "2", "-repeat", "3", "-reuse", "-cluster-name", "c", "-router-image", "r:1", "-config", "x.yaml"}, nil, &stderr)
	if err != nil || o.Procs != 2 || o.Repeat != 3 || !o.Reuse || o.Cluster != "c" || o.Certify {
		t.Fatalf("%+v %v", o, err)
	}
	if !slices.Contains(o.Suite, "-router-image=r:1") || !strings.HasPrefix(o.Suite[len(o.Suite)-1], "-config=/") {
		t.Errorf("suite flags %q (a file made absolute)", o.Suite)
	}
	for _, args := range [][]string{{"-router-imag", "r"}, {"-certify"}, {"-repo", "/x"}, {"-report-dir", "/x"}, {"stray"}, {"-procs", "0"}} {
		if _, err := ParseFlags("e2e", args, nil, &stderr); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
	if _, err := ParseFlags("./run e2e", []string{"-images", "x.json"}, []string{"images"}, &stderr); err == nil {
		t.Error("the kit's -images accepted from the command line")
	}
	if o, err := ParseFlags("certify", nil, nil, &stderr); err != nil || !o.Certify {
		t.Errorf("certify: %+v %v", o, err)
	}
	// smoke: the smoke label, nothing else.
	if o, err := ParseFlags("make smoke", nil, nil, &stderr); err != nil || !o.Smoke || o.Focus != "smoke" || o.Certify {
		t.Errorf("smoke: %+v %v", o, err)
	}
	if _, err := ParseFlags("smoke", []string{"-focus", "router"}, nil, &stderr); err == nil {
		t.Error("smoke -focus accepted")
	}
	// bench-router: one process, one run, every scenario.
	if o, err := ParseFlags("make bench-router", []string{"-keep"}, nil, &stderr); err != nil || !o.Measure || o.Procs != 1 || o.Smoke || o.Certify {
		t.Errorf("bench-router: %+v %v", o, err)
	}
	for _, args := range [][]string{{"-procs", "4"}, {"-repeat", "2"}, {"-focus", "router"}} {
		if _, err := ParseFlags("bench-router", args, nil, &stderr); err == nil || !strings.Contains(err.Error(), "one object after another") {
			t.Errorf("bench-router %v: %v", args, err)
		}
	}
	// Images built elsewhere: fine for a development run, never for a
	// certification.
	for _, flag := range []string{"-node-image", "-images"} {
		if _, err := ParseFlags("e2e", []string{flag, "x"}, nil, &stderr); err != nil {
			t.Errorf("e2e %s refused: %v", flag, err)
		}
		_, err := ParseFlags("certify", []string{flag, "x"}, nil, &stderr)
		if want := flag + ": a certification runs the images this checkout builds"; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("certify %s: %v, want %q...", flag, err, want)
		}
	}
	// The same images named in a -config file: refused as well, the
	// control (a development run) not.
	for key, want := range map[string]string{"nodeImage": `nodeImage "x" (from -config): a certification runs the node image this checkout builds`,
		"images": `images "/x" (from -config): a certification runs the images this checkout builds`} {
		config := filepath.Join(t.TempDir(), "config.yaml")
		value := map[string]string{"nodeImage": "x", "images": "/x"}[key]
		if err := os.WriteFile(config, []byte(key+": "+value+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, command := range []string{"e2e", "certify"} {
			o, err := ParseFlags(command, []string{"-config", config}, nil, &stderr)
			if err == nil {
				err = checkSuite(o, "")
			}
			switch {
			case command == "e2e" && err != nil:
				t.Errorf("e2e with %s in -config: %v", key, err)
			case command == "certify" && (err == nil || !strings.HasPrefix(err.Error(), want)):
				t.Errorf("certify with %s in -config: %v, want %q...", key, err, want)
			}
		}
	}
}

// A bad suite flag is refused by the run path in one line, exit status 2,
// before anything is built or compiled: a value the suite cannot read,
// the profile's rules, more processes than the profile has ports for. The
// control: the same flags with good values pass.
func TestBadSuiteFlagsAreOneLineBeforeAnything(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-procs", "abc"}, `x e2e: invalid value "abc" for flag -procs: parse error (x e2e -help lists them)`},
		{[]string{"-timeout-converge", "abc"}, `x e2e: -timeout-converge "abc": time: invalid duration "abc"`},
		{[]string{"-procs", "5"}, "x e2e: 5 parallel processes, but the kind profile maps IngressController ports for 4: run with PROCS=4 or fewer (ginkgo --procs)"},
		{[]string{"-profile", "existing", "-router-image", "r:1"}, "x e2e: -router-image and -node-image apply to the kind profile only: on an existing cluster the router is already deployed"},
		{[]string{"-features", "hst"}, `x e2e: -features: "hst" is no feature of the conformance table (contract/features.go)`},
	} {
		var stdout, stderr bytes.Buffer
		status := Main("x", Binaries{Ginkgo: []string{"/nonexistent/ginkgo"}}, nil, append([]string{"e2e"}, tc.args...), &stdout, &stderr)
		if status != ExitUsage || stderr.String() != tc.want+"\n" || stdout.Len() != 0 {
			t.Errorf("%q: status %d, stderr %q, stdout %q; want 2 and %q", tc.args, status, stderr.String(), stdout.String(), tc.want)
		}
	}
	o, err := ParseFlags("x e2e", []string{"-procs", "4", "-timeout-converge", "45s", "-features", "hsts", "-router-image", "r:1"}, nil, io.Discard)
	if err == nil {
		err = checkSuite(o, "")
	}
	if err != nil || o.RouterImage != "r:1" {
		t.Errorf("good flags: %v, router image %q", err, o.RouterImage)
	}
	// make e2e-existing's flags: the lab's cluster, four shard pairs.
	var pairs []string
	for i := range 4 {
		pairs = append(pairs, fmt.Sprintf("%d=127.0.0.1:%d,%d=127.0.0.1:%d,%d", 10080+i, 20080+i, 10443+i, 20443+i, 11936+i))
	}
	lab := []string{"-procs", "4", "-profile", "existing", "-kubeconfig", "k", "-http-addr", "127.0.0.1:1", "-https-addr", "127.0.0.1:2",
		"-domain", "apps.lab.test", "-image-repository", "127.0.0.1:5000/conformance", "-shard-addrs", strings.Join(pairs, " "), "-allow-disruptive"}
	if o, err = ParseFlags("x e2e", lab, nil, io.Discard); err == nil {
		err = checkSuite(o, "")
	}
	if err != nil {
		t.Errorf("the lab's flags: %v", err)
	}
}

// The kind profile never pulls: a -router-image that is not in the local
// Docker engine is refused in one line before the binaries are readied;
// the control, an image that is there, gets as far as readying them.
func TestARouterImageNotInDockerIsRefusedFirst(t *testing.T) {
	const present, absent = "router-conformance/runner-test:present", "router-conformance/runner-test:absent"
	dockertest.Image(t, present, "a router")
	notReadied := errors.New("readied")
	b := Binaries{Ginkgo: []string{"/nonexistent/ginkgo"}, Prepare: func(context.Context, Options) error { return notReadied }}
	for ref, want := range map[string]struct {
		status int
		stderr string
	}{
		absent:  {ExitUsage, "e2e: " + images.ErrNotLocal{Ref: absent}.Error() + "\n"},
		present: {ExitNotPass, "e2e: readied\n"},
	} {
		var stdout, stderr bytes.Buffer
		status := Run(context.Background(), b, Options{Procs: 1, Repeat: 1, ReportDir: t.TempDir(), RouterImage: ref}, &stdout, &stderr)
		if status != want.status || stderr.String() != want.stderr {
			t.Errorf("%s: status %d, stderr %q; want %d, %q", ref, status, stderr.String(), want.status, want.stderr)
		}
	}
}

// A certification is one run of a build that names its commit: refused
// before anything starts, with one line; no report directory is touched.
func TestCertifyRefusesRepeatsAndDirtyBuilds(t *testing.T) {
	clean := Build{Version: "v1.0.0", Commit: "0123456789abcdef0123456789abcdef01234567"}
	for _, tc := range []struct {
		build  Build
		repeat int
		want   string
	}{
		{clean, 20, "certify: a certification runs the suite once: drop REPEAT (-repeat)\n"},
		{Build{Version: "v1.0.0", Commit: clean.Commit, Dirty: true}, 1, "certify: the suite was built from a tree with uncommitted changes (commit 0123456789abcdef0123456789abcdef01234567): commit or stash them\n"},
		{Build{Version: "v1.0.0", Commit: "unknown", Dirty: true}, 1, "certify: the suite build names no commit: build it from a git checkout (make certify, make kit)\n"},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		var stdout, stderr bytes.Buffer
		status := Run(context.Background(), Binaries{Ginkgo: []string{"/nonexistent/ginkgo"}, Build: tc.build},
			Options{Procs: 1, Repeat: tc.repeat, ReportDir: dir, Certify: true}, &stdout, &stderr)
		if status != ExitUsage || stderr.String() != tc.want {
			t.Errorf("%+v repeat %d: status %d, stderr %q, want %q", tc.build, tc.repeat, status, stderr.String(), tc.want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("the report directory was made: %v", err)
		}
	}
}

// Ginkgo that cannot start: no report, the verdict line says so, exit 1;
// the previous run's verdict is gone, never read as this one's.
func TestARunThatDidNotRunIsNotPassed(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{reports.ConformanceYAML, reports.SummaryMD, "junit.xml"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("result: passed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	status := Run(context.Background(), Binaries{Ginkgo: []string{"/nonexistent/ginkgo"}, Build: Build{Commit: "unknown", Dirty: true}},
		Options{Procs: 1, Repeat: 1, ReportDir: dir}, &stdout, &stderr)
	if status != ExitNotPass || !strings.HasPrefix(stdout.String(), "conformance: no report was written (") {
		t.Errorf("status %d, stdout %q, stderr %q", status, stdout.String(), stderr.String())
	}
	for _, f := range []string{reports.ConformanceYAML, reports.SummaryMD, "junit.xml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("the previous run's %s is still there", f)
		}
	}
}

// A certification is compiled from the checkout as it is: GOFLAGS that
// could swap sources (an -overlay, a -modfile) or a go.work are refused;
// the Makefile's own GOFLAGS passes (the control). Ginkgo compiles with
// neither, whatever the caller's environment.
func TestACertificationIsBuiltFromTheCheckout(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	if err := certifiableGoEnv(env(map[string]string{"GOFLAGS": "-buildvcs=false", "GOWORK": "off"})); err != nil {
		t.Errorf("the Makefile's environment: %v", err)
	}
	for _, kv := range []map[string]string{
		{"GOFLAGS": "-buildvcs=false -overlay=/tmp/o.json"},
		{"GOFLAGS": "-modfile=/tmp/go.mod"},
		{"GOWORK": "/tmp/go.work"},
	} {
		if err := certifiableGoEnv(env(kv)); err == nil {
			t.Errorf("%v accepted", kv)
		}
	}
	got := compileEnv([]string{"PATH=/bin", "GOFLAGS=-overlay=/tmp/o.json", "GOWORK=/tmp/go.work"})
	if want := []string{"PATH=/bin", "GOFLAGS=-buildvcs=false", "GOWORK=off"}; !slices.Equal(got, want) {
		t.Errorf("compile environment %q, want %q", got, want)
	}
}

// A git earlier on PATH that answers what it likes (a clean tree, any
// commit) is not asked: the build is the system git's word.
func TestAFakeGitOnPathIsNotBelieved(t *testing.T) {
	if gitBinary() == "git" {
		t.Fatalf("no git in %v on this machine: install Debian's git", gitBinaries)
	}
	dir := committedRepo(t)
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	fake := t.TempDir()
	script := "#!/bin/sh\ncase \"$1\" in rev-parse) echo 0123456789abcdef0123456789abcdef01234567;; *) ;; esac\n"
	if err := os.WriteFile(filepath.Join(fake, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	if b := SourceBuild(dir); !b.Dirty || b.Commit == "0123456789abcdef0123456789abcdef01234567" {
		t.Errorf("the fake git was believed: %+v", b)
	}
}

// A docker or git earlier on PATH than the system's is refused under
// certify: its answers (image IDs, the commit, a clean tree) would be
// recorded as the run's.
func TestCertifyRefusesToolsOutsideTheSystem(t *testing.T) {
	at := func(dirs map[string]string) func(string) (string, error) {
		return func(tool string) (string, error) {
			if d, ok := dirs[tool]; ok {
				return filepath.Join(d, tool), nil
			}
			return "", exec.ErrNotFound
		}
	}
	if err := certifiableTools(at(map[string]string{"docker": "/usr/bin", "git": "/usr/local/bin"})); err != nil {
		t.Errorf("system tools refused: %v", err)
	}
	fake := t.TempDir()
	err := certifiableTools(at(map[string]string{"docker": fake, "git": "/usr/bin"}))
	if want := "docker on PATH is " + filepath.Join(fake, "docker") + ", not the system's"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a fake docker: %v, want %q...", err, want)
	}
	if err := certifiableTools(at(map[string]string{"docker": "/usr/bin"})); err == nil || err.Error() != "no git on PATH: a certification needs the system's git" {
		t.Errorf("no git: %v", err)
	}
	if err := certifiableTools(at(map[string]string{"docker": "/snap/bin", "git": "/usr/bin"})); err == nil || !strings.HasPrefix(err.Error(), "docker on PATH is /snap/bin/docker, not the system's") {
		t.Errorf("a snap's docker: %v", err)
	}
}

// The system's docker must talk to the local engine: not one that
// DOCKER_HOST, DOCKER_CONTEXT or a current context names (the control,
// none of them, passes).
func TestCertifyRefusesAnotherDockerEngine(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	show := func(name string) func() (string, error) { return func() (string, error) { return name, nil } }
	if err := certifiableDocker(env(), show("default")); err != nil {
		t.Errorf("the local engine refused: %v", err)
	}
	for _, tc := range []struct {
		getenv  func(string) string
		context func() (string, error)
		want    string
	}{
		{env("DOCKER_HOST", "tcp://127.0.0.1:2375"), show("default"), `DOCKER_HOST="tcp://127.0.0.1:2375": a certification reads image IDs from the local Docker engine only; unset DOCKER_HOST`},
		{env("DOCKER_CONTEXT", "vendor"), show("vendor"), `DOCKER_CONTEXT="vendor": a certification reads image IDs from the local Docker engine only; unset DOCKER_CONTEXT`},
		{env(), show("vendor"), `docker's current context is "vendor": a certification reads image IDs from the local Docker engine only; docker context use default`},
	} {
		if err := certifiableDocker(tc.getenv, tc.context); err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
}

// The exit status of a run whose processes all exited 0: a passed verdict
// 0; a filtered run whose chosen specs passed 0 (its line still says
// partial); a partial run that was not filtered 1, and a filtered one with
// no spec run 1 (the controls).
func TestTheExitStatusOfAPartialRun(t *testing.T) {
	oneSpec := func(state reports.Result) []reports.FeatureResult {
		c := reports.SpecCounts{}
		switch state {
		case reports.Passed:
			c.Passed = []contract.SpecID{"router/edge-served"}
		case reports.Skipped:
			c.Skipped = []reports.NamedSpec{{ID: "router/edge-served"}}
		}
		return []reports.FeatureResult{{Feature: contract.FeatureRouter, Router: c}}
	}
	for _, tc := range []struct {
		name string
		r    reports.Report
		want int
	}{
		{"passed", reports.Report{Result: reports.Passed, Features: oneSpec(reports.Passed)}, ExitPassed},
		{"failed", reports.Report{Result: reports.Failed, Reason: "features failed: router"}, ExitNotPass},
		{"set-up failed", reports.Report{Result: reports.Error, Reason: "set-up failed: the cluster does not answer", Run: reports.RunOutcome{Error: true}}, ExitNotPass},
		{"filtered, its spec passed", reports.Report{Result: reports.Partial, Run: reports.RunOutcome{LabelFilter: "router"}, Features: oneSpec(reports.Passed)}, ExitPassed},
		{"not filtered", reports.Report{Result: reports.Partial, Reason: "core features not claimed: header-actions", Features: oneSpec(reports.Passed)}, ExitNotPass},
		{"filtered, no spec ran", reports.Report{Result: reports.Partial, Run: reports.RunOutcome{LabelFilter: "router"}, Features: oneSpec(reports.Skipped)}, ExitNotPass},
	} {
		dir := t.TempDir()
		if err := tc.r.Write(dir); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if got := verdict(dir, ExitPassed, &out); got != tc.want {
			t.Errorf("%s: exit status %d, want %d (%s)", tc.name, got, tc.want, out.String())
		}
		want := "conformance: " + string(tc.r.Result) + " against OpenShift " + string(tc.r.OpenShiftRelease)
		if tc.r.Result == reports.Error || tc.r.Result == reports.Failed {
			want += ": " + tc.r.Reason // a partial run's is in summary.md
		}
		if want += " (" + filepath.Join(dir, reports.SummaryMD) + ")\n"; out.String() != want {
			t.Errorf("%s: verdict line %q, want %q", tc.name, out.String(), want)
		}
	}
}

// The measurement is compiled from a checkout: a kit's prebuilt suite has
// none, and says so before anything runs.
func TestTheMeasurementRunsFromACheckout(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := Run(context.Background(), Binaries{Ginkgo: []string{"/nonexistent/ginkgo"}, Suite: "/kit/e2e.test"},
		Options{Name: "./run bench-router", Procs: 1, Repeat: 1, Measure: true, ReportDir: t.TempDir()}, &stdout, &stderr)
	if status != ExitUsage || !strings.Contains(stderr.String(), "compiled from a checkout") {
		t.Errorf("status %d, stderr %q", status, stderr.String())
	}
}
