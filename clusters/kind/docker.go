package kind

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// docker runs the docker CLI and returns its trimmed stdout; the error
// carries stderr, which is where docker says what went wrong.
func docker(ctx context.Context, args ...string) (string, error) {
	return run(ctx, "docker", args...)
}

func run(ctx context.Context, name string, args ...string) (string, error) {
	return runWithStdin(ctx, nil, name, args...)
}

// runWithStdin is run with stdin (nil: none).
func runWithStdin(ctx context.Context, stdin io.Reader, name string, args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// PrepareDocker makes sure a Docker engine answers (installing one on a
// root Debian host) and, on hosts where --privileged containers cannot
// start, puts the unprivileged docker wrapper first on PATH for kind.
// On a normal host it changes nothing.
func PrepareDocker(ctx context.Context, repoRoot string, logf func(string, ...any)) error {
	ensure := exec.CommandContext(ctx, filepath.Join(repoRoot, "clusters/host/ensure-docker.sh"))
	ensure.Stdout, ensure.Stderr = os.Stderr, os.Stderr
	if err := ensure.Run(); err != nil {
		return fmt.Errorf("no Docker engine (see the message above): %w", err)
	}
	probe := exec.CommandContext(ctx, filepath.Join(repoRoot, "clusters/host/privileged-ok.sh"))
	probe.Stderr = os.Stderr
	err := probe.Run()
	if err == nil {
		return nil
	}
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		return fmt.Errorf("cannot tell whether this host runs --privileged containers: %w", err)
	}
	shimDir, err := os.MkdirTemp("", "router-conformance-docker-")
	if err != nil {
		return err
	}
	if err := os.Symlink(filepath.Join(repoRoot, "clusters/host/docker-unprivileged"), filepath.Join(shimDir, "docker")); err != nil {
		return err
	}
	logf("this host cannot start --privileged containers (no CAP_SYS_RESOURCE): kind's docker calls go through clusters/host/docker-unprivileged")
	return os.Setenv("PATH", shimDir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// Docker runs the docker CLI for the suite's other cluster harnesses (the
// existing profile's lab) the way this package runs it.
func Docker(ctx context.Context, args ...string) (string, error) {
	return docker(ctx, args...)
}

// DockerStdin is Docker with stdin (kubectl apply -f - in a node).
func DockerStdin(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	return runWithStdin(ctx, stdin, "docker", args...)
}
