package framework

import (
	"context"
	"fmt"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/platform/install"
)

// KindUp brings up (or reuses) the hermetic cluster and loads the
// component images into it.
func KindUp(ctx context.Context, o Options, logf func(string, ...any)) (*kind.Cluster, *Env, error) {
	root, err := filepath.Abs(o.RepoRoot)
	if err != nil {
		return nil, nil, err
	}
	// A router image of the user's is checked before anything is created.
	var custom images.RouterImage
	if o.RouterImage != "" {
		if custom, err = images.DescribeRouter(ctx, o.RouterImage); err != nil {
			return nil, nil, err
		}
	}
	c, err := kind.Up(ctx, kind.Options{
		Name: o.ClusterName, RepoRoot: root, Reuse: o.Reuse, ReplaceStale: true, ReadyTimeout: o.Timeouts.ClusterReady, Logf: logf,
		Ports: kind.SuitePorts(0, 0),
	})
	if err != nil {
		return c, nil, err
	}
	env := &Env{Kubeconfig: c.Kubeconfig, NodeName: c.NodeName(), FixturePullPolicy: corev1.PullNever}
	if env.Images, err = images.BuildAll(ctx, root); err != nil {
		return c, nil, err
	}
	if o.RouterImage != "" {
		env.Images["router"], env.Router = o.RouterImage, custom
	} else if env.Router, err = images.DescribeRouter(ctx, env.Images["router"]); err != nil {
		return c, nil, err
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
	if env.HTTPAddr, err = c.HostPort(ctx, 80); err != nil {
		return c, nil, err
	}
	if env.HTTPSAddr, err = c.HostPort(ctx, 443); err != nil {
		return c, nil, err
	}
	if env.Shards, err = readShardPorts(func(p int32) (string, error) { return c.HostPort(ctx, p) }); err != nil {
		return c, nil, err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", c.Kubeconfig)
	if err != nil {
		return c, nil, err
	}
	err = install.Install(ctx, cfg, install.Options{
		RepoRoot: root, Timeout: o.Timeouts.ClusterReady, Logf: logf,
		Images: install.Images{Router: env.Images["router"], Admission: env.Images["route-admission"], Reconciler: env.Images["ingress-reconciler"]},
	})
	if err != nil {
		return c, nil, fmt.Errorf("install the router (%s): %w", env.Images["router"], err)
	}
	env.Domain = install.DefaultDomain
	return c, env, nil
}
