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
	// directory and the PATH of the run.
	WorkDir string
	// Cluster is the kind cluster's name: not the suite's default, so a
	// developer's own cluster is left alone.
	Cluster string
	Stdout  io.Writer
	Stderr  io.Writer
}

// Removed are the commands a kit's run must do without: the Go toolchain
// and the package managers. The proof's PATH has every other command of
// the caller's PATH and none of these, as an air-gapped machine with
// Docker and nothing else has it. (Ginkgo's CLI looks for `go` to compare
// versions and goes on when it is missing, as it then is.)
var Removed = []string{"go", "gofmt", "apt-get", "apt", "dpkg"}

// ProveResult is what a proof saw.
type ProveResult struct {
	Report   reports.Report
	Duration time.Duration
	ExitCode int
}

// Prove runs a kit as an air-gapped machine would: unpacked into an
// empty directory, run from another empty directory, with a PATH that
// lacks every Removed command, and GOPROXY=off. It fails unless every
// feature of o.Features passed and nothing failed.
func Prove(ctx context.Context, o ProveOptions) (ProveResult, error) {
	var res ProveResult
	if err := os.RemoveAll(o.WorkDir); err != nil {
		return res, err
	}
	kitDir, runDir, bin := filepath.Join(o.WorkDir, "kit"), filepath.Join(o.WorkDir, "run"), filepath.Join(o.WorkDir, "bin")
	for _, d := range []string{kitDir, runDir, bin} {
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
	path, err := airGappedPath(os.Getenv("PATH"), bin)
	if err != nil {
		return res, err
	}
	var focus []string
	for _, f := range o.Features {
		focus = append(focus, string(f))
	}
	cmd := exec.CommandContext(ctx, filepath.Join(top, RunFile), "e2e",
		"-focus", strings.Join(focus, " || "), "-reports", filepath.Join(runDir, "_output"), "-cluster-name", o.Cluster)
	cmd.Dir = runDir
	cmd.Env = airGappedEnv(os.Environ(), path)
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
	data, err := os.ReadFile(filepath.Join(runDir, "_output", reports.ConformanceJSON))
	if err != nil {
		return res, fmt.Errorf("the kit's run wrote no report (exit %d): %w", res.ExitCode, err)
	}
	if err := json.Unmarshal(data, &res.Report); err != nil {
		return res, err
	}
	if err := checkProof(res.Report, o.Features); err != nil {
		return res, err
	}
	// A filtered run whose chosen specs passed exits 0 (runner.verdict).
	if res.ExitCode != 0 {
		return res, fmt.Errorf("./run e2e exited %d after a filtered run whose specs all passed, want 0", res.ExitCode)
	}
	return res, nil
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

// airGappedPath fills bin with a link to every command of path (the
// first of a name wins, as PATH's lookup has it) but the Removed ones,
// and returns bin: the proof's whole PATH.
func airGappedPath(path, bin string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // a PATH entry that does not exist
		}
		for _, e := range entries {
			name := e.Name()
			if slices.Contains(Removed, name) {
				continue
			}
			target := filepath.Join(dir, name)
			if st, err := os.Stat(target); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
				continue
			}
			if err := os.Symlink(target, filepath.Join(bin, name)); err != nil && !os.IsExist(err) {
				return "", err
			}
		}
	}
	return bin, nil
}

// airGappedEnv is env with path as PATH, the module proxy off and no Go
// settings.
func airGappedEnv(env []string, path string) []string {
	out := []string{"GOPROXY=off", "PATH=" + path}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOPROXY", "GOFLAGS", "GOROOT", "GOPATH", "PATH":
			continue
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
