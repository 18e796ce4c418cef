package framework

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/router-conformance/suite/clusters/kind"
)

// Profile is how a run reaches a cluster and its router: built once from
// the options, brought up by the first parallel process, and torn down
// after the last spec. The specs never ask which profile they run on;
// what differs is a method here.
type Profile interface {
	// Up prepares the cluster and returns the environment every process
	// connects with.
	Up(ctx context.Context, logf func(string, ...any)) (*Env, error)
	// Down releases what Up made; failed says a spec failed, so its
	// diagnostics are kept beside the failure dumps.
	Down(ctx context.Context, failed bool, logf func(string, ...any)) error
}

// NewProfile builds the profile the options name.
func NewProfile(o Options) (Profile, error) {
	switch o.Profile {
	case KindProfile:
		return &kindProfile{opts: o}, nil
	case ExistingProfile:
		return existingProfile{opts: o}, nil
	}
	return nil, fmt.Errorf("-profile %q: want %s or %s", o.Profile, KindProfile, ExistingProfile)
}

// The profiles, by their option value.
const (
	KindProfile     = "kind"
	ExistingProfile = "existing"
)

// kindProfile creates (or reuses) the hermetic kind cluster and installs
// the router under test in it.
type kindProfile struct {
	opts    Options
	cluster *kind.Cluster
}

func (p *kindProfile) Up(ctx context.Context, logf func(string, ...any)) (*Env, error) {
	c, env, err := KindUp(ctx, p.opts, logf)
	p.cluster = c
	return env, err
}

func (p *kindProfile) Down(ctx context.Context, failed bool, logf func(string, ...any)) error {
	if p.cluster == nil {
		return nil
	}
	if failed {
		if err := p.cluster.ExportLogs(filepath.Join(p.opts.ReportDir, "failures", "cluster-logs")); err != nil {
			logf("export cluster logs: %v", err)
		}
	}
	if p.opts.Keep {
		logf("keeping cluster %q: KUBECONFIG=%s", p.cluster.Name, p.cluster.Kubeconfig)
		return nil
	}
	return p.cluster.Down(ctx, false)
}

// existingProfile uses any cluster reachable with a kubeconfig; it creates
// and deletes nothing.
type existingProfile struct{ opts Options }

func (p existingProfile) Up(ctx context.Context, _ func(string, ...any)) (*Env, error) {
	return ExistingEnv(ctx, p.opts)
}

func (existingProfile) Down(context.Context, bool, func(string, ...any)) error { return nil }
