package conformance

import (
	"context"
	"crypto/x509"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// The custom route configuration enhancement (custom-route-configuration),
// sections "Proposal" and "Control loop to manage secret read permissions
// in openshift-config": a cluster-admin gives a component's route a custom
// host name and serving certificate through the Ingress config; the
// ingress operator grants the component's service accounts read access to
// exactly that Secret; the component moves its route.
//
// Each spec judges one thing, and says which:
//   - the ingress operator (judges:platform): the Roles and RoleBindings
//     of cluster-ingress-operator's configurable-route controller
//     (pkg/operator/controller/configurable-route/controller.go). These
//     specs play the component (they write its status entry), as
//     cluster-ingress-operator's test/e2e/configurable_route_test.go does;
//   - the Ingress config CRD (judges:platform): what consumingUsers admits;
//   - the suite's fixture component (judges:platform): its status entry,
//     its Route, Degraded. It follows cluster-authentication-operator's
//     custom route controller (pkg/controllers/customroute/
//     custom_route_controller.go, customRouteController.sync), and these
//     specs look at the Route and the status entry through the API only;
//   - the router (no label): the custom host served with the Secret's
//     certificate, the old host no more. Those specs come after the
//     fixture's in an Ordered container, so a fixture that fails skips
//     them rather than failing them.
//
// The Ingress config is one for the cluster, but each spec touches only
// the entries of its own namespace: they run in parallel.
func describeComponentRoutes(f *framework.Framework) {
	// Every spec writes entries of the cluster's Ingress config (its own,
	// removed when it ends): Disruptive on a cluster the suite did not
	// make.
	framework.DescribeFeature(contract.FeatureComponentRoutes, framework.Disruptive, func() {
		describeComponentRouteRBAC(f)

		// The pinned openshift/api CRD: consumingUsers are service accounts,
		// at most five.
		//
		// Document: the custom route configuration enhancement, section
		// "Proposal" (ComponentRouteStatus.ConsumingUsers, "usually an operator
		// service account"; "Validation rules to be specified in the
		// openshift/api PR")
		// Upstream: openshift/api config/v1/types_ingress.go (ConsumingUser's
		// pattern ^system:serviceaccount:..., consumingUsers' MaxItems=5: the
		// Ingress CRD schema)
		DescribeTable("refuses consuming users the CRD does not allow", framework.JudgesPlatform,
			func(ctx SpecContext, users []configv1.ConsumingUser, want contract.Refusal) {
				ns := f.SpecNamespace(ctx, "component-invalid")
				jig := framework.NewComponentRouteJig(f, ns)
				route := jig.Route("console", "cert")
				By("positive control: one service account is admitted")
				jig.Set(ctx, route.Spec(), route.Status(configv1.ConsumingUser("system:serviceaccount:"+ns+":component")))
				err := jig.UpdateStatus(ctx, route.Status(users...))
				framework.ExpectRefusal(Default, err, want)
			},
			Entry("a user that is no service account", framework.ID("component-routes/refuse-non-service-account"), []configv1.ConsumingUser{"system:admin"}, contract.ComponentRouteConsumingUserPattern),
			Entry("six users", framework.ID("component-routes/refuse-six-users"), []configv1.ConsumingUser{
				"system:serviceaccount:a:a", "system:serviceaccount:a:b", "system:serviceaccount:a:c",
				"system:serviceaccount:a:d", "system:serviceaccount:a:e", "system:serviceaccount:a:f",
			}, contract.ComponentRouteConsumingUsersOverLimit),
		)

		describeFixtureComponent(f)
		describeComponentRouteMove(f)
	})
}

// describeComponentRouteRBAC: the ingress operator's Roles and RoleBindings
// (cluster-ingress-operator pkg/operator/controller/configurable-route/
// controller.go), each spec in a namespace of its own with the entries it
// writes as the component would.
func describeComponentRouteRBAC(f *framework.Framework) {
	Describe("the ingress operator", func() {
		// As upstream's TestConfigurableRouteRBAC checks it: a Role and a
		// RoleBinding per entry, the Role's one rule.
		//
		// Document: the custom route configuration enhancement, section "Control loop to
		// manage secret read permissions in openshift-config"
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/configurable-route/controller.go
		// (ensureServiceCertKeyPairSecretRole: get/list/watch on the named
		// Secret; ensureServiceCertKeyPairSecretRoleBinding: the consuming
		// users); test/e2e/configurable_route_test.go (TestConfigurableRouteRBAC)
		It("grants the consuming service accounts read access to exactly the named Secret", framework.ID("component-routes/rbac-named-secret-only"), framework.JudgesPlatform, func(ctx SpecContext) {
			jig, route := rbacComponentRoute(ctx, f, "component")
			By("an entry in spec and status with two consuming users: one Role and one RoleBinding")
			jig.Set(ctx, route.Spec(), route.Status(jig.User("component"), jig.User("helper")))
			grant := jig.EventuallyGrant(ctx, route, "component", "helper")
			Expect(grant.Role.Rules).To(Equal([]rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "watch"}, ResourceNames: []string{route.Secret}}}))

			By("the permission is real (positive control: the named Secret, to both users): exactly that Secret, in openshift-config only")
			jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, route.Secret, true)
			jig.ExpectAccess(ctx, "helper", contract.ConfigNamespace, route.Secret, true)
			jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, "another-secret", false)
			jig.ExpectAccess(ctx, "component", route.Namespace, route.Secret, false)
			jig.ExpectAccess(ctx, "unlisted", contract.ConfigNamespace, route.Secret, false)
		})

		// TestConfigurableRouteRBAC changes consumingUsers the other way.
		//
		// Document: the custom route configuration enhancement, section "Control loop to
		// manage secret read permissions in openshift-config"
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/configurable-route/controller.go
		// (ensureServiceCertKeyPairSecretRoleBinding, whose ApplyRoleBinding
		// sets the subjects of the RoleBinding it has)
		It("grants a consuming user added to status, keeping the Role", framework.ID("component-routes/rbac-user-added"), framework.JudgesPlatform, func(ctx SpecContext) {
			jig, route := rbacComponentRoute(ctx, f, "component-add")
			jig.Set(ctx, route.Spec(), route.Status(jig.User("component")))
			before := jig.EventuallyGrant(ctx, route, "component")
			By("positive control: the listed user may read the Secret, the other may not yet")
			jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, route.Secret, true)
			jig.ExpectAccess(ctx, "helper", contract.ConfigNamespace, route.Secret, false)

			By("a second consuming user in status")
			jig.Set(ctx, route.Spec(), route.Status(jig.User("component"), jig.User("helper")))
			after := jig.EventuallyGrant(ctx, route, "component", "helper")
			Expect(after.Role.UID).To(Equal(before.Role.UID), "the Role is kept: only the RoleBinding's subjects change")
			jig.ExpectAccess(ctx, "helper", contract.ConfigNamespace, route.Secret, true)
			jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, route.Secret, true)
		})

		// Document: the custom route configuration enhancement, section "Control loop to
		// manage secret read permissions in openshift-config"
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/configurable-route/controller.go
		// (ensureServiceCertKeyPairSecretRoleBinding: the subjects are the
		// status entry's consuming users); test/e2e/configurable_route_test.go
		// (TestConfigurableRouteRBAC: "Remove the bar consumingUser from the foo
		// componentRoute and check that the roleBinding is updated")
		It("takes the grant from a consuming user removed from status, and only from it", framework.ID("component-routes/rbac-user-removed"), framework.JudgesPlatform, func(ctx SpecContext) {
			jig, route := rbacComponentRoute(ctx, f, "component-remove")
			jig.Set(ctx, route.Spec(), route.Status(jig.User("component"), jig.User("helper")))
			jig.EventuallyGrant(ctx, route, "component", "helper")
			By("positive control: both users may read the Secret")
			jig.ExpectAccess(ctx, "helper", contract.ConfigNamespace, route.Secret, true)

			By("one consuming user removed from status")
			jig.Set(ctx, route.Spec(), route.Status(jig.User("component")))
			jig.EventuallyGrant(ctx, route, "component")
			jig.ExpectAccess(ctx, "helper", contract.ConfigNamespace, route.Secret, false)
			jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, route.Secret, true)
		})

		// Document: the custom route configuration enhancement, section "Control loop to
		// manage secret read permissions in openshift-config"
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/configurable-route/controller.go
		// (ensureServiceCertKeyPairSecretRole, which applies the rule naming
		// spec's Secret to the Role it has, under its name:
		// resourceapply.ApplyRole)
		It("moves the Role's resourceNames to a Secret renamed in spec, keeping the Role", framework.ID("component-routes/rbac-secret-renamed"), framework.JudgesPlatform, func(ctx SpecContext) {
			jig, route := rbacComponentRoute(ctx, f, "component-rename")
			jig.Set(ctx, route.Spec(), route.Status(jig.User("component")))
			before := jig.EventuallyGrant(ctx, route, "component")
			By("positive control: the first Secret may be read")
			jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, route.Secret, true)

			By("the spec names another Secret")
			renamed := route
			renamed.Secret = route.Secret + "-renamed"
			jig.Set(ctx, renamed.Spec(), route.Status(jig.User("component")))
			f.Eventually(ctx, func(g Gomega) {
				after := jig.CurrentGrant(ctx, g, route, "component")
				g.Expect(after.Role.Rules).To(HaveLen(1))
				g.Expect(after.Role.Rules[0].ResourceNames).To(Equal([]string{renamed.Secret}))
				g.Expect(after.Role.UID).To(Equal(before.Role.UID), "the Role is kept, its rule changed")
			}).Should(Succeed())
			jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, renamed.Secret, true)
			jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, route.Secret, false)
		})

		// Document: the custom route configuration enhancement, section "Control loop to
		// manage secret read permissions in openshift-config"
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/configurable-route/controller.go
		// (deleteOrphanedRoles deletes by hash only, and the RoleBinding goes
		// with its owner); test/e2e/configurable_route_test.go
		// (TestConfigurableRouteRBAC: "Remove the `bar` componentRoute from
		// the ingress spec and check that the related role and roleBinding
		// are deleted")
		It("removes the Role and RoleBinding of an entry removed from spec, and leaves the other entries' alone", framework.ID("component-routes/rbac-entry-removed"), framework.JudgesPlatform, func(ctx SpecContext) {
			jig, console := rbacComponentRoute(ctx, f, "component-entries")
			downloads := console
			downloads.Name, downloads.Secret = "downloads", console.Secret+"-downloads"
			jig.Set(ctx, append(console.Spec(), downloads.Spec()...),
				append(console.Status(jig.User("component")), downloads.Status(jig.User("helper"))...))
			kept := jig.EventuallyGrant(ctx, console, "component")
			jig.EventuallyGrant(ctx, downloads, "helper")
			By("positive control: both entries' grants are real")
			jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, console.Secret, true)
			jig.ExpectAccess(ctx, "helper", contract.ConfigNamespace, downloads.Secret, true)

			By("the downloads entry removed from spec")
			jig.Set(ctx, console.Spec(), append(console.Status(jig.User("component")), downloads.Status(jig.User("helper"))...))
			jig.EventuallyNoGrant(ctx, downloads)
			jig.ExpectAccess(ctx, "helper", contract.ConfigNamespace, downloads.Secret, false)
			By("the console entry's Role and RoleBinding are the same objects, not written since")
			now := jig.CurrentGrant(ctx, Default, console, "component")
			Expect(now.Role.UID).To(Equal(kept.Role.UID))
			Expect(now.Role.ResourceVersion).To(Equal(kept.Role.ResourceVersion), "the Role was written")
			Expect(now.Binding.UID).To(Equal(kept.Binding.UID))
			Expect(now.Binding.ResourceVersion).To(Equal(kept.Binding.ResourceVersion), "the RoleBinding was written")
			jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, console.Secret, true)
		})

		// Document: the custom route configuration enhancement, section "Control loop to
		// manage secret read permissions in openshift-config"
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/configurable-route/controller.go
		// (New watches the labelled Roles and RoleBindings: source.Kind with
		// the component-route-hash predicate; each reconcile applies them
		// again: ensureServiceCertKeyPairSecretRole creates a Role when none is
		// labelled, a deleted Role's RoleBinding going with it by its owner
		// reference, or applies the rule to it, resourceapply.ApplyRole; and
		// ensureServiceCertKeyPairSecretRoleBinding applies the subjects,
		// resourceapply.ApplyRoleBinding)
		DescribeTable("restores its grant when someone changes it", framework.JudgesPlatform,
			func(ctx SpecContext, change func(ctx context.Context, g framework.ComponentRouteGrant)) {
				jig, route := rbacComponentRoute(ctx, f, "component-heal")
				jig.Set(ctx, route.Spec(), route.Status(jig.User("component")))
				g := jig.EventuallyGrant(ctx, route, "component")
				By("positive control: the grant is real")
				jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, route.Secret, true)
				change(ctx, g)
				f.Eventually(ctx, func(gm Gomega) {
					now := jig.CurrentGrant(ctx, gm, route, "component")
					gm.Expect(now.Role.Rules).To(Equal([]rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "watch"}, ResourceNames: []string{route.Secret}}}))
				}).Should(Succeed())
				jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, route.Secret, true)
				jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, "another-secret", false)
				jig.ExpectAccess(ctx, "intruder", contract.ConfigNamespace, route.Secret, false)
			},
			Entry("a deleted RoleBinding comes back", framework.ID("component-routes/rbac-deleted-binding-restored"), func(ctx context.Context, g framework.ComponentRouteGrant) {
				Expect(f.Clientset.RbacV1().RoleBindings(contract.ConfigNamespace).Delete(ctx, g.Binding.Name, metav1.DeleteOptions{})).To(Succeed())
			}),
			Entry("a deleted Role comes back, with its RoleBinding", framework.ID("component-routes/rbac-deleted-role-restored"), func(ctx context.Context, g framework.ComponentRouteGrant) {
				Expect(f.Clientset.RbacV1().Roles(contract.ConfigNamespace).Delete(ctx, g.Role.Name, metav1.DeleteOptions{})).To(Succeed())
			}),
			Entry("a rule naming another Secret too is restored", framework.ID("component-routes/rbac-widened-rule-restored"), func(ctx context.Context, g framework.ComponentRouteGrant) {
				_, err := framework.Update(ctx, f.Clientset.RbacV1().Roles(contract.ConfigNamespace), g.Role.Name, func(role *rbacv1.Role) {
					role.Rules[0].ResourceNames = append(role.Rules[0].ResourceNames, "another-secret")
				})
				Expect(err).NotTo(HaveOccurred(), "tamper with Role %s/%s", contract.ConfigNamespace, g.Role.Name)
			}),
			Entry("a subject added to the RoleBinding is removed", framework.ID("component-routes/rbac-added-subject-removed"), func(ctx context.Context, g framework.ComponentRouteGrant) {
				_, err := framework.Update(ctx, f.Clientset.RbacV1().RoleBindings(contract.ConfigNamespace), g.Binding.Name, func(b *rbacv1.RoleBinding) {
					b.Subjects = append(b.Subjects, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "intruder", Namespace: g.Binding.Subjects[0].Namespace})
				})
				Expect(err).NotTo(HaveOccurred(), "tamper with RoleBinding %s/%s", contract.ConfigNamespace, g.Binding.Name)
			}),
		)

		// Document: the custom route configuration enhancement, sections
		// "Proposal" (a spec entry that does not match status "will not have
		// an effect") and "Control loop to manage secret read permissions in
		// openshift-config"
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/configurable-route/controller.go
		// (intersectingComponentRoutes, requiresRBAC);
		// test/e2e/configurable_route_test.go
		// (TestConfigurableRouteNoSecretNoRBAC,
		// TestConfigurableRouteNoConsumingUserNoRBAC)
		DescribeTable("grants nothing unless spec and status agree on a Secret and a service account", framework.JudgesPlatform,
			func(ctx SpecContext, mutate func(spec *configv1.ComponentRouteSpec, status *configv1.ComponentRouteStatus) (bool, bool)) {
				ns := f.SpecNamespace(ctx, "component-none")
				jig := framework.NewComponentRouteJig(f, ns)
				route := jig.Route("console", "custom-cert-"+ns)
				spec, status := route.Spec()[0], route.Status(configv1.ConsumingUser("system:serviceaccount:" + ns + ":component"))[0]
				By("positive control: the agreeing entry is granted")
				jig.Set(ctx, []configv1.ComponentRouteSpec{spec}, []configv1.ComponentRouteStatus{status})
				jig.EventuallyGrant(ctx, route, "component")
				keepSpec, keepStatus := mutate(&spec, &status)
				var specs []configv1.ComponentRouteSpec
				var statuses []configv1.ComponentRouteStatus
				if keepSpec {
					specs = append(specs, spec)
				}
				if keepStatus {
					statuses = append(statuses, status)
				}
				jig.Set(ctx, specs, statuses)
				jig.EventuallyNoGrant(ctx, route)
				jig.ExpectAccess(ctx, "component", contract.ConfigNamespace, route.Secret, false)
			},
			Entry("spec without status", framework.ID("component-routes/rbac-none-spec-only"), func(*configv1.ComponentRouteSpec, *configv1.ComponentRouteStatus) (bool, bool) { return true, false }),
			Entry("status without spec", framework.ID("component-routes/rbac-none-status-only"), func(*configv1.ComponentRouteSpec, *configv1.ComponentRouteStatus) (bool, bool) { return false, true }),
			Entry("an empty Secret name", framework.ID("component-routes/rbac-none-empty-secret"), func(spec *configv1.ComponentRouteSpec, _ *configv1.ComponentRouteStatus) (bool, bool) {
				spec.ServingCertKeyPairSecret.Name = ""
				return true, true
			}),
			Entry("no consuming users", framework.ID("component-routes/rbac-none-no-users"), func(_ *configv1.ComponentRouteSpec, status *configv1.ComponentRouteStatus) (bool, bool) {
				status.ConsumingUsers = nil
				return true, true
			}),
		)
	})
}

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

