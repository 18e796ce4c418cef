package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"runtime/debug"
	"strings"

	"github.com/distribution/reference"
)

// SuiteModule is the suite's Go module.
const SuiteModule = "github.com/router-conformance/suite"

// What the suite binary was built from, stamped at link time by whatever
// compiles it from a checkout (runner.SourceBuild asks git; its LDFlags,
// -X of these three, go into the run path's Ginkgo build, the kit's and the
// conformance image's binaries). No make variable sets them; a plain
// go build or go test leaves these defaults, which count as dirty.
// Strings, because -X sets only strings.
var (
	SuiteVersion = "v0.3.0-dev"
	SuiteCommit  = "unknown"
	// SuiteDirty is "false" only when the build vouched for a clean tree.
	SuiteDirty = ""
)

// IntroducingVersion is the release a spec ID new in this build is
// published in: SuiteVersion without its pre-release ("v0.3.0").
func IntroducingVersion() string {
	v, _, _ := strings.Cut(SuiteVersion, "-")
	return v
}

// Suite is the suite that judged.
type Suite struct {
	Module  string `json:"module"`
	Version string `json:"version"`
	Commit  string `json:"commit"`
	// Dirty: built from a tree with uncommitted changes, or nobody said.
	Dirty bool `json:"dirty"`
	// Binary is the compiled suite that ran the specs (absent from
	// records older than it, and where the executable could not be read).
	Binary *Binary `json:"binary,omitempty"`
}

// Binary is a compiled suite: the sha256 of its executable and its
// build information as `go version -m` prints it (Go version, module
// versions and sums, build settings: tags, ldflags, GOFLAGS-derived
// flags such as -overlay or -modfile, CGO, GOOS/GOARCH).
type Binary struct {
	SHA256    string `json:"sha256"`
	GoVersion string `json:"goVersion"`
	BuildInfo string `json:"buildInfo"`
}

// CompareBinaries says whether a rerun's suite binary is the bundle's
// (both compiled with -trimpath from one commit: byte for byte the same
// with the same Go toolchain). same only when both are recorded with one
// sha256; anything else certifies nothing: another sha256 under the same
// Go version is code the commit does not hold (an overlay, a replaced
// module, a patched toolchain), and another Go version or a missing
// record leaves it not compared.
func CompareBinaries(bundle, rerun *Binary) (note string, same bool) {
	switch {
	case bundle == nil || rerun == nil:
		return "the suite binary was not compared with the bundle's (a record names none)", false
	case bundle.SHA256 == rerun.SHA256:
		return "suite binary: the bundle's, byte for byte (sha256 " + bundle.SHA256 + ")", true
	case bundle.GoVersion != rerun.GoVersion:
		return fmt.Sprintf("the suite binary was not compared with the bundle's (the bundle's was compiled with %s, the rerun's with %s): rerun with the bundle's Go toolchain", bundle.GoVersion, rerun.GoVersion), false
	}
	return fmt.Sprintf("the suite binary differs from the bundle's (sha256 %s, the bundle's %s) though compiled from the same commit with %s: the bundle's was built from other code", rerun.SHA256, bundle.SHA256, rerun.GoVersion), false
}

// RunningBinary describes the executable of this process.
func RunningBinary() (*Binary, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	b := &Binary{SHA256: hex.EncodeToString(h.Sum(nil))}
	if info, ok := debug.ReadBuildInfo(); ok {
		b.GoVersion, b.BuildInfo = info.GoVersion, info.String()
	}
	return b, nil
}

// CurrentSuite is the suite this binary was built from. A build that did
// not say its tree was clean counts as dirty: a certifier cannot trust
// specs nobody vouched for.
func CurrentSuite() Suite {
	return Suite{Module: SuiteModule, Version: SuiteVersion, Commit: SuiteCommit, Dirty: SuiteDirty != "false"}
}

// String is "v0.2.0 (commit abc123, dirty)".
func (s Suite) String() string {
	out := fmt.Sprintf("%s (commit %s", s.Version, s.Commit)
	if s.Dirty {
		out += ", dirty"
	}
	return out + ")"
}

// Implementation is the router under test and who answers for it (the
// fields of Gateway API's conformance report), and the image that was
// judged.
type Implementation struct {
	Organization string   `json:"organization"`
	Project      string   `json:"project"`
	URL          string   `json:"url"`
	Version      string   `json:"version"`
	Contact      []string `json:"contact"`
	// Image is the reference the run used, ImageDigest its repository
	// digest (sha256:..., when the image has one), ImageID its content
	// ID, HAProxyVersion what its haproxy -v says.
	Image          string `json:"image,omitempty"`
	ImageDigest    string `json:"imageDigest,omitempty"`
	ImageID        string `json:"imageID,omitempty"`
	HAProxyVersion string `json:"haproxyVersion,omitempty"`
}

// Validate says, in one line, what a submission lacks: as Gateway API's
// Implementation.Validate, organization, project, url, version and a
// contact are required, and here the url must be absolute and every
// missing field is named at once.
func (i Implementation) Validate() error { return i.validate(true) }

// validate is Validate; before the router image is known (the version
// may come from it) withVersion is false.
func (i Implementation) validate(withVersion bool) error {
	fields := []struct{ name, value string }{{"organization", i.Organization}, {"project", i.Project}, {"url", i.URL}}
	if withVersion {
		fields = append(fields, struct{ name, value string }{"version", i.Version})
	}
	var missing []string
	for _, f := range fields {
		if strings.TrimSpace(f.value) == "" {
			missing = append(missing, f.name)
		}
	}
	// An empty entry is what splitting an empty -contact flag gives.
	if !hasNonBlank(i.Contact) {
		missing = append(missing, "contact")
	}
	var problems []string
	if len(missing) > 0 {
		problems = append(problems, "missing "+strings.Join(missing, ", "))
	}
	if i.URL != "" {
		if u, err := url.Parse(i.URL); err != nil || !u.IsAbs() || u.Host == "" {
			problems = append(problems, fmt.Sprintf("url %q is not an absolute URL", i.URL))
		}
	}
	if len(problems) > 0 {
		return errors.New("implementation: " + strings.Join(problems, "; "))
	}
	return nil
}

func hasNonBlank(s []string) bool {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return true
		}
	}
	return false
}

// ParseImageRef splits an image reference into its name (as Docker shows
// it: "nginx", "localhost:5000/router"), tag and digest. A digest is
// never mistaken for a tag, nor a registry port for one.
func ParseImageRef(ref string) (name, tag, digest string, err error) {
	if strings.HasPrefix(ref, "sha256:") {
		return "", "", "", fmt.Errorf("image reference %q is an image ID, not a reference", ref)
	}
	named, err := reference.ParseNormalizedNamed(ref)
	if err != nil {
		return "", "", "", fmt.Errorf("image reference %q: %w", ref, err)
	}
	if t, ok := named.(reference.Tagged); ok {
		tag = t.Tag()
	}
	if d, ok := named.(reference.Digested); ok {
		digest = d.Digest().String()
	}
	return reference.FamiliarName(named), tag, digest, nil
}
