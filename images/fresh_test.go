package images

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/router-conformance/suite/internal/dockertest"
)

// The attack: a component's cache tag moved to other content. A plain
// build uses whatever the tag holds; a certification's fresh build makes
// the image from source again and gets the content the inputs give.
func TestAFreshBuildIgnoresAPoisonedCacheTag(t *testing.T) {
	ctx := context.Background()
	t.Setenv("IMAGE_PREFIX", "router-conformance-fresh-test")
	t.Cleanup(func() {
		out, _ := exec.Command("docker", "images", "-q", "router-conformance-fresh-test/*").Output()
		for _, id := range strings.Fields(string(out)) {
			_ = exec.Command("docker", "rmi", "-f", id).Run()
		}
	})
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	probe := Spec{Name: "probe", Package: "./fixtures/probe/cmd/probe"}
	tag, err := Build(ctx, root, probe)
	if err != nil {
		t.Fatal(err)
	}
	built, err := Inspect(ctx, tag)
	if err != nil {
		t.Fatal(err)
	}
	poison := dockertest.Image(t, tag, "not the probe")
	if again, err := Build(ctx, root, probe); err != nil || again != tag {
		t.Fatalf("cached build: %s %v", again, err)
	} else if got, _ := Inspect(ctx, tag); got.ID != poison {
		t.Fatalf("control: the cached build did not take the poisoned tag (%s, want %s)", got.ID, poison)
	}
	fresh, err := BuildFresh(ctx, root, probe)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Inspect(ctx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if fresh != tag || got.ID != built.ID {
		t.Fatalf("fresh build %s is %s; want %s (%s), the content its inputs give", fresh, got.ID, tag, built.ID)
	}
}
