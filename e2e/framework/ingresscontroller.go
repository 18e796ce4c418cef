package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// IngressController is the one a spec changes and sends its requests to:
// the cluster's default, or a shard of the spec's own.
type IngressController struct {
	Name string
	// HTTPAddr and HTTPSAddr reach its router from the test process.
	HTTPAddr, HTTPSAddr string
	// NamespaceLabels select the namespaces a shard serves: a spec labels
	// its namespaces with them (SpecNamespaceWithLabels). Nil for the
	// default, which serves every namespace.
	NamespaceLabels map[string]string
	// publish is a shard's endpoint publishing strategy; pending, until
	// Start creates it (PendingIngressController).
	publish *operatorv1.EndpointPublishingStrategy
	pending bool
	f       *Framework
}

// Generation is the IngressController's metadata.generation: any change
// of its spec raises it.
func (ic *IngressController) Generation(ctx context.Context) int64 {
	GinkgoHelper()
	live, err := ic.f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace).Get(ctx, ic.Name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	return live.Generation
}

// DefaultIngressController is the cluster's default IngressController.
func (f *Framework) DefaultIngressController() *IngressController {
	return &IngressController{Name: contract.DefaultIngressController, HTTPAddr: f.HTTPAddr, HTTPSAddr: f.HTTPSAddr, f: f}
}

// OwnIngressControllerDecorator is what a container or spec that calls
// OwnIngressController is declared with: nothing where the profile gives
// shards their own ports, Serial where it does not (the existing profile:
// the spec falls back to the default IngressController, and
// OwnIngressController fails a spec declared without it).
func (f *Framework) OwnIngressControllerDecorator() []any {
	if f.Caps.OwnIngressControllers {
		// No decoration, as one: Ginkgo takes an empty slice for a
		// table entry's parameter (an Entry would pass it to its body),
		// a slice of decorations for decorations.
		return []any{Label()}
	}
	// Without a shard of its own the spec changes the cluster's default
	// IngressController: every route of the cluster is disrupted.
	return []any{Serial, Disruptive}
}

// OwnIngressController gives the spec (or the Ordered container, when
// called in BeforeAll) an IngressController of its own, as
// cluster-ingress-operator's e2e tests do: a shard serving the namespaces
// labelled NamespaceLabels, published on this process's pair of node
// ports (HostNetwork strategy), or inside the cluster published Private
// and reached through its Service, deleted when the spec ends. Without
// either it is the default IngressController (declare the spec with
// OwnIngressControllerDecorator, which makes it Serial). changes are
// made to its spec: a shard is created with them (no second rollout), the
// default one is updated with them (and put back when the spec ends).
func (f *Framework) OwnIngressController(ctx context.Context, changes ...func(*operatorv1.IngressController)) *IngressController {
	GinkgoHelper()
	own := f.PendingIngressController(ctx)
	own.Start(ctx, changes...)
	return own
}

// PendingIngressController is OwnIngressController before its router
// exists: its name, the labels of the namespaces it is to serve and its
// addresses, for a spec that must first create what its spec names (a
// client CA ConfigMap for a namespace's CRL server): Start creates it
// with that spec, in one rollout. Its deletion is registered here, so it
// lasts as long as the spec or container that planned it, wherever Start
// is called.
func (f *Framework) PendingIngressController(ctx context.Context) *IngressController {
	GinkgoHelper()
	name, ports, hasPorts := f.nextShard()
	own := &IngressController{Name: name, NamespaceLabels: map[string]string{ShardLabel: name}, pending: true, f: f}
	if hasPorts {
		own.publish = &operatorv1.EndpointPublishingStrategy{
			Type:        operatorv1.HostNetworkStrategyType,
			HostNetwork: &operatorv1.HostNetworkStrategy{HTTPPort: ports.HTTPPort, HTTPSPort: ports.HTTPSPort, StatsPort: ports.StatsPort},
		}
		own.HTTPAddr, own.HTTPSAddr = ports.HTTPAddr, ports.HTTPSAddr
	} else if f.PrivateShards {
		// Inside the cluster: no node port at all, its router-internal
		// Service (cluster-ingress-operator makes one for every
		// IngressController).
		own.publish = &operatorv1.EndpointPublishingStrategy{Type: operatorv1.PrivateStrategyType}
		own.HTTPAddr, own.HTTPSAddr = InternalServiceAddr(name, 80), InternalServiceAddr(name, 443)
	} else {
		if !CurrentSpecReport().IsSerial {
			Fail("OwnIngressController: this profile has no IngressController for the spec alone, so it would change the default one while other specs run: declare the spec (or its container) with f.OwnIngressControllerDecorator(), which makes it Serial here")
		}
		def := f.DefaultIngressController()
		def.pending = true
		return def
	}
	// The shard of this name an earlier spec of this process deleted is
	// gone before this one is made: its ports and name are free, and its
	// router writes no status on this spec's routes.
	f.awaitShardDeleted(ctx, name)
	// Deleted when the spec (or container) ends; the next shard of this
	// name waits until it is gone. Nothing to wait for when Start was
	// never called.
	DeferCleanup(f.startShardDeletion, name)
	return own
}

