package profile

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Decoy is a host of the suite's own, outside the cluster's network: a
// network namespace on this machine joined to the host by a veth pair, with
// a TCP listener inside. The seal check aims at it instead of at any real
// outside address. Addresses come from TEST-NET-2 (RFC 5737), which no
// real host uses.
type Decoy struct {
	NetNS    string
	HostSide string
	Addr     string // ip:port of the listener inside the namespace
	ln       net.Listener
	accepted atomic.Int64
}

const (
	decoyHostCIDR = "198.51.100.1/30"
	decoyNSCIDR   = "198.51.100.2/30"
	decoyIP       = "198.51.100.2"
	decoyPort     = 18080
)

// StartDecoy creates the namespace, the veth pair and the listener. It
// needs root (ip netns, setns).
func StartDecoy(ctx context.Context) (*Decoy, error) {
	if os.Geteuid() != 0 {
		return nil, errors.New("the seal check's decoy host is a network namespace: run the smoke check as root")
	}
	d := &Decoy{NetNS: fmt.Sprintf("rc-decoy-%d", os.Getpid()), HostSide: fmt.Sprintf("rcd%dh", os.Getpid()%100000)}
	nsSide := strings.TrimSuffix(d.HostSide, "h") + "n"
	steps := [][]string{
		{"netns", "add", d.NetNS},
		{"link", "add", d.HostSide, "type", "veth", "peer", "name", nsSide},
		{"link", "set", nsSide, "netns", d.NetNS},
		{"addr", "add", decoyHostCIDR, "dev", d.HostSide},
		{"link", "set", d.HostSide, "up"},
		{"-n", d.NetNS, "addr", "add", decoyNSCIDR, "dev", nsSide},
		{"-n", d.NetNS, "link", "set", nsSide, "up"},
		{"-n", d.NetNS, "link", "set", "lo", "up"},
	}
	for _, s := range steps {
		if out, err := exec.CommandContext(ctx, "ip", s...).CombinedOutput(); err != nil {
			d.Close()
			return nil, fmt.Errorf("decoy: ip %s: %w: %s", strings.Join(s, " "), err, out)
		}
	}
	ln, err := listenInNetNS(d.NetNS, fmt.Sprintf("%s:%d", decoyIP, decoyPort))
	if err != nil {
		d.Close()
		return nil, err
	}
	d.ln, d.Addr = ln, ln.Addr().String()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			d.accepted.Add(1)
			c.Close()
		}
	}()
	return d, nil
}

// listenInNetNS opens a listener inside the named network namespace: a
// socket stays in the namespace it was created in, so only the creating
// thread has to enter it.
func listenInNetNS(netns, addr string) (net.Listener, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	self, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		return nil, err
	}
	defer self.Close()
	target, err := os.Open("/var/run/netns/" + netns)
	if err != nil {
		return nil, err
	}
	defer target.Close()
	if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
		return nil, fmt.Errorf("enter netns %s: %w", netns, err)
	}
	ln, lerr := net.Listen("tcp", addr)
	if err := unix.Setns(int(self.Fd()), unix.CLONE_NEWNET); err != nil {
		// This thread is stuck in the wrong namespace: let it die with the
		// locked goroutine rather than serve anything else.
		return nil, fmt.Errorf("leave netns %s: %w", netns, err)
	}
	return ln, lerr
}

// Accepted counts the connections the decoy accepted.
func (d *Decoy) Accepted() int64 { return d.accepted.Load() }

// Close stops the listener and removes the namespace and the veth pair.
func (d *Decoy) Close() {
	if d.ln != nil {
		d.ln.Close()
	}
	_ = exec.Command("ip", "link", "del", d.HostSide).Run()
	_ = exec.Command("ip", "netns", "del", d.NetNS).Run()
}
