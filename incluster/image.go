package incluster

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/kit"
	"github.com/router-conformance/suite/runner"
)

// ImageRepository is the conformance image's repository; its tag is the
// suite's version and the hash of its files.
const ImageRepository = "router-conformance/suite"

// BuildImage builds the conformance image FROM scratch: Ginkgo's CLI, the
// precompiled suite, the runner as entry point and the fixture images'
// manifest, running as 65534 (hydrophone's pod runs as that user). It
// returns the image's tag; an image of that tag is reused.
func BuildImage(ctx context.Context, root string, fixtures images.Manifest) (string, error) {
	// The build git describes, stamped into the runner and the suite.
	build := runner.SourceBuild(root)
	stage, err := os.MkdirTemp("", "router-conformance-suite-image-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(stage)
	files := map[string]string{
		GinkgoPath: filepath.Join(stage, "ginkgo"),
		SuitePath:  filepath.Join(stage, "e2e.test"),
		RunnerPath: filepath.Join(stage, "conformance-runner"),
		ImagesPath: filepath.Join(stage, "images.json"),
	}
	if err := kit.Compile(ctx, root,
		kit.GoBuild{Out: files[GinkgoPath], Package: kit.GinkgoPackage},
		kit.SuiteBuild(files[SuitePath], build.LDFlags()),
		kit.GoBuild{Out: files[RunnerPath], Package: "./incluster/cmd/conformance-runner", LDFlags: build.LDFlags()},
	); err != nil {
		return "", err
	}
	if err := images.WriteManifest(files[ImagesPath], fixtures); err != nil {
		return "", err
	}
	layer, err := imageLayer(files)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(layer)
	tag := ImageRepository + ":" + strings.TrimPrefix(build.Version, "v") + "-" + hex.EncodeToString(sum[:])[:12]
	if _, err := images.Inspect(ctx, tag); err == nil {
		return tag, nil
	}
	return tag, dockerImport(ctx, bytes.NewReader(layer), tag,
		`ENTRYPOINT ["`+RunnerPath+`"]`, "USER 65534:65534", "ENV RESULTS_DIR="+ResultsDir, "WORKDIR /tmp")
}

// imageLayer is the image's file system as a tar: the files at their
// paths, and /tmp writable by anyone (the results directory's parent).
func imageLayer(files map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dirs := map[string]bool{}
	var paths []string
	for p := range files {
		paths = append(paths, p)
		for d := filepath.Dir(p); d != "/"; d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	dirs["/tmp"] = true
	var dirList []string
	for d := range dirs {
		dirList = append(dirList, d)
	}
	sort.Strings(dirList)
	sort.Strings(paths)
	for _, d := range dirList {
		mode := int64(0o755)
		if d == "/tmp" {
			mode = 0o1777
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: strings.TrimPrefix(d, "/") + "/", Mode: mode}); err != nil {
			return nil, err
		}
	}
	for _, p := range paths {
		data, err := os.ReadFile(files[p])
		if err != nil {
			return nil, err
		}
		mode := int64(0o755)
		if strings.HasSuffix(p, ".json") {
			mode = 0o644
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: strings.TrimPrefix(p, "/"), Mode: mode, Size: int64(len(data))}); err != nil {
			return nil, err
		}
		if _, err := io.Copy(tw, bytes.NewReader(data)); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// BusyboxRepository is hydrophone's output container image here: Debian's
// busybox-static, its sh, cat and sleep.
const BusyboxRepository = "router-conformance/busybox"

// BuildBusybox builds the output container's image from Debian's
// busybox-static package (apt-get download; no registry): /bin/busybox
// and the applets hydrophone runs (sh -c "sleep infinity", cat).
func BuildBusybox(ctx context.Context) (string, error) {
	dir, err := os.MkdirTemp("", "router-conformance-busybox-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	download := func() error {
		cmd := exec.CommandContext(ctx, "apt-get", "download", "busybox-static")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("apt-get download busybox-static: %w: %s", err, strings.TrimSpace(string(out)))
		}
		return nil
	}
	if err := download(); err != nil {
		// A fresh machine's package lists may be empty.
		if out, uerr := exec.CommandContext(ctx, "apt-get", "update", "-q").CombinedOutput(); uerr != nil {
			return "", fmt.Errorf("%v (and apt-get update: %v: %s)", err, uerr, out)
		}
		if err := download(); err != nil {
			return "", err
		}
	}
	debs, _ := filepath.Glob(filepath.Join(dir, "busybox-static_*.deb"))
	if len(debs) != 1 {
		return "", fmt.Errorf("apt-get download busybox-static left %d packages in %s", len(debs), dir)
	}
	// The file name carries the version URL-escaped (1%3a1.35.0-4+b1).
	version, err := url.PathUnescape(strings.SplitN(filepath.Base(debs[0]), "_", 3)[1])
	if err != nil {
		return "", fmt.Errorf("busybox-static package %s: %w", debs[0], err)
	}
	tag := BusyboxRepository + ":" + strings.NewReplacer(":", "-", "+", "-", "~", "-").Replace(version)
	if _, err := images.Inspect(ctx, tag); err == nil {
		return tag, nil
	}
	root := filepath.Join(dir, "root")
	if out, err := exec.CommandContext(ctx, "dpkg-deb", "-x", debs[0], root).CombinedOutput(); err != nil {
		return "", fmt.Errorf("dpkg-deb -x %s: %w: %s", debs[0], err, out)
	}
	bin, err := os.ReadFile(filepath.Join(root, "bin", "busybox"))
	if err != nil {
		return "", fmt.Errorf("busybox-static has no /bin/busybox: %w", err)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range []*tar.Header{
		{Typeflag: tar.TypeDir, Name: "bin/", Mode: 0o755},
		{Typeflag: tar.TypeDir, Name: "tmp/", Mode: 0o1777},
		{Typeflag: tar.TypeReg, Name: "bin/busybox", Mode: 0o755, Size: int64(len(bin))},
	} {
		if err := tw.WriteHeader(h); err != nil {
			return "", err
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write(bin); err != nil {
				return "", err
			}
		}
	}
	for _, applet := range []string{"sh", "cat", "sleep", "ls", "tar"} {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: "bin/" + applet, Linkname: "busybox", Mode: 0o777}); err != nil {
			return "", err
		}
	}
	if err := tw.Close(); err != nil {
		return "", err
	}
	return tag, dockerImport(ctx, &buf, tag, `CMD ["/bin/sh"]`, "ENV PATH=/bin")
}

// dockerImport makes the image tag from a file system tar, with the
// Dockerfile instructions changes (no build, no base image, no pull).
func dockerImport(ctx context.Context, layer io.Reader, tag string, changes ...string) error {
	args := []string{"import"}
	for _, c := range changes {
		args = append(args, "-c", c)
	}
	cmd := exec.CommandContext(ctx, "docker", append(args, "-", tag)...)
	cmd.Stdin = layer
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("docker import %s: %w: %s", tag, err, strings.TrimSpace(string(out)))
	}
	return nil
}
