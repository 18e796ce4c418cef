package runner

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/profile"
	"github.com/router-conformance/suite/reports"
)

// Options of one invocation of the run path: its own flags, and the
// suite's flags it passes on as given.
type Options struct {
	// Name is how the run was called ("./run certify"), for its messages.
	Name          string
	Procs         int
	Focus         string
	Repeat        int
	FlakeAttempts int
	ReportDir     string
	// Suite are the suite's flags as given (-router-image=..., ...).
	Suite []string
	// What the run path needs to know of the suite's flags.
	Reuse, Keep bool
	Cluster     string
	Profile     string
	// RouterImage is -router-image: the kind profile's router under
	// test, which must be in the local Docker engine.
	RouterImage string
	// Certify: make certify, ./run certify.
	Certify bool
	// Smoke runs the smoke label alone (make smoke): a filtered run, so
	// its verdict is partial, and its exit status is the specs' (0 when
	// every one passed).
	Smoke bool
	// Measure runs the convergence measurement (make bench-router):
	// bench/routes' specs around the same bring-up, one process, its
	// figures in <reports>/bench-router.{json,md} and no verdict; its
	// exit status is the specs'.
	Measure bool
	// Mutate runs make mutants (MUTANTS: Mutants, which faults): the
	// fault build on one cluster, a control run, then each fault's specs
	// with the fault on; runner/mutants.go.
	Mutate  bool
	Mutants string
	// Rerun is a certifier's rerun of a bundle (make reproduce): a
	// certification (Certify's rules, the suite compiled with -trimpath,
	// its images built afresh) that writes no bundle of its own.
	Rerun bool
	// SignKey signs a certification's attestation (-sign-key).
	SignKey *reports.Key
	// GinkgoArgs are more arguments for Ginkgo's CLI (the in-cluster
	// runner's --focus/--skip/--dry-run from hydrophone's environment).
	GinkgoArgs []string
	// After receives what the run path says once Ginkgo has ended (the
	// bundle, the verifier's line, the verdict); nil is stdout. The
	// in-cluster runner keeps its console ending with Ginkgo's last line,
	// which hydrophone waits for.
	After io.Writer
}

// onKind says whether the run is on the kind profile (the default): the
// profile whose cluster and images the run path owns.
func (o Options) onKind() bool {
	return o.Profile == "" || o.Profile == framework.KindProfile
}

// ownFlags are the suite flags the run path sets itself.
var ownFlags = map[string]bool{"repo": true, "report-dir": true, "certify": true}

