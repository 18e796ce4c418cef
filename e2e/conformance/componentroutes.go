package conformance

import (
	"context"
	"crypto/x509"
	"fmt"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/componentoperator"
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
	Describe("Component routes", framework.Needs(contract.FeatureComponentRoutes), framework.Disruptive, func() {
		describeComponentRouteRBAC(f)

		// The pinned openshift/api CRD: consumingUsers are service accounts,
		// at most five (config/v1 types_ingress.go, ConsumingUser).
		DescribeTable("refuses consuming users the CRD does not allow", framework.JudgesPlatform,
			func(ctx SpecContext, users []configv1.ConsumingUser, want contract.Refusal) {
				ns := f.SpecNamespace(ctx, "component-invalid")
				route := componentRoute{ns: ns, name: "console", secret: "cert", domain: f.Domain}
				By("positive control: one service account is admitted")
				setComponentRoutes(ctx, f, route.ns, route.spec(), route.status(configv1.ConsumingUser("system:serviceaccount:"+ns+":component")))
				err := updateComponentRouteStatus(ctx, f, ns, route.status(users...))
				framework.ExpectRefusal(Default, err, want)
			},
			Entry("a user that is no service account", []configv1.ConsumingUser{"system:admin"}, contract.ComponentRouteConsumingUserPattern),
			Entry("six users", []configv1.ConsumingUser{
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
		// Upstream: TestConfigurableRouteRBAC (a Role and a RoleBinding per
		// entry, the Role's one rule); ensureServiceCertKeyPairSecretRole
		// and ensureServiceCertKeyPairSecretRoleBinding.
		It("grants the consuming service accounts read access to exactly the named Secret", framework.JudgesPlatform, func(ctx SpecContext) {
			route, user := rbacComponentRoute(ctx, f, "component")
			By("an entry in spec and status with two consuming users: one Role and one RoleBinding")
			setComponentRoutes(ctx, f, route.ns, route.spec(), route.status(user("component"), user("helper")))
			grant := eventuallyGrant(ctx, f, route, "component", "helper")
			Expect(grant.role.Rules).To(Equal([]rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "watch"}, ResourceNames: []string{route.secret}}}))

			By("the permission is real (positive control: the named Secret, to both users): exactly that Secret, in openshift-config only")
			expectAccess(ctx, f, route.ns, "component", contract.ConfigNamespace, route.secret, true)
			expectAccess(ctx, f, route.ns, "helper", contract.ConfigNamespace, route.secret, true)
			expectAccess(ctx, f, route.ns, "component", contract.ConfigNamespace, "another-secret", false)
			expectAccess(ctx, f, route.ns, "component", route.ns, route.secret, false)
			expectAccess(ctx, f, route.ns, "unlisted", contract.ConfigNamespace, route.secret, false)
		})

		// Upstream: ensureServiceCertKeyPairSecretRoleBinding, whose
		// ApplyRoleBinding sets the subjects of the RoleBinding it has;
		// TestConfigurableRouteRBAC changes consumingUsers the other way.
		It("grants a consuming user added to status, keeping the Role", framework.JudgesPlatform, func(ctx SpecContext) {
			route, user := rbacComponentRoute(ctx, f, "component-add")
			setComponentRoutes(ctx, f, route.ns, route.spec(), route.status(user("component")))
			before := eventuallyGrant(ctx, f, route, "component")
			By("positive control: the listed user may read the Secret, the other may not yet")
			expectAccess(ctx, f, route.ns, "component", contract.ConfigNamespace, route.secret, true)
			expectAccess(ctx, f, route.ns, "helper", contract.ConfigNamespace, route.secret, false)

			By("a second consuming user in status")
			setComponentRoutes(ctx, f, route.ns, route.spec(), route.status(user("component"), user("helper")))
			after := eventuallyGrant(ctx, f, route, "component", "helper")
			Expect(after.role.UID).To(Equal(before.role.UID), "the Role is kept: only the RoleBinding's subjects change")
			expectAccess(ctx, f, route.ns, "helper", contract.ConfigNamespace, route.secret, true)
			expectAccess(ctx, f, route.ns, "component", contract.ConfigNamespace, route.secret, true)
		})

		// Upstream: TestConfigurableRouteRBAC ("Remove the bar consumingUser
		// from the foo componentRoute and check that the roleBinding is
		// updated").
		It("takes the grant from a consuming user removed from status, and only from it", framework.JudgesPlatform, func(ctx SpecContext) {
			route, user := rbacComponentRoute(ctx, f, "component-remove")
			setComponentRoutes(ctx, f, route.ns, route.spec(), route.status(user("component"), user("helper")))
			eventuallyGrant(ctx, f, route, "component", "helper")
			By("positive control: both users may read the Secret")
			expectAccess(ctx, f, route.ns, "helper", contract.ConfigNamespace, route.secret, true)

			By("one consuming user removed from status")
			setComponentRoutes(ctx, f, route.ns, route.spec(), route.status(user("component")))
			eventuallyGrant(ctx, f, route, "component")
			expectAccess(ctx, f, route.ns, "helper", contract.ConfigNamespace, route.secret, false)
			expectAccess(ctx, f, route.ns, "component", contract.ConfigNamespace, route.secret, true)
		})

		// Upstream: ensureServiceCertKeyPairSecretRole, which applies the
		// rule naming spec's Secret to the Role it has, under its name
		// (resourceapply.ApplyRole).
		It("moves the Role's resourceNames to a Secret renamed in spec, keeping the Role", framework.JudgesPlatform, func(ctx SpecContext) {
			route, user := rbacComponentRoute(ctx, f, "component-rename")
			setComponentRoutes(ctx, f, route.ns, route.spec(), route.status(user("component")))
			before := eventuallyGrant(ctx, f, route, "component")
			By("positive control: the first Secret may be read")
			expectAccess(ctx, f, route.ns, "component", contract.ConfigNamespace, route.secret, true)

			By("the spec names another Secret")
			renamed := route
			renamed.secret = route.secret + "-renamed"
			setComponentRoutes(ctx, f, route.ns, renamed.spec(), route.status(user("component")))
			f.Eventually(ctx, func(g Gomega) {
				after := currentGrant(ctx, f, g, route, "component")
				g.Expect(after.role.Rules).To(HaveLen(1))
				g.Expect(after.role.Rules[0].ResourceNames).To(Equal([]string{renamed.secret}))
				g.Expect(after.role.UID).To(Equal(before.role.UID), "the Role is kept, its rule changed")
			}).Should(Succeed())
			expectAccess(ctx, f, route.ns, "component", contract.ConfigNamespace, renamed.secret, true)
			expectAccess(ctx, f, route.ns, "component", contract.ConfigNamespace, route.secret, false)
		})

		// Upstream: TestConfigurableRouteRBAC ("Remove the `bar`
		// componentRoute from the ingress spec and check that the related
		// role and roleBinding are deleted"); deleteOrphanedRoles deletes
		// by hash only, and the RoleBinding goes with its owner.
		It("removes the Role and RoleBinding of an entry removed from spec, and leaves the other entries' alone", framework.JudgesPlatform, func(ctx SpecContext) {
			console, user := rbacComponentRoute(ctx, f, "component-entries")
			downloads := console
			downloads.name, downloads.secret = "downloads", console.secret+"-downloads"
			setComponentRoutes(ctx, f, console.ns, append(console.spec(), downloads.spec()...),
				append(console.status(user("component")), downloads.status(user("helper"))...))
			kept := eventuallyGrant(ctx, f, console, "component")
			eventuallyGrant(ctx, f, downloads, "helper")
			By("positive control: both entries' grants are real")
			expectAccess(ctx, f, console.ns, "component", contract.ConfigNamespace, console.secret, true)
			expectAccess(ctx, f, console.ns, "helper", contract.ConfigNamespace, downloads.secret, true)

			By("the downloads entry removed from spec")
			setComponentRoutes(ctx, f, console.ns, console.spec(), append(console.status(user("component")), downloads.status(user("helper"))...))
			eventuallyNoGrant(ctx, f, downloads)
			expectAccess(ctx, f, console.ns, "helper", contract.ConfigNamespace, downloads.secret, false)
			By("the console entry's Role and RoleBinding are the same objects, not written since")
			now := currentGrant(ctx, f, Default, console, "component")
			Expect(now.role.UID).To(Equal(kept.role.UID))
			Expect(now.role.ResourceVersion).To(Equal(kept.role.ResourceVersion), "the Role was written")
			Expect(now.binding.UID).To(Equal(kept.binding.UID))
			Expect(now.binding.ResourceVersion).To(Equal(kept.binding.ResourceVersion), "the RoleBinding was written")
			expectAccess(ctx, f, console.ns, "component", contract.ConfigNamespace, console.secret, true)
		})

		// Upstream: New watches the labelled Roles and RoleBindings
		// (source.Kind with the component-route-hash predicate) and each
		// reconcile applies them again: ensureServiceCertKeyPairSecretRole
		// creates a Role when none is labelled (a deleted Role's
		// RoleBinding goes with it, by its owner reference) or applies the
		// rule to it (resourceapply.ApplyRole), and
		// ensureServiceCertKeyPairSecretRoleBinding applies the subjects
		// (resourceapply.ApplyRoleBinding).
		DescribeTable("restores its grant when someone changes it", framework.JudgesPlatform,
			func(ctx SpecContext, change func(ctx context.Context, g grant)) {
				route, user := rbacComponentRoute(ctx, f, "component-heal")
				setComponentRoutes(ctx, f, route.ns, route.spec(), route.status(user("component")))
				g := eventuallyGrant(ctx, f, route, "component")
				By("positive control: the grant is real")
				expectAccess(ctx, f, route.ns, "component", contract.ConfigNamespace, route.secret, true)
				change(ctx, g)
				f.Eventually(ctx, func(gm Gomega) {
					now := currentGrant(ctx, f, gm, route, "component")
					gm.Expect(now.role.Rules).To(Equal([]rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "watch"}, ResourceNames: []string{route.secret}}}))
				}).Should(Succeed())
				expectAccess(ctx, f, route.ns, "component", contract.ConfigNamespace, route.secret, true)
				expectAccess(ctx, f, route.ns, "component", contract.ConfigNamespace, "another-secret", false)
				expectAccess(ctx, f, route.ns, "intruder", contract.ConfigNamespace, route.secret, false)
			},
			Entry("a deleted RoleBinding comes back", func(ctx context.Context, g grant) {
				Expect(f.Clientset.RbacV1().RoleBindings(contract.ConfigNamespace).Delete(ctx, g.binding.Name, metav1.DeleteOptions{})).To(Succeed())
			}),
			Entry("a deleted Role comes back, with its RoleBinding", func(ctx context.Context, g grant) {
				Expect(f.Clientset.RbacV1().Roles(contract.ConfigNamespace).Delete(ctx, g.role.Name, metav1.DeleteOptions{})).To(Succeed())
			}),
			Entry("a rule naming another Secret too is restored", func(ctx context.Context, g grant) {
				_, err := framework.Update(ctx, f.Clientset.RbacV1().Roles(contract.ConfigNamespace), g.role.Name, func(role *rbacv1.Role) {
					role.Rules[0].ResourceNames = append(role.Rules[0].ResourceNames, "another-secret")
				})
				Expect(err).NotTo(HaveOccurred(), "tamper with Role %s/%s", contract.ConfigNamespace, g.role.Name)
			}),
			Entry("a subject added to the RoleBinding is removed", func(ctx context.Context, g grant) {
				_, err := framework.Update(ctx, f.Clientset.RbacV1().RoleBindings(contract.ConfigNamespace), g.binding.Name, func(b *rbacv1.RoleBinding) {
					b.Subjects = append(b.Subjects, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "intruder", Namespace: g.binding.Subjects[0].Namespace})
				})
				Expect(err).NotTo(HaveOccurred(), "tamper with RoleBinding %s/%s", contract.ConfigNamespace, g.binding.Name)
			}),
		)

		// Upstream: intersectingComponentRoutes and requiresRBAC;
		// TestConfigurableRouteNoSecretNoRBAC and
		// TestConfigurableRouteNoConsumingUserNoRBAC.
		DescribeTable("grants nothing unless spec and status agree on a Secret and a service account", framework.JudgesPlatform,
			func(ctx SpecContext, mutate func(spec *configv1.ComponentRouteSpec, status *configv1.ComponentRouteStatus) (bool, bool)) {
				ns := f.SpecNamespace(ctx, "component-none")
				route := componentRoute{ns: ns, name: "console", secret: "custom-cert-" + ns, domain: f.Domain}
				spec, status := route.spec()[0], route.status(configv1.ConsumingUser("system:serviceaccount:" + ns + ":component"))[0]
				By("positive control: the agreeing entry is granted")
				setComponentRoutes(ctx, f, ns, []configv1.ComponentRouteSpec{spec}, []configv1.ComponentRouteStatus{status})
				eventuallyGrant(ctx, f, route, "component")
				keepSpec, keepStatus := mutate(&spec, &status)
				var specs []configv1.ComponentRouteSpec
				var statuses []configv1.ComponentRouteStatus
				if keepSpec {
					specs = append(specs, spec)
				}
				if keepStatus {
					statuses = append(statuses, status)
				}
				setComponentRoutes(ctx, f, ns, specs, statuses)
				eventuallyNoGrant(ctx, f, route)
				expectAccess(ctx, f, ns, "component", contract.ConfigNamespace, route.secret, false)
			},
			Entry("spec without status", func(*configv1.ComponentRouteSpec, *configv1.ComponentRouteStatus) (bool, bool) { return true, false }),
			Entry("status without spec", func(*configv1.ComponentRouteSpec, *configv1.ComponentRouteStatus) (bool, bool) { return false, true }),
			Entry("an empty Secret name", func(spec *configv1.ComponentRouteSpec, _ *configv1.ComponentRouteStatus) (bool, bool) {
				spec.ServingCertKeyPairSecret.Name = ""
				return true, true
			}),
			Entry("no consuming users", func(_ *configv1.ComponentRouteSpec, status *configv1.ComponentRouteStatus) (bool, bool) {
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
		// Upstream: customRouteController.sync reads the spec entry on
		// every pass, the first included (getOAuthRouteAndSecretName); its
		// informers list what exists when it starts.
		It("honours a spec entry made before it starts: its Route moves to the custom host with the Secret's certificate", framework.JudgesPlatform, func(ctx SpecContext) {
			c := newComponent(ctx, f, "component-early")
			custom := f.Host(c.ns, "custom")
			secret, _ := servingSecret(newComponentCA(c.ns), "component-cert-"+c.ns, custom)
			createConfigSecret(ctx, f, secret)
			DeferCleanup(func(ctx SpecContext) {
				Expect(updateComponentRouteSpec(ctx, f, c.ns, nil)).To(Succeed(), "remove the spec entry of component %s/%s", c.ns, c.operator.Name)
			})
			setComponentSpec(ctx, f, c, custom, secret.Name)

			By("positive control: with the entry but no component, the Route is on its default host without a certificate of its own, and there is no status entry")
			expectRoute(ctx, f, c, c.defaultHost, nil)
			Expect(componentStatus(ctx, f, Default, c)).To(BeNil())

			By("the component starts")
			c.start(ctx, f)
			eventuallyRoute(ctx, f, c, custom, secret.Data[corev1.TLSCertKey])
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(custom)))
				expectAsExpected(g, e)
			})
		})

		// Upstream: getOAuthRouteAndSecretName collects
		// validateCustomTLSSecret's error (the Secret lister's NotFound, or
		// "error validating secret ...: [custom route secret must include
		// key tls.key]"), sync then updates the status entry with it
		// (checkErrorsConfiguringCustomRoute: Degraded True, Progressing
		// False, CustomRouteError) and leaves the route.
		It("leaves its Route where it is and reports Degraded in the authentication operator's words for a missing Secret or one without tls.key; the Secret fixed, the Route moves and Degraded clears", framework.JudgesPlatform, func(ctx SpecContext) {
			c := deployComponent(ctx, f, "component-degraded")
			custom := f.Host(c.ns, "custom")
			secret, _ := servingSecret(newComponentCA(c.ns), "component-cert-"+c.ns, custom)
			By("positive control: all is well on the default host")
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.defaultHost)))
				expectAsExpected(g, e)
			})

			By("a Secret that does not exist")
			setComponentSpec(ctx, f, c, custom, secret.Name)
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				expectCustomRouteError(g, e, contract.ComponentRouteErrorMessage(contract.ComponentRouteSecretNotFound(secret.Name)))
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.defaultHost)))
			})
			expectRoute(ctx, f, c, c.defaultHost, nil)

			By("a Secret without tls.key (Opaque: the API requires tls.key of a kubernetes.io/tls Secret; upstream does not look at the type)")
			noKey := secret.DeepCopy()
			noKey.Type = corev1.SecretTypeOpaque
			delete(noKey.Data, corev1.TLSPrivateKeyKey)
			createConfigSecret(ctx, f, noKey)
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				expectCustomRouteError(g, e, contract.ComponentRouteErrorMessage(
					contract.ComponentRouteSecretInvalid(secret.Name, contract.ComponentRouteSecretMissingKey(corev1.TLSPrivateKeyKey))))
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.defaultHost)))
			})
			expectRoute(ctx, f, c, c.defaultHost, nil)

			By("positive control: the Secret fixed, the Route moves and Degraded clears")
			Expect(f.Clientset.CoreV1().Secrets(contract.ConfigNamespace).Delete(ctx, secret.Name, metav1.DeleteOptions{})).To(Succeed())
			createConfigSecret(ctx, f, secret)
			eventuallyRoute(ctx, f, c, custom, secret.Data[corev1.TLSCertKey])
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(custom)))
				expectAsExpected(g, e)
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
			c      *component
			custom string
			ca     *pki.CA
			secret *corev1.Secret
			// cert is the certificate secret holds now.
			cert *x509.Certificate
			// moved is when the spec entry was set.
			moved time.Time
		)
		BeforeAll(func(ctx SpecContext) {
			c = deployComponent(ctx, f, "component-move")
			custom = f.Host(c.ns, "custom")
			ca = newComponentCA(c.ns)
			secret, cert = servingSecret(ca, "component-cert-"+c.ns, custom)
			createConfigSecret(ctx, f, secret)
		})
		customRequest := func() httpclient.Request {
			req := f.HTTPS(custom, "/")
			req.RootCAs = pki.Pool(ca)
			return req
		}

		// Upstream: updateIngressConfigStatus (default host, the one
		// consuming user, the route's host as current, the route as the
		// related object) and ensureDefaultConditions.
		It("the component publishes its status entry: its default host, its service account, its Route, all well", framework.JudgesPlatform, func(ctx SpecContext) {
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.DefaultHostname).To(Equal(configv1.Hostname(c.defaultHost)))
				g.Expect(e.ConsumingUsers).To(ConsistOf(configv1.ConsumingUser(c.operator.ConsumingUser())))
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.defaultHost)))
				g.Expect(e.RelatedObjects).To(ContainElement(configv1.ObjectReference{Group: "route.openshift.io", Resource: "routes", Namespace: c.ns, Name: c.route}))
				expectAsExpected(g, e)
			})
			expectRoute(ctx, f, c, c.defaultHost, nil)
		})

		// The positive control of the router's specs below: the default
		// host served, the custom one not yet.
		It("the router serves the component's route on its default host, and not yet on the custom host", func(ctx SpecContext) {
			f.EventuallyResponds(ctx, f.HTTPS(c.defaultHost, "/"), c.backend.Served)
			f.EventuallyResponds(ctx, f.HTTPS(custom, "/"), framework.NotServed)
		})

		// Upstream: getOAuthRouteAndSecretName (the entry's host),
		// applyRoute, then updateIngressConfigStatus (the route's new host
		// as current).
		It("the component moves its Route to the custom host with the Secret's certificate once the spec names them, and reports that host", framework.JudgesPlatform, func(ctx SpecContext) {
			By("positive control: the Route is on its default host without a certificate of its own")
			expectRoute(ctx, f, c, c.defaultHost, nil)
			moved = time.Now()
			setComponentSpec(ctx, f, c, custom, secret.Name)
			eventuallyRoute(ctx, f, c, custom, secret.Data[corev1.TLSCertKey])
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(custom)))
				expectAsExpected(g, e)
			})
		})

		// What cluster-authentication-operator checks of the router
		// (custom_route_conditions.go routeAvailability: "Compare the
		// certificates served against those defined in the secret").
		It("the router serves the custom host with exactly the Secret's certificate, and the default host no more", func(ctx SpecContext) {
			f.EventuallyResponds(ctx, customRequest(), presents(c, cert))
			AddReportEntry("component route: spec entry → custom host serving the Secret's certificate", time.Since(moved).Round(time.Millisecond).String())
			f.EventuallyResponds(ctx, f.HTTPS(c.defaultHost, "/"), framework.NotServed)
		})

		// Upstream: NewCustomRouteController watches the Secrets of
		// openshift-config, and each sync takes the Secret's contents
		// (validateCustomTLSSecret, syncSecret) to where they are served.
		It("the component takes new contents of the Secret (a rotation) onto its Route", framework.JudgesPlatform, func(ctx SpecContext) {
			By("positive control: the Route holds the Secret's present certificate")
			expectRoute(ctx, f, c, custom, secret.Data[corev1.TLSCertKey])
			secret, cert = rotateSecret(ctx, f, ca, secret, custom)
			eventuallyRoute(ctx, f, c, custom, secret.Data[corev1.TLSCertKey])
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(custom)))
				expectAsExpected(g, e)
			})
		})

		// routeAvailability again, after a rotation: the router must take
		// a changed certificate of a route it already serves.
		It("the router presents the new certificate once the Secret is rotated", func(ctx SpecContext) {
			By("positive control: the router presents the Secret's present certificate")
			f.EventuallyResponds(ctx, customRequest(), presents(c, cert))
			secret, cert = rotateSecret(ctx, f, ca, secret, custom)
			By("the component puts the new certificate on the Route (what the spec before judges)")
			eventuallyRoute(ctx, f, c, custom, secret.Data[corev1.TLSCertKey])
			f.EventuallyResponds(ctx, customRequest(), presents(c, cert))
		})

		// Upstream: getOAuthRouteAndSecretName without an entry (the
		// default host), syncSecret without a source (the certificate
		// removed), updateIngressConfigStatus.
		It("the component moves its Route back to the default host without a certificate of its own once the spec entry goes, and reports that host", framework.JudgesPlatform, func(ctx SpecContext) {
			By("positive control: the Route is on the custom host")
			expectRoute(ctx, f, c, custom, secret.Data[corev1.TLSCertKey])
			setComponentSpec(ctx, f, c, "", "")
			eventuallyRoute(ctx, f, c, c.defaultHost, nil)
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.defaultHost)))
				expectAsExpected(g, e)
			})
		})

		It("the router serves the default host with its default certificate again, and the custom host no more", func(ctx SpecContext) {
			f.EventuallyResponds(ctx, f.HTTPS(c.defaultHost, "/"), func(g Gomega, resp *httpclient.Response) {
				c.backend.Served(g, resp)
				g.Expect(resp.TLS.PeerCertificates[0].CheckSignatureFrom(ca.Cert)).To(HaveOccurred(),
					"the custom certificate must be gone, got %s", resp.TLS.PeerCertificates[0].Subject)
			})
			f.EventuallyResponds(ctx, f.HTTPS(custom, "/"), framework.NotServed)
		})
	})
}

