package images

import (
	"context"
	"strings"
	"testing"

	"github.com/router-conformance/suite/internal/dockertest"
)

// The attack: a tag moved after the run read it. The run's pinned tag
// holds the content it described, so what it loads and deploys is what
// it records; the moved name changes nothing of the run.
func TestAPinnedImageIsTheContentDescribed(t *testing.T) {
	ctx := context.Background()
	const ref = "router-conformance/pin-test:moving"
	described := dockertest.Image(t, ref, "the router the vendor named")
	tag, id, err := Pin(ctx, "router", ref)
	if err != nil {
		t.Fatal(err)
	}
	if id != described || tag != PinnedRepository+":router-"+strings.TrimPrefix(described, "sha256:") {
		t.Fatalf("pinned %s as %s, described %s", tag, id, described)
	}
	moved := dockertest.Image(t, ref, "another image under the same name")
	if got, err := Inspect(ctx, ref); err != nil || got.ID != moved {
		t.Fatalf("the name was not moved (control): %+v %v", got, err)
	}
	if got, err := Inspect(ctx, tag); err != nil || got.ID != described {
		t.Errorf("the pinned tag is %+v (%v), want the described %s", got, err, described)
	}
	if _, err := TagByID(ctx, "router", "router-conformance/pin-test:moving"); err == nil {
		t.Error("a name taken for an ID")
	}
}
