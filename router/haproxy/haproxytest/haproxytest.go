// Package haproxytest holds what the router's integration tests need to
// run a real HAProxy: its binary and free local addresses.
package haproxytest

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Binary is the installed haproxy; the test fails, saying how to install
// it, when there is none, and when it is not the HAProxy the reference
// router image runs (HAPROXY_VERSION in clusters/kind/versions.env): the
// data-plane tests hold the router to one HAProxy, not to the host's.
func Binary(t *testing.T) string {
	t.Helper()
	path := ""
	for _, p := range []string{"haproxy", "/usr/sbin/haproxy"} {
		if found, err := exec.LookPath(p); err == nil {
			path = found
			break
		}
	}
	if path == "" {
		t.Fatal("haproxy is not installed: `make test` installs it (Debian: apt-get install haproxy)")
	}
	out, err := exec.Command(path, "-v").Output()
	if err != nil {
		t.Fatalf("%s -v: %v", path, err)
	}
	got := ""
	if m := banner.FindStringSubmatch(string(out)); m != nil {
		got = m[1]
	}
	if want := pinned(t); got != want {
		t.Fatalf("%s is HAProxy %q; clusters/kind/versions.env pins HAPROXY_VERSION=%s, the reference router's: install that build (Debian bookworm's haproxy), or move the pin after running the suite against %s", path, got, want, got)
	}
	return path
}

var banner = regexp.MustCompile(`HA-?Proxy version (\S+)`)

// pinned reads HAPROXY_VERSION from the module's clusters/kind/versions.env.
func pinned(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory: cannot find clusters/kind/versions.env")
		}
		dir = parent
	}
	f, err := os.Open(filepath.Join(dir, "clusters", "kind", "versions.env"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "HAPROXY_VERSION="); ok {
			return v
		}
	}
	t.Fatal("clusters/kind/versions.env has no HAPROXY_VERSION")
	return ""
}

// FreeAddr is a 127.0.0.1 address with a port nothing listens on now,
// reserved for the rest of the test. The kernel hands a port it just
// released to the next bind(0) of any process, and HAProxy binds with
// SO_REUSEPORT: two test processes' HAProxys given the same port both bind
// it and share its connections, so one frontend answers the other's
// requests. An exclusive flock on a file named after the port, held until
// the test ends, keeps every FreeAddr of every test process off a port
// another has taken. The empty files stay: removing a held one would let
// a second process lock a new file of the same name.
func FreeAddr(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(os.TempDir(), "router-conformance-haproxytest-ports")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().(*net.TCPAddr)
		lock, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(addr.Port)), os.O_CREATE|os.O_RDWR, 0o666)
		if err != nil {
			ln.Close()
			t.Fatal(err)
		}
		if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			// Another FreeAddr holds this port: its HAProxy binds it soon.
			lock.Close()
			ln.Close()
			continue
		}
		ln.Close()
		t.Cleanup(func() { lock.Close() })
		return addr.String()
	}
	t.Fatal("no free port on 127.0.0.1 that no other test holds after 100 tries")
	return ""
}