// component is a fixture component: its namespace, backend, route,
// default host and operator (started or not).
type component struct {
	ns, route, defaultHost string
	backend                *framework.Echo
	operator               componentoperator.Options
}

// newComponent creates, in a namespace of its own, an echo backend and the
// component's Route on its default host (edge, the router's default
// certificate), admitted; the fixture component is not started.
func newComponent(ctx SpecContext, f *framework.Framework, prefix string) *component {
	ns := f.SpecNamespace(ctx, prefix)
	c := &component{ns: ns, route: "console", backend: f.DeployEcho(ctx, ns)}
	route := f.RouteTo(c.backend, c.route, framework.EchoHTTPPort)
	route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
	c.defaultHost = f.CreateRoute(ctx, route).Spec.Host
	c.operator = componentoperator.Options{Namespace: ns, Name: "console", RouteName: c.route, DefaultHostname: c.defaultHost}
	return c
}

// start runs the fixture component managing the Route.
func (c *component) start(ctx context.Context, f *framework.Framework) {
	c.operator = f.DeployComponentOperator(ctx, c.ns, c.operator.Name, c.route, c.defaultHost)
}

// deployComponent is newComponent, started.
func deployComponent(ctx SpecContext, f *framework.Framework, prefix string) *component {
	c := newComponent(ctx, f, prefix)
	c.start(ctx, f)
	return c
}

