package kit

import (
	"archive/tar"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

// ProveOptions of Prove.
type ProveOptions struct {
	// Kit is the kit's tar file.
	Kit string
	// Features are run (./run e2e -focus 'a || b') and must pass.
	Features []contract.Feature
	// WorkDir is emptied and receives the unpacked kit, the run's
	// directory and the tripwires.
	WorkDir string
	// Cluster is the kind cluster's name: not the suite's default, so a
	// developer's own cluster is left alone.
	Cluster string
	Stdout  io.Writer
	Stderr  io.Writer
}

// Tripwires are the commands a kit's run must never call: the Go
// toolchain and the package managers. Each is shadowed on PATH by a
// script that records the call and fails.
var Tripwires = []string{"go", "gofmt", "apt-get", "apt", "dpkg"}

// ProveResult is what a proof saw.
type ProveResult struct {
	Report   reports.Report
	Duration time.Duration
	ExitCode int
}

// Prove runs a kit as an air-gapped machine would: unpacked into an
// empty directory, run from another empty directory, with the Go
// toolchain's directories off PATH, every Tripwire shadowed and
// GOPROXY=off. It fails unless no tripwire was touched, every feature of
// o.Features passed, and nothing failed.
func Prove(ctx context.Context, o ProveOptions) (ProveResult, error) {
	var res ProveResult
	if err := os.RemoveAll(o.WorkDir); err != nil {
		return res, err
	}
	kitDir, runDir, wires := filepath.Join(o.WorkDir, "kit"), filepath.Join(o.WorkDir, "run"), filepath.Join(o.WorkDir, "tripwires")
	for _, d := range []string{kitDir, runDir, wires} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return res, err
		}
	}
	if err := untar(o.Kit, kitDir); err != nil {
		return res, err
	}
	entries, err := os.ReadDir(kitDir)
	if err != nil || len(entries) != 1 || !entries[0].IsDir() {
		return res, fmt.Errorf("kit %s: want one top directory, got %d entries (%v)", o.Kit, len(entries), err)
	}
	top := filepath.Join(kitDir, entries[0].Name())
	calls := filepath.Join(o.WorkDir, "tripwire-calls")
	for _, w := range Tripwires {
		script := fmt.Sprintf("#!/bin/sh\necho \"%s $*\" >> %q\necho 'the kit called %s, which an air-gapped machine lacks' >&2\nexit 127\n", w, calls, w)
		if err := os.WriteFile(filepath.Join(wires, w), []byte(script), 0o755); err != nil {
			return res, err
		}
	}
	var focus []string
	for _, f := range o.Features {
		focus = append(focus, string(f))
	}
	cmd := exec.CommandContext(ctx, filepath.Join(top, RunFile), "e2e",
		"-focus", strings.Join(focus, " || "), "-reports", filepath.Join(runDir, "reports"), "-cluster-name", o.Cluster)
	cmd.Dir = runDir
	cmd.Env = airGappedEnv(os.Environ(), wires)
	cmd.Stdout, cmd.Stderr = o.Stdout, o.Stderr
	start := time.Now()
	err = cmd.Run()
	res.Duration = time.Since(start)
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.ExitCode = exit.ExitCode()
	case err != nil:
		return res, fmt.Errorf("./run e2e: %w", err)
	}
	if data, err := os.ReadFile(calls); err == nil {
		return res, fmt.Errorf("the kit's run called what an air-gapped machine lacks:\n%s", data)
	}
	data, err := os.ReadFile(filepath.Join(runDir, "reports", reports.ConformanceJSON))
	if err != nil {
		return res, fmt.Errorf("the kit's run wrote no report (exit %d): %w", res.ExitCode, err)
	}
	if err := json.Unmarshal(data, &res.Report); err != nil {
		return res, err
	}
	return res, checkProof(res.Report, o.Features)
}

// checkProof: every feature asked for passed, nothing failed, and the run
// is partial only because of the filter (the other features did not run).
func checkProof(r reports.Report, features []contract.Feature) error {
	for _, f := range features {
		fr, ok := r.Feature(f)
		if !ok || fr.Result != reports.Passed {
			return fmt.Errorf("feature %s: %s, not passed (%s)", f, fr.Result, strings.Join(fr.Reasons, "; "))
		}
		if len(fr.Router.Passed) == 0 {
			return fmt.Errorf("feature %s passed with no spec run", f)
		}
	}
	if r.Result != reports.Partial || r.Run.Error {
		return fmt.Errorf("run result %s (%s), want partial: a filtered run of passed features", r.Result, r.Reason)
	}
	for _, fr := range r.Features {
		if fr.Result == reports.Failed {
			return fmt.Errorf("feature %s failed", fr.Feature)
		}
	}
	return nil
}

// airGappedEnv is env with the Go toolchain's directories off PATH, the
// tripwires first on it and the module proxy off.
func airGappedEnv(env []string, wires string) []string {
	out := []string{"GOPROXY=off"}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "GOPROXY", "GOFLAGS", "GOROOT", "GOPATH":
			continue
		case "PATH":
			dirs := []string{wires}
			for _, d := range filepath.SplitList(v) {
				if _, err := os.Stat(filepath.Join(d, "go")); err == nil {
					continue // the toolchain's bin
				}
				dirs = append(dirs, d)
			}
			kv = "PATH=" + strings.Join(slices.Compact(dirs), string(os.PathListSeparator))
		}
		out = append(out, kv)
	}
	return out
}

// untar unpacks a kit's tar (regular files and directories only) into dir.
func untar(file, dir string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("kit %s: %w", file, err)
		}
		name := filepath.Clean(hdr.Name)
		if filepath.IsAbs(name) || strings.HasPrefix(name, "..") {
			return fmt.Errorf("kit %s: entry %q leaves the directory", file, hdr.Name)
		}
		dst := filepath.Join(dir, name)
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(hdr.Mode).Perm())
			if err != nil {
				return err
			}
			if _, err := io.Copy(out, tr); err != nil {
				out.Close()
				return err
			}
			if err := out.Close(); err != nil {
				return err
			}
		default:
			return fmt.Errorf("kit %s: entry %q is neither a file nor a directory", file, hdr.Name)
		}
	}
}
