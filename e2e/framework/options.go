// Package framework is what the conformance specs stand on: the options
// of a run, the cluster profile's environment, a namespace per spec, the
// in-cluster probe and the decoy host of the seal check.
package framework

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"sigs.k8s.io/yaml"
)

// Options of a run: flags (go test ./e2e -args -profile=kind ...), or a
// YAML file (-config) with the same names; a flag given on the command
// line wins over the file.
type Options struct {
	Profile     string   `json:"profile"`
	ClusterName string   `json:"clusterName"`
	Reuse       bool     `json:"reuse"`
	Keep        bool     `json:"keep"`
	RepoRoot    string   `json:"repo"`
	ReportDir   string   `json:"reportDir"`
	Features    []string `json:"features"`
	// The existing profile: how to reach the cluster and its router.
	Kubeconfig string `json:"kubeconfig"`
	HTTPAddr   string `json:"httpAddr"`
	HTTPSAddr  string `json:"httpsAddr"`
	Domain     string `json:"domain"`
	// RouterImage is a local Docker image the kind profile deploys as the
	// router instead of the reference one (never pulled).
	RouterImage string `json:"routerImage"`
	// The implementation named in the report.
	ImplementationOrganization string   `json:"implementationOrganization"`
	ImplementationURL          string   `json:"implementationURL"`
	ImplementationContact      []string `json:"implementationContact"`
	ImplementationName         string   `json:"implementationName"`
	ImplementationVersion      string   `json:"implementationVersion"`
	Timeouts                   Timeouts `json:"-"`
}

// Timeouts are every wait of the suite, by name: no spec writes a
// duration of its own.
type Timeouts struct {
	// ClusterReady bounds the cluster's and the router's readiness.
	ClusterReady time.Duration
	// PodReady bounds a spec's pods becoming ready, and an
	// IngressController change rolling out.
	PodReady time.Duration
	// Converge bounds a request reaching its expected outcome after a
	// change (a route, a policy), and the API's answer to a change.
	Converge time.Duration
	// CRLRefresh bounds a CRL change reaching the router: upstream
	// downloads again 5 minutes after a failure
	// (openshift/router pkg/router/crl/crl.go, errorBackoffTime).
	CRLRefresh time.Duration
	// Poll is the interval between two attempts of a wait.
	Poll time.Duration
	// Consecutive answers in a row make convergence: one success may
	// come from a router that is still reloading.
	Consecutive int
}

// optionsFile is the -config file: the options, with timeouts written as
// durations ("90s", "3m").
type optionsFile struct {
	Options  `json:",inline"`
	Timeouts struct {
		ClusterReady string `json:"clusterReady"`
		PodReady     string `json:"podReady"`
		Converge     string `json:"converge"`
		CRLRefresh   string `json:"crlRefresh"`
		Poll         string `json:"poll"`
		Consecutive  int    `json:"consecutive"`
	} `json:"timeouts"`
}

// Flags are the suite's options as command-line flags, with the -config
// file beneath them.
type Flags struct {
	fs                   *flag.FlagSet
	opts                 Options
	configFile, features string
}

