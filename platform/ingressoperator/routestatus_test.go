package ingressoperator

import (
	"context"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	routefake "github.com/openshift/client-go/route/clientset/versioned/fake"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// After a selector change has rolled out, the shard's entry goes from the
// routes it no longer selects and stays on the others; the status then
// records the selectors, and the next pass touches no route
// (cluster-ingress-operator router_status.go, syncRouteStatus).
func TestSelectorChangeClearsTheStatusOfRoutesNoLongerSelected(t *testing.T) {
	ctx := context.Background()
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"shard": "s1"}}
	c := shard("s1", func(c *operatorv1.IngressController) {
		c.Spec.NamespaceSelector = selector
		c.Spec.RouteSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"expose": "yes"}}
		c.Status.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"shard": "old"}}
	})
	r := newReconciler([]*operatorv1.IngressController{c}, render("r"),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "in", Labels: map[string]string{"shard": "s1"}}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "out"}})
	both := func(ns, name string, labels map[string]string) *routev1.Route {
		return &routev1.Route{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels}, Status: routev1.RouteStatus{Ingress: []routev1.RouteIngress{
			{RouterName: "default"}, {RouterName: "s1"},
		}}}
	}
	exposed := map[string]string{"expose": "yes"}
	routes := routefake.NewClientset(both("in", "selected", exposed), both("in", "unlabelled", nil), both("out", "outside", exposed))
	r.Routes = routes

	// The first pass makes the Deployment; the router then rolls out.
	if err := r.Reconcile(ctx, c.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	if got := routerNames(t, routes, "out", "outside"); len(got) != 2 {
		t.Fatalf("status cleared before the rollout: %v", got)
	}
	d, err := r.Kube.AppsV1().Deployments(RouterNamespace).Get(ctx, "router-s1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Generation, d.Status = 1, appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1}
	if _, err := r.Kube.AppsV1().Deployments(RouterNamespace).Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := r.Reconcile(ctx, r.stored(t, "s1")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		ns, name string
		routers  []string
	}{
		{"in", "selected", []string{"default", "s1"}},
		{"in", "unlabelled", []string{"default"}},
		{"out", "outside", []string{"default"}},
	} {
		if got := routerNames(t, routes, want.ns, want.name); !equality.Semantic.DeepEqual(got, want.routers) {
			t.Errorf("route %s/%s status entries %v, want %v", want.ns, want.name, got, want.routers)
		}
	}
	st := r.stored(t, "s1")
	if !equality.Semantic.DeepEqual(st.Status.NamespaceSelector, selector) || !equality.Semantic.DeepEqual(st.Status.RouteSelector, c.Spec.RouteSelector) {
		t.Errorf("status selectors %v, %v: want the spec's", st.Status.NamespaceSelector, st.Status.RouteSelector)
	}

	before := len(routes.Actions())
	if err := r.Reconcile(ctx, st); err != nil {
		t.Fatal(err)
	}
	if a := routes.Actions()[before:]; len(a) != 0 {
		t.Errorf("a pass with synced selectors touched routes: %v", a)
	}
}

func routerNames(t *testing.T, routes *routefake.Clientset, ns, name string) []string {
	t.Helper()
	r, err := routes.RouteV1().Routes(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range r.Status.Ingress {
		names = append(names, in.RouterName)
	}
	return names
}
