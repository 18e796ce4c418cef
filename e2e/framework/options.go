// Package framework is what the conformance specs stand on: the options
// of a run, the cluster profile's environment, a namespace per spec, the
// in-cluster probe and the decoy host of the seal check.
package framework

import (
	"flag"
	"time"
)

// Options of a run, set by flags (go test ./e2e -args -profile=kind ...).
type Options struct {
	Profile     string
	ClusterName string
	Reuse       bool
	Keep        bool
	RepoRoot    string
	ReportDir   string
	Timeouts    Timeouts
}

// Timeouts are every wait of the suite, by name.
type Timeouts struct {
	ClusterReady time.Duration
	PodReady     time.Duration
	Converge     time.Duration
}

// Opts is filled from the flags when the suite starts.
var Opts Options

// RegisterFlags declares the suite's flags on fs.
func RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&Opts.Profile, "profile", "kind", "cluster profile: kind (hermetic, built here)")
	fs.StringVar(&Opts.ClusterName, "cluster-name", "router-conformance", "kind cluster name")
	fs.BoolVar(&Opts.Reuse, "reuse", false, "reuse an existing kind cluster of that name (fast dev loop)")
	fs.BoolVar(&Opts.Keep, "keep", false, "keep the cluster after the run (debugging)")
	fs.StringVar(&Opts.RepoRoot, "repo", "..", "the suite's checkout")
	fs.StringVar(&Opts.ReportDir, "report-dir", "../reports", "where reports and failure dumps go")
	fs.DurationVar(&Opts.Timeouts.ClusterReady, "timeout-cluster-ready", 3*time.Minute, "node and CoreDNS readiness")
	fs.DurationVar(&Opts.Timeouts.PodReady, "timeout-pod-ready", 2*time.Minute, "a spec's pods becoming ready")
	fs.DurationVar(&Opts.Timeouts.Converge, "timeout-converge", 30*time.Second, "a request reaching its expected outcome")
}