// RegisterFlags declares the suite's flags on fs.
func RegisterFlags(fs *flag.FlagSet) *Flags {
	d := DefaultOptions()
	fl := &Flags{fs: fs}
	o := &fl.opts
	fs.StringVar(&fl.configFile, "config", "", "YAML file of options (flags given on the command line win)")
	fs.StringVar(&fl.features, "features", "", "comma-separated feature labels the implementation claims (default: every feature for the reference router; the OpenShift router's, without delegation, for -router-image or the existing profile)")
	fs.StringVar(&o.Kubeconfig, "kubeconfig", "", "existing profile: the cluster's kubeconfig")
	fs.StringVar(&o.HTTPAddr, "http-addr", "", "existing profile: host:port reaching the router's HTTP port")
	fs.StringVar(&o.HTTPSAddr, "https-addr", "", "existing profile: host:port reaching the router's HTTPS port")
	fs.StringVar(&o.Domain, "domain", "", "existing profile: the IngressController's apps domain")
	fs.StringVar(&o.RouterImage, "router-image", "", "kind profile: a local Docker image to run as the router instead of the reference one (make e2e ROUTER_IMAGE=...)")
	fs.StringVar(&o.ImplementationOrganization, "implementation-organization", "", "who makes the router, in the report")
	fs.StringVar(&o.ImplementationURL, "implementation-url", "", "where the router lives, in the report")
	fs.Func("implementation-contact", "whom to ask about the router, in the report (repeatable)", func(v string) error {
		o.ImplementationContact = append(o.ImplementationContact, v)
		return nil
	})
	fs.StringVar(&o.ImplementationName, "implementation-name", "", "the router's name in the report (default: reference-router, or the -router-image repository)")
	fs.StringVar(&o.ImplementationVersion, "implementation-version", "", "the router's version in the report (default: the image's version label, its tag, or the suite version)")
	fs.StringVar(&o.Profile, "profile", d.Profile, "cluster profile: kind (hermetic, built here) or existing (any kubeconfig)")
	fs.StringVar(&o.ClusterName, "cluster-name", d.ClusterName, "kind cluster name")
	fs.BoolVar(&o.Reuse, "reuse", false, "reuse an existing kind cluster of that name (fast dev loop)")
	fs.BoolVar(&o.Keep, "keep", false, "keep the cluster after the run (debugging)")
	fs.StringVar(&o.RepoRoot, "repo", d.RepoRoot, "the suite's checkout")
	fs.StringVar(&o.ReportDir, "report-dir", d.ReportDir, "where reports and failure dumps go")
	fs.DurationVar(&o.Timeouts.ClusterReady, "timeout-cluster-ready", d.Timeouts.ClusterReady, "node and CoreDNS readiness")
	fs.DurationVar(&o.Timeouts.PodReady, "timeout-pod-ready", d.Timeouts.PodReady, "a spec's pods becoming ready")
	fs.DurationVar(&o.Timeouts.Converge, "timeout-converge", d.Timeouts.Converge, "a request reaching its expected outcome")
	fs.DurationVar(&o.Timeouts.CRLRefresh, "timeout-crl-refresh", d.Timeouts.CRLRefresh, "a CRL change reaching the router (upstream retries a failed download after 5 minutes)")
	fs.DurationVar(&o.Timeouts.Poll, "poll-interval", d.Timeouts.Poll, "the interval between two attempts of a wait")
	fs.IntVar(&o.Timeouts.Consecutive, "consecutive", d.Timeouts.Consecutive, "answers in a row that make convergence")
	return fl
}

// Options applies the -config file under the flags given on the command
// line, fills defaults and checks the result; call after the flags are
// parsed.
func (fl *Flags) Options() (Options, error) {
	set := map[string]bool{}
	fl.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o := fl.opts
	if fl.configFile != "" {
		file, err := readOptionsFile(fl.configFile)
		if err != nil {
			return Options{}, err
		}
		merge(&o, file, set)
	}
	if set["features"] || len(o.Features) == 0 {
		o.Features = nil
		for _, f := range strings.Split(fl.features, ",") {
			if f = strings.TrimSpace(f); f != "" {
				o.Features = append(o.Features, f)
			}
		}
	}
	return o, Validate(&o)
}

// readOptionsFile reads a -config file; its durations are Go duration
// strings.
func readOptionsFile(path string) (Options, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Options{}, fmt.Errorf("-config: %w", err)
	}
	var file optionsFile
	if err := yaml.UnmarshalStrict(data, &file); err != nil {
		return Options{}, fmt.Errorf("-config %s: %w", path, err)
	}
	for _, t := range []struct {
		text string
		dst  *time.Duration
	}{{file.Timeouts.ClusterReady, &file.Options.Timeouts.ClusterReady}, {file.Timeouts.PodReady, &file.Options.Timeouts.PodReady}, {file.Timeouts.Converge, &file.Options.Timeouts.Converge},
		{file.Timeouts.CRLRefresh, &file.Options.Timeouts.CRLRefresh}, {file.Timeouts.Poll, &file.Options.Timeouts.Poll}} {
		if t.text == "" {
			continue
		}
		d, err := time.ParseDuration(t.text)
		if err != nil {
			return Options{}, fmt.Errorf("-config %s: timeouts: %w", path, err)
		}
		*t.dst = d
	}
	file.Options.Timeouts.Consecutive = file.Timeouts.Consecutive
	return file.Options, nil
}

