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
//		opts.ReportDir = "_output"
//		conformance.Run(t, opts)
//	}
package conformance

import (
	"context"
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/profile"
	"github.com/router-conformance/suite/reports"
)

// Run runs every spec with opts (framework.DefaultOptions() and what the
// caller changes); it fails t when the options are wrong or a spec fails.
func Run(t *testing.T, opts framework.Options) {
	if _, err := Declare(opts); err != nil {
		t.Fatalf("options: %v", err)
	}
	RegisterFailHandler(Fail)
	RunSpecs(t, SuiteName)
}

// SuiteName is the suite's name in Ginkgo's reports.
const SuiteName = "Router conformance"

// Declare checks opts and declares the suite: its set-up, its reports
// and every spec, all sharing one framework; call it before RunSpecs (a
// test that calls RunSpecs itself does, as ./e2e does so that the ginkgo
// CLI sees a Ginkgo suite).
func Declare(opts framework.Options) (*framework.Framework, error) {
	return declare(opts, declareSpecs, "conformance report", func(f *framework.Framework, report Report) {
		// The suite's record of its own run goes into report.json with
		// this node: the verifier reads the verdict's inputs from it.
		AddReportEntry(reports.RunRecordEntry, f.RunRecord(report))
		Expect(f.WriteConformance(report)).To(Succeed())
	})
}

// DeclareMeasurement declares the profile's bring-up and tear-down, the
// feature gate and the failure dumps as Declare does, around a
// measurement's specs in place of the conformance specs (bench/routes:
// make bench-router); report writes its figures from every process's
// specs. A measurement has no verdict, so it is never a certification.
func DeclareMeasurement(opts framework.Options, specs func(*framework.Framework), report func(*framework.Framework, Report)) (*framework.Framework, error) {
	if opts.Certify {
		return nil, fmt.Errorf("-certify: a measurement is not a certification run")
	}
	return declare(opts, specs, "measurement report", report)
}

// declare declares the suite nodes around specs; reportNode names the
// ReportAfterSuite node that runs report.
func declare(opts framework.Options, specs func(*framework.Framework), reportNode string, report func(*framework.Framework, Report)) (*framework.Framework, error) {
	p, opts, err := profile.Validated(opts)
	if err != nil {
		return nil, err
	}
	f := framework.New(opts, p.Capabilities())
	// A certification's rules are checked here, before any spec is
	// scheduled and outside every node (a dry run skips nodes; it does not
	// skip this): -certify with a dry run, a filter, retries, another
	// wait, a dirty build or a misnamed router never starts.
	if opts.Certify {
		suiteConfig, _ := GinkgoConfiguration()
		if err := f.CheckCertifiable(suiteConfig, false); err != nil {
			return nil, fmt.Errorf("-certify: %w", err)
		}
	}
	declareSuiteNodes(f, p, reportNode, report)
	specs(f)
	return f, nil
}

// declareSpecs declares every feature's specs, one file each.
func declareSpecs(f *framework.Framework) {
	for _, describe := range []func(*framework.Framework){
		describeRouter,
		describeHSTS,
		describeHeaderActions,
		describeSharding,
		describeHSTSPolicy,
		describeClientTLS,
		describeComponentRoutes,
		describeRouteAnnotations,
		describeDelegation,
		describeSmoke,
	} {
		describe(f)
	}
}

func logf(format string, args ...any) { GinkgoWriter.Printf(format+"\n", args...) }

// declareSuiteNodes declares what runs around the specs: the profile's
// bring-up and tear-down, the feature gate, failure dumps and the report.
func declareSuiteNodes(f *framework.Framework, p profile.Profile, reportNode string, report func(*framework.Framework, Report)) {
	// A spec of a feature the run does not claim is skipped (the report
	// lists the feature as unsupported), and so is a disruptive one where
	// disruption is not allowed (its feature is not run).
	BeforeEach(f.SkipUnrunnable)
	// Test-only: ROUTER_CONFORMANCE_TEST_FAIL_ONCE=<substring of a spec's
	// full text> fails those specs' first attempt (off when unset).
	BeforeEach(framework.FailOnce)

	// The profile is brought up on the first parallel process only: it
	// owns the cluster.
	var up bool
	SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
		suiteConfig, _ := GinkgoConfiguration()
		Expect(f.Caps.CheckParallelism(suiteConfig.ParallelTotal)).To(Succeed())
		start := time.Now()
		up = true
		// Each set-up line says when it came, so that the console shows
		// where the set-up's time goes.
		stamped := func(format string, args ...any) {
			logf("[%s] "+format, append([]any{time.Since(start).Round(time.Second)}, args...)...)
		}
		env, err := p.Up(ctx, stamped)
		Expect(err).NotTo(HaveOccurred(), "bring up the %s profile", f.Opts.Profile)
		logf("%s profile ready in %s", f.Opts.Profile, time.Since(start).Round(time.Second))
		// The router image is known now: a certification names it by ID.
		// Checked here, before any process gets the environment, so that
		// a refusal fails the set-up of every process (no spec runs
		// anywhere) and the tear-down still deletes the cluster.
		if f.Opts.Certify {
			f.Env = env
			suiteConfig, _ := GinkgoConfiguration()
			Expect(f.CheckCertifiable(suiteConfig, true)).To(Succeed(), "-certify")
		}
		return env.Marshal()
	}, func(ctx SpecContext, data []byte) {
		Expect(f.Connect(data)).To(Succeed())
		// The plain-HTTP echo backends of this process's specs are
		// leases on one pod (framework/echo_pool.go).
		f.StartEchoPool(ctx)
	}, NodeTimeout(f.Opts.Timeouts.SuiteSetUp))

	// The run's report (the conformance report, summary and JUnit with
	// provenance; a measurement's figures), from every process's specs;
	// it runs before Ginkgo writes report.json, so a failure here is in
	// that record too.
	ReportAfterSuite(reportNode, func(r Report) { report(f, r) })

	// Every failed spec leaves its diagnostics, whichever process ran it.
	ReportAfterEach(func(ctx SpecContext, report SpecReport) {
		if report.Failed() {
			f.RecordFailure(ctx, report)
		}
	})

	SynchronizedAfterSuite(func(ctx SpecContext) {
		// This process's last shards were deleted as their specs ended,
		// and are seen gone here: the run leaves nothing of its own behind.
		f.AwaitShardsDeleted(ctx)
		f.StopEchoPool(ctx)
	}, func(ctx SpecContext) {
		if up {
			// Any process's failed spec left a dump: the profile keeps its
			// logs beside it.
			Expect(p.Down(context.WithoutCancel(ctx), f.FailuresRecorded(), logf)).To(Succeed())
		}
	}, NodeTimeout(f.Opts.Timeouts.SuiteTearDown))
}
