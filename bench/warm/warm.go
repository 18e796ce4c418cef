// Package warm is the benchmarks' warm kind cluster: brought up (or
// reused) before they measure, and the suite run on it as make e2e runs
// it, through the run path.
package warm

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/router-conformance/suite/runner"
)

// Up brings up (or reuses) the hermetic kind cluster name, its progress
// on stderr; down deletes it, or does nothing when keep.
func Up(name string, keep bool) (down func(), err error) {
	if err := hermeticKind("up", "-reuse", "-name", name); err != nil {
		return nil, fmt.Errorf("bring up the cluster: %w", err)
	}
	if keep {
		return func() {}, nil
	}
	return func() { hermeticKind("down", "-name", name) }, nil
}

func hermeticKind(args ...string) error {
	cmd := exec.Command("go", append([]string{"run", "./clusters/kind/cmd/hermetic-kind"}, args...)...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

// RunSuite runs the whole suite on cluster with procs processes, its
// reports into reportDir, compiled from the checkout at root; it returns
// the run path's exit status (runner.ExitPassed when every spec passed).
func RunSuite(root, cluster string, procs int, reportDir string) int {
	return runner.Run(context.Background(), runner.SourceBinaries(root), runner.Options{Procs: procs, Repeat: 1, ReportDir: reportDir,
		Suite: []string{"-cluster-name=" + cluster, "-reuse", "-keep"}}, os.Stderr, os.Stderr)
}
