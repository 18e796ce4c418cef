package existing

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/router-conformance/suite/clusters/kind"
)

// The lab's load balancer stands where a cloud provider's is in front of a
// vendor's routers (cluster-ingress-operator's LoadBalancerService
// publishing): a TCP load balancer, round robin over the nodes, that
// passes each connection through untouched (no TLS termination, no PROXY
// protocol) and stops sending to a node whose router does not accept
// connections. It is HAProxy from Debian, the router base image's (built
// offline like every image; nothing is pulled), on the lab's sealed
// network, and it is the only way to the routers from the host: published
// on 127.0.0.1 (ports 80 and 443 when free, else ports Docker picks),
// never on another address.
type loadBalancer struct {
	container string
	// HTTPAddr and HTTPSAddr are its published addresses on 127.0.0.1.
	HTTPAddr, HTTPSAddr string
	// Backends are the node addresses it balances over.
	Backends []string
}

// lbName is the load balancer container of the lab named name.
func lbName(name string) string { return name + "-lb" }

// lbConfig is the load balancer's HAProxy configuration: one TCP frontend
// per router port, round robin over every node's port, a TCP connect check
// per node (a node whose router is gone or rolling is out of rotation
// after two failed checks), and a connection that cannot reach its node
// retried on another (redispatch).
func lbConfig(backends []string) string {
	var b strings.Builder
	b.WriteString(`global
  maxconn 4096
defaults
  mode tcp
  timeout connect 5s
  timeout client 10m
  timeout server 10m
  retries 3
  option redispatch
  default-server check inter 1s fall 2 rise 2
`)
	for _, port := range []string{"80", "443"} {
		fmt.Fprintf(&b, "frontend router-%s\n  bind :%s\n  default_backend nodes-%s\n", port, port, port)
		fmt.Fprintf(&b, "backend nodes-%s\n  balance roundrobin\n", port)
		for i, ip := range backends {
			fmt.Fprintf(&b, "  server node%d %s:%s\n", i+1, ip, port)
		}
	}
	return b.String()
}

// routerBaseImage is the router base image's tag (Debian with its
// HAProxy), built offline and cached by router/image/build-base.sh.
func routerBaseImage(ctx context.Context, repoRoot string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(repoRoot, "router/image/build-base.sh"))
	cmd.Dir, cmd.Stderr = repoRoot, os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("router base image (for the load balancer's HAProxy): %w", err)
	}
	tag := strings.TrimSpace(string(out))
	if tag == "" {
		return "", fmt.Errorf("router/image/build-base.sh printed no tag")
	}
	return tag, nil
}

// startLoadBalancer (re)starts the load balancer on network in front of
// the nodes at backends. The configuration travels in the container's
// environment (no file on the host to mount), is checked by haproxy -c,
// then served in the foreground.
func startLoadBalancer(ctx context.Context, o Options, network string, backends []string) (*loadBalancer, error) {
	if len(backends) == 0 {
		return nil, fmt.Errorf("the load balancer has no node to balance over")
	}
	image, err := routerBaseImage(ctx, o.RepoRoot)
	if err != nil {
		return nil, err
	}
	name := lbName(o.Name)
	if err := stopContainer(ctx, name); err != nil {
		return nil, err
	}
	run := func(publish ...string) error {
		args := []string{"run", "-d", "--name", name, "--network", network, "--label", "router-conformance=true",
			"-e", "LB_CONFIG=" + lbConfig(backends)}
		for _, p := range publish {
			args = append(args, "-p", p)
		}
		args = append(args, "--entrypoint", "/bin/sh", image, "-c",
			`printf '%s\n' "$LB_CONFIG" >/tmp/lb.cfg && haproxy -c -q -f /tmp/lb.cfg && exec haproxy -db -f /tmp/lb.cfg`)
		_, err := kind.Docker(ctx, args...)
		return err
	}
	// The host's own ports when free, as a cloud load balancer's are the
	// usual ones; else any free ones, still on 127.0.0.1 only.
	if err := run(kind.Loopback+":80:80", kind.Loopback+":443:443"); err != nil {
		o.Logf("load balancer: %s:80/443 are taken (%v): publishing on ports Docker picks", kind.Loopback, err)
		if err := stopContainer(ctx, name); err != nil {
			return nil, err
		}
		if err := run(kind.Loopback+"::80", kind.Loopback+"::443"); err != nil {
			return nil, fmt.Errorf("start the load balancer container: %w", err)
		}
	}
	lb := &loadBalancer{container: name, Backends: backends}
	for _, p := range []struct {
		port string
		addr *string
	}{{"80", &lb.HTTPAddr}, {"443", &lb.HTTPSAddr}} {
		out, err := kind.Docker(ctx, "port", name, p.port+"/tcp")
		if err != nil {
			logs, _ := kind.Docker(ctx, "logs", name)
			return lb, fmt.Errorf("load balancer %s: port %s is not published: %w (its log: %s)", name, p.port, err, logs)
		}
		for _, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(line, kind.Loopback+":") {
				return lb, fmt.Errorf("load balancer %s is published on %q, not on %s only", name, out, kind.Loopback)
			}
		}
		*p.addr, _, _ = strings.Cut(out, "\n")
	}
	return lb, nil
}

// nodeAddrs are the containers' addresses on network.
func nodeAddrs(ctx context.Context, network string, containers []string) ([]string, error) {
	var out []string
	for _, c := range containers {
		ip, err := kind.Docker(ctx, "inspect", "-f", fmt.Sprintf("{{(index .NetworkSettings.Networks %q).IPAddress}}", network), c)
		if err != nil || ip == "" {
			return nil, fmt.Errorf("node %s has no address on %s: %v", c, network, err)
		}
		out = append(out, ip)
	}
	return out, nil
}

// stopContainer removes a container if there is one.
func stopContainer(ctx context.Context, name string) error {
	if _, err := kind.Docker(ctx, "container", "inspect", name); err != nil {
		return nil
	}
	if _, err := kind.Docker(ctx, "rm", "-f", name); err != nil {
		return fmt.Errorf("remove container %s: %w", name, err)
	}
	return nil
}
