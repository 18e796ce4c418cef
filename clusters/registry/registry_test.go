package registry

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// serve starts the registry on a loopback port and returns its host:port.
func serve(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	h, err := New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

// GET /v2/ is how clients (and kind's recipe) tell a registry is up.
func TestAPIBaseAnswers200(t *testing.T) {
	host := serve(t)
	resp, err := http.Get("http://" + host + "/v2/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v2/: %s %s, want 200", resp.Status, body)
	}
	if v := resp.Header.Get("Docker-Distribution-API-Version"); v != "registry/2.0" {
		t.Errorf("Docker-Distribution-API-Version %q, want registry/2.0", v)
	}
}

// An image pushed as the suite pushes its fixtures (go-containerregistry)
// is there under its tag with the digest that was pushed, and pulls back
// whole.
func TestPushThenHeadGivesTheSameDigest(t *testing.T) {
	host := serve(t)
	img, err := random.Image(1<<20, 3)
	if err != nil {
		t.Fatal(err)
	}
	want, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	ref, err := name.NewTag(host+"/router-conformance/echo:test", name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(ref, img); err != nil {
		t.Fatalf("push %s: %v", ref, err)
	}
	desc, err := remote.Head(ref)
	if err != nil {
		t.Fatalf("HEAD %s: %v", ref, err)
	}
	if desc.Digest != want {
		t.Errorf("HEAD %s: digest %s, want %s", ref, desc.Digest, want)
	}
	pulled, err := remote.Image(ref.Context().Digest(want.String()))
	if err != nil {
		t.Fatal(err)
	}
	layers, err := pulled.Layers()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range layers {
		d, _ := l.Digest()
		rc, err := l.Compressed()
		if err != nil {
			t.Fatalf("layer %s: %v", d, err)
		}
		n, err := io.Copy(io.Discard, rc)
		rc.Close()
		// Reading a layer to its end makes go-containerregistry check
		// its digest: an error means the registry served other bytes.
		if err != nil || n == 0 {
			t.Errorf("layer %s: read %d bytes: %v", d, n, err)
		}
	}
}
