//go:build e2e

// The conformance suite as `make e2e` runs it: options from flags (go
// test ./e2e -args -help lists them) and an optional -config file. It
// calls RunSpecs itself: the ginkgo CLI treats a package as a Ginkgo
// suite (parallel processes, label filters, reports) only when its test
// files use Ginkgo.
package e2e

import (
	"flag"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/router-conformance/suite/e2e/conformance"
	"github.com/router-conformance/suite/e2e/framework"
)

var flags = framework.RegisterFlags(flag.CommandLine)

func TestConformance(t *testing.T) {
	opts, err := flags.Options()
	if err != nil {
		t.Fatalf("options: %v (go test ./e2e -args -help lists them)", err)
	}
	if _, err := conformance.Declare(opts); err != nil {
		t.Fatalf("options: %v", err)
	}
	RegisterFailHandler(Fail)
	RunSpecs(t, conformance.SuiteName)
}
