package controller

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	routev1 "github.com/openshift/api/route/v1"
	routeclient "github.com/openshift/client-go/route/clientset/versioned"
	routeinformers "github.com/openshift/client-go/route/informers/externalversions"
	routelisters "github.com/openshift/client-go/route/listers/route/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/router-conformance/suite/router/haproxy"
)

// Controller keeps HAProxy in step with the cluster's Routes and, when
// Dynamic is set, IngressRoutes.
type Controller struct {
	Kube   kubernetes.Interface
	Routes routeclient.Interface
	// Base is the configuration without routes: binds, directory, default
	// certificate, mutual TLS, IngressController header actions.
	Base haproxy.Config
	// Proxy is started on the first sync and reloaded on later changes.
	Proxy *haproxy.Process
	// RouterName and CanonicalHostname go into each route's status
	// (status.ingress[].routerName, .routerCanonicalHostname); this router
	// owns the entry with its RouterName. cmd/router takes the name from
	// ROUTER_SERVICE_NAME, as upstream does ("default" for the default
	// IngressController).
	RouterName, CanonicalHostname string
	// Coalesce is how long a burst of changes is gathered before a sync.
	Coalesce time.Duration
	Logf     func(format string, args ...any)
	// Dynamic, if set, serves IngressRoutes (contour.heptio.com/v1alpha1)
	// once their CRD is served, alongside the Routes, and writes their
	// status.
	Dynamic dynamic.Interface
	// IngressRouteRetry is how often the router looks for the IngressRoute
	// CRD while it is not served; 0 means 30s.
	IngressRouteRetry time.Duration

	// RouteSelector and NamespaceSelector shard the router (upstream:
	// ROUTE_LABELS and NAMESPACE_LABELS, openshift/router
	// pkg/cmd/infra/router/router.go): it serves, and writes the status
	// of, only the Routes whose labels RouteSelector matches, and only
	// Routes and IngressRoutes in namespaces whose labels
	// NamespaceSelector matches. nil selects everything.
	RouteSelector, NamespaceSelector labels.Selector
	// DisableNamespaceOwnershipCheck lets routes of any namespace share a
	// host, one per path (upstream: ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK,
	// which cluster-ingress-operator sets from the IngressController's
	// routeAdmission.namespaceOwnership InterNamespaceAllowed). Unset, the
	// namespace of a host's oldest route owns it (Strict, the default).
	DisableNamespaceOwnershipCheck bool
	// AllowWildcardRoutes admits routes with wildcardPolicy Subdomain
	// (upstream: ROUTER_ALLOW_WILDCARD_ROUTES, which cluster-ingress-operator
	// sets from the IngressController's routeAdmission.wildcardPolicy
	// WildcardsAllowed); unset, they are refused (admitWildcardPolicy).
	AllowWildcardRoutes bool
	// RouterDomain is this router's domain (upstream: ROUTER_DOMAIN,
	// which cluster-ingress-operator sets to the IngressController's
	// status.domain): a route with spec.subdomain and no spec.host is
	// served, and reported, as <subdomain>.<RouterDomain> (routerHosts).
	RouterDomain string

	routeLister     routelisters.RouteLister
	namespaceLister corelisters.NamespaceLister
	serviceLister   corelisters.ServiceLister
	sliceLister     discoverylisters.EndpointSliceLister
	triggerOnce     sync.Once
	trigger         chan struct{}
	// ir is set once the IngressRoute caches have synced.
	ir         atomic.Pointer[ingressRouteCaches]
	lastConfig []byte
	started    bool
	// reloadRequested forces a reload at the next sync although the
	// rendered configuration did not change.
	reloadRequested atomic.Bool
}

// Run watches until ctx ends.
func (c *Controller) Run(ctx context.Context) error {
	if c.Coalesce == 0 {
		c.Coalesce = 200 * time.Millisecond
	}
	if err := c.startCaches(ctx); err != nil {
		return err
	}
	if c.Dynamic != nil {
		go c.watchIngressRoutes(ctx)
	}
	c.poke()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-c.triggers():
		}
		// Gather the rest of the burst.
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(c.Coalesce):
		}
		select {
		case <-c.triggers():
		default:
		}
		if err := c.sync(ctx); err != nil {
			c.logf("sync: %v", err)
			if !c.started {
				return err
			}
		}
	}
}