// describeComponentRouteMove: one fixture component whose route a
// cluster-admin moves to a custom host, rotates the certificate of, and
// moves back, as cluster-ingress-operator test/e2e/configurable_route_test.go
// writes the cluster-admin's side. Each step is two specs: the component's
// part (judges:platform: its Route and status entry, through the API),
// then the router's (what it serves); Ordered, so that a component that
// fails skips the router's spec rather than failing it.
func describeComponentRouteMove(f *framework.Framework) {
	Describe("a component's route moved to a custom host and back:", Ordered, func() {
		var (
			c      *framework.ComponentJig
			custom string
			ca     *pki.CA
			secret *corev1.Secret
			// cert is the certificate secret holds now.
			cert *x509.Certificate
			// moved is when the spec entry was set.
			moved time.Time
		)
		BeforeAll(func(ctx SpecContext) {
			c = framework.DeployComponentJig(ctx, f, "component-move")
			custom = f.Host(c.Namespace, "custom")
			ca = c.NewCA()
			secret, cert = c.ServingSecret(ca, "component-cert-"+c.Namespace, custom)
			c.CreateConfigSecret(ctx, secret)
		})
		customRequest := func() httpclient.Request {
			req := f.HTTPS(custom, "/")
			req.RootCAs = pki.Pool(ca)
			return req
		}

		// Document: the custom route configuration enhancement, section
		// "Proposal" (ComponentRouteStatus: defaultHostname, consumingUsers,
		// currentHostnames, conditions, relatedObjects)
		// Upstream: cluster-authentication-operator
		// pkg/controllers/customroute/custom_route_controller.go
		// (updateIngressConfigStatus: default host, the one consuming user,
		// the route's host as current, the route as the related object) and
		// custom_route_conditions.go (ensureDefaultConditions)
		It("the component publishes its status entry: its default host, its service account, its Route, all well", framework.ID("component-routes/move-status-published"), framework.JudgesPlatform, func(ctx SpecContext) {
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.DefaultHostname).To(Equal(configv1.Hostname(c.DefaultHost)))
				g.Expect(e.ConsumingUsers).To(ConsistOf(configv1.ConsumingUser(c.Operator.ConsumingUser())))
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.DefaultHost)))
				g.Expect(e.RelatedObjects).To(ContainElement(configv1.ObjectReference{Group: "route.openshift.io", Resource: "routes", Namespace: c.Namespace, Name: c.Route}))
				framework.ExpectAsExpected(g, e)
			})
			c.ExpectRoute(ctx, c.DefaultHost, nil)
		})

		// The positive control of the router's specs below: the default
		// host served, the custom one not yet.
		//
		// Document: the custom route configuration enhancement, sections
		// "Goals" (4: a different DNS name, with its serving certificate) and
		// "Cluster-admin wants to customize a route"
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontend fe_sni: `crt-list cert_config.map` for a route's own
		// certificate, the default certificate otherwise; os_edge_reencrypt_be.map;
		// default_backend openshift_default) and
		// pkg/router/template/util/haproxy/map_entry.go
		// (generateCertConfigMapEntry, generateEdgeReencryptMapEntry)
		It("the router serves the component's route on its default host, and not yet on the custom host", framework.ID("component-routes/move-default-host-served"), func(ctx SpecContext) {
			f.EventuallyResponds(ctx, f.HTTPS(c.DefaultHost, "/"), c.Backend.Served)
			f.EventuallyResponds(ctx, f.HTTPS(custom, "/"), framework.NotServed)
		})

		// Document: the custom route configuration enhancement, sections
		// "Proposal" (ComponentRouteSpec: hostname, servingCertKeyPairSecret)
		// and "Cluster-admin wants to customize a route"
		// Upstream: cluster-authentication-operator
		// pkg/controllers/customroute/custom_route_controller.go
		// (getOAuthRouteAndSecretName: the entry's host; applyRoute; then
		// updateIngressConfigStatus: the route's new host as current)
		It("the component moves its Route to the custom host with the Secret's certificate once the spec names them, and reports that host", framework.ID("component-routes/move-route-to-custom-host"), framework.JudgesPlatform, func(ctx SpecContext) {
			By("positive control: the Route is on its default host without a certificate of its own")
			c.ExpectRoute(ctx, c.DefaultHost, nil)
			moved = time.Now()
			c.SetSpec(ctx, custom, secret.Name)
			c.EventuallyRoute(ctx, custom, secret.Data[corev1.TLSCertKey])
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(custom)))
				framework.ExpectAsExpected(g, e)
			})
		})

		// What cluster-authentication-operator checks of the router
		// (custom_route_conditions.go routeAvailability: "Compare the
		// certificates served against those defined in the secret").
		//
		// Document: the custom route configuration enhancement, sections
		// "Goals" (4: a different DNS name, with its serving certificate) and
		// "Cluster-admin wants to customize a route"
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontend fe_sni: `crt-list cert_config.map` for a route's own
		// certificate, the default certificate otherwise; os_edge_reencrypt_be.map;
		// default_backend openshift_default) and
		// pkg/router/template/util/haproxy/map_entry.go
		// (generateCertConfigMapEntry, generateEdgeReencryptMapEntry)
		It("the router serves the custom host with exactly the Secret's certificate, and the default host no more", framework.ID("component-routes/move-custom-host-served"), func(ctx SpecContext) {
			f.EventuallyResponds(ctx, customRequest(), c.Presents(cert))
			AddReportEntry("component route: spec entry → custom host serving the Secret's certificate", time.Since(moved).Round(time.Millisecond).String())
			f.EventuallyResponds(ctx, f.HTTPS(c.DefaultHost, "/"), framework.NotServed)
		})

		// Document: the custom route configuration enhancement, section
		// "Proposal" (ServingCertKeyPairSecret "will be used by the operator
		// to fulfill the intent of serving with this name")
		// Upstream: cluster-authentication-operator
		// pkg/controllers/customroute/custom_route_controller.go
		// (NewCustomRouteController watches the Secrets of openshift-config;
		// each sync takes the Secret's contents, validateCustomTLSSecret and
		// syncSecret, to where they are served)
		It("the component takes new contents of the Secret (a rotation) onto its Route", framework.ID("component-routes/move-secret-rotated"), framework.JudgesPlatform, func(ctx SpecContext) {
			By("positive control: the Route holds the Secret's present certificate")
			c.ExpectRoute(ctx, custom, secret.Data[corev1.TLSCertKey])
			secret, cert = c.RotateSecret(ctx, ca, secret, custom)
			c.EventuallyRoute(ctx, custom, secret.Data[corev1.TLSCertKey])
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(custom)))
				framework.ExpectAsExpected(g, e)
			})
		})

		// routeAvailability again, after a rotation: the router must take
		// a changed certificate of a route it already serves. The component's
		// step (the new certificate on the Route) is the spec before's
		// verdict; here it is only waited for.
		//
		// Document: the custom route configuration enhancement, sections
		// "Goals" (4: a different DNS name, with its serving certificate) and
		// "Cluster-admin wants to customize a route"
		// Upstream: openshift/router pkg/router/template/router.go
		// (templateRouter.AddRoute: a route that changed is taken again, its
		// new certificate with it) and images/router/haproxy/conf/haproxy-config.template
		// (frontend fe_sni: `crt-list cert_config.map`)
		It("the router presents the new certificate once the Secret is rotated", framework.ID("component-routes/move-rotated-cert-served"), func(ctx SpecContext) {
			By("positive control: the router presents the Secret's present certificate")
			f.EventuallyResponds(ctx, customRequest(), c.Presents(cert))
			secret, cert = c.RotateSecret(ctx, ca, secret, custom)
			By("the component puts the new certificate on the Route (what the spec before judges)")
			c.EventuallyRoute(ctx, custom, secret.Data[corev1.TLSCertKey])
			f.EventuallyResponds(ctx, customRequest(), c.Presents(cert))
		})

		// Document: the custom route configuration enhancement, section
		// "Proposal" (defaultHostname: "if I remove my configuration, what
		// will the name be")
		// Upstream: cluster-authentication-operator
		// pkg/controllers/customroute/custom_route_controller.go
		// (getOAuthRouteAndSecretName without an entry: the default host;
		// syncSecret without a source: the certificate removed;
		// updateIngressConfigStatus)
		It("the component moves its Route back to the default host without a certificate of its own once the spec entry goes, and reports that host", framework.ID("component-routes/move-route-back"), framework.JudgesPlatform, func(ctx SpecContext) {
			By("positive control: the Route is on the custom host")
			c.ExpectRoute(ctx, custom, secret.Data[corev1.TLSCertKey])
			c.SetSpec(ctx, "", "")
			c.EventuallyRoute(ctx, c.DefaultHost, nil)
			c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.DefaultHost)))
				framework.ExpectAsExpected(g, e)
			})
		})

		// Document: the custom route configuration enhancement, section
		// "Proposal" (defaultHostname: "if I remove my configuration, what
		// will the name be")
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontend fe_sni: `crt-list cert_config.map` for a route's own
		// certificate, the default certificate otherwise; os_edge_reencrypt_be.map;
		// default_backend openshift_default) and
		// pkg/router/template/util/haproxy/map_entry.go
		// (generateCertConfigMapEntry, generateEdgeReencryptMapEntry)
		It("the router serves the default host with its default certificate again, and the custom host no more", framework.ID("component-routes/move-default-host-again"), func(ctx SpecContext) {
			f.EventuallyResponds(ctx, f.HTTPS(c.DefaultHost, "/"), func(g Gomega, resp *httpclient.Response) {
				c.Backend.Served(g, resp)
				g.Expect(resp.TLS.PeerCertificates[0].CheckSignatureFrom(ca.Cert)).To(HaveOccurred(),
					"the custom certificate must be gone, got %s", resp.TLS.PeerCertificates[0].Subject)
			})
			f.EventuallyResponds(ctx, f.HTTPS(custom, "/"), framework.NotServed)
		})
	})
}

// rbacComponentRoute is the component route "console" of a new namespace,
// whose service accounts "component" and "helper" exist, naming the
// Secret custom-cert-<namespace>, and the jig of that namespace's entries.
func rbacComponentRoute(ctx SpecContext, f *framework.Framework, prefix string) (*framework.ComponentRouteJig, framework.ComponentRoute) {
	jig := framework.NewComponentRouteJig(f, f.SpecNamespace(ctx, prefix))
	jig.CreateServiceAccounts(ctx, "component", "helper")
	return jig, jig.Route("console", "custom-cert-"+jig.Namespace)
}
