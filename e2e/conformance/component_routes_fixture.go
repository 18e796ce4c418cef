package conformance

import (
	"crypto/tls"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
)

// describeFixtureComponent: the suite's fixture component on its own,
// judged through the API (its Route, its status entry), as
// cluster-authentication-operator's custom route controller behaves.
func describeFixtureComponent(f *framework.Framework) {
	Describe("the fixture component", func() {
		// Document: the custom route configuration enhancement, section
		// "Proposal" ("If an operator later reads the field, it will
		// eventually (but not necessarily immediately) honor the pre-existing
		// spec values")
		// Upstream: cluster-authentication-operator
		// pkg/controllers/customroute/custom_route_controller.go
		// (customRouteController.sync reads the spec entry on every pass, the
		// first included: getOAuthRouteAndSecretName; its informers list what
		// exists when it starts)
		It("honours a spec entry made before it starts: its Route moves to the custom host with the Secret's certificate", framework.ID("component-routes/component-early-spec-entry"), framework.JudgesPlatform, func(ctx SpecContext) {
			c := framework.NewComponentJig(ctx, f, "component-early")
			custom := f.Host(c.Namespace, "custom")
			secret, _ := c.ServingSecret(c.NewCA(), "component-cert-"+c.Namespace, custom)
			c.CreateConfigSecret(ctx, secret)
			DeferCleanup(func(ctx SpecContext) {
				Expect(c.Entries.UpdateSpec(ctx, nil)).To(Succeed(), "remove the spec entry of component %s/%s", c.Namespace, c.Operator.Name)
			})
			c.SetSpec(ctx, custom, secret.Name)

			By("positive control: with the entry but no component, the Route is on its default host without a certificate of its own, and there is no status entry")
			c.ExpectRoute(ctx, c.DefaultHost, nil)
			Expect(c.Status(ctx, Default)).To(BeNil())

			By("the component starts")
			c.Start(ctx)
			c.EventuallyRoute(ctx, custom, secret.Data[corev1.TLSCertKey])
			c.EventuallyAllWellAt(ctx, custom)
		})

		// Document: the custom route configuration enhancement, section
		// "Proposal" (ComponentRouteStatus conditions: "Degraded == true means
		// that something has gone wrong trying to handle the ComponentRoute")
		// Upstream: cluster-authentication-operator
		// pkg/controllers/customroute/custom_route_controller.go
		// (getOAuthRouteAndSecretName collects validateCustomTLSSecret's error:
		// the Secret lister's NotFound, or "error validating secret ...:
		// [custom route secret must include key tls.key]"; sync then updates
		// the status entry with it and leaves the route) and
		// custom_route_conditions.go (checkErrorsConfiguringCustomRoute:
		// Degraded True, Progressing False, CustomRouteError)
		It("leaves its Route where it is and reports Degraded in the authentication operator's words for a missing Secret or one without tls.key; the Secret fixed, the Route moves and Degraded clears", framework.ID("component-routes/component-degraded-bad-secret"), framework.JudgesPlatform, func(ctx SpecContext) {
			c := framework.DeployComponentJig(ctx, f, "component-degraded")
			custom := f.Host(c.Namespace, "custom")
			secret, _ := c.ServingSecret(c.NewCA(), "component-cert-"+c.Namespace, custom)
			By("positive control: all is well on the default host")
			c.EventuallyAllWellAt(ctx, c.DefaultHost)

			By("a Secret that does not exist")
			c.SetSpec(ctx, custom, secret.Name)
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				framework.ExpectCustomRouteError(g, e, contract.ComponentRouteErrorMessage(contract.ComponentRouteSecretNotFound(secret.Name)))
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.DefaultHost)))
			})
			c.ExpectRoute(ctx, c.DefaultHost, nil)

			By("a Secret without tls.key (Opaque: the API requires tls.key of a kubernetes.io/tls Secret; upstream does not look at the type)")
			noKey := secret.DeepCopy()
			noKey.Type = corev1.SecretTypeOpaque
			delete(noKey.Data, corev1.TLSPrivateKeyKey)
			c.CreateConfigSecret(ctx, noKey)
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				framework.ExpectCustomRouteError(g, e, contract.ComponentRouteErrorMessage(
					contract.ComponentRouteSecretInvalid(secret.Name, contract.ComponentRouteSecretMissingKey(corev1.TLSPrivateKeyKey))))
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.DefaultHost)))
			})
			c.ExpectRoute(ctx, c.DefaultHost, nil)

			By("positive control: the Secret fixed, the Route moves and Degraded clears")
			Expect(f.Clientset.CoreV1().Secrets(contract.ConfigNamespace).Delete(ctx, secret.Name, metav1.DeleteOptions{})).To(Succeed())
			c.CreateConfigSecret(ctx, secret)
			c.EventuallyRoute(ctx, custom, secret.Data[corev1.TLSCertKey])
			c.EventuallyAllWellAt(ctx, custom)
		})

		// Document: the custom route configuration enhancement, section
		// "Proposal" (ServingCertKeyPairSecret: "The serving cert/key pair
		// must match")
		// Upstream: cluster-authentication-operator
		// pkg/controllers/customroute/custom_route_controller.go
		// (getOAuthRouteAndSecretName: a Secret that fails validation leaves
		// the route, validateCustomTLSSecret's "error validating secret ...:
		// [...]"; sync then updates the status entry with it) and
		// custom_route_conditions.go (checkErrorsConfiguringCustomRoute);
		// the pair's match is the fixture's own check (upstream's
		// validateCustomTLSSecret parses each half alone; the OAuth server
		// it feeds would fail to load the pair), worded by crypto/tls
		// X509KeyPair (fixtures/componentoperator CheckServingSecret)
		It("leaves its Route where it is and reports Degraded for a Secret whose key is not its certificate's; the pair fixed, the Route moves with it", framework.ID("component-routes/component-degraded-mismatched-pair"), framework.JudgesPlatform, func(ctx SpecContext) {
			c := framework.DeployComponentJig(ctx, f, "component-mismatch")
			custom := f.Host(c.Namespace, "custom")
			ca := c.NewCA()
			secret, _ := c.ServingSecret(ca, "component-cert-"+c.Namespace, custom)
			other, _ := c.ServingSecret(ca, secret.Name, custom)
			mismatched := secret.DeepCopy()
			mismatched.Data[corev1.TLSPrivateKeyKey] = other.Data[corev1.TLSPrivateKeyKey]
			_, pairErr := tls.X509KeyPair(mismatched.Data[corev1.TLSCertKey], mismatched.Data[corev1.TLSPrivateKeyKey])
			Expect(pairErr).To(HaveOccurred(), "the two halves of the Secret must not be a pair")
			By("positive control: all is well on the default host")
			c.EventuallyAllWellAt(ctx, c.DefaultHost)

			By("a kubernetes.io/tls Secret whose tls.key belongs to another certificate")
			c.CreateConfigSecret(ctx, mismatched)
			c.SetSpec(ctx, custom, secret.Name)
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				framework.ExpectCustomRouteError(g, e, contract.ComponentRouteErrorMessage(
					contract.ComponentRouteSecretInvalid(secret.Name, contract.ComponentRouteSecretNotAPair(pairErr))))
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.DefaultHost)))
			})
			By("the pair is not on the Route: no router can present it for the custom host")
			c.ExpectRoute(ctx, c.DefaultHost, nil)

			By("positive control: the matching key, the Route moves with the pair and Degraded clears")
			_, err := framework.Update(ctx, f.Clientset.CoreV1().Secrets(contract.ConfigNamespace), secret.Name, func(live *corev1.Secret) { live.Data = secret.Data })
			Expect(err).NotTo(HaveOccurred(), "fix secret %s/%s", contract.ConfigNamespace, secret.Name)
			c.EventuallyRoute(ctx, custom, secret.Data[corev1.TLSCertKey])
			c.EventuallyAllWellAt(ctx, custom)
		})

		// Document: the custom route configuration enhancement, section
		// "Proposal" (IngressStatus.ComponentRoutes: "An operator must also
		// handle the case of deleted status without churn")
		// Upstream: cluster-authentication-operator
		// pkg/controllers/customroute/custom_route_controller.go
		// (NewCustomRouteController watches the Ingress config; each sync
		// applies the whole entry, updateIngressConfigStatus, a server-side
		// apply that changes nothing when the entry is there; a condition
		// keeps its lastTransitionTime while its status stays)
		It("writes its status entry back, with the same content, when someone deletes it, and then leaves it unchanged", framework.ID("component-routes/component-status-entry-restored"), framework.JudgesPlatform, func(ctx SpecContext) {
			c := framework.DeployComponentJig(ctx, f, "component-restore")
			var before configv1.ComponentRouteStatus
			By("positive control: the entry is published, all well")
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.DefaultHost)))
				framework.ExpectAsExpected(g, e)
				before = *e.DeepCopy()
			})

			By("the status entry deleted")
			Expect(c.Entries.UpdateStatus(ctx, nil)).To(Succeed(), "delete the status entry of component %s/%s", c.Namespace, c.Operator.Name)
			var restored configv1.ComponentRouteStatus
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(framework.WithoutTransitionTimes(*e)).To(Equal(framework.WithoutTransitionTimes(before)), "the restored entry's content")
				restored = *e.DeepCopy()
			})

			By("no churn: while nothing changes, the restored entry is not written again")
			f.Consistently(ctx, f.Opts.Timeouts.Converge, func(g Gomega) {
				e := c.Status(ctx, g)
				g.Expect(e).NotTo(BeNil(), "the status entry of %s/%s is gone again", c.Namespace, c.Operator.Name)
				g.Expect(*e).To(Equal(restored))
			}).Should(Succeed())
		})

		// A route the router does not admit on its custom host: an older
		// route of another namespace holds that host (contract/hostclaims.go).
		//
		// Document: the custom route configuration enhancement, section
		// "Proposal" (ComponentRouteStatus conditions: "If Progressing is
		// true, that means the component is taking some action related to
		// the componentRoutes entry")
		// Upstream: cluster-authentication-operator
		// pkg/controllers/customroute/custom_route_conditions.go
		// (checkIngressURI: Progressing True, RouteNotAdmitted, "Route not
		// admitted: " and library-go pkg/route/routeapihelpers IngressURI's
		// error; otherwise ensureDefaultConditions: AsExpected "All is well")
		It("reports Progressing while no router has admitted its moved Route on the custom host, and all well once one has", framework.ID("component-routes/component-progressing-until-admitted"), framework.JudgesPlatform, func(ctx SpecContext) {
			holderNS := f.SpecNamespace(ctx, "component-holder")
			custom := f.Host(holderNS, "custom")
			By("an older route of another namespace holds the custom host")
			holder := f.RouteTo(f.DeployEcho(ctx, holderNS), "holder", framework.EchoHTTPPort)
			holder.Spec.Host = custom
			holder.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
			holder = f.CreateRoute(ctx, holder)
			// The component's Route is made with the component: stamped in
			// the holder's second, the UIDs would decide which is older.
			f.WaitCreatedAfter(ctx, holder)

			c := framework.DeployComponentJig(ctx, f, "component-progress")
			secret, _ := c.ServingSecret(c.NewCA(), "component-cert-"+c.Namespace, custom)
			c.CreateConfigSecret(ctx, secret)
			By("positive control: all is well on the default host")
			c.EventuallyAllWellAt(ctx, c.DefaultHost)

			By("the spec entry: the component moves its Route, which the router refuses on the held host")
			c.SetSpec(ctx, custom, secret.Name)
			c.EventuallyRoute(ctx, custom, secret.Data[corev1.TLSCertKey])
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(custom)))
				framework.ExpectProgressing(g, e, contract.ComponentRouteReasonNotAdmitted, contract.ComponentRouteMessageNotAdmitted(custom, c.Route, c.Namespace))
			})

			By("the holder's route deleted: the router admits the Route, Progressing turns False, all well")
			f.DeleteRoute(ctx, holder)
			c.EventuallyAllWellAt(ctx, custom)
		})
	})
}
