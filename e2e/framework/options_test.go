package framework

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestConfigFileUnderFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "e2e.yaml")
	if err := os.WriteFile(file, []byte("clusterName: from-file\nkeep: true\nfeatures: [hsts, client-tls]\ntimeouts:\n  converge: 45s\n  podReady: 3m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("e2e", flag.ContinueOnError)
	flags := RegisterFlags(fs)
	if err := fs.Parse([]string{"-config", file, "-timeout-converge", "10s"}); err != nil {
		t.Fatal(err)
	}
	opts, err := flags.Options()
	if err != nil {
		t.Fatal(err)
	}
	if opts.ClusterName != "from-file" || !opts.Keep || opts.Timeouts.PodReady != 3*time.Minute {
		t.Errorf("file values not applied: %+v", opts)
	}
	if opts.Timeouts.Converge != 10*time.Second {
		t.Errorf("the flag must win over the file: converge %s", opts.Timeouts.Converge)
	}
	if len(opts.Features) != 2 || opts.Features[0] != "hsts" {
		t.Errorf("features = %v", opts.Features)
	}
}

func TestBadOptionsSayWhatIsWrong(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-profile", "cloud"}, `-profile "cloud": want kind or existing`},
		{[]string{"-profile", "existing"}, "profile existing needs -kubeconfig, -http-addr, -https-addr and -domain"},
		{[]string{"-features", "hsts,teleport"}, `-features: "teleport" is no feature of the conformance table`},
		{[]string{"-timeout-converge", "0s"}, "-timeout-converge must be positive"},
	} {
		fs := flag.NewFlagSet("e2e", flag.ContinueOnError)
		flags := RegisterFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if _, err := flags.Options(); err == nil || err.Error() != tc.want {
			t.Errorf("%v: got %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestTheExampleConfigLoads(t *testing.T) {
	fs := flag.NewFlagSet("e2e", flag.ContinueOnError)
	flags := RegisterFlags(fs)
	if err := fs.Parse([]string{"-config", "../example-config.yaml"}); err != nil {
		t.Fatal(err)
	}
	opts, err := flags.Options()
	if err != nil {
		t.Fatalf("e2e/example-config.yaml: %v", err)
	}
	if opts.Timeouts.Converge != 30*time.Second || len(opts.Features) != len(KindFeatures) || opts.Profile != KindProfile || opts.Timeouts.CRLRefresh != 5*time.Minute+30*time.Second || opts.Timeouts.Consecutive != 3 {
		t.Errorf("example config read as %+v", opts)
	}
}