// Start creates the pending IngressController with changes made to its
// spec and waits until its router answers; the default one is updated
// with them instead (and put back when the spec ends).
func (ic *IngressController) Start(ctx context.Context, changes ...func(*operatorv1.IngressController)) {
	GinkgoHelper()
	if !ic.pending {
		Fail(fmt.Sprintf("IngressController %s: Start called twice", ic.Name))
	}
	ic.pending = false
	f := ic.f
	if ic.Name == contract.DefaultIngressController {
		if len(changes) > 0 {
			ic.Update(ctx, func(live *operatorv1.IngressController) {
				for _, change := range changes {
					change(live)
				}
			})
		}
		return
	}
	spec := &operatorv1.IngressController{
		ObjectMeta: metav1.ObjectMeta{Name: ic.Name, Namespace: contract.OperatorNamespace},
		Spec: operatorv1.IngressControllerSpec{
			Domain:                     ic.Name + "." + f.Domain,
			Replicas:                   ptr.To[int32](1),
			NamespaceSelector:          &metav1.LabelSelector{MatchLabels: ic.NamespaceLabels},
			EndpointPublishingStrategy: ic.publish,
		},
	}
	for _, change := range changes {
		change(spec)
	}
	_, err := f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace).Create(ctx, spec, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create IngressController %s", ic.Name)
	ic.waitSettled(ctx)
	// Settled is the operator's word; the router's own answer (its
	// no-route 503) says the ports are live.
	f.Eventually(ctx, func(g Gomega) {
		resp, err := httpclient.Do(ctx, ic.HTTP("nothing."+f.Domain, "/"))
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(resp.Status).To(Equal(http.StatusServiceUnavailable))
	}).WithTimeout(f.Opts.Timeouts.PodReady).Should(Succeed(), "IngressController %s: its router's no-route answer at %s", ic.Name, ic.HTTPAddr)
}

// SharedIngressControllerDecorator is what a container that calls
// SharedIngressController is declared with: OwnIngressControllerDecorator's,
// Ordered (its specs share a BeforeAll), and ContinueOnFailure (a failure
// over one frontend does not hide the others').
func (f *Framework) SharedIngressControllerDecorator() []any {
	return append(f.OwnIngressControllerDecorator(), Ordered, ContinueOnFailure)
}

// SharedIngressController is OwnIngressController, created with changes,
// for every spec of the container it is called in (its body, at tree
// build): the returned IngressController is filled in by a BeforeAll
// before the first spec runs, and deleted after the last. Entries that
// need the same IngressController (one per frontend or termination) wait
// for one rollout instead of one each; each still makes its own namespace,
// backend and route. Declare the container with
// SharedIngressControllerDecorator (Ginkgo refuses a BeforeAll elsewhere).
func (f *Framework) SharedIngressController(changes ...func(*operatorv1.IngressController)) *IngressController {
	GinkgoHelper()
	shared := &IngressController{}
	BeforeAll(func(ctx SpecContext) { *shared = *f.OwnIngressController(ctx, changes...) })
	return shared
}

