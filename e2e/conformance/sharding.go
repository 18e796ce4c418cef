package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
)

// Sharding: IngressControllers with a namespaceSelector, each on its own
// ports, as cluster-ingress-operator deploys them.
func describeSharding(f *framework.Framework) {
	framework.DescribeFeature(contract.FeatureSharding, func() {
		// cluster-ingress-operator test/e2e/router_status_test.go
		// (TestIngressControllerNamespaceSelectorUpdateShouldClearRouteStatus
		// arranges it: a private IngressController with a namespaceSelector,
		// a namespace it selects and one it does not): a shard serves the
		// namespaces its selector picks, the default serves every namespace
		// (openshift/router NAMESPACE_LABELS).
		//
		// Document: none (IngressController sharding: spec.namespaceSelector,
		// documented in openshift/api operator/v1 types_ingresscontroller.go;
		// no seed design document covers it)
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go (desiredRouterDeployment:
		// NAMESPACE_LABELS from spec.namespaceSelector) and openshift/router
		// pkg/cmd/infra/router/router.go (--namespace-labels, NAMESPACE_LABELS:
		// the namespaces the router watches)
		It("a sharded IngressController serves only the namespaces it selects; the default serves them all", framework.ID("sharding/serves-selected-namespaces"), func(ctx SpecContext) {
			shard := f.OwnIngressController(ctx)
			if shard.Name == contract.DefaultIngressController {
				Skip("this profile cannot reach a new IngressController's ports")
			}
			inside := f.SpecNamespaceWithLabels(ctx, "shard-inside", shard.NamespaceLabels)
			outside := f.SpecNamespace(ctx, "shard-outside")
			b := f.DeployEchoes(ctx, framework.EchoIn(inside, "echo"), framework.EchoIn(outside, "echo"))
			in, out := b[0], b[1]
			inRoute := f.CreateRoute(ctx, f.RouteTo(in, "inside", framework.EchoHTTPPort))
			outRoute := f.CreateRoute(ctx, f.RouteTo(out, "outside", framework.EchoHTTPPort))

			By("positive control: the shard serves the route of its namespace")
			f.EventuallyResponds(ctx, shard.HTTP(inRoute.Spec.Host, "/"), in.Served)
			By("the shard does not serve a route outside its selector")
			f.EventuallyResponds(ctx, shard.HTTP(outRoute.Spec.Host, "/"), framework.NotServed)
			By("the default serves both")
			f.EventuallyResponds(ctx, f.HTTP(outRoute.Spec.Host, "/"), out.Served)
			f.EventuallyResponds(ctx, f.HTTP(inRoute.Spec.Host, "/"), in.Served)
		})

		// A shard with a routeSelector, in a namespace it watches: the
		// labelled route is served by it (the positive control); the route
		// without the label gets the shard's no-route 503 and no status
		// entry from it, while the default router serves it.
		//
		// Document: none (IngressController sharding: spec.routeSelector,
		// documented in openshift/api operator/v1 types_ingresscontroller.go;
		// no seed design document covers it)
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go (desiredRouterDeployment:
		// ROUTE_LABELS from spec.routeSelector) and openshift/router
		// pkg/cmd/infra/router/router.go (--labels, ROUTE_LABELS: the routes
		// the router watches), as openshift/origin
		// test/extended/router/scoped.go ("should serve the correct routes
		// when scoped to a single namespace and label set") checks them
		It("a shard with a routeSelector does not serve a route of its namespaces that lacks the label", framework.ID("sharding/route-selector-unlabelled-not-served"), func(ctx SpecContext) {
			selected := map[string]string{"router-conformance/route": "selected"}
			shard := f.OwnIngressController(ctx, func(ic *operatorv1.IngressController) {
				ic.Spec.RouteSelector = &metav1.LabelSelector{MatchLabels: selected}
			})
			if shard.Name == contract.DefaultIngressController {
				Skip("this profile cannot reach a new IngressController's ports")
			}
			ns := f.SpecNamespaceWithLabels(ctx, "shard-routes", shard.NamespaceLabels)
			backend := f.DeployEcho(ctx, ns)
			labelled := f.RouteTo(backend, "labelled", framework.EchoHTTPPort)
			labelled.Labels = selected
			labelled = f.CreateRoute(ctx, labelled)
			unlabelled := f.CreateRoute(ctx, f.RouteTo(backend, "unlabelled", framework.EchoHTTPPort))

			By("positive control: the shard admits and serves the labelled route")
			shard.WaitAdmitted(ctx, labelled)
			f.EventuallyResponds(ctx, shard.HTTP(labelled.Spec.Host, "/"), backend.Served)
			By("the route without the label: the shard's no-route 503, the default's backend")
			f.EventuallyResponds(ctx, shard.HTTP(unlabelled.Spec.Host, "/"), framework.NotServed)
			f.EventuallyResponds(ctx, f.HTTP(unlabelled.Spec.Host, "/"), backend.Served)
			f.EventuallyRoute(ctx, unlabelled, func(g Gomega, live *routev1.Route) {
				g.Expect(framework.IngressEntry(live, shard.Name)).To(BeNil(), "the shard wrote an entry on a route it does not select")
			})
		})

		// Deleting a shard removes its entry from the routes it had
		// admitted, once its router is gone; the default router's entry
		// stays (the positive control: the route keeps being served).
		//
		// Document: none (IngressController sharding, documented in
		// openshift/api operator/v1 types_ingresscontroller.go; no seed
		// design document covers it)
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/ingress/controller.go (ensureIngressDeleted,
		// under the finalizer ingresscontroller.operator.openshift.io/finalizer-ingresscontroller)
		// and router_status.go (clearAllRoutesStatusForIngressController),
		// test/e2e/router_status_test.go
		// (TestDeleteIngressControllerShouldClearRouteStatus)
		It("a deleted shard's entry leaves the status of the routes it admitted", framework.ID("sharding/deleted-shard-status-cleared"), framework.JudgesPlatform, func(ctx SpecContext) {
			shard := f.OwnIngressController(ctx)
			if shard.Name == contract.DefaultIngressController {
				Skip("this profile cannot reach a new IngressController's ports")
			}
			ns := f.SpecNamespaceWithLabels(ctx, "shard-deleted", shard.NamespaceLabels)
			route := f.CreateRoute(ctx, f.RouteTo(f.ServiceWithoutPods(ctx, ns), "r", framework.EchoHTTPPort))
			By("positive control: the shard and the default both admit the route")
			shard.WaitAdmitted(ctx, route)

			shard.Delete(ctx)
			By("the shard's entry is gone; the default's stays")
			f.EventuallyRoute(ctx, route, func(g Gomega, live *routev1.Route) {
				g.Expect(framework.IngressEntry(live, shard.Name)).To(BeNil(), "entries: %+v", live.Status.Ingress)
				g.Expect(framework.Admitted(live)).To(Equal(corev1.ConditionTrue), "the default router's entry")
			})
		})

		// cluster-ingress-operator test/e2e/router_status_test.go,
		// TestIngressControllerNamespaceSelectorUpdateShouldClearRouteStatus
		// and TestIngressControllerRouteSelectorUpdateShouldClearRouteStatus:
		// a router cannot take back its status entry from a route it stops
		// selecting, so the operator clears it once the change has rolled
		// out (pkg/operator/controller/ingress/router_status.go). Status
		// only, as upstream's tests check it: the routes need no backend.
		// Each change is two specs: the clearing is the ingress operator's
		// (on kind, the reference operator's: judges:platform); the entry
		// the shard's router writes on a route it now selects is the
		// router's. Ordered, the operator's first: its spec makes the
		// change, and one that fails skips the router's spec.
		// Two IngressControllers never share a domain: the one admitted
		// first keeps it, and another on it is not admitted (so it gets no
		// router). The other is Private with a selector that picks no
		// namespace, so an operator that admitted it anyway would publish
		// nothing and serve nothing.
		//
		// Document: none (IngressController spec.domain, documented in
		// openshift/api operator/v1 types_ingresscontroller.go; no seed
		// design document covers it)
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/ingress/controller.go (validate:
		// validateDomainUniqueness, "conflicts with: <name>"; admit:
		// Admitted False, reason Invalid) and test/e2e/operator_test.go
		// (TestUniqueDomainRejection)
		It("does not admit an IngressController on the domain an admitted one has", framework.ID("sharding/domain-in-use-not-admitted"), framework.JudgesPlatform, func(ctx SpecContext) {
			shard := f.OwnIngressController(ctx)
			if shard.Name == contract.DefaultIngressController {
				Skip("needs an IngressController of its own: this profile cannot reach a new IngressController's ports")
			}
			ics := f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace)
			admittedCondition := func(g Gomega, name string) operatorv1.OperatorCondition {
				live, err := ics.Get(ctx, name, metav1.GetOptions{})
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(live.Status.ObservedGeneration).To(Equal(live.Generation), "the operator has not observed %s", name)
				for _, c := range live.Status.Conditions {
					if c.Type == contract.IngressControllerAdmittedCondition {
						return c
					}
				}
				g.Expect(live.Status.Conditions).To(ContainElement(HaveField("Type", contract.IngressControllerAdmittedCondition)), "no Admitted condition on %s", name)
				return operatorv1.OperatorCondition{}
			}
			By("positive control: the shard, on a domain of its own, is admitted")
			domain := shard.Domain(ctx)
			f.Eventually(ctx, func(g Gomega) {
				g.Expect(admittedCondition(g, shard.Name)).To(HaveField("Status", operatorv1.ConditionTrue))
			}).Should(Succeed())

			By("another IngressController on the shard's domain: Admitted False, reason Invalid, " + contract.DomainConflictRejection(shard.Name))
			dup := &operatorv1.IngressController{
				ObjectMeta: metav1.ObjectMeta{Name: shard.Name + "-dup", Namespace: contract.OperatorNamespace},
				Spec: operatorv1.IngressControllerSpec{
					Domain:                     domain,
					EndpointPublishingStrategy: &operatorv1.EndpointPublishingStrategy{Type: operatorv1.PrivateStrategyType},
					NamespaceSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{"router-conformance/no-namespace": shard.Name}},
				},
			}
			_, err := ics.Create(ctx, dup, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(func(ctx SpecContext) {
				if err := ics.Delete(ctx, dup.Name, metav1.DeleteOptions{}); !apierrors.IsNotFound(err) {
					Expect(err).NotTo(HaveOccurred())
				}
				f.Eventually(ctx, func(g Gomega) {
					_, err := ics.Get(ctx, dup.Name, metav1.GetOptions{})
					g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "IngressController %s still there (err %v)", dup.Name, err)
				}).WithTimeout(f.Opts.Timeouts.PodReady).Should(Succeed())
			})
			f.Eventually(ctx, func(g Gomega) {
				g.Expect(admittedCondition(g, dup.Name)).To(And(
					HaveField("Status", operatorv1.ConditionFalse),
					HaveField("Reason", contract.ReasonIngressControllerInvalid),
					HaveField("Message", contract.DomainConflictRejection(shard.Name))))
			}).Should(Succeed())
			By("the shard keeps its domain, admitted")
			Expect(admittedCondition(Default, shard.Name)).To(HaveField("Status", operatorv1.ConditionTrue))
		})

		Describe("a selector change", func() {
			describeSelectorChange(f, namespaceSelectorChange, "sharding/namespace-selector-change", "sharding/namespace-selector-change-admitted")
			describeSelectorChange(f, routeSelectorChange, "sharding/route-selector-change", "sharding/route-selector-change-admitted")
		})
	})
}

// describeSelectorChange is one selector change of a shard: the routes
// it no longer selects lose its status entry (the operator, clearedID);
// the routes it now selects gain one and are served by it, and those it
// deselected are served no more (the router, admittedID).
func describeSelectorChange(f *framework.Framework, change selectorChange, clearedID, admittedID string) {
	Describe(string(change), Ordered, func() {
		var (
			shard              *framework.IngressController
			next               map[string]string
			oldRoute, newRoute *routev1.Route
			oldEcho, newEcho   *framework.Echo
		)
		BeforeAll(func(ctx SpecContext) {
			shard = f.OwnIngressController(ctx)
			if shard.Name == contract.DefaultIngressController {
				Skip("this profile cannot reach a new IngressController's ports")
			}
			next = map[string]string{"router-conformance/next-shard": shard.Name}
			newNSLabels := shard.NamespaceLabels
			if change == namespaceSelectorChange {
				newNSLabels = next
			}
			oldNS, newNS := f.SpecNamespaceWithLabels(ctx, "shard-old", shard.NamespaceLabels), f.SpecNamespaceWithLabels(ctx, "shard-new", newNSLabels)
			if change == routeSelectorChange {
				By("the shard selects the routes labelled as the old one")
				shard.Update(ctx, func(ic *operatorv1.IngressController) {
					ic.Spec.RouteSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"router-conformance/route": "old"}}
				})
			}
			echoes := f.DeployEchoes(ctx, framework.EchoIn(oldNS, "echo"), framework.EchoIn(newNS, "echo"))
			oldEcho, newEcho = echoes[0], echoes[1]
			routeTo := func(e *framework.Echo, label string) *routev1.Route {
				GinkgoHelper()
				r := f.RouteTo(e, "r", framework.EchoHTTPPort)
				r.Labels = map[string]string{"router-conformance/route": label}
				return f.CreateRoute(ctx, r)
			}
			oldRoute, newRoute = routeTo(oldEcho, "old"), routeTo(newEcho, "new")
		})
		admitted := func(ctx SpecContext, r *routev1.Route, want corev1.ConditionStatus) {
			GinkgoHelper()
			f.EventuallyRoute(ctx, r, func(g Gomega, live *routev1.Route) {
				g.Expect(framework.AdmittedBy(live, shard.Name)).To(Equal(want), "entry of router %s on route %s/%s: %+v", shard.Name, r.Namespace, r.Name, live.Status.Ingress)
				g.Expect(framework.Admitted(live)).To(Equal(corev1.ConditionTrue), "the default router's entry stays")
			})
		}

		// Document: none (IngressController sharding: spec.namespaceSelector
		// and spec.routeSelector, documented in openshift/api operator/v1
		// types_ingresscontroller.go; no seed design document covers it)
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/ingress/router_status.go (syncRouteStatus:
		// once the rollout is complete, clearRoutesNotAdmittedByIngress and
		// clearRouteStatus remove the IngressController's entry from the
		// routes its selectors no longer pick)
		It("clears the shard's status entry from the routes it no longer selects", framework.ID(clearedID), framework.JudgesPlatform, func(ctx SpecContext) {
			By("positive control: the shard admits the route it selects, and has no entry on the other")
			admitted(ctx, oldRoute, corev1.ConditionTrue)
			admitted(ctx, newRoute, corev1.ConditionUnknown)

			shard.Update(ctx, func(ic *operatorv1.IngressController) {
				if change == namespaceSelectorChange {
					ic.Spec.NamespaceSelector = &metav1.LabelSelector{MatchLabels: next}
				} else {
					ic.Spec.RouteSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"router-conformance/route": "new"}}
				}
			})
			By("the route no longer selected loses the shard's entry")
			admitted(ctx, oldRoute, corev1.ConditionUnknown)
		})

		// The shard's router, rolled out with the new selector, writes its
		// own Admitted entry on the route it now selects.
		//
		// Document: none (IngressController sharding: spec.namespaceSelector
		// and spec.routeSelector, documented in openshift/api operator/v1
		// types_ingresscontroller.go; no seed design document covers it)
		// Upstream: openshift/router pkg/cmd/infra/router/router.go
		// (NAMESPACE_LABELS, ROUTE_LABELS: what the router watches) and
		// pkg/router/controller/status.go (StatusAdmitter.HandleRoute: the
		// router's Admitted entry), from cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go
		// (desiredRouterDeployment)
		// On the wire: the shard serves the route it now selects and gives
		// its no-route answer for the one it no longer selects, which the
		// default router still serves (the backend is alive).
		It("has the shard admit and serve the routes it now selects, and no longer serve those it deselected", framework.ID(admittedID), func(ctx SpecContext) {
			By("the newly selected route is admitted and served by the shard")
			admitted(ctx, newRoute, corev1.ConditionTrue)
			f.EventuallyResponds(ctx, shard.HTTP(newRoute.Spec.Host, "/"), newEcho.Served)
			By("the deselected route gets the shard's no-route answer; positive control: the default router serves it")
			f.EventuallyResponds(ctx, shard.HTTP(oldRoute.Spec.Host, "/"), framework.NotServed)
			f.EventuallyResponds(ctx, f.HTTP(oldRoute.Spec.Host, "/"), oldEcho.Served)
		})
	})
}

// selectorChange is which selector of a shard a spec changes.
type selectorChange string

const (
	namespaceSelectorChange selectorChange = "namespaceSelector"
	routeSelectorChange     selectorChange = "routeSelector"
)
