package framework

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/router-conformance/suite/contract"
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
		{[]string{"-certify", "-reuse"}, "-certify: a certification run makes its own cluster: drop -reuse (REUSE=1)"},
		{[]string{"-certify", "-timeout-converge", "10s"}, "-certify: -timeout-converge 10s is not the suite's 30s: a certification run waits exactly the documented times (contract/timeouts.go)"},
		// Longer is refused too: a flapping router retried until it
		// passes, and a long poll makes every Consistently one sample.
		{[]string{"-certify", "-timeout-converge", "24h"}, "-certify: -timeout-converge 24h0m0s is not the suite's 30s: a certification run waits exactly the documented times (contract/timeouts.go)"},
		{[]string{"-certify", "-poll-interval", "1h"}, "-certify: -poll-interval 1h0m0s is not the suite's 250ms: a certification run waits exactly the documented times (contract/timeouts.go)"},
		{[]string{"-certify", "-consecutive", "1"}, "-certify: -consecutive 1 is not the suite's 3: a certification run waits exactly the documented times (contract/timeouts.go)"},
		{[]string{"-certify", "-timeout-run", "10h"}, "-certify: -timeout-run 10h0m0s is not the suite's 1h25m0s: a certification run waits exactly the documented times (contract/timeouts.go)"},
		{[]string{"-certify", "-implementation-organization", "Acme", "-implementation-url", "https://acme.example"}, "-certify: the report must name the implementation: set -implementation-project, -implementation-contact"},
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
		{kindCaps, []contract.Feature{"router", "hsts", "header-actions", "sharding", "hsts-policy", "client-tls", "component-routes", "delegation", "smoke"}},
		{Capabilities{Profile: KindProfile, OwnIngressControllers: true, KindHarness: true}, []contract.Feature{"router", "hsts", "header-actions", "sharding", "hsts-policy", "client-tls", "component-routes", "smoke"}},
		{Capabilities{Profile: ExistingProfile}, []contract.Feature{"router", "hsts", "header-actions", "hsts-policy", "client-tls", "component-routes"}},
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

func TestACertifyRunWithTheImplementationNamedIsValid(t *testing.T) {
	opts, err := parse(t, "-certify", "-implementation-organization", "Acme", "-implementation-project", "acme-router",
		"-implementation-url", "https://acme.example/router", "-implementation-contact", "router@acme.example", "-timeout-converge", "30s")
	if err != nil {
		t.Fatal(err)
	}
	Complete(&opts, kindCaps)
	if err := Validate(opts); err != nil {
		t.Errorf("a certify run with the documented waits (one given as its value) and the implementation named: %v", err)
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
