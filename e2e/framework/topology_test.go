package framework

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
)

func TestConsecutiveIsAtLeastOnePerRouterReplica(t *testing.T) {
	label := map[string]string{contract.RouterDeploymentLabel: contract.DefaultIngressController}
	pod := func(name, node string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: contract.RouterNamespace, Labels: label}, Spec: corev1.PodSpec{NodeName: node}}
	}
	cs := fake.NewSimpleClientset(
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "lab-worker2"}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "lab-control-plane"}},
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "lab-worker"}},
		&appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: contract.RouterDeploymentName(contract.DefaultIngressController), Namespace: contract.RouterNamespace},
			Spec:       appsv1.DeploymentSpec{Replicas: ptr.To[int32](5)},
		},
		pod("router-default-b", "lab-worker2"), pod("router-default-a", "lab-worker"),
	)
	topo, err := ReadTopology(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	f := &Framework{Env: &Env{Topology: topo}, Opts: Options{Timeouts: contract.DefaultTimeouts()}}
	if got := f.Consecutive(); got != 5 {
		t.Errorf("Consecutive() = %d with 5 replicas and the table's %d, want 5", got, contract.DefaultTimeouts().Consecutive)
	}
	want := map[string]string{
		OptionNodes:                "lab-control-plane,lab-worker,lab-worker2",
		OptionRouterReplicas:       "5",
		OptionRouterPods:           "router-default-a@lab-worker,router-default-b@lab-worker2",
		OptionConsecutiveEffective: "5",
	}
	got := f.topologyOptions()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("option %s = %q, want %q", k, got[k], v)
		}
	}
	f.Topology.RouterReplicas = 1
	if got := f.Consecutive(); got != contract.DefaultTimeouts().Consecutive {
		t.Errorf("Consecutive() = %d with one replica, want the table's %d", got, contract.DefaultTimeouts().Consecutive)
	}
	// In a pod of the cluster, the router is behind its Service's cluster
	// IP: each connection to a replica picked at random.
	f.Opts.InCluster = true
	for replicas, want := range map[int]int{1: 3, 2: 11, 3: 20} {
		f.Topology.RouterReplicas = replicas
		if got := f.Consecutive(); got != want {
			t.Errorf("in-cluster Consecutive() = %d with %d replicas, want %d", got, replicas, want)
		}
	}
	if (&Framework{Opts: Options{Timeouts: contract.DefaultTimeouts()}}).Consecutive() != contract.DefaultTimeouts().Consecutive {
		t.Error("Consecutive() before the suite connected is not the table's")
	}
}
