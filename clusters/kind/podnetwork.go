package kind

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/kind/pkg/cluster/nodes"
	"sigs.k8s.io/kind/pkg/cluster/nodeutils"
)

// The node image's CNI configuration (nodeimage/base/files/10-bridge.conflist)
// serves one node: every node would hand out addresses from the same /24
// and no node knows the way to another's pods. On a cluster of several
// nodes, multiNodePodNetwork does what kindnetd (a registry image) does
// for kind: each node's bridge takes the podCIDR the controller manager
// gave that node, and every node routes the other nodes' podCIDRs to
// their addresses on the cluster's network. Nothing leaves that network:
// the seal is unchanged.
const bridgeConfPath = "/etc/cni/net.d/10-bridge.conflist"

// bridgeConf is the node image's bridge configuration with the node's own
// pod range.
func bridgeConf(podCIDR string) string {
	return fmt.Sprintf(`{
  "cniVersion": "0.4.0",
  "name": "bridgenet",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": true,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{"subnet": %q}]],
        "routes": [{"dst": "0.0.0.0/0"}]
      }
    },
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
`, podCIDR)
}

// nodeRoute is one route a node needs: the pods of node Via are at CIDR.
type nodeRoute struct{ CIDR, Via string }

// podRoutes are the routes each node needs: every other node's podCIDR
// through that node's InternalIP.
func podRoutes(list []corev1.Node) (map[string][]nodeRoute, error) {
	out := map[string][]nodeRoute{}
	for _, n := range list {
		if n.Spec.PodCIDR == "" {
			return nil, fmt.Errorf("node %s has no podCIDR yet", n.Name)
		}
		if internalIP(n) == "" {
			return nil, fmt.Errorf("node %s has no InternalIP yet", n.Name)
		}
	}
	for _, n := range list {
		for _, other := range list {
			if other.Name != n.Name {
				out[n.Name] = append(out[n.Name], nodeRoute{CIDR: other.Spec.PodCIDR, Via: internalIP(other)})
			}
		}
	}
	return out, nil
}

func internalIP(n corev1.Node) string {
	for _, a := range n.Status.Addresses {
		if a.Type == corev1.NodeInternalIP && !strings.Contains(a.Address, ":") {
			return a.Address
		}
	}
	return ""
}

// isControlPlane tells kind's control-plane node by kubeadm's role label.
func isControlPlane(n corev1.Node) bool {
	_, ok := n.Labels["node-role.kubernetes.io/control-plane"]
	return ok
}

// multiNodePodNetwork sets up the pod network of a cluster of several
// nodes before any pod of the pod network starts (kind's create starts
// only host-network pods; the sealed CoreDNS comes after), and labels the
// workers with WorkerRoleLabel. On a one-node cluster it does nothing.
// It is idempotent: a reused cluster gets the same files and routes.
func (c *Cluster) multiNodePodNetwork(ctx context.Context, wantNodes int) error {
	containers, err := c.provider.ListInternalNodes(c.Name)
	if err != nil {
		return fmt.Errorf("list nodes of %q: %w", c.Name, err)
	}
	if len(containers) < 2 {
		return nil
	}
	if wantNodes < len(containers) {
		wantNodes = len(containers)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", c.Kubeconfig)
	if err != nil {
		return err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	var list []corev1.Node
	var routes map[string][]nodeRoute
	var last error
	err = wait.PollUntilContextTimeout(ctx, c.timeouts.ProvisionPoll, c.timeouts.ClusterReady, true, func(ctx context.Context) (bool, error) {
		nl, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			last = err
			return false, nil
		}
		if len(nl.Items) < wantNodes {
			last = fmt.Errorf("%d of %d nodes registered", len(nl.Items), wantNodes)
			return false, nil
		}
		list = nl.Items
		routes, last = podRoutes(list)
		return last == nil, nil
	})
	if err != nil {
		return fmt.Errorf("nodes of %q: %v: %w", c.Name, last, err)
	}
	byName := map[string]nodes.Node{}
	for _, n := range containers {
		byName[n.String()] = n
	}
	for _, n := range list {
		node, ok := byName[n.Name]
		if !ok {
			return fmt.Errorf("node %s has no container of cluster %q", n.Name, c.Name)
		}
		if err := nodeutils.WriteFile(node, bridgeConfPath, bridgeConf(n.Spec.PodCIDR)); err != nil {
			return fmt.Errorf("node %s: write its bridge configuration: %w", n.Name, err)
		}
		for _, r := range routes[n.Name] {
			if err := node.CommandContext(ctx, "ip", "route", "replace", r.CIDR, "via", r.Via).Run(); err != nil {
				return fmt.Errorf("node %s: route %s via %s: %w", n.Name, r.CIDR, r.Via, err)
			}
		}
		c.logf("node %s: pods in %s, routes %v", n.Name, n.Spec.PodCIDR, routes[n.Name])
		if isControlPlane(n) {
			continue
		}
		if _, ok := n.Labels[WorkerRoleLabel]; ok {
			continue
		}
		patch := fmt.Sprintf(`{"metadata":{"labels":{%q:""}}}`, WorkerRoleLabel)
		if _, err := cs.CoreV1().Nodes().Patch(ctx, n.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			return fmt.Errorf("label node %s %s: %w", n.Name, WorkerRoleLabel, err)
		}
	}
	return nil
}

// hostsLine is the /etc/hosts line that names a node.
func hostsLine(ip, name string) string { return ip + "\t" + name }

// pinNodeNames writes every node's name and address into every node's
// /etc/hosts while kind creates a cluster of several nodes. A worker
// joins the control plane by its container name (kind's
// controlPlaneEndpoint, and the kubeconfigs of the worker's kubelet and
// kube-proxy), which only Docker's embedded DNS would resolve, and the
// node image's egress guard closes that DNS to the node (it forwards to
// the host's resolvers). The nodes are up long before kubeadm join runs
// (after kubeadm init), and join retries its discovery meanwhile. It
// returns once every node has every line, or when ctx ends.
func (c *Cluster) pinNodeNames(ctx context.Context, want int) error {
	var last error
	err := wait.PollUntilContextTimeout(ctx, c.timeouts.ProvisionPoll, c.timeouts.ClusterReady, true, func(ctx context.Context) (bool, error) {
		list, err := c.provider.ListNodes(c.Name)
		if err != nil || len(list) < want {
			last = fmt.Errorf("%d of %d node containers (%v)", len(list), want, err)
			return false, nil
		}
		var lines []string
		for _, n := range list {
			ip, err := docker(ctx, "inspect", "-f", fmt.Sprintf("{{(index .NetworkSettings.Networks %q).IPAddress}}", c.Network.Name), n.String())
			if err != nil || ip == "" {
				last = fmt.Errorf("node %s has no address on %s yet (%v)", n.String(), c.Network.Name, err)
				return false, nil
			}
			lines = append(lines, hostsLine(ip, n.String()))
		}
		for _, n := range list {
			for _, line := range lines {
				script := fmt.Sprintf("grep -qxF '%s' /etc/hosts || echo '%s' >>/etc/hosts", line, line)
				if err := n.CommandContext(ctx, "sh", "-c", script).Run(); err != nil {
					last = fmt.Errorf("node %s: /etc/hosts: %v", n.String(), err)
					return false, nil
				}
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("name the nodes in each other's /etc/hosts: %v: %w", last, err)
	}
	return nil
}
