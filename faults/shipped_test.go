package faults_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/images"
)

// The images of make e2e, make certify and the kit hold no fault point:
// none of their specs carries build tags, only FaultBuild (make mutants)
// adds the tag, and each command holding fault points, built as
// images/build-go-image.sh builds a shipped image, has none compiled in
// (the fault build's banner is not in the binary; with the tag it is).
func TestShippedImagesHoldNoFaultPoints(t *testing.T) {
	if faults.Compiled || faults.On("") || faults.Active() != "" {
		t.Fatal("the test build holds the fault points: make test builds without -tags " + faults.Tag)
	}
	shipped := append([]images.Spec{images.ReferenceRouter, images.Registry}, images.Components...)
	for _, s := range shipped {
		if s.Tags != "" {
			t.Errorf("image %s is built with tags %q", s.Name, s.Tags)
		}
		if f := images.FaultBuild(s); s.Faults && (f.Tags != faults.Tag || f.Name == s.Name) {
			t.Errorf("FaultBuild(%s) = %+v: want the tag %s under a name of its own", s.Name, f, faults.Tag)
		}
	}
	root, _ := filepath.Abs("..")
	banner := []byte("test-only build: fault")
	build := func(pkg string, tags ...string) []byte {
		out := filepath.Join(t.TempDir(), "bin")
		args := append([]string{"build", "-trimpath", "-o", out}, tags...)
		cmd := exec.Command("go", append(args, pkg)...)
		cmd.Dir, cmd.Env = root, append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, s := range shipped {
		if !s.Faults {
			continue
		}
		if bytes.Contains(build(s.Package), banner) {
			t.Errorf("%s, built as shipped, holds the fault points", s.Package)
		}
	}
	// The control: the check sees the fault points when they are there.
	if !bytes.Contains(build(images.ReferenceRouter.Package, "-tags", faults.Tag), banner) {
		t.Error("a fault build's binary lacks the banner: the check above proves nothing")
	}
}
