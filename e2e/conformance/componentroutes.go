package conformance

import (
	"context"
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
// exactly that Secret. The RBAC specs play the component (they write its status
// entry), as cluster-ingress-operator's test/e2e/configurable_route_test.go
// does; the last two run the suite's fixture component.
// Upstream: cluster-ingress-operator
// pkg/operator/controller/configurable-route/controller.go. The Ingress
// config is one for the cluster, but each spec touches only the entries of
// its own namespace: they run in parallel.
func describeComponentRoutes(f *framework.Framework) {
	Describe("Component routes", framework.Needs(contract.FeatureComponentRoutes), func() {
		It("grants the consuming service accounts read access to exactly the named Secret, and follows every change", framework.JudgesPlatform, func(ctx SpecContext) {
			ns := f.SpecNamespace(ctx, "component")
			for _, sa := range []string{"component", "helper"} {
				_, err := f.Clientset.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: sa}}, metav1.CreateOptions{})
				Expect(err).NotTo(HaveOccurred())
			}
			secret := "custom-cert-" + ns
			user := func(sa string) configv1.ConsumingUser {
				return configv1.ConsumingUser("system:serviceaccount:" + ns + ":" + sa)
			}
			route := componentRoute{ns: ns, name: "console", secret: secret, domain: f.Domain}

			By("an entry in spec and status with two consuming users: one Role and one RoleBinding")
			setComponentRoutes(ctx, f, route.ns, route.spec(), route.status(user("component"), user("helper")))
			grant := eventuallyGrant(ctx, f, route, "component", "helper")
			Expect(grant.role.Rules).To(Equal([]rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "watch"}, ResourceNames: []string{secret}}}))

			By("the permission is real: exactly that Secret, in openshift-config only")
			expectAccess(ctx, f, ns, "component", contract.ConfigNamespace, secret, true)
			expectAccess(ctx, f, ns, "component", contract.ConfigNamespace, "another-secret", false)
			expectAccess(ctx, f, ns, "component", ns, secret, false)
			expectAccess(ctx, f, ns, "unlisted", contract.ConfigNamespace, secret, false)

			By("a consuming user removed from status: the subjects follow")
			setComponentRoutes(ctx, f, route.ns, route.spec(), route.status(user("component")))
			eventuallyGrant(ctx, f, route, "component")

			By("self-healing: a deleted RoleBinding comes back, a tampered rule is restored")
			rbac := f.Clientset.RbacV1()
			Expect(rbac.RoleBindings(contract.ConfigNamespace).Delete(ctx, grant.binding.Name, metav1.DeleteOptions{})).To(Succeed())
			eventuallyGrant(ctx, f, route, "component")
			_, err := framework.Update(ctx, rbac.Roles(contract.ConfigNamespace), grant.role.Name, func(role *rbacv1.Role) {
				role.Rules[0].ResourceNames = []string{secret, "another-secret"}
			})
			Expect(err).NotTo(HaveOccurred(), "tamper with Role %s/%s", contract.ConfigNamespace, grant.role.Name)
			f.Eventually(ctx, func(g Gomega) {
				g.Expect(currentGrant(ctx, f, g, route, "component").role.Rules[0].ResourceNames).To(Equal([]string{secret}))
			}).Should(Succeed())

			By("the entry removed from spec: no Role, no RoleBinding")
			setComponentRoutes(ctx, f, route.ns, nil, route.status(user("component")))
			eventuallyNoGrant(ctx, f, route)
			expectAccess(ctx, f, ns, "component", contract.ConfigNamespace, secret, false)
		})

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

		// The component side, played by the suite's fixture component
		// (fixtures/componentoperator), which does what the console and
		// authentication operators do: openshift/console-operator
		// pkg/console/controllers/route, openshift/cluster-authentication-operator
		// pkg/controllers/customroute; the cluster-admin's side as
		// cluster-ingress-operator test/e2e/configurable_route_test.go writes it.
		It("the component publishes its entry, moves its route to the custom host with the Secret's certificate, and back when the entry goes", func(ctx SpecContext) {
			c := deployComponent(ctx, f, "component-move")
			By("its status entry: default host, its service account, its route, all well")
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.DefaultHostname).To(Equal(configv1.Hostname(c.defaultHost)))
				g.Expect(e.ConsumingUsers).To(ConsistOf(configv1.ConsumingUser(c.operator.ConsumingUser())))
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.defaultHost)))
				g.Expect(e.RelatedObjects).To(ContainElement(configv1.ObjectReference{Group: "route.openshift.io", Resource: "routes", Namespace: c.ns, Name: c.route}))
				expectConditions(g, e, metav1.ConditionFalse)
			})
			f.EventuallyResponds(ctx, f.HTTPS(c.defaultHost, "/"), c.backend.Served)

			By("a spec entry with a host and a kubernetes.io/tls Secret: the route moves, and the router presents exactly that certificate")
			custom := f.Host(c.ns, "custom")
			secret, ca, cert := tlsSecret(contract.ConfigNamespace, "component-cert-"+c.ns, custom)
			createConfigSecret(ctx, f, secret)
			start := time.Now()
			setComponentSpec(ctx, f, c, custom, secret.Name)
			req := f.HTTPS(custom, "/")
			req.RootCAs = pki.Pool(ca)
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				c.backend.Served(g, resp)
				g.Expect(resp.TLS.PeerCertificates[0].Equal(cert)).To(BeTrue(), "want the Secret's certificate, got %s", resp.TLS.PeerCertificates[0].Subject)
			})
			AddReportEntry("component route: spec entry → custom host serving the Secret's certificate", time.Since(start).Round(time.Millisecond).String())
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(custom)))
				expectConditions(g, e, metav1.ConditionFalse)
			})
			f.EventuallyResponds(ctx, f.HTTPS(c.defaultHost, "/"), framework.NotServed)

			By("the spec entry removed: the default host and the router's default certificate again")
			setComponentSpec(ctx, f, c, "", "")
			f.EventuallyResponds(ctx, f.HTTPS(c.defaultHost, "/"), func(g Gomega, resp *httpclient.Response) {
				c.backend.Served(g, resp)
				g.Expect(resp.TLS.PeerCertificates[0].Equal(cert)).To(BeFalse(), "the custom certificate must be gone")
			})
			f.EventuallyResponds(ctx, f.HTTPS(custom, "/"), framework.NotServed)
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.defaultHost)))
			})
		})

		// The authentication operator's custom route controller reports a
		// Secret it cannot use as Degraded, naming it, and leaves the route
		// where it is (cluster-authentication-operator
		// pkg/controllers/customroute/custom_route_controller.go).
		It("a Secret that is missing or not kubernetes.io/tls keeps the route on its host and reports Degraded naming the Secret; fixing it recovers", framework.JudgesPlatform, func(ctx SpecContext) {
			c := deployComponent(ctx, f, "component-degraded")
			f.EventuallyResponds(ctx, f.HTTPS(c.defaultHost, "/"), c.backend.Served)
			custom := f.Host(c.ns, "custom")
			secret, ca, cert := tlsSecret(contract.ConfigNamespace, "component-cert-"+c.ns, custom)
			ref := contract.ConfigNamespace + "/" + secret.Name

			By("a Secret that does not exist")
			setComponentSpec(ctx, f, c, custom, secret.Name)
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				degraded := expectConditions(g, e, metav1.ConditionTrue)
				g.Expect(degraded.Message).To(ContainSubstring(ref))
				g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(c.defaultHost)))
			})
			f.EventuallyResponds(ctx, f.HTTPS(c.defaultHost, "/"), c.backend.Served)
			f.EventuallyResponds(ctx, f.HTTPS(custom, "/"), framework.NotServed)

			By("a Secret of type Opaque")
			opaque := secret.DeepCopy()
			opaque.Type = corev1.SecretTypeOpaque
			createConfigSecret(ctx, f, opaque)
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				degraded := expectConditions(g, e, metav1.ConditionTrue)
				g.Expect(degraded.Message).To(And(ContainSubstring(ref), ContainSubstring(string(corev1.SecretTypeTLS))))
			})
			f.EventuallyResponds(ctx, f.HTTPS(c.defaultHost, "/"), c.backend.Served)

			By("positive control: the Secret fixed, the route moves and Degraded clears")
			Expect(f.Clientset.CoreV1().Secrets(contract.ConfigNamespace).Delete(ctx, secret.Name, metav1.DeleteOptions{})).To(Succeed())
			createConfigSecret(ctx, f, secret)
			req := f.HTTPS(custom, "/")
			req.RootCAs = pki.Pool(ca)
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				c.backend.Served(g, resp)
				g.Expect(resp.TLS.PeerCertificates[0].Equal(cert)).To(BeTrue())
			})
			eventuallyComponentStatus(ctx, f, c, func(g Gomega, e *configv1.ComponentRouteStatus) {
				expectConditions(g, e, metav1.ConditionFalse)
			})
		})
	})
}

