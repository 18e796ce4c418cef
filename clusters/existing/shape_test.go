package existing

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	appsv1 "k8s.io/api/apps/v1"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/platform/ingressoperator"
	"github.com/router-conformance/suite/platform/install"
)

func TestLoadBalancerIsTCPRoundRobinOverEveryNode(t *testing.T) {
	cfg := lbConfig([]string{"172.18.0.3", "172.18.0.4"}, []string{"172.18.0.2", "172.18.0.3", "172.18.0.4"}, shardPorts())
	for _, want := range []string{
		"mode tcp", "option redispatch", "default-server check inter 1s fall 2 rise 2\n",
		"frontend router-80\n  bind :80\n  default_backend nodes-80\n", "frontend router-443\n  bind :443\n  default_backend nodes-443\n",
		"backend nodes-80\n  balance roundrobin\n  server node1 172.18.0.3:80\n  server node2 172.18.0.4:80\n",
		"backend nodes-443\n  balance roundrobin\n  server node1 172.18.0.3:443\n  server node2 172.18.0.4:443\n",
		// A shard's frontends: each of its ports, over every node (the
		// control plane's too: a shard has no node placement).
		"frontend shard-10080\n  bind :10080\n  default_backend shard-nodes-10080\n",
		"backend shard-nodes-10080\n  balance roundrobin\n  server node1 172.18.0.2:10080\n  server node2 172.18.0.3:10080\n  server node3 172.18.0.4:10080\n",
		"frontend shard-10443\n  bind :10443\n",
		"backend shard-nodes-10446\n  balance roundrobin\n  server node1 172.18.0.2:10446\n  server node2 172.18.0.3:10446\n  server node3 172.18.0.4:10446\n",
	} {
		if !strings.Contains(cfg, want) {
			t.Errorf("config lacks %q:\n%s", want, cfg)
		}
	}
	// One frontend per router port and per shard port of every pair, no
	// more: the stats ports are the kubelet's, never balanced.
	if n, want := strings.Count(cfg, "frontend "), 2+2*kind.ShardPairs; n != want {
		t.Errorf("%d frontends, want %d:\n%s", n, want, cfg)
	}
	if strings.Contains(cfg, ":11936") {
		t.Errorf("a stats port is balanced:\n%s", cfg)
	}
	// A cloud load balancer passes connections through: no PROXY
	// protocol, no TLS, no HTTP.
	for _, never := range []string{"send-proxy", "ssl", "mode http"} {
		if strings.Contains(cfg, never) {
			t.Errorf("config has %q:\n%s", never, cfg)
		}
	}
	if haproxy, err := exec.LookPath("haproxy"); err == nil {
		f := filepath.Join(t.TempDir(), "lb.cfg")
		if err := os.WriteFile(f, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(haproxy, "-c", "-q", "-f", f).CombinedOutput(); err != nil {
			t.Errorf("haproxy -c: %v: %s", err, out)
		}
	}
}

// The shard pairs are the kind profile's node ports, and the lab writes
// them in the form the existing profile's -shard-addrs reads, process
// order kept.
func TestShardAddrsAreTheKindPairsInTheFlagsForm(t *testing.T) {
	shards := shardPorts()
	if len(shards) != kind.ShardPairs {
		t.Fatalf("%d pairs, want %d", len(shards), kind.ShardPairs)
	}
	for i, s := range shards {
		if s.HTTPPort != kind.ShardHTTPBase+int32(i) || s.HTTPSPort != kind.ShardHTTPSBase+int32(i) || s.StatsPort != kind.ShardStatsBase+int32(i) {
			t.Errorf("pair %d: %+v", i, s)
		}
		shards[i].HTTPAddr, shards[i].HTTPSAddr = fmt.Sprintf("127.0.0.1:%d", 32800+2*i), fmt.Sprintf("127.0.0.1:%d", 32801+2*i)
	}
	want := "10080=127.0.0.1:32800,10443=127.0.0.1:32801,11936 10081=127.0.0.1:32802,10444=127.0.0.1:32803,11937 " +
		"10082=127.0.0.1:32804,10445=127.0.0.1:32805,11938 10083=127.0.0.1:32806,10446=127.0.0.1:32807,11939 " +
		"10084=127.0.0.1:32808,10447=127.0.0.1:32809,11940 10085=127.0.0.1:32810,10448=127.0.0.1:32811,11941 " +
		"10086=127.0.0.1:32812,10449=127.0.0.1:32813,11942 10087=127.0.0.1:32814,10450=127.0.0.1:32815,11943"
	if got := ShardAddrs(shards); got != want {
		t.Errorf("ShardAddrs:\n got %s\nwant %s", got, want)
	}
	env := filepath.Join(t.TempDir(), "lab.env")
	if err := (&Lab{Shards: shards}).WriteEnv(env); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(env)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\nSHARD_ADDRS='"+want+"'\n") {
		t.Errorf("lab.env lacks SHARD_ADDRS='%s':\n%s", want, data)
	}
}

func TestPlaceRoutersRendersWhatTheOperatorKeeps(t *testing.T) {
	_, objs, err := install.Objects(context.Background(), nil, install.Options{
		RepoRoot: "../..", Domain: install.DefaultDomain, PullPolicy: "IfNotPresent",
		Images: install.Images{Router: "r:1", Admission: "a:1", Reconciler: "c:1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := placeRouters(objs, 2); err != nil {
		t.Fatal(err)
	}
	var ic *operatorv1.IngressController
	var d *appsv1.Deployment
	for _, o := range objs {
		switch o := o.(type) {
		case *operatorv1.IngressController:
			ic = o
		case *appsv1.Deployment:
			if o.Name == contract.RouterDeploymentName(contract.DefaultIngressController) {
				d = o
			}
		}
	}
	if *ic.Spec.Replicas != 2 || *d.Spec.Replicas != 2 {
		t.Errorf("replicas: IngressController %d, Deployment %d, want 2", *ic.Spec.Replicas, *d.Spec.Replicas)
	}
	if sel := d.Spec.Template.Spec.NodeSelector; sel["node-role.kubernetes.io/worker"] != "" || sel["kubernetes.io/os"] != "linux" || len(sel) != 2 {
		t.Errorf("node selector %v", sel)
	}
	// The operator's first reconcile finds nothing to change.
	s, err := ingressoperator.Desired(ic, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ingressoperator.Apply(d, ic, s) {
		t.Error("the rendered router Deployment differs from what the operator keeps: the lab's router would roll out twice")
	}
}
