// Package conformance is the conformance suite: its specs and the suite
// nodes that bring the profile up and write the reports. `make e2e` runs
// it through ./e2e (behind the e2e build tag, so that `go test ./...`
// never starts a cluster); another router's repository runs it from its
// own `go test` with Run, as the Gateway API suite's
// RunConformanceWithOptions:
//
//	func TestRouterConformance(t *testing.T) {
//		opts := framework.DefaultOptions()
//		opts.RouterImage = "registry.example/acme/router:1.2.3"
//		opts.RepoRoot = "/path/to/a/checkout/of/the/suite"
//		opts.ReportDir = "reports"
//		conformance.Run(t, opts)
//	}
package conformance

import (
	"context"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/router-conformance/suite/e2e/framework"
)

// Run runs every spec with opts (framework.DefaultOptions() and what the
// caller changes); it fails t when the options are wrong or a spec fails.
func Run(t *testing.T, opts framework.Options) {
	if err := Configure(opts); err != nil {
		t.Fatalf("options: %v", err)
	}
	RegisterFailHandler(Fail)
	RunSpecs(t, SuiteName)
}

// SuiteName is the suite's name in Ginkgo's reports.
const SuiteName = "Router conformance"

// Configure checks opts and makes them the run's options; a test that
// calls RunSpecs itself (as ./e2e does, so that the ginkgo CLI sees a
// Ginkgo suite) calls it first.
func Configure(opts framework.Options) error {
	if err := framework.Validate(&opts); err != nil {
		return err
	}
	framework.Opts = opts
	return nil
}

// A spec of a feature the profile does not claim is skipped, and the
// report lists the feature as unsupported.
var _ = BeforeEach(framework.SkipUnclaimed)

// profile is set on the first parallel process only: it owns the cluster.
var profile framework.Profile

func logf(format string, args ...any) { GinkgoWriter.Printf(format+"\n", args...) }

var _ = SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
	var err error
	profile, err = framework.NewProfile(framework.Opts)
	Expect(err).NotTo(HaveOccurred())
	start := time.Now()
	env, err := profile.Up(ctx, logf)
	Expect(err).NotTo(HaveOccurred(), "bring up the %s profile", framework.Opts.Profile)
	logf("%s profile ready in %s", framework.Opts.Profile, time.Since(start).Round(time.Second))
	return env.Marshal()
}, func(data []byte) {
	env, err := framework.Connect(data)
	Expect(err).NotTo(HaveOccurred())
	framework.E = env
}, NodeTimeout(75*time.Minute))

// The conformance report and summary, from every process's specs.
var _ = ReportAfterSuite("conformance report", func(report Report) {
	Expect(framework.WriteConformance(report)).To(Succeed())
})

// Every failed spec leaves its diagnostics, whichever process ran it.
var _ = ReportAfterEach(func(ctx SpecContext, report SpecReport) {
	if report.Failed() {
		framework.RecordFailure(ctx, report)
	}
})

var _ = SynchronizedAfterSuite(func() {}, func(ctx SpecContext) {
	if profile != nil {
		// Any process's failed spec left a dump: the profile keeps its
		// logs beside it.
		Expect(profile.Down(context.WithoutCancel(ctx), framework.FailuresRecorded(), logf)).To(Succeed())
	}
}, NodeTimeout(5*time.Minute))
