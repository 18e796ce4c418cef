package kit

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/runner"
)

// Main runs ./run with args (without the program name) from the kit in
// dir and returns the exit status: e2e, certify and verify are the one
// run path (runner) with the kit's precompiled binaries; list-images and
// load-images are the kit's own.
func Main(dir string, args []string, stdout, stderr io.Writer) int {
	k := &kitRunner{dir: dir, stdout: stdout, stderr: stderr}
	if len(args) > 0 {
		switch args[0] {
		case "list-images":
			return k.report(k.listImages())
		case "load-images":
			return k.report(k.loadImages(context.Background()))
		case "help", "-help", "--help", "-h":
			fmt.Fprint(stdout, kitUsage)
			return runner.ExitPassed
		}
	}
	return runner.Main("./run", k.binaries(), []string{"images"}, args, stdout, stderr)
}

// kitUsage is ./run's help: the run path's, and the kit's own commands.
var kitUsage = runner.Usage("./run") + `
  list-images  the images the kit carries (name, reference, ID)
  load-images  load images.tar into Docker unless every image is there
`

// binaries are the kit's: the precompiled suite and Ginkgo, the images
// manifest, the build both were stamped with.
func (k *kitRunner) binaries() runner.Binaries {
	return runner.Binaries{
		Ginkgo: []string{filepath.Join(k.dir, GinkgoBin)}, Suite: filepath.Join(k.dir, SuiteBin),
		Dir: k.dir, RepoRoot: k.dir, Images: filepath.Join(k.dir, ImagesJSON), Build: runner.StampedBuild(),
		// A damaged copy is the common air-gap failure: checked before
		// anything runs, then the images loaded.
		Prepare: func(ctx context.Context, _ runner.Options) error {
			if err := CheckSums(k.dir); err != nil {
				return err
			}
			return k.loadImages(ctx)
		},
	}
}

// report prints an error of the kit's own commands and gives the status.
func (k *kitRunner) report(err error) int {
	if err != nil {
		fmt.Fprintln(k.stderr, "run:", err)
		return runner.ExitNotPass
	}
	return runner.ExitPassed
}

type kitRunner struct {
	dir            string
	stdout, stderr io.Writer
}

func (k *kitRunner) manifest() (images.Manifest, error) {
	return images.ReadManifest(filepath.Join(k.dir, ImagesJSON))
}

func (k *kitRunner) listImages() error {
	m, err := k.manifest()
	if err != nil {
		return err
	}
	for _, img := range m.Images {
		fmt.Fprintf(k.stdout, "%s\t%s\t%s\n", img.Name, img.Ref, img.ID)
	}
	return nil
}

// loadImages loads images.tar when Docker lacks an image of the manifest
// (or holds another under its name), then checks that all are there.
func (k *kitRunner) loadImages(ctx context.Context) error {
	if out, err := exec.CommandContext(ctx, "docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		return fmt.Errorf("no Docker engine answers (docker info: %s): install or start Docker; the kit needs it and nothing else", firstLine(string(out), err))
	}
	m, err := k.manifest()
	if err != nil {
		return err
	}
	missing, err := m.Missing(ctx)
	if err != nil {
		return err
	}
	if len(missing) == 0 {
		return nil
	}
	fmt.Fprintf(k.stderr, "run: loading %s into Docker (%d of %d images missing, first %s)\n", ImagesTar, len(missing), len(m.Images), missing[0].Ref)
	load := exec.CommandContext(ctx, "docker", "load", "-q", "-i", filepath.Join(k.dir, ImagesTar))
	load.Stdout, load.Stderr = k.stderr, k.stderr
	if err := load.Run(); err != nil {
		return fmt.Errorf("docker load -i %s: %w", ImagesTar, err)
	}
	return m.Present(ctx, ImagesTar)
}

func firstLine(out string, err error) string {
	if line, _, _ := strings.Cut(strings.TrimSpace(out), "\n"); line != "" {
		return line
	}
	return err.Error()
}
