// Package haproxytest holds what the router's integration tests need to
// run a real HAProxy: its binary and free local addresses.
package haproxytest

import (
	"net"
	"os/exec"
	"testing"
)

// Binary is the installed haproxy; the test fails, saying how to install
// it, when there is none.
func Binary(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"haproxy", "/usr/sbin/haproxy"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Fatal("haproxy is not installed: `make test` installs it (Debian: apt-get install haproxy)")
	return ""
}

// FreeAddr is a 127.0.0.1 address with a port nothing listens on now.
func FreeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
