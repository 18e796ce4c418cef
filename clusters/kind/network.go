package kind

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"strings"
)

// Network is the Docker network of one cluster, and the host half of its
// seal: a DOCKER-USER rule that drops whatever the network sends to an
// address outside it.
type Network struct {
	Name   string
	Subnet netip.Prefix
	// iptables runs iptables on the host (directly as root, otherwise in a
	// host-network container of the node image).
	iptables func(ctx context.Context, args ...string) (string, error)
}

// EnsureNetwork creates the IPv4 bridge network name unless it exists, and
// reads its subnet.
func EnsureNetwork(ctx context.Context, name, nodeImage string) (*Network, error) {
	if _, err := docker(ctx, "network", "inspect", name); err != nil {
		if _, err := docker(ctx, "network", "create", "--driver", "bridge",
			"--label", "io.x-k8s.kind.network=true", "--label", "router-conformance=true", name); err != nil {
			return nil, fmt.Errorf("create the cluster's docker network: %w", err)
		}
	}
	out, err := docker(ctx, "network", "inspect", name, "--format", "{{range .IPAM.Config}}{{.Subnet}} {{end}}")
	if err != nil {
		return nil, err
	}
	for _, s := range strings.Fields(out) {
		if p, err := netip.ParsePrefix(s); err == nil && p.Addr().Is4() {
			return &Network{Name: name, Subnet: p.Masked(), iptables: hostIPTables(nodeImage)}, nil
		}
	}
	return nil, fmt.Errorf("docker network %s has no IPv4 subnet (%q)", name, out)
}

func (n *Network) sealRule() []string {
	return []string{"DOCKER-USER", "-s", n.Subnet.String(), "!", "-d", n.Subnet.String(),
		"-m", "comment", "--comment", "router-conformance seal " + n.Name, "-j", "DROP"}
}

// Seal inserts the DOCKER-USER rule (once).
func (n *Network) Seal(ctx context.Context) error {
	if _, err := n.iptables(ctx, append([]string{"-C"}, n.sealRule()...)...); err == nil {
		return nil
	}
	if _, err := n.iptables(ctx, append([]string{"-I"}, n.sealRule()...)...); err != nil {
		return fmt.Errorf("seal the cluster's network on the host (DOCKER-USER): %w", err)
	}
	return nil
}

// Sealed reports whether the DOCKER-USER rule is in place.
func (n *Network) Sealed(ctx context.Context) bool {
	_, err := n.iptables(ctx, append([]string{"-C"}, n.sealRule()...)...)
	return err == nil
}

// Remove deletes the seal rule and the network (after the nodes are gone).
func (n *Network) Remove(ctx context.Context) error {
	for n.Sealed(ctx) {
		if _, err := n.iptables(ctx, append([]string{"-D"}, n.sealRule()...)...); err != nil {
			return err
		}
	}
	if _, err := docker(ctx, "network", "rm", n.Name); err != nil && !strings.Contains(err.Error(), "not found") {
		return err
	}
	return nil
}

// hostIPTables runs iptables on the host. As root that is the host's own
// iptables; otherwise the node image's, in a container on the host network
// with NET_ADMIN, using whichever backend (nft or legacy) holds Docker's
// DOCKER-USER chain.
func hostIPTables(nodeImage string) func(context.Context, ...string) (string, error) {
	if _, err := exec.LookPath("iptables"); err == nil && os.Geteuid() == 0 {
		return func(ctx context.Context, args ...string) (string, error) {
			return run(ctx, "iptables", append([]string{"-w"}, args...)...)
		}
	}
	backend := ""
	return func(ctx context.Context, args ...string) (string, error) {
		in := func(bin string, a ...string) (string, error) {
			return docker(ctx, append([]string{"run", "--rm", "--net=host", "--cap-add=NET_ADMIN", "--entrypoint", bin, nodeImage, "-w"}, a...)...)
		}
		if backend == "" {
			for _, b := range []string{"iptables-nft", "iptables-legacy"} {
				if _, err := in(b, "-n", "-L", "DOCKER-USER"); err == nil {
					backend = b
					break
				}
			}
			if backend == "" {
				return "", fmt.Errorf("found no DOCKER-USER chain on the host (is Docker's iptables integration off?)")
			}
		}
		return in(backend, args...)
	}
}
