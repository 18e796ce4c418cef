// Package images lists the suite's component images and builds them with
// the scripts beside this file, each cached by the hash of its inputs.
package images

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/router-conformance/suite/faults"
)

// Spec is one component image.
type Spec struct {
	Name    string
	Package string
	// OnRouterBase builds FROM the Debian+HAProxy base instead of scratch.
	OnRouterBase bool
	// User the image runs as; "" means 65534:65534.
	User string
	// Fixture images are the suite's own workloads (backends, probes,
	// the fixture component): the existing profile needs them too.
	Fixture bool
	// Tags are Go build tags of a test-only build (FaultBuild); the
	// images of make e2e, make certify and the kit have none.
	Tags string
	// Faults: the command holds fault points (package faults), which
	// FaultBuild compiles in.
	Faults bool
}

// ReferenceRouter is the suite's own router; a run that judges another
// image never builds it.
var ReferenceRouter = Spec{Name: "router", Package: "./router/cmd/router", OnRouterBase: true, User: "0:0", Faults: true} // HAProxy binds 80 and 443 inside the pod.

// Registry is the in-memory registry a run starts beside a kind cluster
// (kind's local-registry recipe) to push the fixture images to. It is
// none of the Components: it runs as a container of its own and is never
// loaded into the cluster. FROM scratch as 65534:65534: it writes nothing
// to disk.
var Registry = Spec{Name: "registry", Package: "./clusters/registry/cmd/registry"}

// Components are the images a run loads into the cluster besides the
// router under test.
var Components = []Spec{
	{Name: "echo", Package: "./fixtures/echo/cmd/echo", Fixture: true},
	{Name: "probe", Package: "./fixtures/probe/cmd/probe", Fixture: true},
	{Name: "crlserver", Package: "./crlserver/cmd/crlserver", Fixture: true},
	{Name: "component-operator", Package: "./fixtures/componentoperator/cmd/componentoperator", Fixture: true, Faults: true},
	{Name: "route-admission", Package: "./platform/routeadmission/cmd/route-admission", Faults: true},
	{Name: "ingress-reconciler", Package: "./platform/ingressoperator/cmd/ingress-reconciler", Faults: true},
	// The access-log sidecar the ingress reconciler runs beside a router
	// whose IngressController logs to a container.
	{Name: "syslog", Package: "./platform/syslog/cmd/syslog"},
}

// Fixtures are the Components marked Fixture: what the existing profile
// and the in-cluster run deploy besides the cluster's own.
func Fixtures() []Spec {
	var out []Spec
	for _, s := range Components {
		if s.Fixture {
			out = append(out, s)
		}
	}
	return out
}

// FaultBuild is s built with its fault points (make mutants), under an
// image name of its own: s unchanged when it holds none.
func FaultBuild(s Spec) Spec {
	if !s.Faults {
		return s
	}
	s.Name, s.Tags = s.Name+"-faults", faults.Tag
	return s
}

func script(ctx context.Context, repoRoot string, env []string, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(repoRoot, name), args...)
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Build builds (or finds cached) one image and returns its tag.
func Build(ctx context.Context, repoRoot string, s Spec) (string, error) {
	return build(ctx, repoRoot, s, nil)
}

// BuildFresh builds one image whatever its tag holds: the binary from
// source (the Go build cache is keyed by content) and the image over it
// (the engine's layer cache is too), so that an unchanged input gives the
// cached image's ID again and a tag that was moved to other content is
// overwritten, never used. A certification builds its component images
// this way. The router base image FROM which the reference router is
// built stays cached by its tag: a debootstrap is minutes, and the
// reference router is never the router a vendor certifies.
func BuildFresh(ctx context.Context, repoRoot string, s Spec) (string, error) {
	return build(ctx, repoRoot, s, []string{"IMAGE_REBUILD=1"})
}

func build(ctx context.Context, repoRoot string, s Spec, env []string) (string, error) {
	if s.OnRouterBase {
		base, err := script(ctx, repoRoot, nil, "router/image/build-base.sh")
		if err != nil {
			return "", err
		}
		env = append(env, "BASE_IMAGE="+base)
	}
	if s.User != "" {
		env = append(env, "IMAGE_USER="+s.User)
	}
	if s.Tags != "" {
		env = append(env, "BUILD_TAGS="+s.Tags)
	}
	return script(ctx, repoRoot, env, "images/build-go-image.sh", s.Name, s.Package)
}

// BuildComponents builds every component image: name -> tag.
func BuildComponents(ctx context.Context, repoRoot string) (map[string]string, error) {
	return buildEach(ctx, repoRoot, Components)
}

// BuildAll builds the components and the reference router: name -> tag.
func BuildAll(ctx context.Context, repoRoot string) (map[string]string, error) {
	return buildEach(ctx, repoRoot, append([]Spec{ReferenceRouter}, Components...))
}

// BuildFaultBuilds builds the reference router and the components, each
// that holds fault points with them (make mutants): name -> tag.
func BuildFaultBuilds(ctx context.Context, repoRoot string) (map[string]string, error) {
	var specs []Spec
	for _, s := range append([]Spec{ReferenceRouter}, Components...) {
		specs = append(specs, FaultBuild(s))
	}
	return buildEach(ctx, repoRoot, specs)
}

func buildEach(ctx context.Context, repoRoot string, specs []Spec) (map[string]string, error) {
	tags := map[string]string{}
	for _, s := range specs {
		tag, err := Build(ctx, repoRoot, s)
		if err != nil {
			return nil, err
		}
		tags[s.Name] = tag
	}
	return tags, nil
}