// ParseFlags reads the flags of `e2e` and `certify` (make's and the kit's
// alike): the run's own (-procs, -focus, -repeat, -flake-attempts,
// -reports), then every flag of the suite (framework.RegisterFlags), so
// that a misspelt flag is refused here, before anything is built or
// loaded. setByBinaries are suite flags the binaries' location sets
// (-images in the kit).
func ParseFlags(name string, args []string, setByBinaries []string, stderr io.Writer) (Options, error) {
	// name is "<command>" or "<how it was called> <command>".
	command := name[strings.LastIndex(name, " ")+1:]
	o := Options{Name: name, Certify: command == "certify", Measure: command == "bench-router", Smoke: command == "smoke", Mutate: command == "mutants"}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// A bad flag is one line (Main's); the flags are listed on -help only.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	procs := 4
	if o.Measure {
		procs = 1
	}
	fs.IntVar(&o.Procs, "procs", procs, "parallel Ginkgo processes (PROCS; the kind profile has shard ports for 4)")
	fs.StringVar(&o.Focus, "focus", "", "a Ginkgo label expression (FOCUS), e.g. 'router || hsts'")
	fs.IntVar(&o.Repeat, "repeat", 1, "run the suite N times on one cluster (REPEAT)")
	fs.IntVar(&o.FlakeAttempts, "flake-attempts", 0, "run a failing spec up to N times (FLAKE_ATTEMPTS)")
	fs.StringVar(&o.ReportDir, "reports", "_output", "where the reports go (REPORTS)")
	if o.Mutate {
		fs.StringVar(&o.Mutants, "mutants", "all", "the faults to run (MUTANTS): fault IDs, documents (hsts) or features (hsts-policy), comma-separated; all; ci (a few chosen by the commit)")
	}
	signKey := ""
	if o.Certify {
		fs.StringVar(&signKey, "sign-key", "", "certify: sign the bundle's attestation (an in-toto Statement, as a DSSE envelope) with this PEM key: PKCS #8 ECDSA P-256 or Ed25519 (SIGN_KEY)")
	}
	skip := map[string]bool{}
	for k := range ownFlags {
		skip[k] = true
	}
	for _, k := range setByBinaries {
		skip[k] = true
	}
	suite := flag.NewFlagSet("suite", flag.ContinueOnError)
	framework.RegisterFlags(suite)
	suite.VisitAll(func(f *flag.Flag) {
		if skip[f.Name] {
			return
		}
		b, _ := f.Value.(interface{ IsBoolFlag() bool })
		p := passThrough{name: f.Name, isBool: b != nil && b.IsBoolFlag(), args: &o.Suite}
		switch f.Name {
		case "reuse":
			p.onSet = func(v string) { o.Reuse, _ = strconv.ParseBool(v) }
		case "keep":
			p.onSet = func(v string) { o.Keep, _ = strconv.ParseBool(v) }
		case "cluster-name":
			p.onSet = func(v string) { o.Cluster = v }
		case "profile":
			p.onSet = func(v string) { o.Profile = v }
		case "router-image":
			p.onSet = func(v string) { o.RouterImage = v }
		}
		fs.Var(p, f.Name, f.Usage)
	})
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stderr, "Usage of %s:\n", name)
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		return Options{}, err
	} else if err != nil {
		return Options{}, fmt.Errorf("%w (%s -help lists them)", err, name)
	}
	if fs.NArg() > 0 {
		return Options{}, fmt.Errorf("unexpected arguments %q: flags only (%s -help lists them)", fs.Args(), name)
	}
	if o.Measure && (o.Procs != 1 || o.Repeat != 1 || o.Focus != "") {
		return Options{}, errors.New("bench-router measures one object after another: -procs=1, no -repeat, no -focus")
	}
	if o.Mutate {
		var given []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "focus" || f.Name == "repeat" || f.Name == "fault" || f.Name == "router-image" || prebuilt[f.Name] {
				given = append(given, "-"+f.Name)
			}
		})
		if len(given) > 0 {
			return Options{}, fmt.Errorf("%s: mutants chooses the specs (each fault's statements') and builds the fault images itself; set MUTANTS instead", strings.Join(given, ", "))
		}
	}
	if o.Smoke {
		if o.Focus != "" {
			return Options{}, fmt.Errorf("-focus %q: smoke runs the smoke label (make e2e FOCUS=smoke && ... narrows it)", o.Focus)
		}
		o.Focus = string(contract.FeatureSmoke)
	}
	if o.Certify {
		var err error
		fs.Visit(func(f *flag.Flag) {
			if prebuilt[f.Name] && err == nil {
				err = fmt.Errorf("-%s: a certification runs the images this checkout builds (or its kit carries, named by ./run itself), never images given by hand: drop -%s", f.Name, f.Name)
			}
		})
		if err != nil {
			return Options{}, err
		}
	}
	if o.Procs < 1 || o.Repeat < 1 || o.FlakeAttempts < 0 {
		return Options{}, errors.New("-procs and -repeat must be at least 1, -flake-attempts at least 0")
	}
	if signKey != "" {
		k, err := reports.LoadPrivateKey(signKey)
		if err != nil {
			return Options{}, fmt.Errorf("-sign-key: %w", err)
		}
		o.SignKey = k
	}
	return o, nil
}

// checkSuite reads the suite's flags as the suite will (each value, the
// -config file, the profile's rules, -procs against the profile's ports),
// so that a bad one is refused in one line before anything is built or
// compiled, not by every Ginkgo process after. images is the manifest the
// binaries pass (-images), "" when the suite builds its images.
func checkSuite(o Options, images string) error {
	args := slices.Clone(o.Suite)
	if images != "" {
		args = append(args, "-images="+images)
	}
	if o.Certify {
		args = append(args, "-certify")
	}
	fs := flag.NewFlagSet("suite", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fl := framework.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	opts, err := fl.Options()
	if err != nil {
		return err
	}
	// A -config file names images as the flags do: a certification
	// refuses them there too.
	if o.Certify {
		switch {
		case opts.NodeImage != "":
			return fmt.Errorf("nodeImage %q (from -config): a certification runs the node image this checkout builds, never one given by hand: drop it", opts.NodeImage)
		case opts.ImageManifest != images:
			return fmt.Errorf("images %q (from -config): a certification runs the images this checkout builds (or its kit carries, named by ./run itself), never images given by hand: drop it", opts.ImageManifest)
		}
	}
	p, _, err := profile.Validated(opts)
	if err != nil {
		return err
	}
	return p.Capabilities().CheckParallelism(o.Procs)
}

// prebuilt are the suite flags that hand a run images built elsewhere
// (the kit's ./run passes -images itself, from its own manifest).
var prebuilt = map[string]bool{"node-image": true, "images": true}

// passThrough records a suite flag as it was given, to pass it on.
type passThrough struct {
	name   string
	isBool bool
	args   *[]string
	onSet  func(string)
}

func (p passThrough) String() string   { return "" }
func (p passThrough) IsBoolFlag() bool { return p.isBool }
func (p passThrough) Set(v string) error {
	// Ginkgo starts the suite in its binary's directory: a file named
	// relative to where the run was called must be made absolute.
	switch p.name {
	case "config", "kubeconfig", "images":
		if abs, err := filepath.Abs(v); err == nil {
			v = abs
		}
	}
	*p.args = append(*p.args, "-"+p.name+"="+v)
	if p.onSet != nil {
		p.onSet(v)
	}
	return nil
}
