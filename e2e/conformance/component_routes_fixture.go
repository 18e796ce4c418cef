package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
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
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(custom)))
				framework.ExpectAsExpected(g, e)
			})
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
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.DefaultHost)))
				framework.ExpectAsExpected(g, e)
			})

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
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(custom)))
				framework.ExpectAsExpected(g, e)
			})
		})
	})
}
