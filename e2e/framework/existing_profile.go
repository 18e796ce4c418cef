package framework

import (
	"context"
	"fmt"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"

	"github.com/router-conformance/suite/images"
)

// ExistingEnv is the existing profile: any cluster reachable with
// -kubeconfig whose router the test process reaches at -http-addr and
// -https-addr. Nothing is created or installed; the fixture images
// (images.Components marked Fixture) are built here and must be made available to
// the cluster under the printed tags (kind load, a registry, ...).
func ExistingEnv(ctx context.Context, o Options) (*Env, error) {
	root, err := filepath.Abs(o.RepoRoot)
	if err != nil {
		return nil, err
	}
	env := &Env{Kubeconfig: o.Kubeconfig, HTTPAddr: o.HTTPAddr, HTTPSAddr: o.HTTPSAddr, Domain: o.Domain, Images: map[string]string{}, FixturePullPolicy: corev1.PullIfNotPresent}
	for _, s := range images.Components {
		if !s.Fixture {
			continue
		}
		tag, err := images.Build(ctx, root, s)
		if err != nil {
			return nil, fmt.Errorf("fixture image %s: %w", s.Name, err)
		}
		env.Images[s.Name] = tag
	}
	return env, nil
}
