// Package kit makes and runs the air-gapped kit: one tar file that
// carries a run of the suite to a machine with Docker and nothing else
// (no Go toolchain, no module proxy, no apt). It holds every image a run
// loads (one `docker save` archive and its manifest), the compiled suite
// (Ginkgo's CLI and the precompiled e2e.test), the report tools a
// certification needs, the few host scripts and CRD files the suite reads
// at run time, a `run` entry point and a checksum list.
//
// The kit's root is a suite root (the suite's -repo) holding only what a
// run reads: clusters/host/ (Docker set-up), openshift-api/ (the CRDs,
// platform/install.CRDCopyDir) and images.json (-images).
package kit

import (
	"fmt"
	"runtime"
)

// The kit's files, relative to its root.
const (
	RunFile    = "run"
	ImagesTar  = "images.tar"
	ImagesJSON = "images.json"
	SumsFile   = "SHA256SUMS"
	ReadmeFile = "README.md"
	GinkgoBin  = "bin/ginkgo"
	SuiteBin   = "bin/e2e.test"
)

// HostScripts are the scripts of clusters/host the suite runs: whether
// Docker answers, and the unprivileged docker wrapper for kind on hosts
// that cannot start --privileged containers.
var HostScripts = []string{
	"clusters/host/ensure-docker.sh",
	"clusters/host/privileged-ok.sh",
	"clusters/host/docker-unprivileged",
}

// Name is the kit's base name (its file without .tar, and its top
// directory): router-conformance-kit-<version>-<os>-<arch>.
func Name(version string) string {
	return fmt.Sprintf("router-conformance-kit-%s-%s-%s", version, runtime.GOOS, runtime.GOARCH)
}
