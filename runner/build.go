package runner

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/reports"
)

// Build is the suite build a run names in every report: its version, the
// commit it was built from and whether the tree had changes. It is worked
// out here, by the run path, from git — never from a make variable or the
// environment — and stamped into the binaries it builds.
type Build struct {
	Version string
	Commit  string
	Dirty   bool
}

// releaseTag is a release's tag: vX.Y.Z.
var releaseTag = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+$`)

// SourceBuild is the build of the checkout at repo. A git command that
// fails makes the build dirty and its commit "unknown" (not certifiable):
// nobody can vouch for a tree git cannot describe. The version is the
// release tag on HEAD when there is one and the tree is clean, else this
// source's development version (reports.SuiteVersion).
func SourceBuild(repo string) Build {
	git := func(args ...string) (string, error) {
		cmd := exec.Command(gitBinary(), args...)
		cmd.Dir = repo
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	b := Build{Version: reports.SuiteVersion, Commit: "unknown", Dirty: true}
	commit, err := git("rev-parse", "--verify", "HEAD")
	if err != nil || commit == "" {
		return b
	}
	b.Commit = commit
	status, err := git("status", "--porcelain", "--untracked-files=normal")
	b.Dirty = err != nil || status != "" || hiddenChanges(git)
	if tag, err := git("describe", "--tags", "--exact-match", "HEAD"); err == nil && releaseTag.MatchString(tag) && !b.Dirty {
		b.Version = tag
	}
	return b
}

// hiddenChanges says whether git was told not to see part of the tree:
// a tracked file marked skip-worktree or assume-unchanged (git status
// then ignores its edits), or an untracked file that only the checkout's
// own exclude rules (.git/info/exclude, core.excludesFile) hide, not the
// repository's .gitignore files. Either compiles in what no commit
// holds. A git that cannot answer hides something too.
func hiddenChanges(git func(args ...string) (string, error)) bool {
	marked, err := git("ls-files", "-v")
	if err != nil {
		return true
	}
	for _, line := range strings.Split(marked, "\n") {
		// ls-files -v: "H " a tracked file, "S " skip-worktree, a
		// lowercase tag assume-unchanged.
		if tag, _, ok := strings.Cut(line, " "); ok && (tag == "S" || strings.ToUpper(tag) != tag) {
			return true
		}
	}
	untracked, err := git("ls-files", "--others", "--exclude-per-directory=.gitignore")
	return err != nil || untracked != ""
}

// gitBinaries are where a system's git lives: the build is described by
// that one, never by whatever a PATH puts first (a git that answers what
// it likes would name any tree clean).
var gitBinaries = []string{"/usr/bin/git", "/bin/git", "/usr/local/bin/git"}

// gitBinary is the first of gitBinaries present, else git from PATH (a
// system without one in a fixed place).
func gitBinary() string {
	for _, p := range gitBinaries {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return "git"
}

// StampedBuild is the build this binary was stamped with (the kit's
// ./run, the conformance image's runner).
func StampedBuild() Build {
	s := reports.CurrentSuite()
	return Build{Version: s.Version, Commit: s.Commit, Dirty: s.Dirty}
}

// LDFlags stamp the build into a binary (reports' build variables).
func (b Build) LDFlags() string {
	const pkg = "github.com/router-conformance/suite/reports."
	return strings.Join([]string{
		"-X", pkg + "SuiteVersion=" + b.Version,
		"-X", pkg + "SuiteCommit=" + b.Commit,
		"-X", pkg + "SuiteDirty=" + strconv.FormatBool(b.Dirty),
	}, " ")
}

// MeasurementSuite is the package of the convergence measurement (make
// bench-router), compiled in place of ./e2e.
const MeasurementSuite = "./bench/routes"

// SourceBinaries are a checkout's: Ginkgo from the module (go tool
// ginkgo) compiles ./e2e with the build git describes stamped in. They
// are readied by building the kind profile's images (prebuild).
func SourceBinaries(root string) Binaries {
	return Binaries{Ginkgo: []string{"go", "tool", "ginkgo"}, Suite: "./e2e", Compile: true,
		Dir: root, RepoRoot: root, Build: SourceBuild(root),
		Prepare: func(ctx context.Context, o Options) error { return prebuild(ctx, root, o) }}
}

// prebuild builds, for a kind profile's run from a checkout, the node
// image and the component images (the reference router too, unless
// another router is judged) once the flags hold and before Ginkgo
// starts, their progress on the console. Everything is cached by input
// hash, so a warm run builds nothing; the suite checks them again in its
// set-up (a run without the run path, go test ./e2e, relies on that). A
// certification builds its images afresh in the suite itself, and images
// given by hand (-node-image, -images) are not built here.
func prebuild(ctx context.Context, root string, o Options) error {
	if o.Certify || !o.onKind() {
		return nil
	}
	given := func(flag string) bool {
		return slices.ContainsFunc(o.Suite, func(a string) bool { return strings.HasPrefix(a, "-"+flag+"=") })
	}
	if !given("node-image") {
		if _, err := kind.BuildNodeImage(ctx, root); err != nil {
			return err
		}
	}
	if given("images") {
		return nil
	}
	build := images.BuildAll
	if o.RouterImage != "" {
		build = images.BuildComponents
	}
	if o.Mutate {
		build = images.BuildFaultBuilds
	}
	_, err := build(ctx, root)
	return err
}
