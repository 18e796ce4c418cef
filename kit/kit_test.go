package kit

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
	"github.com/router-conformance/suite/runner"
)

func TestSumsCatchAChangedAndAnAddedFile(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(ImagesJSON, `{"images":[]}`)
	write(SuiteBin, "binary")
	if err := writeSums(dir); err != nil {
		t.Fatal(err)
	}
	// Positive control: an untouched kit, and the files a run writes.
	write("_output/summary.md", "a run's report")
	if err := CheckSums(dir); err != nil {
		t.Fatalf("untouched kit refused: %v", err)
	}
	write(SuiteBin, "another binary")
	if err := CheckSums(dir); err == nil || !strings.Contains(err.Error(), "checksum mismatch: bin/e2e.test") {
		t.Fatalf("changed file: got %v, want checksum mismatch: bin/e2e.test", err)
	}
	write(SuiteBin, "binary")
	write("bin/extra", "x")
	if err := CheckSums(dir); err == nil || !strings.Contains(err.Error(), "bin/extra is not in SHA256SUMS") {
		t.Fatalf("added file: got %v", err)
	}
}

func TestTarRoundTripKeepsModesAndRefusesEscapes(t *testing.T) {
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, RunFile), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, ImagesJSON), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeSums(src); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "kit.tar")
	if err := tarDir(src, "top", out); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := untar(out, dst); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dst, "top", RunFile))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&0o100 == 0 {
		t.Errorf("run lost its executable bit: %v", st.Mode())
	}
	if err := CheckSums(filepath.Join(dst, "top")); err != nil {
		t.Errorf("unpacked kit: %v", err)
	}
}

// ./run certify refuses what the run path refuses before anything runs
// (the suite itself refuses a filter, retries and reuse before any spec:
// framework's TestCertificationShortcutsAreRefused), with one line, and a
// damaged kit is named before anything loads.
func TestRunRefusesBeforeAnythingRuns(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if got := Main(t.TempDir(), []string{"certify", "-repeat", "2"}, &stdout, &stderr); got != runner.ExitUsage ||
		stderr.String() != "./run certify: a certification runs the suite once: drop REPEAT (-repeat)\n" {
		t.Errorf("certify -repeat 2: exit %d, %q", got, stderr.String())
	}
	stderr.Reset()
	if got := Main(t.TempDir(), []string{"e2e", "-router-imag", "x"}, &stdout, &stderr); got != runner.ExitUsage ||
		!strings.Contains(stderr.String(), "flag provided but not defined: -router-imag") {
		t.Errorf("a misspelt flag: exit %d, %q", got, stderr.String())
	}
	stderr.Reset()
	if got := Main(t.TempDir(), []string{"e2e"}, &stdout, &stderr); got != runner.ExitNotPass ||
		!strings.HasPrefix(stderr.String(), "./run e2e: ") || !strings.Contains(stderr.String(), SumsFile) {
		t.Errorf("a kit without its checksums: exit %d, %q", got, stderr.String())
	}
}

func TestProofNeedsEveryFeaturePassedAndOnlyTheFilterMissing(t *testing.T) {
	passed := reports.FeatureResult{Feature: contract.Feature("router"), Result: reports.Passed, Router: reports.SpecCounts{Passed: []contract.SpecID{"router/a"}}}
	hsts := passed
	hsts.Feature = "hsts"
	good := reports.Report{Result: reports.Partial, Features: []reports.FeatureResult{passed, hsts}}
	features := []contract.Feature{"router", "hsts"}
	if err := checkProof(good, features); err != nil {
		t.Fatalf("positive control: %v", err)
	}
	failed := good
	failed.Features = []reports.FeatureResult{passed, {Feature: "hsts", Result: reports.Failed}}
	if err := checkProof(failed, features); err == nil || !strings.Contains(err.Error(), "feature hsts: failed") {
		t.Errorf("failed feature: %v", err)
	}
	errored := good
	errored.Result = reports.Error
	if err := checkProof(errored, features); err == nil || !strings.Contains(err.Error(), "run result error") {
		t.Errorf("error run: %v", err)
	}
}

func TestAirGappedPathLacksGoAndApt(t *testing.T) {
	toolchain, system, bin := t.TempDir(), t.TempDir(), t.TempDir()
	for dir, names := range map[string][]string{toolchain: {"go", "gofmt"}, system: {"apt-get", "docker", "sh", "dpkg"}} {
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	path, err := airGappedPath(toolchain+":"+system+":/does/not/exist", bin)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	// Positive control: docker and sh are there.
	if want := []string{"docker", "sh"}; !slices.Equal(got, want) {
		t.Errorf("PATH holds %q, want %q", got, want)
	}
	env := airGappedEnv([]string{"PATH=/usr/bin", "GOPROXY=https://proxy", "HOME=/root"}, path)
	if want := []string{"GOPROXY=off", "PATH=" + path, "HOME=/root"}; !slices.Equal(env, want) {
		t.Errorf("env %q, want %q", env, want)
	}
}
