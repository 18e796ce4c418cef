package framework

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

func parse(t *testing.T, args ...string) (Options, error) {
	t.Helper()
	fs := flag.NewFlagSet("e2e", flag.ContinueOnError)
	flags := RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return flags.Options()
}

var kindCaps = Capabilities{Profile: KindProfile, OwnIngressControllers: true, MaxParallel: 4, KindHarness: true, ReferenceRouter: true}

func TestConfigFileUnderFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "e2e.yaml")
	if err := os.WriteFile(file, []byte("clusterName: from-file\nkeep: true\nfeatures: [hsts, client-tls]\nimplementationContact: [a@example.com, b@example.com]\ntimeouts:\n  converge: 45s\n  podReady: 3m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts, err := parse(t, "-config", file, "-timeout-converge", "10s", "-implementation-contact", "c@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if opts.ClusterName != "from-file" || !opts.Keep || opts.Timeouts.PodReady != 3*time.Minute {
		t.Errorf("file values not applied: %+v", opts)
	}
	if opts.Timeouts.Converge != 10*time.Second {
		t.Errorf("the flag must win over the file: converge %s", opts.Timeouts.Converge)
	}
	if len(opts.Features) != 2 || opts.Features[0] != contract.FeatureHSTS {
		t.Errorf("features = %v", opts.Features)
	}
	if len(opts.ImplementationContact) != 1 || opts.ImplementationContact[0] != "c@example.com" {
		t.Errorf("the contact flag must replace the file's list: %v", opts.ImplementationContact)
	}
	if opts.Timeouts.Poll != DefaultOptions().Timeouts.Poll {
		t.Errorf("an option neither file nor flag sets keeps its default: poll %s", opts.Timeouts.Poll)
	}
}

func TestAFlagNotGivenLeavesTheFileAlone(t *testing.T) {
	file := filepath.Join(t.TempDir(), "e2e.yaml")
	if err := os.WriteFile(file, []byte("reuse: true\ntimeouts:\n  consecutive: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts, err := parse(t, "-config", file, "-keep")
	if err != nil {
		t.Fatal(err)
	}
	if !opts.Reuse || !opts.Keep || opts.Timeouts.Consecutive != 5 {
		t.Errorf("got reuse %v keep %v consecutive %d", opts.Reuse, opts.Keep, opts.Timeouts.Consecutive)
	}
}

func TestBadOptionsSayWhatIsWrong(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-profile", "cloud"}, `-profile "cloud": want kind or existing`},
		{[]string{"-profile", "existing"}, "profile existing needs -kubeconfig, -http-addr, -https-addr and -domain (or -in-cluster and -domain inside the cluster)"},
		{[]string{"-in-cluster"}, "-image-repository, -allow-disruptive and -in-cluster apply to the existing profile only: the kind profile loads its images and owns its cluster"},
		{[]string{"-profile", "existing", "-in-cluster"}, "-in-cluster needs -domain, the default IngressController's apps domain"},
		{[]string{"-profile", "existing", "-in-cluster", "-domain", "apps.test"}, "-in-cluster builds and pushes no image (a pod has no Docker): give -images (the conformance image carries one) or -image-repository with -images-pushed"},
		{[]string{"-profile", "existing", "-node-image", "n:1", "-kubeconfig", "k", "-http-addr", "a:80", "-https-addr", "a:443", "-domain", "d"}, "-router-image and -node-image apply to the kind profile only: on an existing cluster the router is already deployed"},
		{[]string{"-features", "hsts,teleport"}, `-features: "teleport" is no feature of the conformance table (contract/features.go)`},
		{[]string{"-timeout-converge", "0s"}, "-timeout-converge must be positive"},
		{[]string{"-shard-addrs", "10080=127.0.0.1:1,10443=127.0.0.1:2,11936"}, "-shard-addrs applies to the existing profile only: the kind profile maps its own shard ports"},
		{[]string{"-profile", "existing", "-in-cluster", "-domain", "apps.test", "-images", "/images.json", "-shard-addrs", "10080=127.0.0.1:1,10443=127.0.0.1:2,11936"}, "-shard-addrs and -in-cluster: inside the cluster a spec's own IngressController is published Private and reached through its Service; give one or the other"},
		{append(existingArgs, "-shard-addrs", "10080=127.0.0.1:1,10443=127.0.0.1:2,11936 10080=127.0.0.1:3,10444=127.0.0.1:4,11937"), "-shard-addrs: node port 10080 twice (or the default router's 80 or 443): each shard binds its own ports on its node"},
		{append(existingArgs, "-shard-addrs", "443=127.0.0.1:1,10443=127.0.0.1:2,11936"), "-shard-addrs: node port 443 twice (or the default router's 80 or 443): each shard binds its own ports on its node"},
		{append(existingArgs, "-shard-addrs", "10080=127.0.0.1:1,10443=127.0.0.1:2,11936 10081=127.0.0.1:1,10444=127.0.0.1:4,11937"), "-shard-addrs: address 127.0.0.1:1 twice: each shard port needs a frontend of its own"},
		{[]string{"-fault", "none", "-certify"}, "-fault and -certify: a certification judges the images as shipped, never a test-only fault build"},
		{[]string{"-fault", "none", "-router-image", "r:1"}, "-fault builds the reference router and the stand-ins with their fault points: it takes no -router-image and no -images"},
		{[]string{"-fault", "hsts.no-such-fault"}, `-fault "hsts.no-such-fault" is no fault of faults/catalogue (or none for the control)`},
		{append(existingArgs, "-fault", "none"), "-fault applies to the kind profile only: the fault build is the suite's reference router and stand-ins"},
		{[]string{"-openshift-release", "4.19"}, `-openshift-release "4.19": no release line this suite tracks: pick one of 4.20, 4.21, 4.22, 4.23, 5.0, 5.1, master (the line your customers run)`},
	} {
		opts, err := parse(t, tc.args...)
		if err == nil {
			Complete(&opts, kindCaps)
			err = Validate(opts)
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%v: got %v, want %q", tc.args, err, tc.want)
		}
	}
	if _, err := parse(t, "-timeout-converge", "soon"); err == nil || err.Error() != `-timeout-converge "soon": time: invalid duration "soon"` {
		t.Errorf("a duration that does not parse: %v", err)
	}
}

// existingArgs are the existing profile's required flags.
var existingArgs = []string{"-profile", "existing", "-kubeconfig", "k", "-http-addr", "lb:80", "-https-addr", "lb:443", "-domain", "apps.test"}

// -shard-addrs: a pair per parallel process, in order, from one
// space-separated value (the lab's SHARD_ADDRS), repeated flags or the
// file; the flags replace the file's pairs; Effective gives the value
// back in the flag's form.
func TestShardAddrsAreAPairPerProcess(t *testing.T) {
	const lab = "10080=127.0.0.1:32800,10443=127.0.0.1:32801,11936 10081=127.0.0.1:32802,10444=127.0.0.1:32803,11937"
	want := []ShardPorts{
		{HTTPPort: 10080, HTTPSPort: 10443, StatsPort: 11936, HTTPAddr: "127.0.0.1:32800", HTTPSAddr: "127.0.0.1:32801"},
		{HTTPPort: 10081, HTTPSPort: 10444, StatsPort: 11937, HTTPAddr: "127.0.0.1:32802", HTTPSAddr: "127.0.0.1:32803"},
	}
	for _, args := range [][]string{
		{"-shard-addrs", lab},
		{"-shard-addrs", "10080=127.0.0.1:32800,10443=127.0.0.1:32801,11936", "-shard-addrs=10081=127.0.0.1:32802,10444=127.0.0.1:32803,11937"},
		{"-shard-addrs", "  " + strings.ReplaceAll(lab, " ", "\n\t") + " "},
	} {
		opts, err := parse(t, append(slices.Clone(existingArgs), args...)...)
		if err == nil {
			Complete(&opts, Capabilities{Profile: ExistingProfile, OwnIngressControllers: true, MaxParallel: 2})
			err = Validate(opts)
		}
		if err != nil || !slices.Equal(opts.ShardAddrs, want) {
			t.Errorf("%q: %+v %v\nwant %+v", args, opts.ShardAddrs, err, want)
		}
		if got := opts.Effective()["shard-addrs"]; got != lab {
			t.Errorf("%q: effective %q, want %q", args, got, lab)
		}
	}
	file := filepath.Join(t.TempDir(), "e2e.yaml")
	if err := os.WriteFile(file, []byte("shardAddrs: [\"10080=lb:1,10443=lb:2,11936\", \"10081=lb:3,10444=lb:4,11937\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts, err := parse(t, "-config", file)
	if err != nil || len(opts.ShardAddrs) != 2 || opts.ShardAddrs[1].HTTPSAddr != "lb:4" {
		t.Errorf("from the file: %+v %v", opts.ShardAddrs, err)
	}
	opts, err = parse(t, "-config", file, "-shard-addrs", "10082=lb:5,10445=lb:6,11938")
	if err != nil || len(opts.ShardAddrs) != 1 || opts.ShardAddrs[0].HTTPPort != 10082 {
		t.Errorf("the flag must replace the file's pairs: %+v %v", opts.ShardAddrs, err)
	}
	if opts, _ := parse(t, existingArgs...); opts.ShardAddrs != nil || opts.Effective()["shard-addrs"] != "" {
		t.Errorf("no flag, no pairs: %+v", opts.ShardAddrs)
	}
	for value, want := range map[string]string{
		"10080=127.0.0.1:1,10443=127.0.0.1:2":           `pair "10080=127.0.0.1:1,10443=127.0.0.1:2": want <http node port>=<host:port>,<https node port>=<host:port>,<stats node port>`,
		"10080=127.0.0.1:1,10443=127.0.0.1:2,11936=x:1": `pair "10080=127.0.0.1:1,10443=127.0.0.1:2,11936=x:1": want <http node port>=<host:port>,<https node port>=<host:port>,<stats node port>`,
		"10080,10443=127.0.0.1:2,11936":                 `pair "10080,10443=127.0.0.1:2,11936": want <http node port>=<host:port>,<https node port>=<host:port>,<stats node port>`,
		"http=127.0.0.1:1,10443=127.0.0.1:2,11936":      `pair "http=127.0.0.1:1,10443=127.0.0.1:2,11936": "http" is no port number`,
		"10080=127.0.0.1:1,70000=127.0.0.1:2,11936":     `pair "10080=127.0.0.1:1,70000=127.0.0.1:2,11936": "70000" is no port number`,
		"10080=127.0.0.1,10443=127.0.0.1:2,11936":       `pair "10080=127.0.0.1,10443=127.0.0.1:2,11936": "127.0.0.1" is no host:port`,
		" ": "no pair: want <http node port>=<host:port>,<https node port>=<host:port>,<stats node port>, pairs space-separated",
	} {
		if _, err := parse(t, "-shard-addrs", value); err == nil || err.Error() != fmt.Sprintf("-shard-addrs %q: %s", value, want) {
			t.Errorf("%q: got %v\nwant %s", value, err, want)
		}
	}
}

// Inside the cluster the default router is its router-internal Service,
// unless the addresses are given.
func TestInClusterReachesTheDefaultRouterThroughItsService(t *testing.T) {
	opts, err := parse(t, "-profile", "existing", "-in-cluster", "-domain", "apps.test", "-images", "/images.json")
	if err != nil {
		t.Fatal(err)
	}
	Complete(&opts, Capabilities{Profile: ExistingProfile, OwnIngressControllers: true})
	if err := Validate(opts); err != nil {
		t.Fatal(err)
	}
	if opts.HTTPAddr != "router-internal-default.openshift-ingress.svc:80" || opts.HTTPSAddr != "router-internal-default.openshift-ingress.svc:443" {
		t.Errorf("addresses %s %s", opts.HTTPAddr, opts.HTTPSAddr)
	}
	opts, _ = parse(t, "-profile", "existing", "-in-cluster", "-domain", "apps.test", "-images", "/images.json", "-http-addr", "10.0.0.1:8080")
	Complete(&opts, Capabilities{Profile: ExistingProfile})
	if opts.HTTPAddr != "10.0.0.1:8080" {
		t.Errorf("a given -http-addr was replaced: %s", opts.HTTPAddr)
	}
}

func TestAnUnknownFileKeyIsAnError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "e2e.yaml")
	if err := os.WriteFile(file, []byte("timeouts:\n  convergence: 45s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := parse(t, "-config", file)
	if want := `-config ` + file + `: unknown option "timeouts.convergence"`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestTheExampleConfigLoads(t *testing.T) {
	opts, err := parse(t, "-config", "../example-config.yaml")
	if err == nil {
		Complete(&opts, kindCaps)
		err = Validate(opts)
	}
	if err != nil {
		t.Fatalf("e2e/example-config.yaml: %v", err)
	}
	if opts.Timeouts.Converge != 30*time.Second || len(opts.Features) != len(contract.Features) || opts.Profile != KindProfile || opts.Timeouts.CRLRefresh != 5*time.Minute+30*time.Second || opts.Timeouts.Consecutive != 3 {
		t.Errorf("example config read as %+v", opts)
	}
}

func TestDefaultClaimsFollowTheCapabilities(t *testing.T) {
	for _, tc := range []struct {
		caps Capabilities
		want []contract.Feature
	}{
		{kindCaps, []contract.Feature{"router", "hsts", "header-actions", "sharding", "hsts-policy", "client-tls", "component-routes", "route-annotations", "delegation", "smoke"}},
		{Capabilities{Profile: KindProfile, OwnIngressControllers: true, KindHarness: true}, []contract.Feature{"router", "hsts", "header-actions", "sharding", "hsts-policy", "client-tls", "component-routes", "route-annotations", "smoke"}},
		{Capabilities{Profile: ExistingProfile}, []contract.Feature{"router", "hsts", "header-actions", "hsts-policy", "client-tls", "component-routes", "route-annotations"}},
	} {
		got := tc.caps.DefaultFeatures()
		if len(got) != len(tc.want) {
			t.Errorf("%+v: got %v, want %v", tc.caps, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%+v: got %v, want %v", tc.caps, got, tc.want)
				break
			}
		}
	}
}

// Every shortcut to a certification is refused by the suite's own check
// before any spec (conformance.Declare calls it), each with its one line;
// the documented run passes it.
func TestCertificationShortcutsAreRefused(t *testing.T) {
	defer func(c, d string) { reports.SuiteCommit, reports.SuiteDirty = c, d }(reports.SuiteCommit, reports.SuiteDirty)
	reports.SuiteCommit, reports.SuiteDirty = "0123456789abcdef0123456789abcdef01234567", "false"
	named := []string{"-certify", "-implementation-organization", "Acme", "-implementation-url", "https://acme.example/router",
		"-implementation-contact", "router@acme.example"}
	ginkgo := types.SuiteConfig{Timeout: contract.DefaultTimeouts().Run}
	check := func(args []string, cfg types.SuiteConfig, caps Capabilities) error {
		t.Helper()
		opts, err := parse(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		Complete(&opts, caps)
		if err := Validate(opts); err != nil {
			t.Fatal(err)
		}
		return New(opts, caps).CheckCertifiable(cfg, false)
	}
	other := Capabilities{Profile: KindProfile, OwnIngressControllers: true, MaxParallel: 4, KindHarness: true}
	withProject := append(slices.Clone(named), "-implementation-project", "acme-router")
	// Positive controls: the reference router under its own name, another
	// router under its; a wait given at its own value.
	if err := check(append(slices.Clone(named), "-timeout-converge", "30s"), ginkgo, kindCaps); err != nil {
		t.Errorf("the documented certification of the reference router: %v", err)
	}
	if err := check(withProject, ginkgo, other); err != nil {
		t.Errorf("the documented certification of another router: %v", err)
	}
	// A parallel process is given what is left of the run's timeout.
	left := ginkgo
	left.Timeout = contract.DefaultTimeouts().Run - 7*time.Minute
	if err := check(named, left, kindCaps); err != nil {
		t.Errorf("a process's remaining timeout: %v", err)
	}
	t.Setenv(FailOnceEnv, "")
	for _, tc := range []struct {
		name string
		args []string
		cfg  func(*types.SuiteConfig)
		caps Capabilities
		want string
	}{
		{"no -certify", []string{"-implementation-organization", "Acme"}, nil, kindCaps, "the run was not made with -certify (make certify, ./run certify)"},
		{"a dry run", named, func(c *types.SuiteConfig) { c.DryRun = true }, kindCaps, "a dry run tests nothing: drop --dry-run"},
		{"a label filter", named, func(c *types.SuiteConfig) { c.LabelFilter = "hsts" }, kindCaps, `the label filter "hsts" chose the specs: a certification runs the whole claimed suite (drop FOCUS)`},
		{"a focus", named, func(c *types.SuiteConfig) { c.FocusStrings = []string{"HSTS"} }, kindCaps, "--focus chose the specs: a certification runs the whole claimed suite"},
		{"a skip", named, func(c *types.SuiteConfig) { c.SkipStrings = []string{"CRL"} }, kindCaps, "--skip left specs out: a certification runs the whole claimed suite"},
		{"retries", named, func(c *types.SuiteConfig) { c.FlakeAttempts = 2 }, kindCaps, "--flake-attempts=2 retries failing specs: a certification counts every spec as it ran (unset FLAKE_ATTEMPTS)"},
		{"repeats", named, func(c *types.SuiteConfig) { c.MustPassRepeatedly = 3 }, kindCaps, "--must-pass-repeatedly=3 repeats specs: a certification runs every spec once"},
		{"another Ginkgo timeout", named, func(c *types.SuiteConfig) { c.Timeout = 24 * time.Hour }, kindCaps, "Ginkgo's --timeout is 24h0m0s, more than the run's -timeout-run 1h25m0s: the run path passes it"},
		{"-reuse", append(slices.Clone(named), "-reuse"), nil, kindCaps, "a certification run makes its own cluster: drop -reuse (REUSE=1)"},
		{"a shorter wait", append(slices.Clone(named), "-timeout-converge", "10s"), nil, kindCaps, "a certification run waits exactly the documented times (contract/timeouts.go): -timeout-converge 10s (want 30s)"},
		// Longer is refused too: a flapping router retried until it
		// passes, and a long poll makes every Consistently one sample.
		{"a longer wait", append(slices.Clone(named), "-timeout-converge", "24h"), nil, kindCaps, "a certification run waits exactly the documented times (contract/timeouts.go): -timeout-converge 24h0m0s (want 30s)"},
		{"a long poll", append(slices.Clone(named), "-poll-interval", "1h"), nil, kindCaps, "a certification run waits exactly the documented times (contract/timeouts.go): -poll-interval 1h0m0s (want 250ms)"},
		{"one answer", append(slices.Clone(named), "-consecutive", "1"), nil, kindCaps, "a certification run waits exactly the documented times (contract/timeouts.go): -consecutive 1 (want 3)"},
		{"the reference router as another implementation", withProject, nil, kindCaps, `the router judged is the suite's reference router: it certifies only as reference-router, not as "acme-router"`},
		{"nobody to ask", []string{"-certify", "-implementation-organization", "Acme"}, nil, kindCaps, "implementation: missing url, contact"},
	} {
		cfg := ginkgo
		if tc.cfg != nil {
			tc.cfg(&cfg)
		}
		if err := check(tc.args, cfg, tc.caps); err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	// The reference router's image under another name and project: known
	// by its content once the profile is up (the kind profile compares
	// IDs), refused in one line; another image under the same flags passes.
	retagged := append(slices.Clone(withProject), "-router-image", "registry.example/acme/router:1.2.3")
	up := func(reference bool) error {
		t.Helper()
		opts, err := parse(t, retagged...)
		if err != nil {
			t.Fatal(err)
		}
		Complete(&opts, other)
		f := New(opts, other)
		f.Env = &Env{Router: RouterImage{Ref: "registry.example/acme/router:1.2.3", ID: "sha256:" + strings.Repeat("ab", 32), Reference: reference}}
		return f.CheckCertifiable(ginkgo, true)
	}
	if err := up(false); err != nil {
		t.Errorf("another router's image: %v", err)
	}
	if err := up(true); err == nil || err.Error() != `the router judged is the suite's reference router: it certifies only as reference-router, not as "acme-router"` {
		t.Errorf("the reference router re-tagged: %v", err)
	}
	t.Setenv(FailOnceEnv, "HSTS")
	if err := check(named, ginkgo, kindCaps); err == nil || err.Error() != `the test-only hook "HSTS" fails specs on purpose: unset ROUTER_CONFORMANCE_TEST_FAIL_ONCE` {
		t.Errorf("the fail-once hook: %v", err)
	}
	t.Setenv(FailOnceEnv, "")
	for dirty, want := range map[[2]string]string{
		{"0123456789abcdef0123456789abcdef01234567", "true"}: "the suite was built from a tree with uncommitted changes (commit 0123456789abcdef0123456789abcdef01234567): commit or stash them",
		{"0123456789abcdef0123456789abcdef01234567", ""}:     "the suite was built from a tree with uncommitted changes (commit 0123456789abcdef0123456789abcdef01234567): commit or stash them",
		{"unknown", "false"}:                                 "the suite build names no commit: build it from a git checkout (make certify, make kit)",
	} {
		reports.SuiteCommit, reports.SuiteDirty = dirty[0], dirty[1]
		if err := check(named, ginkgo, kindCaps); err == nil || err.Error() != want {
			t.Errorf("build %v: got %v, want %q", dirty, err, want)
		}
	}
}

// hydrophone's --extra-args cannot carry a comma inside a value: each
// feature may come as a -features flag of its own.
func TestRepeatedFeaturesAddUp(t *testing.T) {
	opts, err := parse(t, "-features", "router", "-features", "hsts,sharding")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(opts.Features); got != "[router hsts sharding]" {
		t.Errorf("features %s, want [router hsts sharding]", got)
	}
	// Positive control: one flag, as before.
	opts, _ = parse(t, "-features", "hsts")
	if got := fmt.Sprint(opts.Features); got != "[hsts]" {
		t.Errorf("features %s, want [hsts]", got)
	}
}

// A feature a release line predates is not claimed by default against it
// (reported unsupported), and claiming it is refused with what to do.
func TestAFeatureTheReleaseLacksIsNotClaimed(t *testing.T) {
	saved := slices.Clone(contract.Features)
	t.Cleanup(func() { contract.Features = saved })
	i := slices.IndexFunc(contract.Features, func(f contract.FeatureInfo) bool { return f.Feature == contract.FeatureHeaderActions })
	contract.Features[i].OpenShiftSince = "4.22"

	opts, err := parse(t, "-openshift-release", "4.21")
	if err != nil {
		t.Fatal(err)
	}
	Complete(&opts, kindCaps)
	if slices.Contains(opts.Features, contract.FeatureHeaderActions) || !slices.Contains(opts.Features, contract.FeatureHSTS) {
		t.Errorf("default claims against 4.21: %v", opts.Features)
	}
	if err := Validate(opts); err != nil {
		t.Errorf("the default claims: %v", err)
	}
	opts, _ = parse(t, "-openshift-release", "4.21", "-features", "router,header-actions")
	Complete(&opts, kindCaps)
	want := "-features: OpenShift 4.21 has no header-actions (upstream shipped it in 4.22): drop the claim, or pick that release or a newer one with -openshift-release"
	if err := Validate(opts); err == nil || err.Error() != want {
		t.Errorf("a claim the release lacks: %v, want %q", err, want)
	}
	opts, _ = parse(t, "-openshift-release", "4.22")
	Complete(&opts, kindCaps)
	if !slices.Contains(opts.Features, contract.FeatureHeaderActions) {
		t.Errorf("default claims against 4.22: %v", opts.Features)
	}
}