// AllowWildcardRoutes is an IngressController change:
// spec.routeAdmission.wildcardPolicy WildcardsAllowed (upstream's router:
// ROUTER_ALLOW_WILDCARD_ROUTES "true").
func AllowWildcardRoutes(ic *operatorv1.IngressController) {
	if ic.Spec.RouteAdmission == nil {
		ic.Spec.RouteAdmission = &operatorv1.RouteAdmissionPolicy{}
	}
	ic.Spec.RouteAdmission.WildcardPolicy = operatorv1.WildcardPolicyAllowed
}

// AllowInterNamespaceClaims is an IngressController change:
// spec.routeAdmission.namespaceOwnership InterNamespaceAllowed (upstream's
// router: ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK "true").
func AllowInterNamespaceClaims(ic *operatorv1.IngressController) {
	if ic.Spec.RouteAdmission == nil {
		ic.Spec.RouteAdmission = &operatorv1.RouteAdmissionPolicy{}
	}
	ic.Spec.RouteAdmission.NamespaceOwnership = operatorv1.InterNamespaceAllowedOwnershipCheck
}

// HTTP is a plain HTTP request for host through this IngressController.
func (ic *IngressController) HTTP(host, path string) httpclient.Request {
	return httpclient.Request{Addr: ic.HTTPAddr, Host: host, Path: path, Timeout: ic.f.Opts.Timeouts.Request}
}

// HTTPS is a TLS request for host through this IngressController.
func (ic *IngressController) HTTPS(host, path string) httpclient.Request {
	return httpclient.Request{Addr: ic.HTTPSAddr, HTTPS: true, Host: host, Path: path, Timeout: ic.f.Opts.Timeouts.Request}
}

// RequestTo is a request for path to the route through this
// IngressController, over what its termination takes: plain HTTP for an
// insecure route, TLS with SNI for the rest; for passthrough the client
// trusts the backend's CA, whose certificate reaches it (deploy the
// backend with DeployEchoFor and the route's host).
func (ic *IngressController) RequestTo(route *routev1.Route, backend *Echo, path string) httpclient.Request {
	if route.Spec.TLS == nil {
		return ic.HTTP(route.Spec.Host, path)
	}
	req := ic.HTTPS(route.Spec.Host, path)
	if route.Spec.TLS.Termination == routev1.TLSTerminationPassthrough {
		req.RootCAs = pki.Pool(backend.CA)
	}
	return req
}

// WaitAdmitted waits for the Admitted=True condition of this
// IngressController's router (named after it) on r.
func (ic *IngressController) WaitAdmitted(ctx context.Context, r *routev1.Route) {
	GinkgoHelper()
	ic.f.waitAdmittedBy(ctx, ic.Name, r)
}

// EventuallyRouteNotAdmitted waits until this IngressController's
// router has refused r with exactly reason and message.
func (ic *IngressController) EventuallyRouteNotAdmitted(ctx context.Context, r *routev1.Route, reason string, message any) {
	GinkgoHelper()
	ic.f.eventuallyRouteNotAdmittedBy(ctx, ic.Name, r, reason, message)
}

// Update changes the IngressController and waits until the change took
// effect (observed, rolled out, Available). The default one gets its
// previous spec back when the spec ends; a shard goes away anyway.
func (ic *IngressController) Update(ctx context.Context, change func(*operatorv1.IngressController)) {
	GinkgoHelper()
	if ic.pending {
		Fail(fmt.Sprintf("IngressController %s does not exist yet: Start it with the change instead (PendingIngressController)", ic.Name))
	}
	ics := ic.f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace)
	if ic.Name == contract.DefaultIngressController {
		// The spec exactly as stored, put back byte for byte: a typed
		// write of the same values would add the nulls of unset fields
		// (unsupportedConfigOverrides: null).
		previous, err := ic.storedSpec(ctx)
		Expect(err).NotTo(HaveOccurred(), "read IngressController %s", ic.Name)
		DeferCleanup(func(ctx SpecContext) {
			patch := append(append([]byte(`[{"op":"replace","path":"/spec","value":`), previous...), "}]"...)
			_, err := ics.Patch(ctx, ic.Name, types.JSONPatchType, patch, metav1.PatchOptions{})
			Expect(err).NotTo(HaveOccurred(), "restore IngressController %s", ic.Name)
			ic.waitSettled(ctx)
		})
	}
	_, err := Update(ctx, ics, ic.Name, change)
	Expect(err).NotTo(HaveOccurred(), "update IngressController %s", ic.Name)
	ic.waitSettled(ctx)
}

