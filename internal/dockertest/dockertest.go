// Package dockertest gives tests a local Docker image of their own: a
// one-file image imported (no registry, no build) under a reference, and
// removed when the test ends. It needs the Docker engine make test
// starts.
package dockertest

import (
	"archive/tar"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// Image imports a one-file image holding content under ref and returns
// its ID; changes are Dockerfile instructions it is imported with
// (docker import --change, e.g. "LABEL k=v").
func Image(t testing.TB, ref, content string, changes ...string) string {
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
	args := []string{"import"}
	for _, c := range changes {
		args = append(args, "--change", c)
	}
	cmd := exec.Command("docker", append(args, "-", ref)...)
	cmd.Stdin = &archive
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("docker import %s: %v", ref, err)
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { _ = exec.Command("docker", "rmi", "-f", id).Run() })
	return id
}
