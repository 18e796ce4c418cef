package images

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
)

// RouterImage is what the report says of the router image a run judged.
type RouterImage struct {
	Ref string `json:"ref"`
	ID  string `json:"id"`
	// Digest is the repository digest (sha256:...) when the image came
	// from a registry; a locally built image has none.
	Digest string `json:"digest,omitempty"`
	// Version is the image's own version label (OCI version or revision,
	// or OpenShift's build commit), "" when it has none.
	Version string `json:"version,omitempty"`
	// HAProxyVersion is what `haproxy -v` prints inside the image, ""
	// when the image has no haproxy on its PATH.
	HAProxyVersion string `json:"haproxyVersion,omitempty"`
	// TestOnly are the Go build tags of a test-only build (TestOnlyLabel:
	// the fault points), "" for an image as shipped.
	TestOnly string `json:"testOnly,omitempty"`
}

// TestOnlyLabel marks an image built with test-only Go build tags
// (images/build-go-image.sh BUILD_TAGS): a certification refuses it.
const TestOnlyLabel = "io.router-conformance.test-only"

// versionLabels are read in this order; the first present wins.
var versionLabels = []string{"org.opencontainers.image.version", "org.opencontainers.image.revision", "io.openshift.build.commit.id"}

// ErrNotLocal says what to do when a router image is not in the local
// Docker engine: the kind profile never pulls.
type ErrNotLocal struct{ Ref string }

func (e ErrNotLocal) Error() string {
	return fmt.Sprintf("router image %q is not in the local Docker engine (the hermetic profile never pulls): build it, or `docker load -i <file>` it on an air-gapped machine, then check `docker image inspect %s`", e.Ref, e.Ref)
}

// DescribeRouter inspects a local router image. A missing image is an
// ErrNotLocal; a missing haproxy leaves HAProxyVersion empty.
func DescribeRouter(ctx context.Context, ref string) (RouterImage, error) {
	img, err := Inspect(ctx, ref)
	if err != nil {
		return img, err
	}
	// No network, removed afterwards: only the binary's banner is read.
	if banner, err := dockerOutput(ctx, "run", "--rm", "--network", "none", "--entrypoint", "haproxy", ref, "-v"); err == nil {
		img.HAProxyVersion = ParseHAProxyVersion(banner)
	}
	return img, nil
}

// Inspect reads a local image's ID, repository digest and version label
// without running it.
func Inspect(ctx context.Context, ref string) (RouterImage, error) {
	out, err := dockerOutput(ctx, "image", "inspect", "--format", `{{.Id}}|{{range .RepoDigests}}{{.}} {{end}}{{range $k, $v := .Config.Labels}}|{{$k}}={{$v}}{{end}}`, ref)
	if err != nil {
		if strings.Contains(err.Error(), "No such image") || strings.Contains(err.Error(), "No such object") {
			return RouterImage{}, ErrNotLocal{Ref: ref}
		}
		return RouterImage{}, err
	}
	fields := strings.Split(out, "|")
	img := RouterImage{Ref: ref, ID: fields[0]}
	if len(fields) > 1 {
		if digests := strings.Fields(fields[1]); len(digests) > 0 {
			_, img.Digest, _ = strings.Cut(digests[0], "@")
		}
	}
	labels := map[string]string{}
	for _, f := range fields[min(2, len(fields)):] {
		if k, v, ok := strings.Cut(f, "="); ok {
			labels[k] = v
		}
	}
	for _, l := range versionLabels {
		if v := labels[l]; v != "" {
			img.Version = v
			break
		}
	}
	img.TestOnly = labels[TestOnlyLabel]
	return img, nil
}

// RepoDigests are every repository digest of a local image
// (repository@sha256:...), none for an image built or loaded here.
func RepoDigests(ctx context.Context, ref string) ([]string, error) {
	out, err := dockerOutput(ctx, "image", "inspect", "--format", `{{range .RepoDigests}}{{.}} {{end}}`, ref)
	if err != nil {
		return nil, err
	}
	return strings.Fields(out), nil
}

var haproxyBanner = regexp.MustCompile(`HA-?Proxy version (\S+)`)

// ParseHAProxyVersion takes the version out of `haproxy -v`'s banner.
func ParseHAProxyVersion(banner string) string {
	if m := haproxyBanner.FindStringSubmatch(banner); m != nil {
		return m[1]
	}
	return ""
}

func dockerOutput(ctx context.Context, args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "docker", args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("docker %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// PinnedRepository is where a run names its images by content: the tag
// of an image is its name and its full content ID.
const PinnedRepository = "router-conformance/pinned"

// TagByID finds a local image by its content ID and tags it
// PinnedRepository:<name>-<the ID's hex>, so that a run loads and deploys
// exactly that image whatever other tags now point at; it returns the
// tag.
func TagByID(ctx context.Context, name, id string) (string, error) {
	got, err := dockerOutput(ctx, "image", "inspect", "--format", "{{.Id}}", id)
	if err != nil {
		return "", err
	}
	if got != id {
		return "", fmt.Errorf("docker names %s as %s", id, got)
	}
	hexID, ok := strings.CutPrefix(id, "sha256:")
	if !ok || len(hexID) != 64 {
		return "", fmt.Errorf("%q is no image ID", id)
	}
	tag := PinnedRepository + ":" + name + "-" + hexID
	if _, err := dockerOutput(ctx, "tag", id, tag); err != nil {
		return "", err
	}
	return tag, nil
}

// Pin reads the local image ref names once and tags its content ID
// (TagByID): the tag and the ID are what the run loads, deploys and
// records, whatever ref names later.
func Pin(ctx context.Context, name, ref string) (tag, id string, err error) {
	img, err := Inspect(ctx, ref)
	if err != nil {
		return "", "", err
	}
	tag, err = TagByID(ctx, name, img.ID)
	return tag, img.ID, err
}
