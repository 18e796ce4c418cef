package images

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hash_inputs (lib.sh) names every cached image, the node image's
// Kubernetes build among them: its format is fixed, or every cache misses.
// The lines it hashes, written out here: "literal STRING" for an argument
// starting with '-', "file NAME SHA256" for each regular file of a file
// or directory argument (a directory's files recursively in byte order of
// their names, symbolic links left out).
func TestHashInputsKeepsItsFormat(t *testing.T) {
	lib, err := filepath.Abs("lib.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module x\n")
	write("tree/b.go", "package b\n")
	write("tree/a/z.go", "package z\n")
	write("tree/B.txt", "upper case sorts first\n")
	write("tree/with space.go", "package s\n")
	write("tree/empty", "")
	if err := os.Symlink("b.go", filepath.Join(dir, "tree", "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "nothing"), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"go.mod", "-go version x", "tree", "nothing", "-a function\nof two lines", "tree/b.go"}

	cmd := exec.Command("bash", append([]string{"-c", `. "$0"; hash_inputs "$@"`, lib}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hash_inputs: %v: %s", err, out)
	}

	var lines strings.Builder
	file := func(name string) {
		content, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(content)
		lines.WriteString("file " + name + " " + hex.EncodeToString(sum[:]) + "\n")
	}
	file("go.mod")
	lines.WriteString("literal go version x\n")
	for _, name := range []string{"tree/B.txt", "tree/a/z.go", "tree/b.go", "tree/empty", "tree/with space.go"} {
		file(name)
	}
	lines.WriteString("literal a function\nof two lines\n")
	file("tree/b.go")
	sum := sha256.Sum256([]byte(lines.String()))
	if want, got := hex.EncodeToString(sum[:])[:16], strings.TrimSpace(string(out)); got != want {
		t.Errorf("hash_inputs %q = %s, want %s over:\n%s", args, got, want, lines.String())
	}
}