// componentStatus is the component's status entry, or nil.
func componentStatus(ctx context.Context, f *framework.Framework, g Gomega, c *component) *configv1.ComponentRouteStatus {
	live, err := f.ConfigAPI.ConfigV1().Ingresses().Get(ctx, contract.IngressConfig, metav1.GetOptions{})
	g.ExpectWithOffset(1, err).NotTo(HaveOccurred())
	for i, e := range live.Status.ComponentRoutes {
		if e.Namespace == c.ns && e.Name == c.operator.Name {
			return &live.Status.ComponentRoutes[i]
		}
	}
	return nil
}

// eventuallyComponentStatus waits until the component's status entry
// passes check.
func eventuallyComponentStatus(ctx context.Context, f *framework.Framework, c *component, check func(Gomega, *configv1.ComponentRouteStatus)) {
	f.Eventually(ctx, func(g Gomega) {
		entry := componentStatus(ctx, f, g, c)
		g.Expect(entry).NotTo(BeNil(), "no status entry for %s/%s", c.ns, c.operator.Name)
		check(g, entry)
	}).Should(Succeed())
}

// expectAsExpected checks that Degraded and Progressing are False with
// the authentication operator's AsExpected "All is well"
// (custom_route_conditions.go ensureDefaultConditions): no error, and the
// Route admitted under its host.
func expectAsExpected(g Gomega, e *configv1.ComponentRouteStatus) {
	for _, typ := range []string{componentoperator.ConditionDegraded, componentoperator.ConditionProgressing} {
		c := meta.FindStatusCondition(e.Conditions, typ)
		g.ExpectWithOffset(1, c).NotTo(BeNil(), "no %s condition: %+v", typ, e.Conditions)
		g.ExpectWithOffset(1, *c).To(And(
			HaveField("Status", metav1.ConditionFalse),
			HaveField("Reason", contract.ComponentRouteReasonAsExpected),
			HaveField("Message", contract.ComponentRouteMessageAsExpected)), "%s", typ)
	}
}