// startCaches watches Routes (those RouteSelector matches, filtered by the
// API server as upstream's route informer is), Services, EndpointSlices
// and, for a NamespaceSelector, the namespaces it matches, and waits for
// their caches.
func (c *Controller) startCaches(ctx context.Context) error {
	kubeInformers := informers.NewSharedInformerFactory(c.Kube, 10*time.Minute)
	routeInformers := routeinformers.NewSharedInformerFactoryWithOptions(c.Routes, 10*time.Minute,
		routeinformers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = selectorString(c.RouteSelector) }))
	nsInformers := informers.NewSharedInformerFactoryWithOptions(c.Kube, 10*time.Minute,
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = selectorString(c.NamespaceSelector) }))
	handler := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { c.poke() },
		UpdateFunc: func(old, cur any) { c.pokeUnlessStatusOnly(old, cur) },
		DeleteFunc: func(any) { c.poke() },
	}
	ri := routeInformers.Route().V1().Routes()
	si := kubeInformers.Core().V1().Services()
	ei := kubeInformers.Discovery().V1().EndpointSlices()
	watched := []cache.SharedIndexInformer{ri.Informer(), si.Informer(), ei.Informer()}
	if c.NamespaceSelector != nil {
		ni := nsInformers.Core().V1().Namespaces()
		watched = append(watched, ni.Informer())
		c.namespaceLister = ni.Lister()
	}
	for _, inf := range watched {
		if _, err := inf.AddEventHandler(handler); err != nil {
			return err
		}
	}
	c.routeLister, c.serviceLister, c.sliceLister = ri.Lister(), si.Lister(), ei.Lister()
	for _, f := range []interface {
		Start(<-chan struct{})
		WaitForCacheSync(<-chan struct{}) map[reflect.Type]bool
	}{kubeInformers, nsInformers, routeInformers} {
		f.Start(ctx.Done())
		for typ, ok := range f.WaitForCacheSync(ctx.Done()) {
			if !ok {
				return fmt.Errorf("cache of %v did not sync (is the Route CRD installed?)", typ)
			}
		}
	}
	return nil
}

// selectorString is a selector as list options carry it ("" selects all).
func selectorString(s labels.Selector) string {
	if s == nil {
		return ""
	}
	return s.String()
}

// namespaceSelected says whether this router serves the namespace: one
// NamespaceSelector matches (upstream's router watches only those
// namespaces, pkg/router/controller/factory/factory.go).
func (c *Controller) namespaceSelected(namespace string) bool {
	if c.NamespaceSelector == nil {
		return true
	}
	if c.namespaceLister == nil {
		return false
	}
	ns, err := c.namespaceLister.Get(namespace)
	return err == nil && c.NamespaceSelector.Matches(labels.Set(ns.Labels))
}

// selectedRoutes are the routes this router serves and reports on. The
// API server already applied RouteSelector; checking again here keeps
// the rule in one place whatever the client.
func (c *Controller) selectedRoutes(routes []*routev1.Route) []*routev1.Route {
	var out []*routev1.Route
	for _, r := range routes {
		if c.RouteSelector != nil && !c.RouteSelector.Matches(labels.Set(r.Labels)) {
			continue
		}
		if c.namespaceSelected(r.Namespace) {
			out = append(out, r)
		}
	}
	return out
}

// routerHosts gives each route that names spec.subdomain and no
// spec.host this router's host for it, <subdomain>.<domain>, on a copy:
// the host it is admitted, served and reported under (upstream:
// openshift/router pkg/cmd/infra/router/router.go,
// RouterSelection.RouteUpdate, the route modifier of its informer). A
// router without a domain leaves the route without a host. The copy's
// spec never reaches the API: only its status is written.
func routerHosts(routes []*routev1.Route, domain string) []*routev1.Route {
	if domain == "" {
		return routes
	}
	out := make([]*routev1.Route, len(routes))
	for i, r := range routes {
		out[i] = r
		if r.Spec.Host == "" && r.Spec.Subdomain != "" {
			out[i] = r.DeepCopy()
			out[i].Spec.Host = r.Spec.Subdomain + "." + domain
		}
	}
	return out
}

func (c *Controller) triggers() chan struct{} {
	c.triggerOnce.Do(func() { c.trigger = make(chan struct{}, 1) })
	return c.trigger
}

func (c *Controller) poke() {
	select {
	case c.triggers() <- struct{}{}:
	default:
	}
}

// Our own status updates must not cause a sync of their own.
func (c *Controller) pokeUnlessStatusOnly(old, cur any) {
	o, ok1 := old.(*routev1.Route)
	n, ok2 := cur.(*routev1.Route)
	if ok1 && ok2 && o.Generation == n.Generation && equality.Semantic.DeepEqual(o.Annotations, n.Annotations) {
		return
	}
	c.poke()
}

func (c *Controller) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}

