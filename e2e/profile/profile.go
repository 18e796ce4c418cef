// Package profile provisions what a run of the suite needs and answers
// for what it can do: the hermetic kind cluster built here (kind.go), or
// a cluster that exists already (existing.go). The specs never see a
// profile, only the framework.Capabilities and framework.Env it gives.
package profile

import (
	"context"
	"fmt"

	"github.com/router-conformance/suite/e2e/framework"
)

// Profile is how a run reaches a cluster and its router: built once from
// the options, brought up by the first parallel process, and torn down
// after the last spec.
type Profile interface {
	// Capabilities are known before anything is brought up: the spec tree
	// and the default claims are built from them.
	Capabilities() framework.Capabilities
	// Up prepares the cluster and returns the environment every process
	// connects with.
	Up(ctx context.Context, logf func(string, ...any)) (*framework.Env, error)
	// Down releases what Up made; failed says a spec failed, so its
	// diagnostics are kept beside the failure dumps.
	Down(ctx context.Context, failed bool, logf func(string, ...any)) error
}

// Validated is the profile o names, with o completed by its capabilities
// and validated: what the suite declares itself with, and what the run
// path checks a run's flags with before it builds anything.
func Validated(o framework.Options) (Profile, framework.Options, error) {
	p, err := New(o)
	if err != nil {
		return nil, o, err
	}
	framework.Complete(&o, p.Capabilities())
	if err := framework.Validate(o); err != nil {
		return nil, o, err
	}
	// The profile works with the completed options (-in-cluster's
	// addresses); its capabilities depend on nothing Complete fills.
	p, err = New(o)
	return p, o, err
}

// New builds the profile the options name.
func New(o framework.Options) (Profile, error) {
	switch o.Profile {
	case framework.KindProfile:
		return &kindProfile{opts: o}, nil
	case framework.ExistingProfile:
		return &existingProfile{opts: o}, nil
	}
	return nil, fmt.Errorf("-profile %q: want %s or %s", o.Profile, framework.KindProfile, framework.ExistingProfile)
}
