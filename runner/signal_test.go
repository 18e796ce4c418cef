package runner

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary plays three parts, chosen by its environment: the test,
// the run path (signalRunPath: Main's e2e with this binary as Ginkgo), and
// Ginkgo (fakeGinkgo: a CLI that starts one parallel process, as Ginkgo
// does, and both wait for an interrupt and record it).
const (
	runPathEnv = "RUNNER_TEST_RUN_PATH"
	ginkgoEnv  = "RUNNER_TEST_FAKE_GINKGO"
	processEnv = "RUNNER_TEST_FAKE_PROCESS"
)

func TestMain(m *testing.M) {
	switch {
	case os.Getenv(runPathEnv) != "":
		os.Exit(signalRunPath(os.Getenv(runPathEnv)))
	case os.Getenv(processEnv) != "":
		os.Exit(fakeProcess(os.Getenv(processEnv), "process"))
	case os.Getenv(ginkgoEnv) != "":
		dir := os.Getenv(ginkgoEnv)
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), processEnv+"="+dir)
		child.Stdout, child.Stderr = os.Stdout, os.Stderr
		if err := child.Start(); err != nil {
			os.Exit(3)
		}
		status := fakeProcess(dir, "cli")
		_ = child.Wait()
		os.Exit(status)
	}
	os.Exit(m.Run())
}

// signalRunPath is the run path of make e2e, its Ginkgo this binary.
func signalRunPath(dir string) int {
	os.Unsetenv(runPathEnv)
	os.Setenv(ginkgoEnv, dir)
	b := Binaries{Ginkgo: []string{os.Args[0]}, Suite: "/kit/e2e.test", Build: Build{Commit: "unknown", Dirty: true}}
	return Main("signal-test", b, nil, []string{"e2e", "-procs=1", "-reports=" + filepath.Join(dir, "reports"), "-cluster-name=signal-test"}, os.Stdout, os.Stderr)
}

// fakeProcess says it started, waits up to a minute for SIGINT (what
// Ginkgo's interrupt handler hears), records each, and "cleans up".
func fakeProcess(dir, name string) int {
	interrupts := make(chan os.Signal, 4)
	signal.Notify(interrupts, syscall.SIGINT)
	if err := os.WriteFile(filepath.Join(dir, name+".started"), nil, 0o644); err != nil {
		return 3
	}
	select {
	case <-interrupts:
	case <-time.After(time.Minute):
		return 4
	}
	// The cleanups take a moment; a second interrupt in it is recorded.
	time.Sleep(300 * time.Millisecond)
	n := 1 + len(interrupts)
	if err := os.WriteFile(filepath.Join(dir, name+".interrupted"), []byte(fmt.Sprint(n)), 0o644); err != nil {
		return 3
	}
	return 1
}

// SIGTERM (a cancelled CI job, or make passing its own on) and SIGINT (a
// terminal's Ctrl-C, sent to the whole foreground process group) both stop
// a run: Ginkgo's CLI and its parallel processes are each interrupted
// exactly once (a second interrupt would skip their cleanups), and the run
// path ends, not passed.
func TestSignalsStopTheRunAndItsCleanupsRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		send func(pid int) error
	}{
		{"SIGTERM to the run path", func(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }},
		{"SIGINT to its process group (Ctrl-C)", func(pid int) error { return syscall.Kill(-pid, syscall.SIGINT) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var out bytes.Buffer
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), runPathEnv+"="+dir)
			cmd.Stdout, cmd.Stderr = &out, &out
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }()
			started := func() bool {
				for _, f := range []string{"cli.started", "process.started"} {
					if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
						return false
					}
				}
				return true
			}
			for deadline := time.Now().Add(30 * time.Second); !started(); time.Sleep(50 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the fake Ginkgo did not start: %s", out.String())
				}
			}
			if err := tc.send(cmd.Process.Pid); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() != ExitNotPass {
					t.Errorf("the run path ended with %v, want exit status %d: %s", err, ExitNotPass, out.String())
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("the run path did not stop: %s", out.String())
			}
			for _, name := range []string{"cli", "process"} {
				data, err := os.ReadFile(filepath.Join(dir, name+".interrupted"))
				if err != nil || strings.TrimSpace(string(data)) != "1" {
					t.Errorf("Ginkgo's %s: interrupted %q times (%v), want once", name, data, err)
				}
			}
		})
	}
}