// sync renders every admitted route and applies the result.
func (c *Controller) sync(ctx context.Context) error {
	routes, err := c.routeLister.List(labels.Everything())
	if err != nil {
		return err
	}
	routes = routerHosts(c.selectedRoutes(routes), c.RouterDomain)
	sort.Slice(routes, func(i, j int) bool { return routeOlder(routes[i], routes[j]) })
	// Upstream's plugin chain, outermost first: HostAdmitter (the
	// wildcard policy, then, with wildcard routes allowed, its own host
	// claims), UniqueHost (host claims), then extended validation; a
	// route refused by one never reaches the next.
	verdicts := map[*routev1.Route]*Rejection{}
	policyRefusals := map[*routev1.Route]*Rejection{}
	for _, r := range routes {
		if rej := admitWildcardPolicy(r, c.AllowWildcardRoutes); rej != nil {
			policyRefusals[r] = rej
		}
	}
	admitted := refuse(routes, policyRefusals, verdicts)
	if c.AllowWildcardRoutes {
		admitted = refuse(admitted, claimWildcards(admitted, !c.DisableNamespaceOwnershipCheck), verdicts)
	}
	admitted = refuse(admitted, claimHosts(admitted, !c.DisableNamespaceOwnershipCheck), verdicts)
	cfg := c.Base
	cfg.Routes = nil
	for _, r := range admitted {
		hr, rej := Translate(r, func(name string) (*corev1.Service, []*discoveryv1.EndpointSlice) {
			svc, _ := c.serviceLister.Services(r.Namespace).Get(name)
			slices, _ := c.sliceLister.EndpointSlices(r.Namespace).List(labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: name}))
			return svc, slices
		})
		if rej == nil {
			cfg.Routes = append(cfg.Routes, hr)
		}
		verdicts[r] = rej
	}
	hstsInheritFault(cfg.Routes)
	cfg.Routes = componentRouteFaults(cfg.Routes)
	taken := map[string]bool{}
	for _, r := range cfg.Routes {
		taken[r.Host] = true
	}
	irRoutes, snap := c.ingressRouteConfig(taken)
	cfg.Routes = append(cfg.Routes, irRoutes...)
	if err := c.apply(ctx, cfg); err != nil {
		return err
	}
	for r, rej := range verdicts {
		if err := c.report(ctx, r, rej); err != nil {
			c.logf("status of route %s/%s: %v", r.Namespace, r.Name, err)
		}
	}
	c.reportIngressRoutes(ctx, snap)
	return nil
}

// apply renders, writes and (re)loads HAProxy if the configuration changed.
func (c *Controller) apply(ctx context.Context, cfg haproxy.Config) error {
	files, err := haproxy.Render(cfg)
	if err != nil {
		return err
	}
	var all bytes.Buffer
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		all.WriteString(n)
		all.Write(files[n])
	}
	forced := c.reloadRequested.Swap(false)
	if c.started && !forced && bytes.Equal(all.Bytes(), c.lastConfig) {
		return nil
	}
	if err := files.Write(cfg.Dir); err != nil {
		return err
	}
	start := time.Now()
	if !c.started {
		if err := c.Proxy.Start(ctx); err != nil {
			return err
		}
		c.started = true
	} else if err := c.Proxy.Reload(ctx); err != nil {
		return err
	}
	c.lastConfig = all.Bytes()
	c.logf("haproxy serves %d routes (applied in %s)", len(cfg.Routes), time.Since(start).Round(time.Millisecond))
	return nil
}

// report writes the route's ingress status for this router, if it changed.
func (c *Controller) report(ctx context.Context, r *routev1.Route, rej *Rejection) error {
	cond := routev1.RouteIngressCondition{Type: routev1.RouteAdmitted, Status: corev1.ConditionTrue}
	if rej != nil {
		cond.Status, cond.Reason, cond.Message = corev1.ConditionFalse, rej.Reason, rej.Message
	}
	want := routev1.RouteIngress{
		Host: r.Spec.Host, RouterName: c.RouterName, RouterCanonicalHostname: c.CanonicalHostname,
		// upstream: status.go, recordIngressCondition: the route's own
		// policy, on an admitted and a refused entry alike.
		WildcardPolicy: r.Spec.WildcardPolicy, Conditions: []routev1.RouteIngressCondition{cond},
	}
	updated := r.DeepCopy()
	found := false
	for i, in := range updated.Status.Ingress {
		if in.RouterName != c.RouterName {
			continue
		}
		found = true
		if len(in.Conditions) == 1 {
			prev := in.Conditions[0]
			if prev.Type == cond.Type && prev.Status == cond.Status && prev.Reason == cond.Reason && prev.Message == cond.Message &&
				in.Host == want.Host && in.RouterCanonicalHostname == want.RouterCanonicalHostname && in.WildcardPolicy == want.WildcardPolicy {
				return nil
			}
		}
		now := metav1.Now()
		want.Conditions[0].LastTransitionTime = &now
		updated.Status.Ingress[i] = want
	}
	if !found {
		now := metav1.Now()
		want.Conditions[0].LastTransitionTime = &now
		updated.Status.Ingress = append(updated.Status.Ingress, want)
	}
	_, err := c.Routes.RouteV1().Routes(r.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		c.poke() // a newer version will be synced
		return nil
	}
	return err
}

// Reload asks for a reload at the next sync, for changes HAProxy reads
// from files the controller does not render (the CRL file). Safe to call
// from any goroutine.
func (c *Controller) Reload(context.Context) error {
	c.reloadRequested.Store(true)
	c.poke()
	return nil
}
