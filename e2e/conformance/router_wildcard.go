package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
)

// Wildcard (Subdomain) routes are the router's to admit or refuse, as
// the routeAdmission of its IngressController says
// (ROUTER_ALLOW_WILDCARD_ROUTES).
func describeWildcardAdmission(f *framework.Framework) {
	Describe("wildcard (Subdomain) routes", func() {
		// An IngressController with the default routeAdmission
		// (wildcardPolicy WildcardsDisallowed) has its router refuse a
		// route with wildcardPolicy Subdomain, in upstream's words
		// (contract/wildcard.go), and serve neither its host nor any other
		// under its parent; its status entry still names the route's
		// policy. A None route on the same IngressController, admitted and
		// served, is the positive control.
		//
		// Document: none (the Route API: spec.wildcardPolicy, openshift/api
		// route/v1 types.go; IngressController
		// spec.routeAdmission.wildcardPolicy, operator/v1
		// types_ingress.go: WildcardsDisallowed by default)
		// Upstream: openshift/router pkg/cmd/infra/router/router.go
		// (RouterSelection.RouteAdmissionFunc: "wildcard routes are not
		// allowed"), pkg/router/controller/host_admitter.go
		// (HostAdmitter.HandleRoute: RecordRouteRejection with reason
		// RouteNotAdmitted, the route deleted from the plugins below),
		// pkg/router/controller/status.go (recordIngressCondition: the
		// entry's wildcardPolicy is the route's), from cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go
		// (desiredRouterDeployment: ROUTER_ALLOW_WILDCARD_ROUTES "false"
		// unless WildcardsAllowed)
		It("are refused where the IngressController does not allow them, its default", framework.ID("router/wildcard-route-refused-by-default"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
			own := f.OwnIngressController(ctx)
			if own.Name == contract.DefaultIngressController {
				// No shard of its own: the cluster's default, back to the
				// default policy for this spec.
				own.Update(ctx, func(ic *operatorv1.IngressController) {
					if ic.Spec.RouteAdmission != nil {
						ic.Spec.RouteAdmission.WildcardPolicy = ""
					}
				})
			}
			ns := f.SpecNamespaceWithLabels(ctx, "wildcard-refused", own.NamespaceLabels)
			parent := ns + "." + f.Domain
			backend := f.DeployEcho(ctx, ns)
			none := f.RouteTo(backend, "none", framework.EchoHTTPPort)
			none.Spec.WildcardPolicy = routev1.WildcardPolicyNone
			none = f.CreateRouteNoWait(ctx, none)
			wild := f.RouteTo(backend, "wild", framework.EchoHTTPPort)
			wild.Spec.Host, wild.Spec.WildcardPolicy = "www."+parent, routev1.WildcardPolicySubdomain
			wild = f.CreateRouteNoWait(ctx, wild)

			By("positive control: the None route is admitted and served")
			own.WaitAdmitted(ctx, none)
			f.EventuallyResponds(ctx, own.HTTP(none.Spec.Host, "/"), backend.Served)

			By("the Subdomain route is refused: RouteNotAdmitted, " + contract.WildcardRoutesNotAllowed)
			own.EventuallyRouteNotAdmitted(ctx, wild, contract.ReasonRouteNotAdmitted, contract.WildcardRoutesNotAllowed)
			f.EventuallyRoute(ctx, wild, func(g Gomega, live *routev1.Route) {
				entry := framework.IngressEntry(live, own.Name)
				g.Expect(entry).NotTo(BeNil())
				g.Expect(entry.WildcardPolicy).To(Equal(routev1.WildcardPolicySubdomain), "entry of router %s: %+v", own.Name, *entry)
			})
			for _, host := range []string{wild.Spec.Host, "a." + parent} {
				By(host + ": not served")
				f.EventuallyResponds(ctx, own.HTTP(host, "/"), framework.NotServed)
			}
		})

		// Where wildcard routes are allowed, a wildcard route for
		// www.<parent> holds the whole subdomain for its namespace: a route
		// of another namespace for a host under it is refused
		// (HostAlreadyClaimed: the host admitter is unchanged, the
		// document's outcome 4 not chosen) and the wildcard route keeps
		// serving that host; a second wildcard route of the same
		// namespace under the same parent is refused too, while a plain
		// route of that namespace under it is admitted (the positive
		// control). Then namespaceOwnership InterNamespaceAllowed lifts
		// the namespace check: the other namespace's route is admitted and
		// served by its own backend. One IngressController for both specs,
		// in order.
		//
		// Document: the HSTS admission enhancement, sections "Continue to
		// enable HSTS per-route (retain the existing feature
		// functionality)" (a Subdomain route exclusively serves the hosts
		// of its parent; another route under it only from the same
		// namespace) and "Design Details" (test1 and test2 in namespaces
		// owner and notowner: HostAlreadyClaimed; not a second Subdomain
		// route; "Exceptions can be made by setting the IngressOperator's
		// routeAdmission.namespaceOwnership")
		// Upstream: openshift/router pkg/router/controller/host_admitter.go
		// (HostAdmitter.addRoute and displacedRoutes: claimedWildcards
		// keyed by the parent, "a route in another namespace holds host"
		// for another namespace, the full error within one;
		// disableNamespaceCheck), pkg/router/controller/host_admitter_test.go
		// (TestWildcardSubDomainOwnership), and cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go
		// (desiredRouterDeployment: ROUTER_ALLOW_WILDCARD_ROUTES,
		// ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK)
		Describe("a wildcard route's subdomain", Ordered, f.OwnIngressControllerDecorator(), func() {
			var (
				own                        *framework.IngressController
				parent                     string
				ownerBackend, otherBackend *framework.Echo
				wild, intruder             *routev1.Route
			)
			BeforeAll(func(ctx SpecContext) {
				own = f.OwnIngressController(ctx, framework.AllowWildcardRoutes)
				owner := f.SpecNamespaceWithLabels(ctx, "wildcard-owner", own.NamespaceLabels)
				other := f.SpecNamespaceWithLabels(ctx, "wildcard-other", own.NamespaceLabels)
				parent = owner + "." + f.Domain
				backends := f.DeployEchoes(ctx, framework.EchoIn(owner, "echo"), framework.EchoIn(other, "echo"))
				ownerBackend, otherBackend = backends[0], backends[1]
				wild = hostRoute(f, ownerBackend, "wild", "www."+parent, "")
				wild.Spec.WildcardPolicy = routev1.WildcardPolicySubdomain
				wild = f.CreateRouteNoWait(ctx, wild)
				own.WaitAdmitted(ctx, wild)
				f.WaitCreatedAfter(ctx, wild)
			})

			It("is held for the wildcard route's namespace", framework.ID("router/wildcard-route-holds-subdomain"), func(ctx SpecContext) {
				intruder = f.CreateRouteNoWait(ctx, hostRoute(f, otherBackend, "abc", "abc."+parent, ""))
				second := hostRoute(f, ownerBackend, "second-wild", "two."+parent, "")
				second.Spec.WildcardPolicy = routev1.WildcardPolicySubdomain
				second = f.CreateRouteNoWait(ctx, second)
				sibling := f.CreateRouteNoWait(ctx, hostRoute(f, ownerBackend, "sibling", "sib."+parent, ""))

				By("another namespace's route under the subdomain is refused: " + contract.WildcardHostHeldByAnotherNamespace(intruder.Spec.Host))
				own.EventuallyRouteNotAdmitted(ctx, intruder, contract.ReasonHostAlreadyClaimed, contract.WildcardHostHeldByAnotherNamespace(intruder.Spec.Host))
				By("a second wildcard route of the owner's namespace under the same parent is refused")
				own.EventuallyRouteNotAdmitted(ctx, second, contract.ReasonHostAlreadyClaimed,
					contract.WildcardRouteBlocksHost(wild.Namespace, wild.Name, parent, second.Spec.Host))
				By("positive control: a plain route of the owner's namespace under the subdomain is admitted")
				own.WaitAdmitted(ctx, sibling)
				By(intruder.Spec.Host + ": served by the wildcard route's backend, not the refused route's")
				f.EventuallyResponds(ctx, own.HTTP(intruder.Spec.Host, "/"), ownerBackend.Served)
			})

			It("lets another namespace's route under it in once namespaceOwnership is InterNamespaceAllowed", framework.ID("router/wildcard-route-inter-namespace-allowed"), func(ctx SpecContext) {
				own.Update(ctx, framework.AllowInterNamespaceClaims)
				By("the other namespace's route under the subdomain is admitted and served by its own backend")
				own.WaitAdmitted(ctx, intruder)
				f.EventuallyResponds(ctx, own.HTTP(intruder.Spec.Host, "/"), otherBackend.Served)
				By("positive control: the wildcard route still serves the rest of the subdomain")
				own.WaitAdmitted(ctx, wild)
				f.EventuallyResponds(ctx, own.HTTP("x."+parent, "/"), ownerBackend.Served)
			})
		})
	})
}
