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
// address outside it. Traffic that stays on the network's bridge (in and
// out of the same bridge: one node to another, carrying pod addresses
// between the nodes of a multi-node cluster) passes: it never leaves the
// network.
type Network struct {
	Name   string
	Subnet netip.Prefix
	// Bridge is the network's Linux bridge on the host.
	Bridge string
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
	bridge, err := docker(ctx, "network", "inspect", name, "--format", `{{with index .Options "com.docker.network.bridge.name"}}{{.}} {{end}}{{.Id}}`)
	if err != nil {
		return nil, err
	}
	// Docker names a bridge br-<first 12 of the ID> unless told otherwise.
	if f := strings.Fields(bridge); len(f) == 2 {
		bridge = f[0]
	} else if len(f) == 1 && len(f[0]) >= 12 {
		bridge = "br-" + f[0][:12]
	} else {
		return nil, fmt.Errorf("docker network %s: no bridge name in %q", name, bridge)
	}
	for _, s := range strings.Fields(out) {
		if p, err := netip.ParsePrefix(s); err == nil && p.Addr().Is4() {
			return &Network{Name: name, Subnet: p.Masked(), Bridge: bridge, iptables: hostIPTables(nodeImage)}, nil
		}
	}
	return nil, fmt.Errorf("docker network %s has no IPv4 subnet (%q)", name, out)
}

func (n *Network) sealRule() []string {
	return []string{"DOCKER-USER", "-s", n.Subnet.String(), "!", "-d", n.Subnet.String(),
		"-m", "comment", "--comment", "router-conformance seal " + n.Name, "-j", "DROP"}
}

// withinRule lets through what stays on the network's bridge (the host
// sees bridged frames in FORWARD: bridge-nf-call-iptables), before
// sealRule: node to node, whatever the addresses (pod addresses routed
// through the nodes).
func (n *Network) withinRule() []string {
	return []string{"DOCKER-USER", "-i", n.Bridge, "-o", n.Bridge,
		"-m", "comment", "--comment", "router-conformance seal " + n.Name + ": within the network", "-j", "RETURN"}
}

func (n *Network) has(ctx context.Context, rule []string) bool {
	_, err := n.iptables(ctx, append([]string{"-C"}, rule...)...)
	return err == nil
}

// Seal inserts the DOCKER-USER rules (once): the drop, and before it
// the pass for what stays on the bridge.
func (n *Network) Seal(ctx context.Context) error {
	for _, rule := range [][]string{n.sealRule(), n.withinRule()} {
		if n.has(ctx, rule) {
			continue
		}
		if _, err := n.iptables(ctx, append([]string{"-I"}, rule...)...); err != nil {
			return fmt.Errorf("seal the cluster's network on the host (DOCKER-USER): %w", err)
		}
	}
	return nil
}

// Sealed reports whether the DOCKER-USER drop rule is in place.
func (n *Network) Sealed(ctx context.Context) bool {
	return n.has(ctx, n.sealRule())
}

// Remove deletes the seal rules and the network (after the nodes are
// gone).
func (n *Network) Remove(ctx context.Context) error {
	for _, rule := range [][]string{n.withinRule(), n.sealRule()} {
		for n.has(ctx, rule) {
			if _, err := n.iptables(ctx, append([]string{"-D"}, rule...)...); err != nil {
				return err
			}
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