// storedSpec is the IngressController's spec as the API server stores it.
func (ic *IngressController) storedSpec(ctx context.Context) (json.RawMessage, error) {
	data, err := ic.f.Operator.OperatorV1().RESTClient().Get().
		Namespace(contract.OperatorNamespace).Resource("ingresscontrollers").Name(ic.Name).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	var obj struct {
		Spec json.RawMessage `json:"spec"`
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, err
	}
	if len(obj.Spec) == 0 {
		return nil, fmt.Errorf("IngressController %s has no spec", ic.Name)
	}
	return obj.Spec, nil
}

// waitSettled waits until the IngressController's current spec runs.
func (ic *IngressController) waitSettled(ctx context.Context) {
	GinkgoHelper()
	ic.f.Eventually(ctx, func(g Gomega) {
		live, err := ic.f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace).Get(ctx, ic.Name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(contract.IngressControllerSettled(live)).To(BeTrue(), "IngressController %s status: %+v", ic.Name, live.Status)
	}).WithTimeout(ic.f.Opts.Timeouts.PodReady).Should(Succeed(), func() string {
		// Worked out once, when the wait gives up: why its router is not
		// ready (image pull, crash loop, last log lines).
		ctx, cancel := ic.f.diagnosisContext(ctx)
		defer cancel()
		return DeploymentNotReadyReasons(ctx, ic.f.Clientset, contract.RouterNamespace, contract.RouterDeploymentName(ic.Name))
	})
}

// AddRequiredHSTSPolicies appends policies to the cluster's required HSTS
// policies, leaving the others as they are, and takes exactly these out
// again when the spec ends. A spec that scopes its policies to its own
// namespace (namespaceSelector) runs in parallel with the others.
func (f *Framework) AddRequiredHSTSPolicies(ctx context.Context, policies []configv1.RequiredHSTSPolicy) {
	GinkgoHelper()
	update := func(ctx context.Context, change func([]configv1.RequiredHSTSPolicy) []configv1.RequiredHSTSPolicy) {
		GinkgoHelper()
		_, err := Update(ctx, f.ConfigAPI.ConfigV1().Ingresses(), contract.IngressConfig, func(ing *configv1.Ingress) {
			ing.Spec.RequiredHSTSPolicies = change(ing.Spec.RequiredHSTSPolicies)
		})
		Expect(err).NotTo(HaveOccurred(), "update the required HSTS policies of Ingress %s", contract.IngressConfig)
	}
	update(ctx, func(live []configv1.RequiredHSTSPolicy) []configv1.RequiredHSTSPolicy {
		return append(live, policies...)
	})
	DeferCleanup(func(ctx SpecContext) {
		update(ctx, func(live []configv1.RequiredHSTSPolicy) []configv1.RequiredHSTSPolicy {
			return slices.DeleteFunc(live, func(p configv1.RequiredHSTSPolicy) bool {
				return slices.ContainsFunc(policies, func(mine configv1.RequiredHSTSPolicy) bool { return equality.Semantic.DeepEqual(p, mine) })
			})
		})
	})
}

// SetRequiredHSTSPolicies replaces the cluster's required HSTS policies
// with policies (none: an empty list) and puts the previous list back
// when the spec ends: for a Serial spec only, since it changes what every
// other spec's routes are checked against.
func (f *Framework) SetRequiredHSTSPolicies(ctx context.Context, policies []configv1.RequiredHSTSPolicy) {
	GinkgoHelper()
	ingresses := f.ConfigAPI.ConfigV1().Ingresses()
	live, err := ingresses.Get(ctx, contract.IngressConfig, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred(), "read Ingress %s", contract.IngressConfig)
	previous := live.Spec.RequiredHSTSPolicies
	set := func(ctx context.Context, to []configv1.RequiredHSTSPolicy) {
		GinkgoHelper()
		_, err := Update(ctx, ingresses, contract.IngressConfig, func(ing *configv1.Ingress) {
			ing.Spec.RequiredHSTSPolicies = to
		})
		Expect(err).NotTo(HaveOccurred(), "set the required HSTS policies of Ingress %s", contract.IngressConfig)
	}
	set(ctx, policies)
	DeferCleanup(func(ctx SpecContext) { set(ctx, previous) })
}

