package kit

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/platform/install"
	"github.com/router-conformance/suite/runner"
)

// BuildOptions of a kit.
type BuildOptions struct {
	// RepoRoot is the suite's checkout, built from.
	RepoRoot string
	// OutDir receives <Name>.tar.
	OutDir string
	Logf   func(format string, args ...any)
}

// Build makes every image (cached), compiles the suite and its tools,
// and writes the kit to OutDir/<Name>.tar; it returns that path.
func Build(ctx context.Context, o BuildOptions) (string, error) {
	root, err := filepath.Abs(o.RepoRoot)
	if err != nil {
		return "", err
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	// The build git describes, stamped into ./run and the suite.
	build := runner.SourceBuild(root)
	name := Name(build.Version)
	stage := filepath.Join(root, ".cache", "kit", name)
	if err := os.RemoveAll(stage); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(stage, "bin"), 0o755); err != nil {
		return "", err
	}
	o.Logf("kit: building the images (cached by their inputs)")
	manifest, err := Images(ctx, root)
	if err != nil {
		return "", err
	}
	if err := images.WriteManifest(filepath.Join(stage, ImagesJSON), manifest); err != nil {
		return "", err
	}
	o.Logf("kit: compiling the suite and its tools")
	if err := compile(ctx, root, stage, build.LDFlags()); err != nil {
		return "", err
	}
	if err := copyRuntimeFiles(root, stage); err != nil {
		return "", err
	}
	o.Logf("kit: saving %d images to %s", len(manifest.Images), ImagesTar)
	if err := dockerSave(ctx, filepath.Join(stage, ImagesTar), manifest.Refs()); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(stage, ReadmeFile), []byte(readme(name, manifest)), 0o644); err != nil {
		return "", err
	}
	if err := writeSums(stage); err != nil {
		return "", err
	}
	if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
		return "", err
	}
	out := filepath.Join(o.OutDir, name+".tar")
	if err := tarDir(stage, name, out); err != nil {
		return "", err
	}
	return out, os.RemoveAll(stage)
}

// Images builds (or finds cached) every image a run of the kind profile
// loads, the node image among them, and lists them: what a kit carries.
func Images(ctx context.Context, root string) (images.Manifest, error) {
	node, err := kind.BuildNodeImage(ctx, root)
	if err != nil {
		return images.Manifest{}, err
	}
	refs, err := images.BuildAll(ctx, root)
	if err != nil {
		return images.Manifest{}, err
	}
	refs[images.NodeImageName] = node
	names := []string{images.NodeImageName, images.ReferenceRouter.Name}
	for _, s := range images.Components {
		names = append(names, s.Name)
	}
	return images.ManifestOf(ctx, names, refs)
}

// compile builds the static binaries of the kit: the run entry point
// (the one run path, with the bundle and the verifier in it), Ginkgo's
// CLI (the module's pinned version) and the precompiled suite, both of
// ours stamped with the build.
func compile(ctx context.Context, root, stage, ldflags string) error {
	return Compile(ctx, root,
		GoBuild{Out: filepath.Join(stage, RunFile), Package: "./kit/cmd/run", LDFlags: ldflags},
		GoBuild{Out: filepath.Join(stage, GinkgoBin), Package: GinkgoPackage},
		SuiteBuild(filepath.Join(stage, SuiteBin), ldflags),
	)
}

// GinkgoPackage is Ginkgo's CLI, at the version the module pins.
const GinkgoPackage = "github.com/onsi/ginkgo/v2/ginkgo"

// GoBuild is one static binary: Out built from Package (or, with Test,
// the package's test binary, precompiled).
type GoBuild struct {
	Out, Package string
	// Test: `go test -c` with these extra arguments.
	Test []string
	// LDFlags: the linker flags (the build's stamp).
	LDFlags string
}

// SuiteBuild is the precompiled conformance suite (./e2e with the e2e
// tag) with the linker flags the report's provenance needs.
func SuiteBuild(out, ldflags string) GoBuild {
	return GoBuild{Out: out, Package: "./e2e", Test: []string{"-tags", "e2e"}, LDFlags: ldflags}
}

// Compile builds static binaries from the suite's checkout root.
func Compile(ctx context.Context, root string, builds ...GoBuild) error {
	for _, b := range builds {
		args := []string{"build", "-ldflags", b.LDFlags, "-o", b.Out, b.Package}
		if b.Test != nil {
			args = append(append([]string{"test", "-c", "-ldflags", b.LDFlags}, b.Test...), "-o", b.Out, b.Package)
		}
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = root
		// Static: the kit's machine may have another libc, or none.
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("compile %s (go %s): %w\n%s", filepath.Base(b.Out), strings.Join(args, " "), err, out)
		}
	}
	return nil
}

