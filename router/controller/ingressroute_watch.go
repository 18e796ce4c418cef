package controller

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/router-conformance/suite/router/haproxy"
	"github.com/router-conformance/suite/router/ingressroute"
)

// ingressRouteCaches are the caches IngressRoutes need beyond the Routes':
// the IngressRoutes themselves and the Secrets their roots name.
type ingressRouteCaches struct {
	routes  cache.GenericLister
	secrets corelisters.SecretLister
}

// ingressRouteSnapshot is one sync's IngressRoutes: the objects as listed,
// their typed form (same order) and the DAG built from them.
type ingressRouteSnapshot struct {
	objs   []*unstructured.Unstructured
	routes []ingressroute.IngressRoute
	result ingressroute.Result
}

// watchIngressRoutes waits for the IngressRoute CRD, then watches
// IngressRoutes and Secrets and asks for a sync. Until then, or if the
// CRD never comes, the router serves Routes alone. It runs apart from
// Run's loop so that a missing CRD or a missing permission (the caches
// never sync) cannot hold the Routes back.
func (c *Controller) watchIngressRoutes(ctx context.Context) {
	if !c.awaitIngressRouteCRD(ctx) {
		return
	}
	dyn := dynamicinformer.NewDynamicSharedInformerFactory(c.Dynamic, 10*time.Minute)
	kube := informers.NewSharedInformerFactory(c.Kube, 10*time.Minute)
	ri := dyn.ForResource(ingressroute.GroupVersionResource)
	si := kube.Core().V1().Secrets()
	_, err1 := ri.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { c.poke() },
		UpdateFunc: c.pokeUnlessSameGeneration,
		DeleteFunc: func(any) { c.poke() },
	})
	_, err2 := si.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { c.poke() },
		UpdateFunc: func(any, any) { c.poke() },
		DeleteFunc: func(any) { c.poke() },
	})
	if err1 != nil || err2 != nil {
		c.logf("IngressRoutes: event handlers: %v %v", err1, err2)
		return
	}
	dyn.Start(ctx.Done())
	kube.Start(ctx.Done())
	c.logf("IngressRoutes: the CRD is served; waiting for the IngressRoute and Secret caches")
	if !cache.WaitForCacheSync(ctx.Done(), ri.Informer().HasSynced, si.Informer().HasSynced) {
		return
	}
	c.ir.Store(&ingressRouteCaches{routes: ri.Lister(), secrets: si.Lister()})
	c.logf("IngressRoutes: served")
	c.poke()
}

// awaitIngressRouteCRD returns once discovery serves ingressroutes, and
// false if ctx ends first. It says once that the CRD is missing, not at
// every retry.
func (c *Controller) awaitIngressRouteCRD(ctx context.Context) bool {
	retry := c.IngressRouteRetry
	if retry == 0 {
		retry = 30 * time.Second
	}
	for logged := false; ; {
		err := c.ingressRoutesServed()
		if err == nil {
			return true
		}
		if !logged {
			c.logf("IngressRoutes are not served (%v): serving Routes only, looking again every %s", err, retry)
			logged = true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(retry):
		}
	}
}

func (c *Controller) ingressRoutesServed() error {
	list, err := c.Kube.Discovery().ServerResourcesForGroupVersion(ingressroute.GroupVersion.String())
	if err != nil {
		return err
	}
	for _, r := range list.APIResources {
		if r.Name == ingressroute.Plural {
			return nil
		}
	}
	return fmt.Errorf("%s serves no %s", ingressroute.GroupVersion, ingressroute.Plural)
}

// pokeUnlessSameGeneration ignores updates that leave the spec alone: the
// status subresource keeps metadata.generation, so the router's own status
// writes (and periodic resyncs) do not cause a sync of their own.
func (c *Controller) pokeUnlessSameGeneration(old, cur any) {
	o, ok1 := old.(metav1.Object)
	n, ok2 := cur.(metav1.Object)
	if ok1 && ok2 && o.GetGeneration() == n.GetGeneration() {
		return
	}
	c.poke()
}

// lookups reads the caches, as of now.
func (c *Controller) lookups(ic *ingressRouteCaches) Lookups {
	return Lookups{
		Service: func(ns, name string) *corev1.Service {
			s, _ := c.serviceLister.Services(ns).Get(name)
			return s
		},
		Slices: func(ns, svc string) []*discoveryv1.EndpointSlice {
			s, _ := c.sliceLister.EndpointSlices(ns).List(labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: svc}))
			return s
		},
		Secret: func(ns, name string) *corev1.Secret {
			s, _ := ic.secrets.Secrets(ns).Get(name)
			return s
		},
	}
}

// ingressRouteConfig builds the DAG and renders its hosts, leaving out
// names an admitted Route already serves (taken): the Routes came first.
// It returns nothing before the IngressRoute caches are ready.
func (c *Controller) ingressRouteConfig(taken map[string]bool) ([]haproxy.Route, *ingressRouteSnapshot) {
	ic := c.ir.Load()
	if ic == nil {
		return nil, nil
	}
	l := c.lookups(ic)
	snap := &ingressRouteSnapshot{}
	objs, _ := ic.routes.List(labels.Everything())
	for _, o := range objs {
		u, ok := o.(*unstructured.Unstructured)
		var ir ingressroute.IngressRoute
		// Outside the namespace selector an IngressRoute does not exist
		// for this router: not served, no status, no delegation to it.
		if !ok || !c.namespaceSelected(u.GetNamespace()) {
			continue
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &ir); err != nil {
			c.logf("IngressRoutes: %s/%s left out: %v", u.GetNamespace(), u.GetName(), err)
			continue
		}
		snap.objs, snap.routes = append(snap.objs, u), append(snap.routes, ir)
	}
	snap.result = ingressroute.Build(snap.routes, l.Service, l.Secret, metav1.Now())
	routes, errs := TranslateHosts(snap.result.Hosts, l)
	for _, err := range errs {
		c.logf("IngressRoutes: not served: %v", err)
	}
	var out []haproxy.Route
	left := map[string]bool{}
	for _, r := range routes {
		if taken[r.Host] {
			left[r.Host] = true
			continue
		}
		out = append(out, r)
	}
	for h := range left {
		c.logf("IngressRoutes: host %s is served by a Route; the IngressRoute's is left out", h)
	}
	return out, snap
}

// reportIngressRoutes writes the status of each IngressRoute whose
// computed status differs from the stored one: an object whose status
// holds keeps its resourceVersion.
func (c *Controller) reportIngressRoutes(ctx context.Context, snap *ingressRouteSnapshot) {
	if snap == nil {
		return
	}
	for i := range snap.routes {
		ir := &snap.routes[i]
		want, ok := snap.result.Statuses[types.NamespacedName{Namespace: ir.Namespace, Name: ir.Name}]
		if !ok || ingressroute.StatusEqual(ir.Status, want) {
			continue
		}
		if err := c.writeIngressRouteStatus(ctx, snap.objs[i], want); err != nil {
			c.logf("status of IngressRoute %s/%s: %v", ir.Namespace, ir.Name, err)
		}
	}
}

func (c *Controller) writeIngressRouteStatus(ctx context.Context, u *unstructured.Unstructured, st ingressroute.Status) error {
	raw, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&st)
	if err != nil {
		return err
	}
	obj := u.DeepCopy()
	obj.Object["status"] = raw
	_, err = c.Dynamic.Resource(ingressroute.GroupVersionResource).Namespace(obj.GetNamespace()).UpdateStatus(ctx, obj, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		c.poke() // a newer version will be synced
		return nil
	}
	return err
}