// expectCustomRouteError checks Degraded True and Progressing False, both
// with reason CustomRouteError and exactly message
// (custom_route_conditions.go checkErrorsConfiguringCustomRoute).
func expectCustomRouteError(g Gomega, e *configv1.ComponentRouteStatus, message string) {
	for typ, status := range map[string]metav1.ConditionStatus{componentoperator.ConditionDegraded: metav1.ConditionTrue, componentoperator.ConditionProgressing: metav1.ConditionFalse} {
		c := meta.FindStatusCondition(e.Conditions, typ)
		g.ExpectWithOffset(1, c).NotTo(BeNil(), "no %s condition: %+v", typ, e.Conditions)
		g.ExpectWithOffset(1, *c).To(And(
			HaveField("Status", status),
			HaveField("Reason", contract.ComponentRouteReasonError),
			HaveField("Message", message)), "%s", typ)
	}
}

// checkRoute checks the component's Route: on host, edge, with cert (PEM,
// the Secret's tls.crt) as its own certificate, or none when cert is nil.
func checkRoute(ctx context.Context, f *framework.Framework, g Gomega, c *component, host string, cert []byte) {
	r, err := f.Routes.RouteV1().Routes(c.ns).Get(ctx, c.route, metav1.GetOptions{})
	g.ExpectWithOffset(1, err).NotTo(HaveOccurred())
	g.ExpectWithOffset(1, r.Spec.Host).To(Equal(host), "route %s/%s host", c.ns, c.route)
	g.ExpectWithOffset(1, r.Spec.TLS).NotTo(BeNil(), "route %s/%s tls", c.ns, c.route)
	g.ExpectWithOffset(1, r.Spec.TLS.Termination).To(Equal(routev1.TLSTerminationEdge))
	g.ExpectWithOffset(1, r.Spec.TLS.Certificate).To(Equal(string(cert)), "route %s/%s certificate (want the Secret's tls.crt, or none)", c.ns, c.route)
}

