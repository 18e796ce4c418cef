package ingressoperator

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"testing"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	operatorfake "github.com/openshift/client-go/operator/clientset/versioned/fake"
	routefake "github.com/openshift/client-go/route/clientset/versioned/fake"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"
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
	svc, err := r.Kube.CoreV1().Services(RouterNamespace).Get(ctx, "router-internal-s1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if o := svc.OwnerReferences; len(o) != 1 || o[0].Kind != "Deployment" || o[0].Name != "router-s1" {
		t.Errorf("Service router-internal-s1 owners %+v, want the Deployment", o)
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

// A deleted shard is held by the finalizer until its router pods are gone,
// then its routes lose this router's status entries and it is let go.
// The default IngressController never gets the finalizer.
func TestDeletedShardIsFinalized(t *testing.T) {
	ctx := context.Background()
	c := shard("s1", nil)
	r := newReconciler([]*operatorv1.IngressController{c, ic(nil)}, render("r"))
	if err := r.Reconcile(ctx, c.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	if err := r.Reconcile(ctx, ic(nil)); err != nil {
		t.Fatal(err)
	}
	if f := r.stored(t, "s1").Finalizers; len(f) != 1 || f[0] != Finalizer {
		t.Fatalf("shard finalizers %v", f)
	}
	if f := r.stored(t, "default").Finalizers; len(f) != 0 {
		t.Errorf("default finalizers %v", f)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "router-s1-x", Namespace: RouterNamespace, Labels: map[string]string{DeploymentLabel: "s1"}}}
	if _, err := r.Kube.CoreV1().Pods(RouterNamespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	route := &routev1.Route{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "r"}, Status: routev1.RouteStatus{Ingress: []routev1.RouteIngress{
		{RouterName: "default"}, {RouterName: "s1"},
	}}}
	routes := routefake.NewClientset(route)
	r.Routes = routes

	deleting := r.stored(t, "s1")
	deleting.DeletionTimestamp = ptr.To(metav1.Now())
	if err := r.Reconcile(ctx, deleting.DeepCopy()); !errors.Is(err, errWaiting) {
		t.Fatalf("with a router pod left: %v, want to wait", err)
	}
	if _, err := r.Kube.AppsV1().Deployments(RouterNamespace).Get(ctx, "router-s1", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("router Deployment not deleted: %v", err)
	}
	if f := r.stored(t, "s1").Finalizers; len(f) != 1 {
		t.Errorf("finalizer removed while a router pod runs")
	}
	if err := r.Kube.CoreV1().Pods(RouterNamespace).Delete(ctx, pod.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := r.Reconcile(ctx, deleting.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	if f := r.stored(t, "s1").Finalizers; len(f) != 0 {
		t.Errorf("finalizers left %v", f)
	}
	got, _ := routes.RouteV1().Routes("app").Get(ctx, "r", metav1.GetOptions{})
	if in := got.Status.Ingress; len(in) != 1 || in[0].RouterName != "default" {
		t.Errorf("route status %+v, want the default's entry alone", in)
	}
}

// Run end to end on fake clients: a new IngressController gets its router;
// one deleted outright (no finalizer ran) loses it to the orphan sweep.
func TestRunMakesAndRemovesShards(t *testing.T) {
	t.Setenv("KUBE_FEATURE_WatchListClient", "false")
	r := newReconciler(nil, render("router:x"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	defer func() { cancel(); <-done }()
	deployment := func() error {
		_, err := r.Kube.AppsV1().Deployments(RouterNamespace).Get(ctx, "router-s1", metav1.GetOptions{})
		return err
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 10s", what)
			}
		}
	}
	ics := r.Operator.OperatorV1().IngressControllers(OperatorNamespace)
	if _, err := ics.Create(ctx, shard("s1", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor("router-s1 created", func() bool { return deployment() == nil })
	if err := ics.Delete(ctx, "s1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor("router-s1 deleted", func() bool { return apierrors.IsNotFound(deployment()) })
	if _, err := r.Kube.AppsV1().Deployments(RouterNamespace).Get(ctx, "router-default", metav1.GetOptions{}); err != nil {
		t.Errorf("the default router: %v", err)
	}
}

// A shard whose allowedSubjectPatterns holds a pattern that does not
// parse is not admitted, and its router Deployment is left as it was;
// once the pattern parses it is admitted and reconciled again.
func TestInvalidSubjectPatternIsNotAdmitted(t *testing.T) {
	ctx := context.Background()
	c := shard("s1", nil)
	r := newReconciler([]*operatorv1.IngressController{c}, render("r"))
	if err := r.Reconcile(ctx, c.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	if got := condition(r.stored(t, "s1"), "Admitted"); got.Status != operatorv1.ConditionTrue || got.Reason != "Valid" {
		t.Fatalf("valid shard: Admitted %+v", got)
	}
	before, err := r.Kube.AppsV1().Deployments(RouterNamespace).Get(ctx, "router-s1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bad := r.stored(t, "s1")
	bad.Generation++
	bad.Spec.ClientTLS = operatorv1.ClientTLS{ClientCertificatePolicy: operatorv1.ClientCertificatePolicyRequired, AllowedSubjectPatterns: []string{"ok", "("}}
	if err := r.Reconcile(ctx, bad.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	got := r.stored(t, "s1")
	adm := condition(got, "Admitted")
	want := "failed to parse spec.clientTLS.allowedSubjectPatterns[1]: error parsing regexp: missing closing ): `(`"
	if adm.Status != operatorv1.ConditionFalse || adm.Reason != "Invalid" || adm.Message != want {
		t.Errorf("Admitted %+v, want False Invalid %q", adm, want)
	}
	if got.Status.ObservedGeneration != bad.Generation {
		t.Errorf("observedGeneration %d, want %d", got.Status.ObservedGeneration, bad.Generation)
	}
	after, err := r.Kube.AppsV1().Deployments(RouterNamespace).Get(ctx, "router-s1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if after.ResourceVersion != before.ResourceVersion {
		t.Error("the router Deployment of an IngressController not admitted was changed")
	}
}

// Deleting a shard removes its copy of the client CA bundle.
func TestDeletedShardLosesItsClientCACopy(t *testing.T) {
	ctx := context.Background()
	c := shard("s1", nil)
	copyCM := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "router-client-ca-s1", Namespace: RouterNamespace}}
	r := newReconciler([]*operatorv1.IngressController{c}, render("r"), copyCM)
	if err := r.Reconcile(ctx, c.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	deleting := r.stored(t, "s1")
	deleting.DeletionTimestamp = ptr.To(metav1.Now())
	if err := r.Reconcile(ctx, deleting.DeepCopy()); err != nil && !errors.Is(err, errWaiting) {
		t.Fatal(err)
	}
	if err := r.Reconcile(ctx, deleting.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Kube.CoreV1().ConfigMaps(RouterNamespace).Get(ctx, copyCM.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("client CA copy left: %v", err)
	}
}

// An IngressController on the domain an admitted one has is refused,
// Admitted False with reason Invalid and upstream's message, and gets no
// router; one on its own domain is admitted (the control).
func TestADomainInUseIsRefused(t *testing.T) {
	ctx := context.Background()
	held := shard("holder", hostNetwork(10080, 10443, 11936))
	held.UID, held.Spec.Domain = "uid-holder", "apps.example.test"
	held.Status.Domain = held.Spec.Domain
	held.Status.Conditions = []operatorv1.OperatorCondition{{Type: "Admitted", Status: operatorv1.ConditionTrue, Reason: "Valid"}}
	dup := shard("dup", hostNetwork(11080, 11443, 12936))
	dup.UID, dup.Spec.Domain = "uid-dup", held.Spec.Domain
	own := shard("own", hostNetwork(12080, 12443, 13936))
	own.UID, own.Spec.Domain = "uid-own", "own.example.test"
	r := newReconciler([]*operatorv1.IngressController{held, dup, own}, render("router:under-test"))
	for _, c := range []*operatorv1.IngressController{dup, own} {
		if err := r.Reconcile(ctx, c.DeepCopy()); err != nil {
			t.Fatal(err)
		}
	}
	got := condition(r.stored(t, "dup"), "Admitted")
	if got.Status != operatorv1.ConditionFalse || got.Reason != "Invalid" || got.Message != "conflicts with: holder" {
		t.Errorf("dup: Admitted %+v, want False, Invalid, conflicts with: holder", got)
	}
	if _, err := r.Kube.AppsV1().Deployments(RouterNamespace).Get(ctx, "router-dup", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("dup got a router Deployment (err %v)", err)
	}
	if got := condition(r.stored(t, "own"), "Admitted"); got.Status != operatorv1.ConditionTrue {
		t.Errorf("own: Admitted %+v, want True", got)
	}
}