// copyRuntimeFiles copies what the suite reads from its root at run time:
// the host scripts and the CRD files.
func copyRuntimeFiles(root, stage string) error {
	for _, f := range HostScripts {
		if err := copyFile(filepath.Join(root, f), filepath.Join(stage, f)); err != nil {
			return err
		}
	}
	crdDir, err := install.CRDSourceDir(root)
	if err != nil {
		return err
	}
	for _, f := range install.CRDFiles {
		if err := copyFile(filepath.Join(crdDir, f), filepath.Join(stage, install.CRDCopyDir, f)); err != nil {
			return err
		}
	}
	return nil
}

// copyFile copies src to dst keeping its executable bit; module cache
// files are read-only, the copy is not.
func copyFile(src, dst string) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644|st.Mode().Perm()&0o111)
}

func dockerSave(ctx context.Context, out string, refs []string) error {
	cmd := exec.CommandContext(ctx, "docker", append([]string{"save", "-o", out}, refs...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("docker save: %w: %s", err, strings.TrimSpace(string(msg)))
	}
	return nil
}

// writeSums writes SHA256SUMS (sha256sum's format) over every file of dir.
func writeSums(dir string) error {
	files, err := regularFiles(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, f := range files {
		sum, err := fileSHA256(filepath.Join(dir, f))
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, f)
	}
	return os.WriteFile(filepath.Join(dir, SumsFile), []byte(b.String()), 0o644)
}

// regularFiles lists dir's files (slash-separated, sorted), SHA256SUMS
// left out.
func regularFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if rel = filepath.ToSlash(rel); rel != SumsFile {
			files = append(files, rel)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// tarDir writes dir's files under top/ into the tar file out.
func tarDir(dir, top, out string) (err error) {
	files, err := regularFiles(dir)
	if err != nil {
		return err
	}
	files = append(files, SumsFile)
	f, err := os.Create(out + ".tmp")
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(out+".tmp", out)
		} else {
			os.Remove(out + ".tmp")
		}
	}()
	tw := tar.NewWriter(f)
	for _, rel := range files {
		if err := addToTar(tw, filepath.Join(dir, rel), top+"/"+rel); err != nil {
			return err
		}
	}
	return tw.Close()
}

func addToTar(tw *tar.Writer, path, name string) error {
	src, err := os.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return err
	}
	hdr, err := tar.FileInfoHeader(st, "")
	if err != nil {
		return err
	}
	hdr.Name = name
	hdr.Uid, hdr.Gid, hdr.Uname, hdr.Gname = 0, 0, "", ""
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err = io.Copy(tw, src)
	return err
}

// CheckSums verifies a kit directory against its SHA256SUMS: every file
// listed matches, and no file is unlisted.
func CheckSums(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, SumsFile))
	if err != nil {
		return fmt.Errorf("kit: %w (is this the directory the kit's tar unpacked to?)", err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		sum, file, ok := strings.Cut(line, "  ")
		if !ok {
			return fmt.Errorf("kit: %s: malformed line %q", SumsFile, line)
		}
		got, err := fileSHA256(filepath.Join(dir, file))
		if err != nil {
			return fmt.Errorf("kit: %s: %w", file, err)
		}
		if got != sum {
			return fmt.Errorf("kit: checksum mismatch: %s (the kit was changed or damaged in transit: copy it again)", file)
		}
		listed[file] = true
	}
	files, err := regularFiles(dir)
	if err != nil {
		return err
	}
	for _, f := range files {
		if !listed[f] && !generated(f) {
			return fmt.Errorf("kit: %s is not in %s: the kit was changed", f, SumsFile)
		}
	}
	return nil
}

// generated: files a run writes into the kit's directory (its reports,
// the kubeconfig), which no checksum covers.
func generated(rel string) bool {
	for _, dir := range []string{"_output/", ".cache/"} {
		if strings.HasPrefix(rel, dir) {
			return true
		}
	}
	return false
}

// readme is the kit's README.md.
func readme(name string, m images.Manifest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\nThe router conformance suite for a machine with Docker and nothing else.\n\n", name)
	b.WriteString("```\n./run e2e                      # the whole suite on the hermetic kind cluster (_output/)\n" +
		"./run e2e -router-image IMG     # judge another router (a local image: docker load it first)\n" +
		"./run e2e -focus 'router || hsts' -procs 2 -repeat 3 -keep ...\n" +
		"./run certify -implementation-organization ... -implementation-project ... -implementation-url ... -implementation-contact ...\n" +
		"./run verify BUNDLE.tar.gz\n./run list-images\n./run help\n```\n\n")
	b.WriteString("`./run` checks SHA256SUMS, loads images.tar into Docker when an image is missing (by ID), and runs the precompiled suite. Images:\n\n")
	for _, img := range m.Images {
		fmt.Fprintf(&b, "- %s: `%s` (%s)\n", img.Name, img.Ref, img.ID)
	}
	return b.String()
}
