package images

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/random"
)

// A registry of the test's own on 127.0.0.1 (go-containerregistry's
// in-memory one): the image lands under the repository by digest, and is
// found again by Resolve.
func TestPushAndResolveByDigest(t *testing.T) {
	srv := httptest.NewServer(registry.New())
	defer srv.Close()
	repo := strings.TrimPrefix(srv.URL, "http://") + "/conformance"
	img, err := random.Image(512, 1)
	if err != nil {
		t.Fatal(err)
	}
	digest, _ := img.Digest()
	ctx := context.Background()
	p, err := Push(ctx, img, "router-conformance/echo:abc123", repo)
	if err != nil {
		t.Fatal(err)
	}
	if want := repo + "/echo@" + digest.String(); p.Remote != want {
		t.Errorf("pushed as %s, want %s", p.Remote, want)
	}
	got, err := Resolve(ctx, "router-conformance/echo:abc123", repo)
	if err != nil || got.Remote != p.Remote {
		t.Errorf("resolve: %+v, %v; want %s", got, err, p.Remote)
	}
	// Positive control above; a tag never pushed is named with its fix.
	_, err = Resolve(ctx, "router-conformance/probe:abc123", repo)
	if err == nil || !strings.Contains(err.Error(), "has no image router-conformance/probe:abc123") || !strings.Contains(err.Error(), "make push-images IMAGE_REPOSITORY="+repo) {
		t.Errorf("a missing image: %v", err)
	}
}

// A registry that does not answer is one line naming it and the image.
func TestAnUnreachableRegistryIsNamed(t *testing.T) {
	srv := httptest.NewServer(registry.New())
	addr := strings.TrimPrefix(srv.URL, "http://")
	srv.Close() // nothing listens there any more
	img, _ := random.Image(16, 1)
	_, err := Push(context.Background(), img, "router-conformance/echo:abc123", addr+"/conformance")
	if err == nil || !strings.HasPrefix(err.Error(), "registry "+addr+" unreachable for image router-conformance/echo:abc123") || strings.Contains(err.Error(), "\n") {
		t.Errorf("got %v", err)
	}
}
