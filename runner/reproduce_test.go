package runner

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/router-conformance/suite/internal/runfixture"
	"github.com/router-conformance/suite/reports"
)

// reproduceCmd is `make reproduce` (`./run reproduce`).
func reproduceCmd(t *testing.T, build Build, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errOut bytes.Buffer
	b := Binaries{Ginkgo: []string{"/nonexistent/ginkgo"}, Build: build}
	status = Main("reproduce-test", b, nil, append([]string{"reproduce", "-reports", filepath.Join(t.TempDir(), "out")}, args...), &out, &errOut)
	return out.String(), errOut.String(), status
}

// What cannot be rerun faithfully is refused before anything runs, in one
// line that says what to provide.
func TestReproduceRefusesWhatItCannotRerunFaithfully(t *testing.T) {
	published := reports.PublishedSpecs()
	build := Build{Version: reports.SuiteVersion, Commit: runfixture.Commit}
	existing := bundleRun(t, runfixture.Run(published, runfixture.Record()))
	kindRecord := runfixture.Record()
	kindRecord.Profile, kindRecord.Platform = "kind", reports.PlatformStandIns
	kindRecord.Implementation.ImageID = "sha256:" + strings.Repeat("0", 64)
	kindRun := bundleRun(t, runfixture.Run(published, kindRecord))

	const onlyTheCluster = ": a rerun runs under the certification rules with the bundle's own options; only the cluster is the certifier's to name (kind: -cluster-name, -keep; existing: -kubeconfig, -in-cluster, -http-addr, -https-addr, -domain, -image-repository, -images-pushed, -shard-addrs, -allow-disruptive)\n"
	for _, tc := range []struct {
		name   string
		build  Build
		bundle string
		want   string
		args   []string
	}{
		{"prebuilt images", build, kindRun, "reproduce: -images=/tmp/images.json -node-image=kindest/node:x" + onlyTheCluster, []string{"-images=/tmp/images.json", "-node-image=kindest/node:x"}},
		{"a reused cluster", build, kindRun, "reproduce: -reuse=true" + onlyTheCluster, []string{"-reuse"}},
		{"another release and claims", build, existing, "reproduce: -openshift-release=4.19 -features=router" + onlyTheCluster, []string{"-openshift-release=4.19", "-features=router"}},
		{"waits and images by -config", build, existing, "reproduce: -config=/tmp/waits.yaml" + onlyTheCluster, []string{"-config=/tmp/waits.yaml"}},
		{"another implementation", build, existing, "reproduce: -implementation-project=other" + onlyTheCluster, []string{"-implementation-project=other"}},
		{"a fault build", build, kindRun, "reproduce: -fault=none" + onlyTheCluster, []string{"-fault=none"}},
		{"a cluster for a kind bundle", build, kindRun, "reproduce: the bundle was made on the kind profile: its rerun takes no cluster of the certifier's (-kubeconfig=/tmp/k)\n", []string{"-kubeconfig=/tmp/k"}},
		{"another suite commit", Build{Version: reports.SuiteVersion, Commit: "4567def"}, existing,
			"reproduce: the bundle does not verify against this build: the bundle was made by suite commit 0123abc, this verifier was built from 4567def: verify it with the verifier built from 0123abc\n", nil},
		{"the existing profile, no cluster named", build, existing,
			"reproduce: the bundle was made on the existing profile: name the cluster whose router runs sha256:" + strings.Repeat("e", 64) + " after the bundle, as its run did: reproduce <bundle> -kubeconfig=... -http-addr=... -https-addr=... -domain=... -image-repository=... [-allow-disruptive]\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := reproduceCmd(t, tc.build, append([]string{"-allow-dev", tc.bundle}, tc.args...)...)
			if stdout != "" || stderr != tc.want || status != ExitUsage {
				t.Errorf("%q %q exit %d, want %q exit %d", stdout, stderr, status, tc.want, ExitUsage)
			}
		})
	}
	// The router image must be here by the bundle's ID (a tag pointing
	// elsewhere is not the image judged).
	if exec.Command("docker", "info").Run() == nil {
		_, stderr, status := reproduceCmd(t, build, "-allow-dev", kindRun)
		want := "reproduce: the router image sha256:" + strings.Repeat("0", 64) + " (registry.example/acme/router:1.2.3 in the bundle) is not in the local Docker engine: docker load the vendor's image ("
		if !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 || status != ExitUsage {
			t.Errorf("an image not here: %q exit %d\nwant %q...", stderr, status, want)
		}
	}
	// The existing profile's cluster named after the bundle: the run path
	// runs (here a Ginkgo that is not there: nothing to compare).
	// A rerun that does not reproduce leaves no earlier statement
	// standing: without a key it removes it, with the certifier's key it
	// signs a negative one, which verify refuses with its reason.
	cluster := []string{"-kubeconfig=/nonexistent/kubeconfig", "-http-addr=127.0.0.1:1", "-https-addr=127.0.0.1:2", "-domain=apps.example.test"}
	if err := os.WriteFile(reports.CertificationPath(existing), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, status := reproduceCmd(t, build, append([]string{"-allow-dev", existing}, cluster...)...)
	if status != ExitNotPass || !strings.Contains(stdout, "NOT REPRODUCED: ") || strings.Contains(stderr, "reproduce: the bundle") {
		t.Errorf("an existing cluster named: %q %q exit %d", stdout, stderr, status)
	}
	if _, err := os.Stat(reports.CertificationPath(existing)); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(stdout, "the earlier certifier's statement "+reports.CertificationPath(existing)+" is removed") {
		t.Errorf("a statement outlives a rerun that did not reproduce: %v %q", err, stdout)
	}
	keys := t.TempDir()
	if err := reports.GenerateKey(filepath.Join(keys, "certifier.pem"), filepath.Join(keys, "certifier.pub")); err != nil {
		t.Fatal(err)
	}
	stdout, _, _ = reproduceCmd(t, build, append([]string{"-allow-dev", "-sign-key", filepath.Join(keys, "certifier.pem"), existing}, cluster...)...)
	if !strings.Contains(stdout, "says the rerun did not reproduce the bundle") {
		t.Errorf("no negative statement: %q", stdout)
	}
	public, err := reports.LoadPublicKey(filepath.Join(keys, "certifier.pub"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = reports.Verify(existing, reports.VerifyOptions{AllowDev: true, Commit: build.Commit, Version: build.Version, CertifierKey: public})
	if err == nil || !strings.Contains(err.Error(), ") did not reproduce the bundle: the rerun recorded no comparable report") {
		t.Errorf("verify of a negative statement: %v", err)
	}
	if _, stderr, status := reproduceCmd(t, build, "-allow-dev", existing, "-kubeconfg=x"); status != ExitUsage || !strings.Contains(stderr, "flag provided but not defined: -kubeconfg") {
		t.Errorf("a misspelt suite flag: %q exit %d", stderr, status)
	}
	if _, stderr, status := reproduceCmd(t, build); status != ExitUsage || !strings.Contains(stderr, "give one bundle") {
		t.Errorf("no bundle: %q exit %d", stderr, status)
	}
}
