//go:build e2e

// The conformance suite as `make e2e` runs it: options from flags (go
// test ./e2e -args -help lists them) and an optional -config file.
package e2e

import (
	"flag"
	"testing"

	"github.com/router-conformance/suite/e2e/conformance"
	"github.com/router-conformance/suite/e2e/framework"
)

func init() { framework.RegisterFlags(flag.CommandLine) }

func TestConformance(t *testing.T) {
	if err := framework.Finish(flag.CommandLine); err != nil {
		t.Fatalf("options: %v (go test ./e2e -args -help lists them)", err)
	}
	conformance.Run(t, framework.Opts)
}