// expectRoute checks the Route once (a positive control, or a state that
// must hold).
func expectRoute(ctx context.Context, f *framework.Framework, c *component, host string, cert []byte) {
	checkRoute(ctx, f, Default, c, host, cert)
}

// eventuallyRoute waits until the Route is so.
func eventuallyRoute(ctx context.Context, f *framework.Framework, c *component, host string, cert []byte) {
	f.Eventually(ctx, func(g Gomega) { checkRoute(ctx, f, g, c, host, cert) }).Should(Succeed())
}

// presents checks that the component's backend answered over a TLS
// connection on which the router presented exactly cert.
func presents(c *component, cert *x509.Certificate) func(Gomega, *httpclient.Response) {
	return func(g Gomega, resp *httpclient.Response) {
		c.backend.Served(g, resp)
		g.Expect(resp.TLS.PeerCertificates[0].Equal(cert)).To(BeTrue(), "want the Secret's certificate (serial %s), got %s serial %s",
			cert.SerialNumber, resp.TLS.PeerCertificates[0].Subject, resp.TLS.PeerCertificates[0].SerialNumber)
	}
}

// newComponentCA is a CA for the custom host's certificates.
func newComponentCA(ns string) *pki.CA {
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Component route CA " + ns}})
	Expect(err).NotTo(HaveOccurred())
	return ca
}

