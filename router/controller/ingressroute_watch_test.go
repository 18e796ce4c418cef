package controller

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/router-conformance/suite/router/ingressroute"
)

// unstructuredIR is an IngressRoute as the dynamic client holds it.
func unstructuredIR(t *testing.T, ir ingressroute.IngressRoute) *unstructured.Unstructured {
	t.Helper()
	ir.APIVersion, ir.Kind = ingressroute.GroupVersion.String(), ingressroute.Kind
	raw, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&ir)
	if err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: raw}
}

func fakeDynamic(objs ...runtime.Object) *dynamicfake.FakeDynamicClient {
	return dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{ingressroute.GroupVersionResource: ingressroute.ListKind}, objs...)
}

// statusWrites lists the objects whose status the client was asked to write.
func statusWrites(actions []clienttesting.Action) []string {
	var out []string
	for _, a := range actions {
		if a.GetVerb() == "update" && a.GetSubresource() == "status" {
			o := a.(clienttesting.UpdateAction).GetObject().(*unstructured.Unstructured)
			out = append(out, o.GetNamespace()+"/"+o.GetName())
		}
	}
	return out
}

// logs collects a controller's log lines.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logs) count(substr string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.lines {
		if strings.Contains(s, substr) {
			n++
		}
	}
	return n
}

func TestIngressRouteStatusIsWrittenOnlyWhenItChanges(t *testing.T) {
	at := metav1.NewTime(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC))
	connected := ingressroute.Status{CurrentStatus: ingressroute.StatusValid, Description: "valid IngressRoute",
		DelegationStatuses: []ingressroute.DelegationStatus{{State: ingressroute.DelegationState{Connected: &ingressroute.Connected{
			Parent: ingressroute.Parent{Name: "root", Namespace: "ns", Prefix: "/a"}, ConnectedAt: at,
		}}}}}
	root := ingressroute.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "root"}, Spec: ingressroute.Spec{
		VirtualHost: &ingressroute.VirtualHost{Fqdn: "a.test"},
		Routes:      []ingressroute.Route{{Match: "/a", Delegate: &ingressroute.Delegate{Name: "child"}}},
	}}
	child := ingressroute.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "child"}, Spec: ingressroute.Spec{
		Routes: []ingressroute.Route{{Match: "/a/b", Delegate: &ingressroute.Delegate{Name: "nowhere"}}},
	}, Status: connected}
	dyn := fakeDynamic(unstructuredIR(t, root), unstructuredIR(t, child))
	c := &Controller{Dynamic: dyn}
	snap := &ingressRouteSnapshot{
		objs:   []*unstructured.Unstructured{unstructuredIR(t, root), unstructuredIR(t, child)},
		routes: []ingressroute.IngressRoute{root, child},
	}
	// Build is given a later time: the child's connectedAt must not move.
	snap.result = ingressroute.Build(snap.routes, nil, nil, metav1.NewTime(at.Add(time.Hour)))
	c.reportIngressRoutes(context.Background(), snap)
	if got := statusWrites(dyn.Actions()); len(got) != 1 || got[0] != "ns/root" {
		t.Fatalf("status writes %v, want ns/root alone (the child's status holds)", got)
	}
	stored, err := dyn.Resource(ingressroute.GroupVersionResource).Namespace("ns").Get(context.Background(), "root", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s, _, _ := unstructured.NestedString(stored.Object, "status", "currentStatus"); s != ingressroute.StatusValid {
		t.Errorf("stored status %v", stored.Object["status"])
	}

	// What was stored reads back equal: the next sync writes nothing.
	var again ingressroute.IngressRoute
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(stored.Object, &again); err != nil {
		t.Fatal(err)
	}
	snap.objs[0], snap.routes[0] = stored, again
	dyn.ClearActions()
	snap.result = ingressroute.Build(snap.routes, nil, nil, metav1.NewTime(at.Add(2*time.Hour)))
	c.reportIngressRoutes(context.Background(), snap)
	if got := statusWrites(dyn.Actions()); len(got) != 0 {
		t.Errorf("second sync wrote %v", got)
	}
}

