package framework

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/router-conformance/suite/contract"
)

// Topology is the cluster's shape as the suite found it when it
// connected: its nodes, and the default IngressController's router
// replicas (the Deployment's spec.replicas) and where its pods ran.
// Recorded in the report's options (Provenance), and the floor of the
// answers in a row that make convergence (Consecutive).
type Topology struct {
	Nodes []string `json:"nodes,omitempty"`
	// RouterReplicas is 0 when the Deployment could not be read.
	RouterReplicas int `json:"routerReplicas,omitempty"`
	// RouterPods are "<pod>@<node>".
	RouterPods []string `json:"routerPods,omitempty"`
}

// ReadTopology reads the nodes and the default router's Deployment and
// pods.
func ReadTopology(ctx context.Context, cs kubernetes.Interface) (Topology, error) {
	var t Topology
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return t, fmt.Errorf("list the nodes: %w", err)
	}
	for _, n := range nodes.Items {
		t.Nodes = append(t.Nodes, n.Name)
	}
	slices.Sort(t.Nodes)
	name := contract.RouterDeploymentName(contract.DefaultIngressController)
	d, err := cs.AppsV1().Deployments(contract.RouterNamespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return t, fmt.Errorf("the router Deployment %s/%s: %w", contract.RouterNamespace, name, err)
	}
	t.RouterReplicas = 1
	if d.Spec.Replicas != nil {
		t.RouterReplicas = int(*d.Spec.Replicas)
	}
	sel := contract.RouterDeploymentLabel + "=" + contract.DefaultIngressController
	pods, err := cs.CoreV1().Pods(contract.RouterNamespace).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return t, fmt.Errorf("list the router pods (%s): %w", sel, err)
	}
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil {
			t.RouterPods = append(t.RouterPods, p.Name+"@"+p.Spec.NodeName)
		}
	}
	slices.Sort(t.RouterPods)
	return t, nil
}

// Consecutive is how many answers in a row make convergence: the table's
// Consecutive, and enough that every router replica gave one. Every probe
// opens a new connection (httpclient never keeps one alive), so a change
// that reached one replica and not another cannot pass as converged by
// asking the same replica each time:
//   - behind a load balancer that takes the replicas in turn (round
//     robin: the lab's), one answer per replica;
//   - behind a Service's cluster IP (-in-cluster), where each connection
//     goes to a replica picked at random, as many as reach every replica
//     but with odds under 1 in 1000 (answersReachingEvery).
func (f *Framework) Consecutive() int {
	n := f.Opts.Timeouts.Consecutive
	if f.Env == nil {
		return n
	}
	if f.Opts.InCluster {
		return max(n, answersReachingEvery(f.Topology.RouterReplicas))
	}
	return max(n, f.Topology.RouterReplicas)
}

// answersReachingEvery is the fewest connections, each to one of r
// replicas picked at random, after which some replica has had none with
// odds of at most 1 in 1000: by the union bound, r·(1−1/r)^n ≤ 0.001
// (11 for 2 replicas, 20 for 3).
func answersReachingEvery(r int) int {
	if r <= 1 {
		return r
	}
	n := r
	for float64(r)*math.Pow(1-1/float64(r), float64(n)) > 1e-3 {
		n++
	}
	return n
}

// Provenance options the report records of the cluster's shape.
const (
	OptionNodes                = "cluster-nodes"
	OptionRouterReplicas       = "router-replicas"
	OptionRouterPods           = "router-pods"
	OptionConsecutiveEffective = "consecutive-effective"
)

// topologyOptions are the Topology as report options (none before the
// suite connected).
func (f *Framework) topologyOptions() map[string]string {
	if f.Env == nil {
		return nil
	}
	t := f.Topology
	out := map[string]string{
		OptionNodes:                strings.Join(t.Nodes, ","),
		OptionRouterPods:           strings.Join(t.RouterPods, ","),
		OptionConsecutiveEffective: strconv.Itoa(f.Consecutive()),
	}
	if t.RouterReplicas > 0 {
		out[OptionRouterReplicas] = strconv.Itoa(t.RouterReplicas)
	} else {
		out[OptionRouterReplicas] = "unknown"
	}
	return out
}
