package images

import (
	"archive/tar"
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
)

// dockerImage imports a one-file image (no registry, no build) under ref
// and removes it when the test ends; it needs the Docker engine make test
// starts.
func dockerImage(t *testing.T, ref, content string) string {
	t.Helper()
	if err := exec.Command("docker", "info").Run(); err != nil {
		t.Fatalf("no Docker engine answers: run make test, which starts one (clusters/host/ensure-docker.sh): %v", err)
	}
	var archive bytes.Buffer
	w := tar.NewWriter(&archive)
	if err := w.WriteHeader(&tar.Header{Name: "content", Mode: 0o644, Size: int64(len(content))}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("docker", "import", "-", ref)
	cmd.Stdin = &archive
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("docker import %s: %v", ref, err)
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { _ = exec.Command("docker", "rmi", "-f", id).Run() })
	return id
}

// The attack: a tag moved after the run read it. The run's pinned tag
// holds the content it described, so what it loads and deploys is what
// it records; the moved name changes nothing of the run.
func TestAPinnedImageIsTheContentDescribed(t *testing.T) {
	ctx := context.Background()
	const ref = "router-conformance/pin-test:moving"
	described := dockerImage(t, ref, "the router the vendor named")
	tag, id, err := Pin(ctx, "router", ref)
	if err != nil {
		t.Fatal(err)
	}
	if id != described || tag != PinnedRepository+":router-"+strings.TrimPrefix(described, "sha256:") {
		t.Fatalf("pinned %s as %s, described %s", tag, id, described)
	}
	moved := dockerImage(t, ref, "another image under the same name")
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
