package kind

import (
	"fmt"
	"net/netip"

	"sigs.k8s.io/kind/pkg/apis/config/v1alpha4"
)

// Loopback is the only address anything of the cluster listens on, on the
// host.
const Loopback = "127.0.0.1"

// PortMapping maps a node port to a host port on 127.0.0.1; HostPort 0
// lets kind pick a free one (read it back with Cluster.HostPort).
type PortMapping struct {
	NodePort int32
	HostPort int32
}

// WorkerRoleLabel is the label upstream's default node placement of a
// router selects (cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go, desiredRouterDeployment:
// node-role.kubernetes.io/worker); a multi-node cluster's workers carry it.
const WorkerRoleLabel = "node-role.kubernetes.io/worker"

// ClusterConfig is the kind configuration of the hermetic one-node
// cluster: API server and every port mapping on 127.0.0.1, no default CNI
// (the node image ships a bridge conflist) and kubeadm's CoreDNS skipped
// (InstallCoreDNS installs one that answers cluster names only).
func ClusterConfig(v Versions, apiServerPort int32, ports []PortMapping) (*v1alpha4.Cluster, error) {
	for _, s := range []string{v.PodSubnet, v.ServiceSubnet} {
		if _, err := netip.ParsePrefix(s); err != nil {
			return nil, fmt.Errorf("versions.env: subnet %q: %w", s, err)
		}
	}
	node := v1alpha4.Node{Role: v1alpha4.ControlPlaneRole}
	for _, p := range ports {
		if p.NodePort <= 0 || p.NodePort > 65535 || p.HostPort < 0 || p.HostPort > 65535 {
			return nil, fmt.Errorf("port mapping %d -> %d is out of range", p.HostPort, p.NodePort)
		}
		node.ExtraPortMappings = append(node.ExtraPortMappings, v1alpha4.PortMapping{
			ContainerPort: p.NodePort, HostPort: p.HostPort, ListenAddress: Loopback, Protocol: v1alpha4.PortMappingProtocolTCP,
		})
	}
	cfg := &v1alpha4.Cluster{
		TypeMeta: v1alpha4.TypeMeta{Kind: "Cluster", APIVersion: "kind.x-k8s.io/v1alpha4"},
		Nodes:    []v1alpha4.Node{node},
		Networking: v1alpha4.Networking{
			IPFamily:          v1alpha4.IPv4Family,
			APIServerAddress:  Loopback,
			APIServerPort:     apiServerPort,
			PodSubnet:         v.PodSubnet,
			ServiceSubnet:     v.ServiceSubnet,
			DisableDefaultCNI: true,
		},
		// kubeadm's CoreDNS forwards unknown names to the host's resolvers;
		// skip it (kind itself skips preflight, which a patch must keep).
		KubeadmConfigPatches: []string{`kind: InitConfiguration
skipPhases:
- preflight
- addon/coredns
`},
	}
	v1alpha4.SetDefaultsCluster(cfg)
	return cfg, nil
}

// AddWorkers appends n worker nodes to cfg; the port mappings stay on the
// control plane. (WorkerRoleLabel is set through the API once they have
// joined: the kubelet refuses node-role labels in --node-labels.) Their
// pods reach each other through the routes multiNodePodNetwork adds.
func AddWorkers(cfg *v1alpha4.Cluster, n int) error {
	if n < 0 {
		return fmt.Errorf("%d worker nodes", n)
	}
	for range n {
		cfg.Nodes = append(cfg.Nodes, v1alpha4.Node{Role: v1alpha4.WorkerRole})
	}
	v1alpha4.SetDefaultsCluster(cfg)
	return nil
}
