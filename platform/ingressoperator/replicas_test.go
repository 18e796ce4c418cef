package ingressoperator

import (
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/ptr"
)

// spec.replicas sets the router's replica count; unset, the installed
// count stays (upstream's determineDeploymentReplicas).
func TestApplyHonoursSpecReplicas(t *testing.T) {
	d := RouterDeployment(RouterDeploymentOptions{IngressController: "default", Image: "router:1", Domain: "apps.example"})
	unset := ic(nil)
	if Apply(d, unset, desired(t, unset)) {
		t.Error("an IngressController without spec.replicas changed the installed router")
	}
	if *d.Spec.Replicas != 1 {
		t.Errorf("replicas %d, want the installed 1", *d.Spec.Replicas)
	}
	two := ic(func(c *operatorv1.IngressController) { c.Spec.Replicas = ptr.To[int32](2) })
	if !Apply(d, two, desired(t, two)) || *d.Spec.Replicas != 2 {
		t.Fatalf("spec.replicas 2: replicas %d, or no change reported", *d.Spec.Replicas)
	}
	if Apply(d, two, desired(t, two)) {
		t.Error("applying the same spec.replicas again reported a change")
	}
	neg := ic(func(c *operatorv1.IngressController) { c.Spec.Replicas = ptr.To[int32](-1) })
	if _, err := Desired(neg, nil); err == nil {
		t.Error("spec.replicas -1 accepted")
	}
}

// The replicas are spread over nodes (required anti-affinity on the
// hostname for the IngressController's pods) and replaced one at a time
// with no surge, as upstream does for a router bound to its node's ports.
func TestRouterReplicasSpreadOverNodes(t *testing.T) {
	d := RouterDeployment(RouterDeploymentOptions{IngressController: "default", Image: "router:1", Domain: "apps.example"})
	st := d.Spec.Strategy
	if st.Type != appsv1.RollingUpdateDeploymentStrategyType || st.RollingUpdate.MaxSurge.IntValue() != 0 || st.RollingUpdate.MaxUnavailable.String() != "25%" {
		t.Errorf("strategy %+v, want RollingUpdate maxUnavailable 25%% maxSurge 0", st)
	}
	aa := d.Spec.Template.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	if len(aa) != 1 || aa[0].TopologyKey != corev1.LabelHostname {
		t.Fatalf("anti-affinity %+v", aa)
	}
	sel, err := metav1.LabelSelectorAsSelector(aa[0].LabelSelector)
	if err != nil {
		t.Fatal(err)
	}
	if !sel.Matches(labels.Set(d.Spec.Template.Labels)) {
		t.Errorf("anti-affinity %s does not select the router's own pods %v", sel, d.Spec.Template.Labels)
	}
	if sel.Matches(labels.Set{DeploymentLabel: "shard-1"}) {
		t.Errorf("anti-affinity %s selects another IngressController's router", sel)
	}
}

// spec.nodePlacement's node selector and tolerations replace the
// Deployment's (upstream's desiredRouterDeployment).
func TestApplyHonoursNodePlacement(t *testing.T) {
	d := RouterDeployment(RouterDeploymentOptions{IngressController: "default", Image: "router:1", Domain: "apps.example"})
	c := ic(func(c *operatorv1.IngressController) {
		c.Spec.NodePlacement = &operatorv1.NodePlacement{NodeSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"node-role.kubernetes.io/worker": ""}}}
	})
	if !Apply(d, c, desired(t, c)) {
		t.Fatal("no change reported")
	}
	if got := d.Spec.Template.Spec.NodeSelector; len(got) != 1 || got["node-role.kubernetes.io/worker"] != "" {
		t.Errorf("node selector %v", got)
	}
	if len(d.Spec.Template.Spec.Tolerations) != 1 {
		t.Errorf("tolerations %v: nodePlacement without tolerations keeps the Deployment's", d.Spec.Template.Spec.Tolerations)
	}
	bad := ic(func(c *operatorv1.IngressController) {
		c.Spec.NodePlacement = &operatorv1.NodePlacement{NodeSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Bogus"}}}}
	})
	if _, err := Desired(bad, nil); err == nil {
		t.Error("an invalid node selector accepted")
	}
}
