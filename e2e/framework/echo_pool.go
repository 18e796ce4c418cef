package framework

import (
	"context"
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// The echo pool: each parallel process runs one echo pod, in a namespace
// of its own, that listens on a range of ports, and each plain-HTTP echo
// backend of a spec (DeployEcho) is a lease of one port of it: Service
// "echo" in the spec's namespace without a selector, and an EndpointSlice
// to the pool pod at the leased ports. A spec's backend then costs two API
// objects instead of a pod started and stopped (on a 2-core machine a
// third of a run's CPU went to starting and stopping pods:
// docs/benchmarks.md). A port is leased once per run, so an answer on
// another lease's port is another spec's backend (Echo.Served).

// The pool's port ranges: lease i is served plain on echoPoolHTTPBase+i
// and with wire names on echoPoolWireNamesBase+i.
const (
	echoPoolSize          = 1000
	echoPoolHTTPBase      = 10000
	echoPoolWireNamesBase = 20000
	echoPoolName          = "echo-pool"
)

// echoPool is this process's pool: its pods and the leases handed out.
type echoPool struct {
	namespace string
	pods      []string
	endpoints []discoveryv1.Endpoint

	mu     sync.Mutex
	leased int
}

// StartEchoPool creates this process's echo pool and waits until its pod
// is ready; the per-process set-up calls it once, and StopEchoPool deletes
// it.
func (f *Framework) StartEchoPool(ctx context.Context) {
	GinkgoHelper()
	ns, err := f.Clientset.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		GenerateName: fmt.Sprintf("%s-%d-", echoPoolName, GinkgoParallelProcess()),
		Labels:       map[string]string{"router-conformance/spec": "true"},
	}}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create the echo pool's namespace")
	pool := &echoPool{namespace: ns.Name}
	c := f.ScratchContainer("echo", f.Image("echo"), "-http", fmt.Sprintf(":%d", echoHTTPContainerPort), "-https", "",
		"-http-range", fmt.Sprintf("%d-%d", echoPoolHTTPBase, echoPoolHTTPBase+echoPoolSize-1),
		"-wire-names-range", fmt.Sprintf("%d-%d", echoPoolWireNamesBase, echoPoolWireNamesBase+echoPoolSize-1))
	c.ReadinessProbe = HTTPReadiness("/", echoHTTPContainerPort)
	f.CreateDeployment(ctx, OneReplica(pool.namespace, echoPoolName, corev1.PodSpec{Containers: []corev1.Container{c}}))
	pool.pods, pool.endpoints = f.readyPods(ctx, pool.namespace, echoPoolName)
	Expect(pool.pods).NotTo(BeEmpty(), "the echo pool %s/%s has no ready pod", pool.namespace, echoPoolName)
	f.echoPool = pool
}

// StopEchoPool deletes this process's echo pool (its namespace).
func (f *Framework) StopEchoPool(ctx context.Context) {
	GinkgoHelper()
	if f.echoPool == nil {
		return
	}
	err := f.Clientset.CoreV1().Namespaces().Delete(ctx, f.echoPool.namespace, metav1.DeleteOptions{})
	Expect(err).NotTo(HaveOccurred(), "delete the echo pool's namespace %s", f.echoPool.namespace)
	f.echoPool = nil
}

// lease is the next unleased port index of the pool.
func (p *echoPool) lease() (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.leased == echoPoolSize {
		return 0, fmt.Errorf("the echo pool's %d ports are all leased: this process deployed more echo backends than a run is expected to", echoPoolSize)
	}
	p.leased++
	return p.leased - 1, nil
}

// leaseEcho gives ref an echo backend on the pool: Service ref.Name in
// ref.Namespace without a selector, and its EndpointSlice to the pool's
// pods at the next unleased ports.
func (f *Framework) leaseEcho(ctx context.Context, ref EchoRef) *Echo {
	GinkgoHelper()
	Expect(f.echoPool).NotTo(BeNil(), "the echo pool is not started: the suite's set-up calls StartEchoPool")
	i, err := f.echoPool.lease()
	Expect(err).NotTo(HaveOccurred())
	e := &Echo{
		Namespace:    ref.Namespace,
		Service:      ref.Name,
		Pods:         f.echoPool.pods,
		podNamespace: f.echoPool.namespace,
		leased:       map[string]int32{EchoHTTPPort: int32(echoPoolHTTPBase + i), EchoWireNamesPort: int32(echoPoolWireNamesBase + i)},
		endpoints:    f.echoPool.endpoints,
	}
	f.createEchoService(ctx, echoService(ref.Namespace, ref.Name, false, nil))
	var ports []discoveryv1.EndpointPort
	for _, name := range []string{EchoHTTPPort, EchoWireNamesPort} {
		ports = append(ports, discoveryv1.EndpointPort{Name: ptr.To(name), Port: ptr.To(e.leased[name]), Protocol: ptr.To(corev1.ProtocolTCP)})
	}
	f.createEndpointSlice(ctx, ref.Namespace, ref.Name, ref.Name+"-"+echoPoolName, ports, e.endpoints)
	return e
}
