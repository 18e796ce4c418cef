//go:build e2e

// The convergence measurement as `make bench-router` runs it, through the
// run path (go run ./runner/cmd/run bench-router): the conformance suite's
// bring-up, feature gate and failure dumps around the measurement's specs
// (convergence_test.go), and its figures in <report dir>/bench-router.{json,md}
// in place of a verdict.
package routes

import (
	"flag"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/router-conformance/suite/e2e/conformance"
	"github.com/router-conformance/suite/e2e/framework"
)

var flags = framework.RegisterFlags(flag.CommandLine)

func TestConvergence(t *testing.T) {
	opts, err := flags.Options()
	if err != nil {
		t.Fatalf("options: %v (go run ./runner/cmd/run bench-router -help lists them)", err)
	}
	if _, err := conformance.DeclareMeasurement(opts, describeConvergence, writeFigures); err != nil {
		t.Fatalf("options: %v", err)
	}
	RegisterFailHandler(Fail)
	RunSpecs(t, "Router convergence")
}
