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
//
// Beside the default router's two frontends it has what a real cluster
// gives its sharded IngressControllers: one frontend per shard node port
// (kind.ShardPairs pairs, HTTP and HTTPS, the kind profile's numbers),
// each over that port of every node, published on 127.0.0.1 on ports
// Docker picks. A spec's shard runs one replica on the host network of
// whichever node the scheduler picks; the health check keeps the other
// nodes out of its frontend's rotation, as it keeps the nodes without a
// default router out of the default's.
type loadBalancer struct {
	container string
	// HTTPAddr and HTTPSAddr are its published addresses on 127.0.0.1.
	HTTPAddr, HTTPSAddr string
	// Backends are the node addresses the default router's frontends
	// balance over.
	Backends []string
	// Shards are the shard frontends, two pairs per parallel process.
	Shards []Shard
}

// Shard is one pair of node ports a spec's own IngressController may
// publish on (HostNetwork strategy), the stats port it binds beside them
// (not balanced: only the kubelet's probes use it), and the addresses on
// 127.0.0.1 that reach the pair from the host.
type Shard struct {
	HTTPPort, HTTPSPort, StatsPort int32
	HTTPAddr, HTTPSAddr            string
}

// shardPorts are the shard node ports the lab balances: the kind
// profile's pairs (kind.ShardPairs), so a shard publishes on the same
// ports on either.
func shardPorts() []Shard {
	var out []Shard
	for i := int32(0); i < kind.ShardPairs; i++ {
		out = append(out, Shard{HTTPPort: kind.ShardHTTPBase + i, HTTPSPort: kind.ShardHTTPSBase + i, StatsPort: kind.ShardStatsBase + i})
	}
	return out
}

// ShardAddrs is the existing profile's -shard-addrs value for shards:
// one <http node port>=<host:port>,<https node port>=<host:port>,<stats
// node port> per pair, space-separated, in process order.
func ShardAddrs(shards []Shard) string {
	var pairs []string
	for _, s := range shards {
		pairs = append(pairs, fmt.Sprintf("%d=%s,%d=%s,%d", s.HTTPPort, s.HTTPAddr, s.HTTPSPort, s.HTTPSAddr, s.StatsPort))
	}
	return strings.Join(pairs, " ")
}

// lbName is the load balancer container of the lab named name.
func lbName(name string) string { return name + "-lb" }

// lbConfig is the load balancer's HAProxy configuration: one TCP frontend
// per router port, round robin over every router node's port; one per
// shard port, round robin over that port of every node in nodes; a TCP
// connect check per node and port (a node whose router is gone, rolling
// or was never there is out of rotation after two failed checks, back
// after two good ones), and a connection that cannot reach its node
// retried on another (redispatch).
func lbConfig(routers, nodes []string, shards []Shard) string {
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
	frontend := func(name, backend string, port int32, backends []string) {
		fmt.Fprintf(&b, "frontend %s-%d\n  bind :%d\n  default_backend %s-%d\n", name, port, port, backend, port)
		fmt.Fprintf(&b, "backend %s-%d\n  balance roundrobin\n", backend, port)
		for i, ip := range backends {
			fmt.Fprintf(&b, "  server node%d %s:%d\n", i+1, ip, port)
		}
	}
	for _, port := range []int32{80, 443} {
		frontend("router", "nodes", port, routers)
	}
	for _, s := range shards {
		frontend("shard", "shard-nodes", s.HTTPPort, nodes)
		frontend("shard", "shard-nodes", s.HTTPSPort, nodes)
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
// the default routers' nodes at routers and, for the shard frontends,
// every node at nodes. The configuration travels in the container's
// environment (no file on the host to mount), is checked by haproxy -c,
// then served in the foreground.
func startLoadBalancer(ctx context.Context, o Options, network string, routers, nodes []string) (*loadBalancer, error) {
	if len(routers) == 0 || len(nodes) == 0 {
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
	shards := shardPorts()
	var shardPublish []string
	for _, s := range shards {
		// Ports Docker picks, on 127.0.0.1 only.
		shardPublish = append(shardPublish, fmt.Sprintf("%s::%d", kind.Loopback, s.HTTPPort), fmt.Sprintf("%s::%d", kind.Loopback, s.HTTPSPort))
	}
	run := func(publish ...string) error {
		args := []string{"run", "-d", "--name", name, "--network", network, "--label", "router-conformance=true",
			"-e", "LB_CONFIG=" + lbConfig(routers, nodes, shards)}
		for _, p := range append(publish, shardPublish...) {
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
	lb := &loadBalancer{container: name, Backends: routers}
	published := func(port int32) (string, error) {
		out, err := kind.Docker(ctx, "port", name, fmt.Sprintf("%d/tcp", port))
		if err != nil {
			logs, _ := kind.Docker(ctx, "logs", name)
			return "", fmt.Errorf("load balancer %s: port %d is not published: %w (its log: %s)", name, port, err, logs)
		}
		for _, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(line, kind.Loopback+":") {
				return "", fmt.Errorf("load balancer %s is published on %q, not on %s only", name, out, kind.Loopback)
			}
		}
		addr, _, _ := strings.Cut(out, "\n")
		return addr, nil
	}
	if lb.HTTPAddr, err = published(80); err != nil {
		return lb, err
	}
	if lb.HTTPSAddr, err = published(443); err != nil {
		return lb, err
	}
	for _, s := range shards {
		if s.HTTPAddr, err = published(s.HTTPPort); err != nil {
			return lb, err
		}
		if s.HTTPSAddr, err = published(s.HTTPSPort); err != nil {
			return lb, err
		}
		lb.Shards = append(lb.Shards, s)
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
