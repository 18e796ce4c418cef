package profile

import (
	"context"
	"net"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/router-conformance/suite/clusters/existing"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
)

// What the report names is the image as deployed, not the runtime's name
// for it (containerd reports an image pulled by digest by its config
// digest).
func TestDeployedRouterIsTheImageThePodSpecNames(t *testing.T) {
	const ref = "registry.example/router@sha256:4242"
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "router-default-1", Namespace: contract.RouterNamespace,
			Labels: map[string]string{contract.RouterDeploymentLabel: contract.DefaultIngressController}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "router", Image: ref}}},
		Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{
			Name: "router", Image: "sha256:c0ffee", ImageID: ref,
		}}},
	}
	img, err := deployedRouter(context.Background(), fake.NewClientset(pod))
	if err != nil {
		t.Fatal(err)
	}
	if img.Ref != ref || img.ID != ref || img.Digest != "sha256:4242" {
		t.Errorf("router image %+v, want ref and id %s, digest sha256:4242", img, ref)
	}
	// Two replicas of one image are one router; a second image is refused.
	twin := pod.DeepCopy()
	twin.Name = "router-default-2"
	if img, err := deployedRouter(context.Background(), fake.NewClientset(pod, twin)); err != nil || img.ID != ref {
		t.Errorf("two replicas of one image: %+v %v", img, err)
	}
	other := pod.DeepCopy()
	other.Name = "router-default-3"
	other.Status.ContainerStatuses[0].ImageID = "registry.example/router@sha256:4343"
	want := "the router pods run two images: router-default-1 " + ref + ", router-default-3 registry.example/router@sha256:4343: wait until the router's rollout is done, one image judged at a time"
	if _, err := deployedRouter(context.Background(), fake.NewClientset(pod, other)); err == nil || err.Error() != want {
		t.Errorf("two images: %v\nwant %q", err, want)
	}
	// No router pod: one line saying what is missing.
	if _, err := deployedRouter(context.Background(), fake.NewClientset()); err == nil {
		t.Error("no router pod, no error")
	}
}

// Without -shard-addrs the existing profile has no IngressController for
// a spec alone (its specs change the default one, Serial); with them it
// has one per pair, at most that many processes, and the pairs reach
// every process.
func TestShardAddrsGiveSpecsIngressControllersOfTheirOwn(t *testing.T) {
	if caps := (&existingProfile{}).Capabilities(); caps.OwnIngressControllers || caps.MaxParallel != 0 {
		t.Errorf("no -shard-addrs: %+v", caps)
	}
	// What the lab writes is what the flag reads.
	lab := []existing.Shard{
		{HTTPPort: 10080, HTTPSPort: 10443, StatsPort: 11936, HTTPAddr: "127.0.0.1:32800", HTTPSAddr: "127.0.0.1:32801"},
		{HTTPPort: 10081, HTTPSPort: 10444, StatsPort: 11937, HTTPAddr: "127.0.0.1:32802", HTTPSAddr: "127.0.0.1:32803"},
	}
	pairs, err := framework.ParseShardAddrs(existing.ShardAddrs(lab))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pairs {
		if l := lab[i]; p != (framework.ShardPorts{HTTPPort: l.HTTPPort, HTTPSPort: l.HTTPSPort, StatsPort: l.StatsPort, HTTPAddr: l.HTTPAddr, HTTPSAddr: l.HTTPSAddr}) {
			t.Errorf("pair %d: read %+v from the lab's %+v", i, p, l)
		}
	}
	caps := (&existingProfile{opts: framework.Options{ShardAddrs: pairs}}).Capabilities()
	if !caps.OwnIngressControllers || caps.MaxParallel != 2 || !slices.Contains(caps.DefaultFeatures(), contract.FeatureSharding) {
		t.Errorf("with -shard-addrs: %+v", caps)
	}
}

// The preflight finds a frontend at every address of -shard-addrs, and
// names the pair whose address takes no connection.
func TestPreflightDialsEveryShardAddress(t *testing.T) {
	var addrs []string
	for range 2 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		addrs = append(addrs, l.Addr().String())
	}
	o := framework.DefaultOptions()
	o.ShardAddrs = []framework.ShardPorts{{HTTPPort: 10080, HTTPSPort: 10443, StatsPort: 11936, HTTPAddr: addrs[0], HTTPSAddr: addrs[1]}}
	if err := checkShardAddrs(context.Background(), o); err != nil {
		t.Errorf("both frontends listen: %v", err)
	}
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := closed.Addr().String()
	closed.Close()
	o.ShardAddrs = append(o.ShardAddrs, framework.ShardPorts{HTTPPort: 10081, HTTPSPort: 10444, StatsPort: 11937, HTTPAddr: addrs[0], HTTPSAddr: gone})
	err = checkShardAddrs(context.Background(), o)
	if want := "-shard-addrs: pair 2 (node ports 10081, 10444): " + gone + " does not accept a connection: is a load balancer's frontend there? "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a closed port: %v\nwant %s...", err, want)
	}
}
