package kind

import (
	"context"
	"strings"
	"testing"

	"github.com/router-conformance/suite/internal/dockertest"
)

// A tag the run recorded with one content and that names another by load
// time is refused before any node gets it; the unmoved tag (the control)
// passes.
func TestAMovedTagIsNeverLoaded(t *testing.T) {
	ctx := context.Background()
	const tag = "router-conformance/load-test:moving"
	id := dockertest.Image(t, tag, "the recorded content")
	if err := unmoved(ctx, map[string]string{tag: id}); err != nil {
		t.Fatalf("the recorded content refused: %v", err)
	}
	recorded := "sha256:" + strings.Repeat("ab", 32)
	err := unmoved(ctx, map[string]string{tag: recorded})
	if want := "image " + tag + " is " + id + " now, not " + recorded + " as the run recorded it: a tag moved during the run; rerun"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// containerd stores Docker Hub's names in full.
func TestNormalizedImageName(t *testing.T) {
	for in, want := range map[string]string{
		"busybox":                          "docker.io/library/busybox",
		"router-conformance/pinned:echo-1": "docker.io/router-conformance/pinned:echo-1",
		"registry.k8s.io/pause:3.10":       "registry.k8s.io/pause:3.10",
		"localhost/acme/router:1":          "localhost/acme/router:1",
		"127.0.0.1:5000/acme/router:1":     "127.0.0.1:5000/acme/router:1",
	} {
		if got := normalizedImageName(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