// Validate fills the claimed features' default and checks o: what
// Finish does after reading flags, and what a library caller's options
// go through (conformance.Run).
func Validate(o *Options) error {
	if len(o.Features) == 0 {
		o.Features = DefaultFeatures(o)
	}
	for _, f := range o.Features {
		if FeatureOf([]string{f}) == "" {
			return fmt.Errorf("-features: %q is no feature of the conformance table", f)
		}
	}
	switch o.Profile {
	case KindProfile:
	case ExistingProfile:
		if o.RouterImage != "" {
			return errors.New("-router-image applies to the kind profile only: on an existing cluster the router is already deployed")
		}
		if o.Kubeconfig == "" || o.HTTPAddr == "" || o.HTTPSAddr == "" || o.Domain == "" {
			return errors.New("profile existing needs -kubeconfig, -http-addr, -https-addr and -domain")
		}
	default:
		return fmt.Errorf("-profile %q: want kind or existing", o.Profile)
	}
	if o.Timeouts.Consecutive < 1 {
		return errors.New("-consecutive must be at least 1")
	}
	for name, d := range map[string]time.Duration{"timeout-cluster-ready": o.Timeouts.ClusterReady, "timeout-pod-ready": o.Timeouts.PodReady, "timeout-converge": o.Timeouts.Converge,
		"timeout-crl-refresh": o.Timeouts.CRLRefresh, "poll-interval": o.Timeouts.Poll} {
		if d <= 0 {
			return fmt.Errorf("-%s must be positive", name)
		}
	}
	return nil
}

// DefaultOptions are the options of a run that sets nothing: the kind
// profile with the reference router, and the documented waits.
func DefaultOptions() Options {
	return Options{
		Profile: KindProfile, ClusterName: "router-conformance", RepoRoot: "..", ReportDir: "../reports",
		Timeouts: Timeouts{
			ClusterReady: 3 * time.Minute, PodReady: 2 * time.Minute, Converge: 30 * time.Second,
			CRLRefresh: 5*time.Minute + 30*time.Second, Poll: 250 * time.Millisecond, Consecutive: 3,
		},
	}
}

// merge copies the file's values into o except where a flag was given.
func merge(o *Options, file Options, set map[string]bool) {
	str := func(flagName string, dst *string, v string) {
		if !set[flagName] && v != "" {
			*dst = v
		}
	}
	str("profile", &o.Profile, file.Profile)
	str("cluster-name", &o.ClusterName, file.ClusterName)
	str("repo", &o.RepoRoot, file.RepoRoot)
	str("report-dir", &o.ReportDir, file.ReportDir)
	str("kubeconfig", &o.Kubeconfig, file.Kubeconfig)
	str("http-addr", &o.HTTPAddr, file.HTTPAddr)
	str("https-addr", &o.HTTPSAddr, file.HTTPSAddr)
	str("domain", &o.Domain, file.Domain)
	str("router-image", &o.RouterImage, file.RouterImage)
	str("implementation-organization", &o.ImplementationOrganization, file.ImplementationOrganization)
	str("implementation-url", &o.ImplementationURL, file.ImplementationURL)
	if !set["implementation-contact"] && len(file.ImplementationContact) > 0 {
		o.ImplementationContact = file.ImplementationContact
	}
	str("implementation-name", &o.ImplementationName, file.ImplementationName)
	str("implementation-version", &o.ImplementationVersion, file.ImplementationVersion)
	if !set["reuse"] && file.Reuse {
		o.Reuse = true
	}
	if !set["keep"] && file.Keep {
		o.Keep = true
	}
	if !set["features"] && len(file.Features) > 0 {
		o.Features = file.Features
	}
	dur := func(flagName string, dst *time.Duration, v time.Duration) {
		if !set[flagName] && v > 0 {
			*dst = v
		}
	}
	dur("timeout-cluster-ready", &o.Timeouts.ClusterReady, file.Timeouts.ClusterReady)
	dur("timeout-pod-ready", &o.Timeouts.PodReady, file.Timeouts.PodReady)
	dur("timeout-converge", &o.Timeouts.Converge, file.Timeouts.Converge)
	dur("timeout-crl-refresh", &o.Timeouts.CRLRefresh, file.Timeouts.CRLRefresh)
	dur("poll-interval", &o.Timeouts.Poll, file.Timeouts.Poll)
	if !set["consecutive"] && file.Timeouts.Consecutive > 0 {
		o.Timeouts.Consecutive = file.Timeouts.Consecutive
	}
}