// DryRunRequiredHSTSPolicy asks the API server to take policy, raw JSON
// that may break the Ingress config's schema, as the cluster's only
// required HSTS policy, as a dry run (a merge patch of
// spec.requiredHSTSPolicies): nothing is stored, and the error is the
// API server's verdict on the policy.
func (f *Framework) DryRunRequiredHSTSPolicy(ctx context.Context, policy map[string]any) error {
	GinkgoHelper()
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"requiredHSTSPolicies": []any{policy}}})
	Expect(err).NotTo(HaveOccurred())
	_, err = f.ConfigAPI.ConfigV1().Ingresses().Patch(ctx, contract.IngressConfig, types.MergePatchType, patch, metav1.PatchOptions{DryRun: dryRun})
	return err
}

// AnnotateIngressConfig sets annotation key to value on the Ingress
// config "cluster" and removes it when the spec ends, for a spec
// declared Serial and Disruptive. The annotation is one the ingress
// operator renders into every router Deployment whose IngressController
// does not say otherwise (hard-stop-after): each change waits until the
// default IngressController's router has rolled it out, so that nothing
// of the spec runs while it is replaced, and no later spec after.
func (f *Framework) AnnotateIngressConfig(ctx context.Context, key, value string) {
	GinkgoHelper()
	set := func(ctx context.Context, value *string) {
		GinkgoHelper()
		router := f.routerGeneration(ctx, contract.DefaultIngressController)
		_, err := Update(ctx, f.ConfigAPI.ConfigV1().Ingresses(), contract.IngressConfig, func(ing *configv1.Ingress) {
			if value == nil {
				delete(ing.Annotations, key)
				return
			}
			if ing.Annotations == nil {
				ing.Annotations = map[string]string{}
			}
			ing.Annotations[key] = *value
		})
		Expect(err).NotTo(HaveOccurred(), "annotate Ingress %s with %s", contract.IngressConfig, key)
		f.waitRouterRolledOutPast(ctx, contract.DefaultIngressController, router)
	}
	set(ctx, &value)
	DeferCleanup(func(ctx SpecContext) { set(ctx, nil) })
}

// routerGeneration is the generation of IngressController name's router
// Deployment.
func (f *Framework) routerGeneration(ctx context.Context, name string) int64 {
	GinkgoHelper()
	d, err := f.Clientset.AppsV1().Deployments(contract.RouterNamespace).Get(ctx, contract.RouterDeploymentName(name), metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred(), "router Deployment of IngressController %s", name)
	return d.Generation
}

// waitRouterRolledOutPast waits until IngressController name's router
// Deployment has a generation past generation (the operator rendered a
// change) and every replica runs it.
func (f *Framework) waitRouterRolledOutPast(ctx context.Context, name string, generation int64) {
	GinkgoHelper()
	deployment := contract.RouterDeploymentName(name)
	f.Eventually(ctx, func(g Gomega) {
		d, err := f.Clientset.AppsV1().Deployments(contract.RouterNamespace).Get(ctx, deployment, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(d.Generation).To(BeNumerically(">", generation), "router Deployment %s: the operator has not rendered the change", deployment)
		want := ptr.Deref(d.Spec.Replicas, 1)
		s := d.Status
		g.Expect([]int64{s.ObservedGeneration, int64(s.UpdatedReplicas), int64(s.AvailableReplicas), int64(s.Replicas)}).To(Equal([]int64{d.Generation, int64(want), int64(want), int64(want)}),
			"router Deployment %s: observed generation, updated, available and all replicas", deployment)
	}).WithTimeout(f.Opts.Timeouts.PodReady).Should(Succeed(), func() string {
		ctx, cancel := f.diagnosisContext(ctx)
		defer cancel()
		return DeploymentNotReadyReasons(ctx, f.Clientset, contract.RouterNamespace, deployment)
	})
}
