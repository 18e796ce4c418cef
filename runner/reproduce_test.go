package runner

import (
	"bytes"
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

	for _, tc := range []struct {
		name   string
		build  Build
		bundle string
		want   string
	}{
		{"another suite commit", Build{Version: reports.SuiteVersion, Commit: "4567def"}, existing,
			"reproduce: the bundle does not verify against this build: the bundle was made by suite commit 0123abc, this verifier was built from 4567def: verify it with the verifier built from 0123abc\n"},
		{"the existing profile, no cluster named", build, existing,
			"reproduce: the bundle was made on the existing profile: name the cluster whose router runs sha256:" + strings.Repeat("e", 64) + " after the bundle, as its run did: reproduce <bundle> -kubeconfig=... -http-addr=... -https-addr=... -domain=... -image-repository=... [-allow-disruptive]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := reproduceCmd(t, tc.build, "-allow-dev", tc.bundle)
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
	stdout, stderr, status := reproduceCmd(t, build, "-allow-dev", existing, "-kubeconfig=/nonexistent/kubeconfig", "-http-addr=127.0.0.1:1",
		"-https-addr=127.0.0.1:2", "-domain=apps.example.test")
	if status != ExitNotPass || !strings.Contains(stdout, "NOT REPRODUCED: ") || strings.Contains(stderr, "reproduce: the bundle") {
		t.Errorf("an existing cluster named: %q %q exit %d", stdout, stderr, status)
	}
	if _, stderr, status := reproduceCmd(t, build, "-allow-dev", existing, "-kubeconfg=x"); status != ExitUsage || !strings.Contains(stderr, "flag provided but not defined: -kubeconfg") {
		t.Errorf("a misspelt suite flag: %q exit %d", stderr, status)
	}
	if _, stderr, status := reproduceCmd(t, build); status != ExitUsage || !strings.Contains(stderr, "give one bundle") {
		t.Errorf("no bundle: %q exit %d", stderr, status)
	}
}
