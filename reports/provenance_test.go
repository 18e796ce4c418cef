package reports

import (
	"strings"
	"testing"
)

func TestParseImageRef(t *testing.T) {
	digest := "sha256:" + hex64('a')
	for _, tc := range []struct{ ref, name, tag, digest string }{
		{"registry.example/acme/router:1.2.3", "registry.example/acme/router", "1.2.3", ""},
		{"registry.example/acme/router@" + digest, "registry.example/acme/router", "", digest},
		{"registry.example/acme/router:1.2.3@" + digest, "registry.example/acme/router", "1.2.3", digest},
		{"localhost:5000/r:1", "localhost:5000/r", "1", ""},
		{"localhost:5000/r", "localhost:5000/r", "", ""},
		{"openshift/router", "openshift/router", "", ""},
		{"docker.io/library/haproxy:3.0", "haproxy", "3.0", ""},
	} {
		name, tag, d, err := ParseImageRef(tc.ref)
		if err != nil || name != tc.name || tag != tc.tag || d != tc.digest {
			t.Errorf("%s: %q %q %q %v, want %q %q %q", tc.ref, name, tag, d, err, tc.name, tc.tag, tc.digest)
		}
	}
	for _, tc := range []struct{ ref, err string }{
		{"sha256:" + hex64('a'), `image reference "sha256:` + hex64('a') + `" is an image ID, not a reference`},
		{"Acme/Router:1", `image reference "Acme/Router:1": invalid reference format: repository name (Router) must be lowercase`},
		{"", `image reference "": invalid reference format`},
	} {
		if _, _, _, err := ParseImageRef(tc.ref); err == nil || err.Error() != tc.err {
			t.Errorf("%q: error %v, want %q", tc.ref, err, tc.err)
		}
	}
}

func TestImplementationValidate(t *testing.T) {
	ok := goodMeta().Implementation
	if err := ok.Validate(); err != nil {
		t.Errorf("complete implementation: %v", err)
	}
	for _, tc := range []struct {
		name   string
		change func(*Implementation)
		err    string
	}{
		{"no contact", func(i *Implementation) { i.Contact = nil }, "implementation: missing contact"},
		{"a blank contact, as an empty -contact flag gives", func(i *Implementation) { i.Contact = []string{""} }, "implementation: missing contact"},
		{"nothing", func(i *Implementation) { *i = Implementation{} }, "implementation: missing organization, project, url, version, contact"},
		{"a relative url and no version", func(i *Implementation) { i.URL, i.Version = "acme.example/router", " " },
			`implementation: missing version; url "acme.example/router" is not an absolute URL`},
		{"a url without a host", func(i *Implementation) { i.URL = "mailto:router@acme.example" },
			`implementation: url "mailto:router@acme.example" is not an absolute URL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i := ok
			tc.change(&i)
			if err := i.Validate(); err == nil || err.Error() != tc.err {
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}
}

func TestCurrentSuiteFromLinkerFlags(t *testing.T) {
	defer func(v, c, d string) { SuiteVersion, SuiteCommit, SuiteDirty = v, c, d }(SuiteVersion, SuiteCommit, SuiteDirty)
	if got, want := CurrentSuite(), (Suite{Module: SuiteModule, Version: "v0.3.0-dev", Commit: "unknown", Dirty: true}); got != want {
		t.Errorf("unset: %+v, want %+v (a tree nobody vouched for counts as dirty)", got, want)
	}
	SuiteVersion, SuiteCommit, SuiteDirty = "v0.3.0", "0123abc", "false"
	if got, want := CurrentSuite(), (Suite{Module: SuiteModule, Version: "v0.3.0", Commit: "0123abc"}); got != want {
		t.Errorf("clean: %+v, want %+v", got, want)
	}
	SuiteDirty = "true"
	if got := CurrentSuite(); !got.Dirty || got.String() != "v0.3.0 (commit 0123abc, dirty)" {
		t.Errorf("dirty: %+v %q", got, got.String())
	}
}

// A spec ID new in a build is published in the release the build leads
// to: its version without the pre-release.
func TestIntroducingVersionIsTheReleaseOfTheBuild(t *testing.T) {
	defer func(v string) { SuiteVersion = v }(SuiteVersion)
	if got := IntroducingVersion(); got != "v0.3.0" {
		t.Errorf("this build (%s): %q, want v0.3.0", SuiteVersion, got)
	}
	for version, want := range map[string]string{"v0.3.0": "v0.3.0", "v0.3.0-dev": "v0.3.0", "v1.0.0-rc.1": "v1.0.0", "v0.4.0-dev-1-gabc": "v0.4.0"} {
		SuiteVersion = version
		if got := IntroducingVersion(); got != want {
			t.Errorf("%s: %q, want %q", version, got, want)
		}
	}
}

// A certifier's rerun compiled from the bundle's commit with the same Go
// toolchain is byte for byte the bundle's binary: another sha256 is code
// the commit does not hold; another toolchain leaves nothing compared, and
// neither certifies.
func TestCompareBinaries(t *testing.T) {
	a := &Binary{SHA256: "aa", GoVersion: "go1.25.0"}
	for _, tc := range []struct {
		bundle, rerun *Binary
		same          bool
		note          string
	}{
		{a, &Binary{SHA256: "aa", GoVersion: "go1.25.0"}, true, "suite binary: the bundle's, byte for byte (sha256 aa)"},
		{a, &Binary{SHA256: "bb", GoVersion: "go1.25.0"}, false, "the suite binary differs from the bundle's (sha256 bb, the bundle's aa) though compiled from the same commit with go1.25.0: the bundle's was built from other code"},
		{a, &Binary{SHA256: "bb", GoVersion: "go1.25.1"}, false, "the suite binary was not compared with the bundle's (the bundle's was compiled with go1.25.0, the rerun's with go1.25.1): rerun with the bundle's Go toolchain"},
		{nil, a, false, "the suite binary was not compared with the bundle's (a record names none)"},
	} {
		if note, same := CompareBinaries(tc.bundle, tc.rerun); note != tc.note || same != tc.same {
			t.Errorf("CompareBinaries(%+v, %+v) = %q, %v; want %q, %v", tc.bundle, tc.rerun, note, same, tc.note, tc.same)
		}
	}
}

// The running binary is described by content.
func TestRunningBinary(t *testing.T) {
	b, err := RunningBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(b.SHA256) != 64 || !strings.HasPrefix(b.GoVersion, "go") || !strings.Contains(b.BuildInfo, "path\t") {
		t.Errorf("RunningBinary() = %+v", b)
	}
}