// component is a running fixture component: its namespace, backend,
// route, default host and operator.
type component struct {
	ns, route, defaultHost string
	backend                *framework.Echo
	operator               componentoperator.Options
}

// deployComponent creates, in a namespace of its own, an echo backend, the
// component's Route on its default host, and the fixture component
// managing it.
func deployComponent(ctx SpecContext, f *framework.Framework, prefix string) *component {
	ns := f.SpecNamespace(ctx, prefix)
	c := &component{ns: ns, route: "console", backend: f.DeployEcho(ctx, ns)}
	route := f.RouteTo(c.backend, c.route, framework.EchoHTTPPort)
	route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
	c.defaultHost = f.CreateRoute(ctx, route).Spec.Host
	c.operator = f.DeployComponentOperator(ctx, ns, "console", c.route, c.defaultHost)
	return c
}

// eventuallyComponentStatus waits until the component's status entry
// passes check.
func eventuallyComponentStatus(ctx context.Context, f *framework.Framework, c *component, check func(Gomega, *configv1.ComponentRouteStatus)) {
	f.Eventually(ctx, func(g Gomega) {
		live, err := f.ConfigAPI.ConfigV1().Ingresses().Get(ctx, contract.IngressConfig, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		var entry *configv1.ComponentRouteStatus
		for i, e := range live.Status.ComponentRoutes {
			if e.Namespace == c.ns && e.Name == c.operator.Name {
				entry = &live.Status.ComponentRoutes[i]
			}
		}
		g.Expect(entry).NotTo(BeNil(), "no status entry for %s/%s", c.ns, c.operator.Name)
		check(g, entry)
	}).Should(Succeed())
}

// expectConditions checks Degraded has the given status (Progressing False
// when all is well, with reason AsExpected as library-go's operators
// write it) and returns the Degraded condition.
func expectConditions(g Gomega, e *configv1.ComponentRouteStatus, degraded metav1.ConditionStatus) *metav1.Condition {
	d := meta.FindStatusCondition(e.Conditions, "Degraded")
	g.ExpectWithOffset(1, d).NotTo(BeNil(), "no Degraded condition: %+v", e.Conditions)
	g.ExpectWithOffset(1, d.Status).To(Equal(degraded), "Degraded: %s", d.Message)
	if degraded == metav1.ConditionFalse {
		g.ExpectWithOffset(1, d.Reason).To(Equal("AsExpected"))
		p := meta.FindStatusCondition(e.Conditions, "Progressing")
		g.ExpectWithOffset(1, p).NotTo(BeNil(), "no Progressing condition: %+v", e.Conditions)
		g.ExpectWithOffset(1, p.Status).To(Equal(metav1.ConditionFalse), "Progressing: %s", p.Message)
		g.ExpectWithOffset(1, p.Reason).To(Equal("AsExpected"))
	}
	return d
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