// A connected vertex's status holds while nothing about it changes, even
// as its parent changes elsewhere (another route, a delegation to nothing):
// the vertex is not written, so its resourceVersion and connectedAt hold.
// Taking the delegation away is written (orphaned).
func TestConnectedVertexStatusHoldsWhileItsParentChangesElsewhere(t *testing.T) {
	at := metav1.NewTime(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC))
	root := ingressroute.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "root"}, Spec: ingressroute.Spec{
		VirtualHost: &ingressroute.VirtualHost{Fqdn: "a.test"},
		Routes:      []ingressroute.Route{{Match: "/a", Delegate: &ingressroute.Delegate{Name: "child"}}},
	}}
	child := ingressroute.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "child"}, Spec: ingressroute.Spec{
		Routes: []ingressroute.Route{{Match: "/a/b", Delegate: &ingressroute.Delegate{Name: "nowhere"}}},
	}}
	first := ingressroute.Build([]ingressroute.IngressRoute{root, child}, nil, nil, at)
	root.Status = first.Statuses[types.NamespacedName{Namespace: "ns", Name: "root"}]
	child.Status = first.Statuses[types.NamespacedName{Namespace: "ns", Name: "child"}]

	sync := func(root ingressroute.IngressRoute, later time.Duration) []string {
		dyn := fakeDynamic(unstructuredIR(t, root), unstructuredIR(t, child))
		c := &Controller{Dynamic: dyn}
		snap := &ingressRouteSnapshot{
			objs:   []*unstructured.Unstructured{unstructuredIR(t, root), unstructuredIR(t, child)},
			routes: []ingressroute.IngressRoute{root, child},
		}
		snap.result = ingressroute.Build(snap.routes, nil, nil, metav1.NewTime(at.Add(later)))
		c.reportIngressRoutes(context.Background(), snap)
		return statusWrites(dyn.Actions())
	}
	elsewhere := *root.DeepCopy()
	elsewhere.Spec.Routes = append(elsewhere.Spec.Routes, ingressroute.Route{Match: "/z", Delegate: &ingressroute.Delegate{Name: "later"}})
	if got := sync(elsewhere, time.Hour); len(got) != 0 {
		t.Errorf("the parent changed elsewhere: status writes %v, want none", got)
	}
	gone := *root.DeepCopy()
	gone.Spec.Routes = []ingressroute.Route{{Match: "/z", Delegate: &ingressroute.Delegate{Name: "later"}}}
	if got := sync(gone, time.Hour); len(got) != 1 || got[0] != "ns/child" {
		t.Errorf("the delegation taken away: status writes %v, want ns/child (orphaned)", got)
	}
}

func TestIngressRouteStatusConflictAsksForAnotherSync(t *testing.T) {
	ir := ingressroute.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "v"}, Spec: ingressroute.Spec{
		Routes: []ingressroute.Route{{Match: "/", Delegate: &ingressroute.Delegate{Name: "x"}}},
	}}
	dyn := fakeDynamic(unstructuredIR(t, ir))
	dyn.PrependReactor("update", "ingressroutes", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(ingressroute.GroupVersionResource.GroupResource(), "v", fmt.Errorf("stale"))
	})
	c := &Controller{Dynamic: dyn}
	snap := &ingressRouteSnapshot{objs: []*unstructured.Unstructured{unstructuredIR(t, ir)}, routes: []ingressroute.IngressRoute{ir}}
	snap.result = ingressroute.Build(snap.routes, nil, nil, metav1.Now())
	c.reportIngressRoutes(context.Background(), snap)
	select {
	case <-c.triggers():
	default:
		t.Error("a conflict did not ask for another sync")
	}
}

func TestStatusOnlyUpdatesDoNotSync(t *testing.T) {
	c := &Controller{}
	old := &unstructured.Unstructured{}
	old.SetGeneration(3)
	cur := old.DeepCopy()
	cur.Object["status"] = map[string]any{"currentStatus": "valid"}
	c.pokeUnlessSameGeneration(old, cur)
	select {
	case <-c.triggers():
		t.Fatal("a status-only update asked for a sync")
	default:
	}
	cur.SetGeneration(4)
	c.pokeUnlessSameGeneration(old, cur)
	select {
	case <-c.triggers():
	default:
		t.Fatal("a spec update did not ask for a sync")
	}
}

// Without the CRD the router says so once, keeps looking, and serves
// IngressRoutes once the CRD appears.
func TestIngressRoutesWaitForTheCRD(t *testing.T) {
	kube := kubefake.NewClientset()
	kube.Resources = []*metav1.APIResourceList{{
		GroupVersion: ingressroute.GroupVersion.String(),
		APIResources: []metav1.APIResource{{Name: ingressroute.Plural, Namespaced: true, Kind: ingressroute.Kind}},
	}}
	var installed atomic.Bool
	kube.PrependReactor("get", "resource", func(clienttesting.Action) (bool, runtime.Object, error) {
		if installed.Load() {
			return false, nil, nil
		}
		return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: ingressroute.GroupName}, ingressroute.GroupVersion.String())
	})
	var l logs
	c := &Controller{Kube: kube, Dynamic: fakeDynamic(), IngressRouteRetry: 10 * time.Millisecond, Logf: l.logf}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); c.watchIngressRoutes(ctx) }()

	time.Sleep(100 * time.Millisecond)
	if routes, snap := c.ingressRouteConfig(nil); routes != nil || snap != nil || c.ir.Load() != nil {
		t.Fatal("IngressRoutes served without their CRD")
	}
	if n := l.count("are not served"); n != 1 {
		t.Errorf("said %d times that the CRD is missing, want once: %q", n, l.lines)
	}
	installed.Store(true)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("IngressRoutes not watched after the CRD appeared: %q", l.lines)
	}
	if c.ir.Load() == nil || l.count("IngressRoutes: served") != 1 {
		t.Errorf("caches not ready: %q", l.lines)
	}
}
