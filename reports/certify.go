package reports

import (
	"errors"
	"fmt"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// The certification rules, all of them, in this file. A run certifies a
// router only when it tested it: the whole claimed suite, once, with the
// documented waits, on a cluster made for it, by a suite build that names
// its commit, with the router named as who it is. The suite checks them
// before any spec is scheduled (Certifiable, from conformance.Declare and
// after the profile is up), the run path before it starts anything
// (CertifiableRun), and the verifier again on the record the suite left
// in report.json (Certifiable, from Verify).

// Certification is what a run's certifiability depends on.
type Certification struct {
	// Certify: the run was made as a certification (-certify).
	Certify bool
	// Ginkgo is the run's Ginkgo configuration (dry run, filters,
	// retries, timeout).
	Ginkgo types.SuiteConfig
	// Timeouts are the run's waits.
	Timeouts contract.Timeouts
	// Reuse: the run reused a cluster it did not make.
	Reuse bool
	// FailOnceHook is the test-only hook's value ("" when unset).
	FailOnceHook string
	// Suite is the suite build that ran.
	Suite Suite
	// Implementation names the router; its image is known once the
	// profile is up ("" before).
	Implementation Implementation
	// ReferenceRouter: the router judged is the suite's own.
	ReferenceRouter bool
	// ImageKnown: the profile is up, and the image fields must be set.
	ImageKnown bool
}

// ReferenceRouterProject is the only name a run of the reference router
// certifies under.
const ReferenceRouterProject = "reference-router"

// Certifiable says, in one line, the first rule a run breaks.
func Certifiable(c Certification) error {
	if !c.Certify {
		return errors.New("the run was not made with -certify (make certify, ./run certify)")
	}
	g := c.Ginkgo
	switch {
	case g.DryRun:
		return errors.New("a dry run tests nothing: drop --dry-run")
	case g.LabelFilter != "":
		return fmt.Errorf("the label filter %q chose the specs: a certification runs the whole claimed suite (drop FOCUS)", g.LabelFilter)
	case len(g.FocusStrings) > 0 || len(g.FocusFiles) > 0:
		return errors.New("--focus chose the specs: a certification runs the whole claimed suite")
	case len(g.SkipStrings) > 0 || len(g.SkipFiles) > 0:
		return errors.New("--skip left specs out: a certification runs the whole claimed suite")
	case g.FlakeAttempts > 1:
		return fmt.Errorf("--flake-attempts=%d retries failing specs: a certification counts every spec as it ran (unset FLAKE_ATTEMPTS)", g.FlakeAttempts)
	case g.MustPassRepeatedly > 1:
		return fmt.Errorf("--must-pass-repeatedly=%d repeats specs: a certification runs every spec once", g.MustPassRepeatedly)
	// Ginkgo's CLI gives each process what is left of its --timeout
	// (less the compile time): never more than the table's.
	case g.Timeout > c.Timeouts.Run:
		return fmt.Errorf("Ginkgo's --timeout is %s, more than the run's -timeout-run %s: the run path passes it", g.Timeout, c.Timeouts.Run)
	case c.FailOnceHook != "":
		return fmt.Errorf("the test-only hook %q fails specs on purpose: unset ROUTER_CONFORMANCE_TEST_FAIL_ONCE", c.FailOnceHook)
	case c.Reuse:
		return errors.New("a certification run makes its own cluster: drop -reuse (REUSE=1)")
	}
	if diff := c.Timeouts.Diff(contract.CertificationTimeouts()); len(diff) > 0 {
		return fmt.Errorf("a certification run waits exactly the documented times (contract/timeouts.go): %s", strings.Join(diff, ", "))
	}
	if err := CertifiableBuild(c.Suite); err != nil {
		return err
	}
	if err := c.Implementation.validate(c.ImageKnown); err != nil {
		return err
	}
	if c.ReferenceRouter {
		if err := ReferenceRouterName(c.Implementation.Project); err != nil {
			return err
		}
	}
	if c.ImageKnown && c.Implementation.ImageID == "" {
		return fmt.Errorf("the router image %s has no content ID: the judged image must be named by ID", c.Implementation.Image)
	}
	return nil
}

// ReferenceRouterName: a run that judges the reference router names it
// ReferenceRouterProject ("" is the default the report fills in so).
func ReferenceRouterName(project string) error {
	if project == "" || project == ReferenceRouterProject {
		return nil
	}
	return fmt.Errorf("the router judged is the suite's reference router: it certifies only as %s, not as %q", ReferenceRouterProject, project)
}

// CertifiableBuild: the suite build names its commit and was built from a
// clean tree.
func CertifiableBuild(s Suite) error {
	switch {
	case s.Commit == "" || s.Commit == "unknown":
		return errors.New("the suite build names no commit: build it from a git checkout (make certify, make kit)")
	case s.Dirty:
		return fmt.Errorf("the suite was built from a tree with uncommitted changes (commit %s): commit or stash them", s.Commit)
	}
	return nil
}

// CertifiableRun refuses what the run path adds around the suite: a
// certification is one run.
func CertifiableRun(repeat int) error {
	if repeat != 1 {
		return errors.New("a certification runs the suite once: drop REPEAT (-repeat)")
	}
	return nil
}

// DevVersion: a suite version that is not a release (vX.Y.Z); its bundles
// verify only when the certifier allows it (-allow-dev).
func DevVersion(version string) bool {
	return strings.Contains(version, "-")
}
