package reports

import (
	"reflect"
	"testing"

	"github.com/router-conformance/suite/contract"
)

// A certifier's rerun reproduces only when its own record is the
// bundle's in everything but the date: the control compares every item,
// and each change is named in one line.
func TestCompareRerun(t *testing.T) {
	digest := "sha256:" + hex64('d')
	bundle := RunRecord{Certify: true, Meta: Meta{
		Implementation: Implementation{Organization: "Acme", Project: "acme-router", URL: "https://acme.example", Version: "1.2.3", Contact: []string{"team@acme.example"},
			ImageID: "sha256:" + hex64('e'), ImageDigest: digest},
		Suite:   Suite{Commit: "0123abc", Binary: &Binary{SHA256: hex64('b'), GoVersion: "go1.25.0"}},
		Profile: "kind", Platform: PlatformStandIns, OpenShiftRelease: contract.DefaultRelease,
		Claimed: []contract.Feature{contract.FeatureRouter},
	}}
	control := CompareRerun(bundle, bundle, []string{"registry.example/acme/router@" + digest})
	want := []string{"image ID", "repository digest " + digest, "profile", "platform", "OpenShift release", "claims", "implementation", "suite commit", "suite binary"}
	if !reflect.DeepEqual(control.Compared, want) || len(control.Differences) > 0 || len(control.NotCompared) > 0 || control.ImageDigest != digest {
		t.Fatalf("the control: %+v", control)
	}
	if c := CompareRerun(bundle, bundle, nil); len(c.Differences) > 0 || len(c.NotCompared) != 1 || c.ImageDigest != "" {
		t.Errorf("an image loaded from a file, with no repository digest: %+v", c)
	}
	for _, tc := range []struct {
		name        string
		change      func(*RunRecord)
		repoDigests []string
		want        string
	}{
		{"another image", func(r *RunRecord) { r.Implementation.ImageID = "sha256:" + hex64('f') }, nil,
			"the rerun's image ID is sha256:" + hex64('f') + ", the bundle's sha256:" + hex64('e')},
		{"another digest here", func(*RunRecord) {}, []string{"registry.example/acme/router@sha256:" + hex64('f')},
			"the image here has repository digests sha256:" + hex64('f') + ", the bundle names " + digest},
		{"another profile", func(r *RunRecord) { r.Profile = "existing" }, nil, "the rerun's profile is existing, the bundle's kind"},
		{"another platform", func(r *RunRecord) { r.Platform = PlatformCluster }, nil, "the rerun's platform is " + PlatformCluster + ", the bundle's " + PlatformStandIns},
		{"another release", func(r *RunRecord) { r.OpenShiftRelease = "4.19" }, nil, "the rerun's OpenShift release is 4.19, the bundle's " + string(contract.DefaultRelease)},
		{"other claims", func(r *RunRecord) { r.Claimed = nil }, nil, "the rerun's claims is [], the bundle's [router]"},
		{"another implementation", func(r *RunRecord) { r.Implementation.Version = "1.2.4" }, nil,
			"the rerun's implementation is Acme, acme-router, https://acme.example, 1.2.4, team@acme.example, the bundle's Acme, acme-router, https://acme.example, 1.2.3, team@acme.example"},
		{"another commit", func(r *RunRecord) { r.Suite.Commit = "4567def" }, nil, "the rerun's suite commit is 4567def, the bundle's 0123abc"},
		{"a dirty tree", func(r *RunRecord) { r.Suite.Dirty = true }, nil, "the rerun's suite build had uncommitted changes"},
		{"not under the rules", func(r *RunRecord) { r.Certify = false }, nil, "the rerun was not made under the certification rules (-certify)"},
		{"another Go", func(r *RunRecord) { r.Suite.Binary = &Binary{SHA256: hex64('c'), GoVersion: "go1.26.0"} }, nil,
			"the suite binary was not compared with the bundle's (the bundle's was compiled with go1.25.0, the rerun's with go1.26.0): rerun with the bundle's Go toolchain"},
	} {
		rerun := bundle
		rerun.Suite.Binary = bundle.Suite.Binary
		tc.change(&rerun)
		c := CompareRerun(bundle, rerun, tc.repoDigests)
		if len(c.Differences) != 1 || c.Differences[0] != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, c.Differences, tc.want)
		}
	}
}