// servingSecret is a kubernetes.io/tls Secret in openshift-config with a
// new certificate of ca for host, and that certificate.
func servingSecret(ca *pki.CA, name, host string) (*corev1.Secret, *x509.Certificate) {
	leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: []string{host}})
	Expect(err).NotTo(HaveOccurred())
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: contract.ConfigNamespace, Name: name},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{corev1.TLSCertKey: leaf.ChainPEM(), corev1.TLSPrivateKeyKey: leaf.KeyPEM},
	}, leaf.Cert
}

// rotateSecret gives the Secret new contents, a new certificate of ca for
// host (as a cluster-admin rotates it, in place), and returns them.
func rotateSecret(ctx context.Context, f *framework.Framework, ca *pki.CA, s *corev1.Secret, host string) (*corev1.Secret, *x509.Certificate) {
	next, cert := servingSecret(ca, s.Name, host)
	updated, err := framework.Update(ctx, f.Clientset.CoreV1().Secrets(s.Namespace), s.Name, func(live *corev1.Secret) { live.Data = next.Data })
	Expect(err).NotTo(HaveOccurred(), "rotate secret %s/%s", s.Namespace, s.Name)
	return updated, cert
}

// setComponentSpec sets (hostname != "") or removes the cluster-admin's
// spec entry for the component.
func setComponentSpec(ctx context.Context, f *framework.Framework, c *component, hostname, secret string) {
	var entries []configv1.ComponentRouteSpec
	if hostname != "" {
		entries = []configv1.ComponentRouteSpec{{Namespace: c.ns, Name: c.operator.Name, Hostname: configv1.Hostname(hostname),
			ServingCertKeyPairSecret: configv1.SecretNameReference{Name: secret}}}
	}
	Expect(updateComponentRouteSpec(ctx, f, c.ns, entries)).To(Succeed(), "set the spec entry of component %s/%s", c.ns, c.operator.Name)
}

