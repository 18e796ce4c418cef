package ingressoperator

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
)

func chainLeaf(t *testing.T, chain []byte) *x509.Certificate {
	t.Helper()
	block, _ := pem.Decode(chain)
	if block == nil {
		t.Fatal("no PEM certificate")
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newReconciler(ics []*operatorv1.IngressController, kube ...runtime.Object) *Reconciler {
	var ops []runtime.Object
	for _, c := range ics {
		ops = append(ops, c)
	}
	return &Reconciler{Kube: kubefake.NewClientset(kube...), Operator: operatorfake.NewClientset(ops...)}
}

func condition(ic *operatorv1.IngressController, typ string) operatorv1.OperatorCondition {
	for _, c := range ic.Status.Conditions {
		if c.Type == typ {
			return c
		}
	}
	return operatorv1.OperatorCondition{}
}

func (r *Reconciler) stored(t *testing.T, name string) *operatorv1.IngressController {
	t.Helper()
	c, err := r.Operator.OperatorV1().IngressControllers(OperatorNamespace).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A shard's IngressController gets its router Deployment and Secrets, and
// reports Progressing until the router is rolled out, then Available.
func TestReconcileCreatesAShard(t *testing.T) {
	ctx := context.Background()
	c := shard("s1", hostNetwork(10080, 10443, 11936))
	c.Generation = 3
	r := newReconciler([]*operatorv1.IngressController{c}, render("router:under-test"))
	if err := r.Reconcile(ctx, c.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	d, err := r.Kube.AppsV1().Deployments(RouterNamespace).Get(ctx, "router-s1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "router:under-test" || !d.Spec.Template.Spec.HostNetwork {
		t.Errorf("image %s (want the default router's), hostNetwork %v", img, d.Spec.Template.Spec.HostNetwork)
	}
	for _, name := range []string{"router-certs-s1", "router-stats-s1", "router-metrics-certs-s1"} {
		s, err := r.Kube.CoreV1().Secrets(RouterNamespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if o := s.OwnerReferences; len(o) != 1 || o[0].Kind != "Deployment" || o[0].Name != "router-s1" {
			t.Errorf("Secret %s owners %+v, want the Deployment", name, o)
		}
	}
	st := r.stored(t, "s1")
	if condition(st, "Progressing").Status != operatorv1.ConditionTrue || condition(st, "Available").Status != operatorv1.ConditionFalse ||
		st.Status.Domain != "s1.shards.test" || st.Status.ObservedGeneration != 3 {
		t.Errorf("status while rolling out: %+v", st.Status)
	}
	if eps := st.Status.EndpointPublishingStrategy; eps == nil || eps.HostNetwork == nil || eps.HostNetwork.StatsPort != 11936 {
		t.Errorf("status.endpointPublishingStrategy %+v", eps)
	}

	// The router rolls out: the next pass changes nothing but the status.
	d.Generation, d.Status = 1, appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 1, UpdatedReplicas: 1, AvailableReplicas: 1}
	if _, err := r.Kube.AppsV1().Deployments(RouterNamespace).Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	before := len(r.Kube.(*kubefake.Clientset).Actions())
	if err := r.Reconcile(ctx, st); err != nil {
		t.Fatal(err)
	}
	for _, a := range r.Kube.(*kubefake.Clientset).Actions()[before:] {
		if a.GetVerb() != "get" {
			t.Errorf("a rolled-out shard's pass did %s %s", a.GetVerb(), a.GetResource().Resource)
		}
	}
	if st = r.stored(t, "s1"); !contractSettled(st) || st.Status.AvailableReplicas != 1 {
		t.Errorf("status after the rollout: %+v", st.Status)
	}
}

func contractSettled(ic *operatorv1.IngressController) bool {
	return ic.Status.ObservedGeneration == ic.Generation &&
		condition(ic, "Available").Status == operatorv1.ConditionTrue && condition(ic, "Progressing").Status == operatorv1.ConditionFalse
}

// The default's Deployment is install's: a missing one is reported, not
// made. A shard without a domain is refused.
func TestReconcileMakesNoDefaultRouterAndNoShardWithoutDomain(t *testing.T) {
	ctx := context.Background()
	noDomain := shard("s2", nil)
	noDomain.Spec.Domain = ""
	r := newReconciler([]*operatorv1.IngressController{ic(nil), noDomain})
	r.RouterImage = "router:x"
	for _, c := range []*operatorv1.IngressController{ic(nil), noDomain} {
		if err := r.Reconcile(ctx, c.DeepCopy()); err != nil {
			t.Fatal(err)
		}
	}
	if list, _ := r.Kube.AppsV1().Deployments(RouterNamespace).List(ctx, metav1.ListOptions{}); len(list.Items) != 0 {
		t.Errorf("Deployments made: %d", len(list.Items))
	}
	if got := condition(r.stored(t, "default"), "Available").Reason; got != "DeploymentMissing" {
		t.Errorf("default: %s", got)
	}
	if got := condition(r.stored(t, "s2"), "Available").Reason; got != "DomainMissing" {
		t.Errorf("shard without a domain: %s", got)
	}
}

// A shard whose IngressController is gone loses its Deployment; the
// default's and live shards' stay, and so does anything unlabelled.
func TestRemoveOrphans(t *testing.T) {
	ctx := context.Background()
	live, gone := shard("live", nil), shard("gone", nil)
	other := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "route-admission", Namespace: RouterNamespace}}
	objs := []runtime.Object{render("r"), ShardDeployment(live, "r", Settings{}), ShardDeployment(gone, "r", Settings{}), other}
	r := newReconciler(nil, objs...)
	var deployments []*appsv1.Deployment
	for _, o := range objs {
		deployments = append(deployments, o.(*appsv1.Deployment))
	}
	// What Run hands it: the Deployments its selector picks.
	var picked []*appsv1.Deployment
	for _, d := range deployments {
		if shardSelector().Matches(labels.Set(d.Labels)) {
			picked = append(picked, d)
		}
	}
	if len(picked) != 3 {
		t.Fatalf("the selector picked %d Deployments, want the three routers", len(picked))
	}
	if err := r.removeOrphans(ctx, picked, []*operatorv1.IngressController{live}); err != nil {
		t.Fatal(err)
	}
	list, _ := r.Kube.AppsV1().Deployments(RouterNamespace).List(ctx, metav1.ListOptions{})
	left := map[string]bool{}
	for _, d := range list.Items {
		left[d.Name] = true
	}
	if !left["router-default"] || !left["router-live"] || !left["route-admission"] || left["router-gone"] || len(left) != 3 {
		t.Errorf("left %v", left)
	}
}

// A Secret a deleted Deployment of the same name still owns moves to the
// new one, so that the garbage collector leaves it.
func TestShardSecretsMoveToTheNewDeployment(t *testing.T) {
	ctx := context.Background()
	c := shard("s1", nil)
	old, err := ShardSecret(c, "router-stats-s1")
	if err != nil {
		t.Fatal(err)
	}
	old.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "router-s1", UID: "old"}}
	r := newReconciler(nil, old)
	d := ShardDeployment(c, "r", Settings{})
	d.UID = "new"
	if err := r.ensureShardSecrets(ctx, c, d); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"router-stats-s1", "router-certs-s1", "router-metrics-certs-s1"} {
		s, err := r.Kube.CoreV1().Secrets(RouterNamespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil || len(s.OwnerReferences) != 1 || s.OwnerReferences[0].UID != "new" {
			t.Errorf("%s: %v %+v", name, err, s)
		}
	}
}
