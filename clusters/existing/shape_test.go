package existing

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	appsv1 "k8s.io/api/apps/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/platform/ingressoperator"
	"github.com/router-conformance/suite/platform/install"
)

func TestLoadBalancerIsTCPRoundRobinOverEveryNode(t *testing.T) {
	cfg := lbConfig([]string{"172.18.0.3", "172.18.0.4"})
	for _, want := range []string{
		"mode tcp", "option redispatch", "check inter 1s",
		"bind :80\n", "bind :443\n", "balance roundrobin",
		"server node1 172.18.0.3:80\n", "server node2 172.18.0.4:80\n",
		"server node1 172.18.0.3:443\n", "server node2 172.18.0.4:443\n",
	} {
		if !strings.Contains(cfg, want) {
			t.Errorf("config lacks %q:\n%s", want, cfg)
		}
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
	s, err := ingressoperator.Desired(ic, "")
	if err != nil {
		t.Fatal(err)
	}
	if ingressoperator.Apply(d, ic, s) {
		t.Error("the rendered router Deployment differs from what the operator keeps: the lab's router would roll out twice")
	}
}
