package conformance

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
)

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

		// An entry is (namespace, name): one logical name in two
		// namespaces is two entries, each admitted by the CRD and each
		// granted only its own Secret (the negatives: neither service
		// account reads the other's; the positives: each reads its own).
		//
		// Document: the custom route configuration enhancement, section
		// "Proposal" (componentRoutes keyed by namespace and name)
		// Upstream: openshift/api config/v1 types_ingress.go
		// (componentRoutes: x-kubernetes-list-map-keys namespace, name) and
		// cluster-ingress-operator
		// pkg/operator/controller/configurable-route/controller.go (a Role
		// and RoleBinding per entry, named from its namespace and name)
		It("tells entries apart by namespace: one name in two namespaces is two entries, each granted its own Secret", framework.ID("component-routes/rbac-same-name-two-namespaces"), framework.JudgesPlatform, func(ctx SpecContext) {
			first, firstRoute := rbacComponentRoute(ctx, f, "component-first")
			second, secondRoute := rbacComponentRoute(ctx, f, "component-second")
			Expect(firstRoute.Name).To(Equal(secondRoute.Name), "one logical name")
			first.Set(ctx, firstRoute.Spec(), firstRoute.Status(first.User("component")))
			second.Set(ctx, secondRoute.Spec(), secondRoute.Status(second.User("component")))
			first.EventuallyGrant(ctx, firstRoute, "component")
			second.EventuallyGrant(ctx, secondRoute, "component")
			// The second entry's status lands after the first's grant was
			// made: a platform that matches entries by name alone rewrites
			// the first's grant only then, and an Eventually above may have
			// seen the grant before it did. Each grant must hold.
			By("each grant keeps its own namespace's service account while the other entry's status is in place")
			f.Consistently(ctx, f.Opts.Timeouts.Converge, func(g Gomega) {
				first.CurrentGrant(ctx, g, firstRoute, "component")
				second.CurrentGrant(ctx, g, secondRoute, "component")
			}).Should(Succeed())
			By("each namespace's service account reads its own entry's Secret, not the other's")
			first.ExpectAccess(ctx, "component", contract.ConfigNamespace, firstRoute.Secret, true)
			second.ExpectAccess(ctx, "component", contract.ConfigNamespace, secondRoute.Secret, true)
			first.ExpectAccess(ctx, "component", contract.ConfigNamespace, secondRoute.Secret, false)
			second.ExpectAccess(ctx, "component", contract.ConfigNamespace, firstRoute.Secret, false)
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

// rbacComponentRoute is the component route "console" of a new namespace,
// whose service accounts "component" and "helper" exist, naming the
// Secret custom-cert-<namespace>, and the jig of that namespace's entries.
func rbacComponentRoute(ctx SpecContext, f *framework.Framework, prefix string) (*framework.ComponentRouteJig, framework.ComponentRoute) {
	GinkgoHelper()
	jig := framework.NewComponentRouteJig(f, f.SpecNamespace(ctx, prefix))
	jig.CreateServiceAccounts(ctx, "component", "helper")
	return jig, jig.Route("console", "custom-cert-"+jig.Namespace)
}
