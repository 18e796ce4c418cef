package incluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/router-conformance/suite/clusters/existing"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/reports"
)

// HydrophoneModule is the hydrophone pinned for the proof: built from the
// Go module proxy (it needs Go 1.26), never downloaded as a binary.
const HydrophoneModule = "sigs.k8s.io/hydrophone@v0.8.0"

// ProveOptions of Prove.
type ProveOptions struct {
	RepoRoot string
	// KindJUnit is the kind profile's junit.xml (make e2e's), compared
	// spec by spec with what hydrophone brings back.
	KindJUnit string
	// OutDir is hydrophone's --output-dir, where the comparison goes too.
	OutDir string
	// Name of the lab cluster.
	Name string
	// Workers and Replicas shape the lab (existing.Options): worker
	// nodes, and the default IngressController's router replicas spread
	// over them, which router-internal-default balances over.
	Workers  int
	Replicas int
	Parallel int
	// Features the in-cluster run claims ("": the profile's default).
	Features []string
	// ExtraArgs are more suite flags for the pod's run (-certify and the
	// implementation's names make it a certification, bundled and
	// verified in the pod through the one run path).
	ExtraArgs []string
	Keep      bool
	Stdout    io.Writer
	Logf      func(format string, args ...any)
}

// Prove runs the suite as hydrophone runs a conformance image, on a lab
// cluster the suite did not install (clusters/existing: manifests applied
// with kubectl), and checks what comes back: e2e.log and junit_01.xml,
// the verdict passed, and every spec with the kind profile's outcome.
func Prove(ctx context.Context, o ProveOptions) (err error) {
	if o.Name == "" {
		o.Name = "router-conformance-incluster"
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	root, err := filepath.Abs(o.RepoRoot)
	if err != nil {
		return err
	}
	if _, err := os.Stat(o.KindJUnit); err != nil {
		return fmt.Errorf("the kind profile's JUnit to compare with: %w (run make e2e first, or set KIND_JUNIT)", err)
	}
	if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
		return err
	}
	hydrophone, err := buildHydrophone(ctx, root)
	if err != nil {
		return err
	}
	fixtures, err := fixtureManifest(ctx, root)
	if err != nil {
		return err
	}
	suite, err := BuildImage(ctx, root, fixtures)
	if err != nil {
		return err
	}
	busybox, err := BuildBusybox(ctx)
	if err != nil {
		return err
	}
	o.Logf("conformance image %s, output image %s, %s", suite, busybox, HydrophoneModule)
	labOpts := existing.Options{Name: o.Name, RepoRoot: root, Logf: o.Logf, Workers: o.Workers, Replicas: o.Replicas}
	lab, err := existing.Up(ctx, labOpts)
	if !o.Keep {
		defer func() {
			if derr := existing.Down(context.Background(), labOpts); derr != nil && err == nil {
				err = derr
			}
		}()
	}
	if err != nil {
		return err
	}
	if err := lab.LoadImages(ctx, append([]string{suite, busybox}, fixtures.Refs()...)...); err != nil {
		return err
	}
	extra := []string{"--domain=" + lab.Domain, "--allow-disruptive=true"}
	// hydrophone splits --extra-args on commas: a flag per feature.
	for _, f := range o.Features {
		extra = append(extra, "--features="+f)
	}
	extra = append(extra, o.ExtraArgs...)
	args := []string{"--kubeconfig", lab.Kubeconfig, "--conformance-image", suite, "--busybox-image", busybox,
		"--output-dir", o.OutDir, "--parallel", strconv.Itoa(o.Parallel),
		// The image has no shell for hydrophone's progress probe (sh -c
		// cat e2e.log): the log stream says how far it is.
		"--disable-progress-status",
		"--extra-args", strings.Join(extra, ",")}
	o.Logf("%s %s", hydrophone, strings.Join(args, " "))
	console, err := os.Create(filepath.Join(o.OutDir, "hydrophone.log"))
	if err != nil {
		return err
	}
	defer console.Close()
	cmd := exec.CommandContext(ctx, hydrophone, args...)
	cmd.Stdout, cmd.Stderr = io.MultiWriter(o.Stdout, console), io.MultiWriter(o.Stdout, console)
	runErr := cmd.Run()
	// Where the router replicas ran, beside the results (as make
	// e2e-existing keeps them).
	if pods, err := existing.RouterPods(ctx, o.Name); err != nil {
		o.Logf("router pods: %v", err)
	} else if err := os.WriteFile(filepath.Join(o.OutDir, "router-pods.txt"), []byte(pods), 0o644); err != nil {
		return err
	} else {
		fmt.Fprint(o.Stdout, pods)
	}
	return check(o, runErr)
}

// check reads what hydrophone brought back and compares it.
func check(o ProveOptions, runErr error) error {
	logData, err := os.ReadFile(filepath.Join(o.OutDir, "e2e.log"))
	if err != nil {
		return fmt.Errorf("hydrophone brought back no e2e.log (hydrophone: %v): %w", runErr, err)
	}
	summary, ok := SummaryFromLog(string(logData))
	if !ok {
		return fmt.Errorf("e2e.log has no summary (hydrophone: %v): the runner did not finish", runErr)
	}
	if err := os.WriteFile(filepath.Join(o.OutDir, reports.SummaryMD), []byte(summary), 0o644); err != nil {
		return err
	}
	c, err := reports.CompareFiles("kind", o.KindJUnit, "in-cluster", filepath.Join(o.OutDir, "junit_01.xml"), filepath.Join(o.OutDir, "compare.md"), o.Stdout)
	if err != nil {
		return err
	}
	var problems []string
	if runErr != nil {
		problems = append(problems, fmt.Sprintf("hydrophone: %v (the conformance container's exit status: the verdict is not passed)", runErr))
	}
	if n := len(c.Differences()); n > 0 {
		problems = append(problems, fmt.Sprintf("%d specs differ from the kind profile's run (%s)", n, filepath.Join(o.OutDir, "compare.md")))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// fixtureManifest builds the fixture images (cached) and lists them: the
// conformance image carries the list, the lab's node the images.
func fixtureManifest(ctx context.Context, root string) (images.Manifest, error) {
	refs := map[string]string{}
	var names []string
	for _, s := range images.Fixtures() {
		tag, err := images.Build(ctx, root, s)
		if err != nil {
			return images.Manifest{}, err
		}
		refs[s.Name] = tag
		names = append(names, s.Name)
	}
	return images.ManifestOf(ctx, names, refs)
}

// buildHydrophone installs the pinned hydrophone into .cache/bin (once).
func buildHydrophone(ctx context.Context, root string) (string, error) {
	_, version, _ := strings.Cut(HydrophoneModule, "@")
	bin := filepath.Join(root, ".cache", "bin", "hydrophone-"+version)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	gobin, err := os.MkdirTemp("", "router-conformance-hydrophone-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(gobin)
	cmd := exec.CommandContext(ctx, "go", "install", HydrophoneModule)
	// Its own module graph (client-go v0.37), not the suite's.
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "CGO_ENABLED=0", "GOFLAGS=")
	cmd.Dir = os.TempDir()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install %s: %w\n%s", HydrophoneModule, err, out)
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", err
	}
	return bin, os.Rename(filepath.Join(gobin, "hydrophone"), bin)
}
