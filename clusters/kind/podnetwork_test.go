package kind

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/kind/pkg/apis/config/v1alpha4"
)

func node(name, cidr, ip string) corev1.Node {
	return corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       corev1.NodeSpec{PodCIDR: cidr},
		Status:     corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: corev1.NodeHostName, Address: name}, {Type: corev1.NodeInternalIP, Address: ip}}},
	}
}

func TestEachNodeRoutesTheOtherNodesPods(t *testing.T) {
	got, err := podRoutes([]corev1.Node{
		node("cp", "10.244.0.0/24", "172.18.0.2"),
		node("w1", "10.244.1.0/24", "172.18.0.3"),
		node("w2", "10.244.2.0/24", "172.18.0.4"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]nodeRoute{
		"cp": {{"10.244.1.0/24", "172.18.0.3"}, {"10.244.2.0/24", "172.18.0.4"}},
		"w1": {{"10.244.0.0/24", "172.18.0.2"}, {"10.244.2.0/24", "172.18.0.4"}},
		"w2": {{"10.244.0.0/24", "172.18.0.2"}, {"10.244.1.0/24", "172.18.0.3"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("routes %v, want %v", got, want)
	}
	if _, err := podRoutes([]corev1.Node{node("cp", "10.244.0.0/24", "172.18.0.2"), node("w1", "", "172.18.0.3")}); err == nil {
		t.Error("a node without a podCIDR yet was accepted")
	}
}

func TestBridgeConfIsTheNodeImagesWithTheNodesRange(t *testing.T) {
	var conf struct {
		Plugins []struct {
			Type string
			IPAM struct {
				Ranges [][]struct{ Subnet string }
			}
		}
	}
	if err := json.Unmarshal([]byte(bridgeConf("10.244.3.0/24")), &conf); err != nil {
		t.Fatal(err)
	}
	if len(conf.Plugins) != 2 || conf.Plugins[0].Type != "bridge" || conf.Plugins[0].IPAM.Ranges[0][0].Subnet != "10.244.3.0/24" {
		t.Errorf("conflist %+v", conf)
	}
}

func TestAddWorkersKeepsThePortsOnTheControlPlane(t *testing.T) {
	cfg, err := ClusterConfig(PinnedVersions(), 0, []PortMapping{{NodePort: 80}})
	if err != nil {
		t.Fatal(err)
	}
	if err := AddWorkers(cfg, 2); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Nodes) != 3 || cfg.Nodes[0].Role != v1alpha4.ControlPlaneRole || len(cfg.Nodes[0].ExtraPortMappings) != 1 {
		t.Fatalf("nodes %+v", cfg.Nodes)
	}
	for _, n := range cfg.Nodes[1:] {
		if n.Role != v1alpha4.WorkerRole || len(n.ExtraPortMappings) != 0 {
			t.Errorf("worker %+v", n)
		}
	}
	if err := AddWorkers(cfg, -1); err == nil {
		t.Error("-1 workers accepted")
	}
}

func TestBridgeConfFollowsTheNodeImage(t *testing.T) {
	data, err := os.ReadFile("nodeimage/base/files/10-bridge.conflist")
	if err != nil {
		t.Fatal(err)
	}
	var image, ours any
	if err := json.Unmarshal(data, &image); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(bridgeConf("10.244.0.0/24")), &ours); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(image, ours) {
		t.Errorf("the node image's bridge configuration changed: bridgeConf must follow it\nimage: %v\nours:  %v", image, ours)
	}
}
