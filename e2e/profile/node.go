package profile

import (
	"context"
	"errors"
	"os/exec"
)

// NodeExec runs a command in a kind node's container and returns its
// combined output and exit code (-1 if it could not run): the hermetic
// cluster's harness checks look inside the node.
func NodeExec(ctx context.Context, node string, args ...string) (string, int, error) {
	cmd := exec.CommandContext(ctx, "docker", append([]string{"exec", node}, args...)...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0, nil
	case errors.As(err, &exit):
		return string(out), exit.ExitCode(), nil
	default:
		return string(out), -1, err
	}
}
