package controller

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/router-conformance/suite/router/haproxy/haproxytest"

	routev1 "github.com/openshift/api/route/v1"
	routefake "github.com/openshift/client-go/route/clientset/versioned/fake"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/router/haproxy"
	"github.com/router-conformance/suite/router/ingressroute"
)

// A shard: the controller with ROUTE_LABELS "type=public" and
// NAMESPACE_LABELS "shard=a", a real HAProxy and fake API clients. Namespace
// "in" carries the shard's label, "out" does not, until the test labels it.

type shardWorld struct {
	base   haproxy.Config
	kube   *kubefake.Clientset
	routes *routefake.Clientset
	dyn    *dynamicfake.FakeDynamicClient
	logs   logs
}

func shardRoute(ns, name, host, svc string, lbls map[string]string) *routev1.Route {
	return &routev1.Route{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbls},
		Spec:       routev1.RouteSpec{Host: host, To: routev1.RouteTargetReference{Kind: "Service", Name: svc}},
	}
}

func startShard(t *testing.T) *shardWorld {
	w := &shardWorld{}
	c := newCluster()
	echoService(t, c, "in", "echo-in")
	echoService(t, c, "out", "echo-out")
	objs := []runtime.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "in", Labels: map[string]string{"shard": "a"}}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "out"}},
	}
	for _, s := range c.services {
		objs = append(objs, s)
	}
	for _, ss := range c.slices {
		objs = append(objs, ss[0])
	}
	w.kube = kubefake.NewClientset(objs...)
	w.kube.Resources = []*metav1.APIResourceList{{
		GroupVersion: ingressroute.GroupVersion.String(),
		APIResources: []metav1.APIResource{{Name: ingressroute.Plural, Namespaced: true, Kind: ingressroute.Kind}},
	}}
	public := map[string]string{"type": "public"}
	w.routes = routefake.NewClientset(
		shardRoute("in", "selected", "selected.test", "echo-in", public),
		shardRoute("in", "internal", "internal.test", "echo-in", map[string]string{"type": "internal"}),
		shardRoute("out", "outside", "outside.test", "echo-out", public),
	)
	irIn := rootIR("ir", "ir-in.test", "", nil, ingressroute.Route{Match: "/", Services: services("echo-in")})
	irIn.Namespace = "in"
	irOut := rootIR("ir", "ir-out.test", "", nil, ingressroute.Route{Match: "/", Services: services("echo-out")})
	irOut.Namespace = "out"
	dyn := fakeDynamic(unstructuredIR(t, irIn), unstructuredIR(t, irOut))
	defaultCert, err := newCA(t, "default CA").IssueServer(pki.ServerOptions{Hosts: []string{"*.default.test"}})
	if err != nil {
		t.Fatal(err)
	}
	w.base = haproxy.Config{HTTPBind: haproxytest.FreeAddr(t), HTTPSBind: haproxytest.FreeAddr(t), StatsBind: haproxytest.FreeAddr(t), Dir: t.TempDir(), DefaultCertificate: defaultCert.HAProxyPEM()}
	proxy := &haproxy.Process{Binary: haproxytest.Binary(t), Dir: w.base.Dir, Output: &syncWriter{}}
	ctrl := &Controller{
		Kube: w.kube, Routes: w.routes, Dynamic: dyn, Base: w.base, Proxy: proxy, RouterName: "shard-a",
		RouteSelector:     labels.SelectorFromSet(public),
		NamespaceSelector: labels.SelectorFromSet(labels.Set{"shard": "a"}),
		Coalesce:          20 * time.Millisecond, Logf: w.logs.logf,
	}
	runController(t, ctrl, proxy)
	w.dyn = dyn
	return w
}

// answer is the echo backend that answered host, or the status.
func (w *shardWorld) answer(host string) string {
	resp, err := httpclient.Do(context.Background(), withAddr(httpclient.Request{Host: host}, w.base))
	switch {
	case err != nil:
		return err.Error()
	case resp.Echo != nil && resp.Status == 200:
		return resp.Echo.Listener
	}
	return "status " + strconv.Itoa(resp.Status)
}

func (w *shardWorld) eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 20s; controller: %q", what, w.logs.lines)
		}
	}
}

func (w *shardWorld) admittedBy(ns, name string) []string {
	r, err := w.routes.RouteV1().Routes(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for _, in := range r.Status.Ingress {
		out = append(out, in.RouterName)
	}
	return out
}

func TestShardServesOnlyWhatItsSelectorsMatch(t *testing.T) {
	w := startShard(t)
	w.eventually(t, "selected.test served", func() bool { return w.answer("selected.test") == "echo-in" })
	w.eventually(t, "ir-in.test served", func() bool { return w.answer("ir-in.test") == "echo-in" })
	w.eventually(t, "selected route admitted", func() bool { return len(w.admittedBy("in", "selected")) > 0 })
	for _, host := range []string{"internal.test", "outside.test", "ir-out.test"} {
		if got := w.answer(host); got != "status 503" {
			t.Errorf("%s: %s, want 503 (outside the shard)", host, got)
		}
	}
	if got := w.admittedBy("in", "selected"); len(got) != 1 || got[0] != "shard-a" {
		t.Errorf("selected route's status: %v", got)
	}
	for _, r := range [][2]string{{"in", "internal"}, {"out", "outside"}} {
		if got := w.admittedBy(r[0], r[1]); len(got) != 0 {
			t.Errorf("route %s/%s outside the shard has status from %v", r[0], r[1], got)
		}
	}
	w.eventually(t, "in/ir's status written", func() bool { return len(statusWrites(w.dyn.Actions())) > 0 })
	if st := statusWrites(w.dyn.Actions()); len(st) != 1 || st[0] != "in/ir" {
		t.Errorf("IngressRoute status writes %v, want in/ir alone", st)
	}

	// The namespace joins the shard: its route (with the route label) and
	// its IngressRoute are served, and the route gets this router's status.
	ns, err := w.kube.CoreV1().Namespaces().Get(context.Background(), "out", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ns.Labels = map[string]string{"shard": "a"}
	if _, err := w.kube.CoreV1().Namespaces().Update(context.Background(), ns, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	w.eventually(t, "outside.test served once its namespace is labelled", func() bool { return w.answer("outside.test") == "echo-out" })
	w.eventually(t, "ir-out.test served once its namespace is labelled", func() bool { return w.answer("ir-out.test") == "echo-out" })
	w.eventually(t, "outside route admitted by shard-a", func() bool {
		got := w.admittedBy("out", "outside")
		return len(got) == 1 && got[0] == "shard-a"
	})
	if got := w.answer("internal.test"); got != "status 503" {
		t.Errorf("internal.test (route label not matched): %s", got)
	}
}

// runController runs ctrl until the test ends, then stops its HAProxy.
func runController(t *testing.T, ctrl *Controller, proxy *haproxy.Process) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = ctrl.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		proxy.Stop()
	})
}
