package kind

import (
	"strings"
	"testing"
)

func TestClusterConfigListensOnLoopbackOnly(t *testing.T) {
	cfg, err := ClusterConfig(PinnedVersions(), 0, []PortMapping{{NodePort: 80}, {NodePort: 443, HostPort: 9443}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Networking.APIServerAddress != Loopback {
		t.Errorf("API server address %q, want %s", cfg.Networking.APIServerAddress, Loopback)
	}
	if len(cfg.Nodes) != 1 || len(cfg.Nodes[0].ExtraPortMappings) != 2 {
		t.Fatalf("want one node with two port mappings, got %+v", cfg.Nodes)
	}
	for _, pm := range cfg.Nodes[0].ExtraPortMappings {
		if pm.ListenAddress != Loopback {
			t.Errorf("port %d listens on %q, want %s", pm.ContainerPort, pm.ListenAddress, Loopback)
		}
	}
	if !cfg.Networking.DisableDefaultCNI {
		t.Errorf("default CNI (kindnetd, a registry image) is enabled")
	}
	if p := cfg.KubeadmConfigPatches; len(p) != 1 || !strings.Contains(p[0], "- addon/coredns") || !strings.Contains(p[0], "- preflight") {
		t.Errorf("kubeadm patch must skip preflight and kubeadm's CoreDNS: %q", p)
	}
	if _, err := ClusterConfig(PinnedVersions(), 0, []PortMapping{{NodePort: 0}}); err == nil {
		t.Errorf("a mapping of node port 0 was accepted")
	}
}

func TestPinnedVersions(t *testing.T) {
	v := PinnedVersions()
	if !strings.HasPrefix(v.Kubernetes, "v1.33.") || v.PodSubnet == "" || v.ServiceSubnet == "" {
		t.Errorf("unexpected pinned versions %+v", v)
	}
}

func TestCorefileAnswersClusterNamesOnlyAndNeverForwards(t *testing.T) {
	if strings.Contains(Corefile, "forward") || strings.Contains(Corefile, "proxy") {
		t.Errorf("Corefile sends queries out of the cluster:\n%s", Corefile)
	}
	for _, want := range []string{"kubernetes cluster.local", "rcode NXDOMAIN", DNSSealMarker} {
		if !strings.Contains(Corefile, want) {
			t.Errorf("Corefile lacks %q", want)
		}
	}
	ip, err := ClusterDNSIP("10.96.0.0/12")
	if err != nil || ip != "10.96.0.10" {
		t.Errorf("ClusterDNSIP = %q, %v; want 10.96.0.10", ip, err)
	}
}

// Every way of creating the cluster (make e2e, make cluster, make bench)
// maps the same ports: 80, 443, the smoke port and every shard pair, all
// on 127.0.0.1.
func TestSuitePortsMapEveryShardPairOnLoopback(t *testing.T) {
	ports := SuitePorts(8080, 0)
	cfg, err := ClusterConfig(PinnedVersions(), 0, ports)
	if err != nil {
		t.Fatal(err)
	}
	mapped := map[int32]bool{}
	for _, pm := range cfg.Nodes[0].ExtraPortMappings {
		mapped[pm.ContainerPort] = true
		if pm.ListenAddress != Loopback {
			t.Errorf("port %d listens on %q, want %s", pm.ContainerPort, pm.ListenAddress, Loopback)
		}
	}
	want := []int32{80, 443, SmokeNodePort}
	for i := int32(0); i < ShardPairs; i++ {
		want = append(want, ShardHTTPBase+i, ShardHTTPSBase+i)
	}
	for _, p := range want {
		if !mapped[p] {
			t.Errorf("node port %d is not mapped", p)
		}
	}
	if ports[0].HostPort != 8080 {
		t.Errorf("node port 80 on host port %d, want the one asked for", ports[0].HostPort)
	}
}
