package framework

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/router-conformance/suite/clusters/kind"
)

// ComponentImages are the Go images every run builds and loads: name ->
// command package.
var ComponentImages = map[string]string{
	"echo":      "./fixtures/echo/cmd/echo",
	"probe":     "./fixtures/probe/cmd/probe",
	"crlserver": "./crlserver/cmd/crlserver",
}

// KindUp brings up (or reuses) the hermetic cluster and loads the
// component images into it.
func KindUp(ctx context.Context, o Options, logf func(string, ...any)) (*kind.Cluster, *Env, error) {
	root, err := filepath.Abs(o.RepoRoot)
	if err != nil {
		return nil, nil, err
	}
	c, err := kind.Up(ctx, kind.Options{
		Name: o.ClusterName, RepoRoot: root, Reuse: o.Reuse, ReadyTimeout: o.Timeouts.ClusterReady, Logf: logf,
		Ports: []kind.PortMapping{{NodePort: 80}, {NodePort: 443}, {NodePort: kind.SmokeNodePort}},
	})
	if err != nil {
		return c, nil, err
	}
	env := &Env{Kubeconfig: c.Kubeconfig, NodeName: c.NodeName(), Images: map[string]string{}}
	for name, pkg := range ComponentImages {
		tag, err := BuildImage(ctx, root, name, pkg)
		if err != nil {
			return c, nil, err
		}
		env.Images[name] = tag
	}
	tags := make([]string, 0, len(env.Images))
	for _, t := range env.Images {
		tags = append(tags, t)
	}
	if err := c.LoadImages(ctx, tags...); err != nil {
		return c, nil, err
	}
	if env.SmokeAddr, err = c.HostPort(ctx, kind.SmokeNodePort); err != nil {
		return c, nil, err
	}
	return c, env, nil
}

// BuildImage builds (or finds cached) a component image and returns its tag.
func BuildImage(ctx context.Context, repoRoot, name, pkg string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(repoRoot, "images/build-go-image.sh"), name, pkg)
	cmd.Dir = repoRoot
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("build image %s: %w\n%s", name, err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}