// createConfigSecret creates a Secret in openshift-config for the spec.
func createConfigSecret(ctx context.Context, f *framework.Framework, s *corev1.Secret) {
	_, err := f.Clientset.CoreV1().Secrets(s.Namespace).Create(ctx, s, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func(ctx SpecContext) {
		err := f.Clientset.CoreV1().Secrets(s.Namespace).Delete(ctx, s.Name, metav1.DeleteOptions{})
		Expect(err == nil || apierrors.IsNotFound(err)).To(BeTrue(), "delete secret %s: %v", s.Name, err)
	})
}

// componentRoute is one entry of the Ingress config's componentRoutes.
type componentRoute struct{ ns, name, secret, domain string }

// rbacComponentRoute is the component route "console" of a new namespace,
// whose service accounts "component" and "helper" exist, naming the
// Secret custom-cert-<namespace>; user is the consuming user of one of
// them.
func rbacComponentRoute(ctx SpecContext, f *framework.Framework, prefix string) (componentRoute, func(sa string) configv1.ConsumingUser) {
	ns := f.SpecNamespace(ctx, prefix)
	for _, sa := range []string{"component", "helper"} {
		_, err := f.Clientset.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: sa}}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
	}
	user := func(sa string) configv1.ConsumingUser {
		return configv1.ConsumingUser(componentoperator.ServiceAccountUser(ns, sa))
	}
	return componentRoute{ns: ns, name: "console", secret: "custom-cert-" + ns, domain: f.Domain}, user
}

// grantSelector selects the operator's Role and RoleBinding for the route.
func (c componentRoute) grantSelector() metav1.ListOptions {
	return metav1.ListOptions{LabelSelector: contract.ComponentRouteHashLabel + "=" + contract.ComponentRouteHash(c.ns, c.name)}
}

func (c componentRoute) spec() []configv1.ComponentRouteSpec {
	return []configv1.ComponentRouteSpec{{
		Namespace: c.ns, Name: c.name,
		Hostname:                 configv1.Hostname(c.name + "-custom." + c.domain),
		ServingCertKeyPairSecret: configv1.SecretNameReference{Name: c.secret},
	}}
}

func (c componentRoute) status(users ...configv1.ConsumingUser) []configv1.ComponentRouteStatus {
	return []configv1.ComponentRouteStatus{{
		Namespace: c.ns, Name: c.name,
		DefaultHostname: configv1.Hostname(c.name + "." + c.domain),
		ConsumingUsers:  users,
		RelatedObjects:  []configv1.ObjectReference{{Group: "route.openshift.io", Resource: "routes", Namespace: c.ns, Name: c.name}},
	}}
}

// setComponentRoutes makes spec and status the Ingress config's component
// routes of namespace ns (the spec's own), leaving every other entry as it
// is, so that specs run in parallel; the entries go when the spec ends.
func setComponentRoutes(ctx context.Context, f *framework.Framework, ns string, spec []configv1.ComponentRouteSpec, status []configv1.ComponentRouteStatus) {
	DeferCleanup(func(ctx SpecContext) {
		Expect(updateComponentRouteStatus(ctx, f, ns, nil)).To(Succeed(), "remove the status entries of namespace %s", ns)
		Expect(updateComponentRouteSpec(ctx, f, ns, nil)).To(Succeed(), "remove the spec entries of namespace %s", ns)
	})
	Expect(updateComponentRouteSpec(ctx, f, ns, spec)).To(Succeed(), "set the spec entries of namespace %s", ns)
	Expect(updateComponentRouteStatus(ctx, f, ns, status)).To(Succeed(), "set the status entries of namespace %s", ns)
}

// updateComponentRouteSpec replaces the spec entries of namespace ns.
func updateComponentRouteSpec(ctx context.Context, f *framework.Framework, ns string, spec []configv1.ComponentRouteSpec) error {
	return updateIngressConfig(ctx, f, func(i *configv1.Ingress) {
		i.Spec.ComponentRoutes = append(slices.DeleteFunc(i.Spec.ComponentRoutes, func(e configv1.ComponentRouteSpec) bool { return e.Namespace == ns }), spec...)
	}, false)
}

// updateComponentRouteStatus replaces the status entries of namespace ns.
func updateComponentRouteStatus(ctx context.Context, f *framework.Framework, ns string, status []configv1.ComponentRouteStatus) error {
	return updateIngressConfig(ctx, f, func(i *configv1.Ingress) {
		i.Status.ComponentRoutes = append(slices.DeleteFunc(i.Status.ComponentRoutes, func(e configv1.ComponentRouteStatus) bool { return e.Namespace == ns }), status...)
	}, true)
}

// updateIngressConfig changes the live Ingress config, through its status
// subresource when status is set: again on a conflict only (the operator
// and other specs write it too); a refusal is returned at once.
func updateIngressConfig(ctx context.Context, f *framework.Framework, change func(*configv1.Ingress), status bool) error {
	ingresses := f.ConfigAPI.ConfigV1().Ingresses()
	var c framework.GetUpdater[*configv1.Ingress] = ingresses
	if status {
		c = framework.StatusWriter[*configv1.Ingress]{Client: ingresses}
	}
	_, err := framework.Update(ctx, c, contract.IngressConfig, change)
	return err
}

// grant is the Role and RoleBinding of one component route.
type grant struct {
	role    rbacv1.Role
	binding rbacv1.RoleBinding
}

// eventuallyGrant waits until exactly one labelled Role and one RoleBinding
// of that name exist for the route, the binding owned by the Role and
// binding exactly the service accounts.
func eventuallyGrant(ctx context.Context, f *framework.Framework, c componentRoute, serviceAccounts ...string) grant {
	var got grant
	f.Eventually(ctx, func(g Gomega) { got = currentGrant(ctx, f, g, c, serviceAccounts...) }).Should(Succeed())
	return got
}

// currentGrant checks the route's grant once, for an Eventually.
func currentGrant(ctx context.Context, f *framework.Framework, g Gomega, c componentRoute, serviceAccounts ...string) grant {
	selector := c.grantSelector()
	rbac := f.Clientset.RbacV1()
	roles, err := rbac.Roles(contract.ConfigNamespace).List(ctx, selector)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(roles.Items).To(HaveLen(1), "labelled Roles of %s/%s", c.ns, c.name)
	role := roles.Items[0]
	g.Expect(role.Name).To(HavePrefix(c.name+"-"), "the Role's generateName is the route's name")
	bindings, err := rbac.RoleBindings(contract.ConfigNamespace).List(ctx, selector)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(bindings.Items).To(HaveLen(1), "labelled RoleBindings of %s/%s", c.ns, c.name)
	binding := bindings.Items[0]
	g.Expect(binding.Name).To(Equal(role.Name))
	g.Expect(binding.RoleRef).To(Equal(rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: role.Name}))
	g.Expect(binding.OwnerReferences).To(ContainElement(HaveField("UID", role.UID)), "the RoleBinding is owned by the Role")
	var want []rbacv1.Subject
	for _, sa := range serviceAccounts {
		want = append(want, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: c.ns})
	}
	g.Expect(binding.Subjects).To(ConsistOf(want))
	return grant{role: role, binding: binding}
}

// eventuallyNoGrant waits until the route has neither Role nor RoleBinding.
func eventuallyNoGrant(ctx context.Context, f *framework.Framework, c componentRoute) {
	selector := c.grantSelector()
	rbac := f.Clientset.RbacV1()
	f.Eventually(ctx, func(g Gomega) {
		roles, err := rbac.Roles(contract.ConfigNamespace).List(ctx, selector)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(roles.Items).To(BeEmpty())
		bindings, err := rbac.RoleBindings(contract.ConfigNamespace).List(ctx, selector)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(bindings.Items).To(BeEmpty())
	}).Should(Succeed())
}

// expectAccess asks the API server whether the service account may get the
// Secret (a SubjectAccessReview), waiting for RBAC to settle.
func expectAccess(ctx context.Context, f *framework.Framework, saNamespace, sa, namespace, secret string, allowed bool) {
	f.Eventually(ctx, func(g Gomega) {
		review, err := f.Clientset.AuthorizationV1().SubjectAccessReviews().Create(ctx, &authorizationv1.SubjectAccessReview{
			Spec: authorizationv1.SubjectAccessReviewSpec{
				User:               fmt.Sprintf("system:serviceaccount:%s:%s", saNamespace, sa),
				Groups:             []string{"system:serviceaccounts", "system:serviceaccounts:" + saNamespace, "system:authenticated"},
				ResourceAttributes: &authorizationv1.ResourceAttributes{Namespace: namespace, Verb: "get", Resource: "secrets", Name: secret},
			},
		}, metav1.CreateOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(review.Status.Allowed).To(Equal(allowed), "get secrets/%s in %s as %s/%s: %s", secret, namespace, saNamespace, sa, review.Status.Reason)
	}).Should(Succeed())
}
