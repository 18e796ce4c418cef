package framework

import (
	"context"
	"fmt"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/fixtures/componentoperator"
)

// ComponentRoute is one entry of the Ingress config's componentRoutes: a
// component's route by namespace and name, the Secret the cluster-admin
// names for it, and the cluster's domain its hosts are under.
type ComponentRoute struct{ Namespace, Name, Secret, Domain string }

// grantSelector selects the operator's Role and RoleBinding for the route.
func (c ComponentRoute) grantSelector() metav1.ListOptions {
	return metav1.ListOptions{LabelSelector: contract.ComponentRouteHashLabel + "=" + contract.ComponentRouteHash(c.Namespace, c.Name)}
}

// Spec is the cluster-admin's spec entry: the custom host
// <name>-custom.<domain> with the Secret.
func (c ComponentRoute) Spec() []configv1.ComponentRouteSpec {
	return []configv1.ComponentRouteSpec{{
		Namespace: c.Namespace, Name: c.Name,
		Hostname:                 configv1.Hostname(c.Name + "-custom." + c.Domain),
		ServingCertKeyPairSecret: configv1.SecretNameReference{Name: c.Secret},
	}}
}

// Status is the component's status entry, as a component writes it: its
// default host <name>.<domain>, the consuming users, its Route.
func (c ComponentRoute) Status(users ...configv1.ConsumingUser) []configv1.ComponentRouteStatus {
	return []configv1.ComponentRouteStatus{{
		Namespace: c.Namespace, Name: c.Name,
		DefaultHostname: configv1.Hostname(c.Name + "." + c.Domain),
		ConsumingUsers:  users,
		RelatedObjects:  []configv1.ObjectReference{{Group: "route.openshift.io", Resource: "routes", Namespace: c.Namespace, Name: c.Name}},
	}}
}

// ComponentRouteJig writes the Ingress config's componentRoutes entries of
// one namespace, the spec's own, and checks what the ingress operator
// grants for them (cluster-ingress-operator pkg/operator/controller/
// configurable-route/controller.go): the Roles and RoleBindings in
// openshift-config, and whether a service account may read a Secret.
// The Ingress config is one for the cluster, but the jig touches only the
// entries of its namespace, so that specs run in parallel.
type ComponentRouteJig struct {
	Namespace string
	f         *Framework
}

// NewComponentRouteJig is the jig of namespace ns's entries.
func NewComponentRouteJig(f *Framework, ns string) *ComponentRouteJig {
	return &ComponentRouteJig{Namespace: ns, f: f}
}

// Route is the component route name of the jig's namespace, naming
// Secret secret.
func (j *ComponentRouteJig) Route(name, secret string) ComponentRoute {
	return ComponentRoute{Namespace: j.Namespace, Name: name, Secret: secret, Domain: j.f.Domain}
}

// CreateServiceAccounts creates the service accounts in the jig's
// namespace.
func (j *ComponentRouteJig) CreateServiceAccounts(ctx context.Context, names ...string) {
	GinkgoHelper()
	for _, sa := range names {
		_, err := j.f.Clientset.CoreV1().ServiceAccounts(j.Namespace).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: sa}}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
	}
}

// User is the consuming user of service account sa of the jig's
// namespace.
func (j *ComponentRouteJig) User(sa string) configv1.ConsumingUser {
	return configv1.ConsumingUser(componentoperator.ServiceAccountUser(j.Namespace, sa))
}

// Set makes spec and status the Ingress config's component routes of the
// jig's namespace, leaving every other entry as it is, so that specs run
// in parallel; the entries go when the spec ends.
func (j *ComponentRouteJig) Set(ctx context.Context, spec []configv1.ComponentRouteSpec, status []configv1.ComponentRouteStatus) {
	GinkgoHelper()
	ns := j.Namespace
	DeferCleanup(func(ctx SpecContext) {
		Expect(j.UpdateStatus(ctx, nil)).To(Succeed(), "remove the status entries of namespace %s", ns)
		Expect(j.UpdateSpec(ctx, nil)).To(Succeed(), "remove the spec entries of namespace %s", ns)
	})
	Expect(j.UpdateSpec(ctx, spec)).To(Succeed(), "set the spec entries of namespace %s", ns)
	Expect(j.UpdateStatus(ctx, status)).To(Succeed(), "set the status entries of namespace %s", ns)
}

// UpdateSpec replaces the spec entries of the jig's namespace, placing
// spec first in the list (in its order), so that a refusal names them by
// their index in spec: spec.componentRoutes[i].
func (j *ComponentRouteJig) UpdateSpec(ctx context.Context, spec []configv1.ComponentRouteSpec) error {
	return j.updateIngressConfig(ctx, func(i *configv1.Ingress) {
		others := slices.DeleteFunc(i.Spec.ComponentRoutes, func(e configv1.ComponentRouteSpec) bool { return e.Namespace == j.Namespace })
		i.Spec.ComponentRoutes = append(slices.Clone(spec), others...)
	}, false)
}

// UpdateStatus replaces the status entries of the jig's namespace, placing
// status first in the list, as UpdateSpec does.
func (j *ComponentRouteJig) UpdateStatus(ctx context.Context, status []configv1.ComponentRouteStatus) error {
	return j.updateIngressConfig(ctx, func(i *configv1.Ingress) {
		others := slices.DeleteFunc(i.Status.ComponentRoutes, func(e configv1.ComponentRouteStatus) bool { return e.Namespace == j.Namespace })
		i.Status.ComponentRoutes = append(slices.Clone(status), others...)
	}, true)
}

// updateIngressConfig changes the live Ingress config, through its status
// subresource when status is set: again on a conflict only (the operator
// and other specs write it too); a refusal is returned at once.
func (j *ComponentRouteJig) updateIngressConfig(ctx context.Context, change func(*configv1.Ingress), status bool) error {
	ingresses := j.f.ConfigAPI.ConfigV1().Ingresses()
	var c GetUpdater[*configv1.Ingress] = ingresses
	if status {
		c = StatusWriter[*configv1.Ingress]{Client: ingresses}
	}
	_, err := Update(ctx, c, contract.IngressConfig, change)
	return err
}

// ComponentRouteGrant is the Role and RoleBinding of one component route.
type ComponentRouteGrant struct {
	Role    rbacv1.Role
	Binding rbacv1.RoleBinding
}

// EventuallyGrant waits until exactly one labelled Role and one
// RoleBinding of that name exist for the route, the binding owned by the
// Role and binding exactly the service accounts.
func (j *ComponentRouteJig) EventuallyGrant(ctx context.Context, c ComponentRoute, serviceAccounts ...string) ComponentRouteGrant {
	GinkgoHelper()
	var got ComponentRouteGrant
	j.f.Eventually(ctx, func(g Gomega) { got = j.CurrentGrant(ctx, g, c, serviceAccounts...) }).Should(Succeed())
	return got
}

// CurrentGrant checks the route's grant once, for an Eventually.
func (j *ComponentRouteJig) CurrentGrant(ctx context.Context, g Gomega, c ComponentRoute, serviceAccounts ...string) ComponentRouteGrant {
	selector := c.grantSelector()
	rbac := j.f.Clientset.RbacV1()
	roles, err := rbac.Roles(contract.ConfigNamespace).List(ctx, selector)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(roles.Items).To(HaveLen(1), "labelled Roles of %s/%s", c.Namespace, c.Name)
	role := roles.Items[0]
	g.Expect(role.Name).To(HavePrefix(c.Name+"-"), "the Role's generateName is the route's name")
	bindings, err := rbac.RoleBindings(contract.ConfigNamespace).List(ctx, selector)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(bindings.Items).To(HaveLen(1), "labelled RoleBindings of %s/%s", c.Namespace, c.Name)
	binding := bindings.Items[0]
	g.Expect(binding.Name).To(Equal(role.Name))
	g.Expect(binding.RoleRef).To(Equal(rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: role.Name}))
	g.Expect(binding.OwnerReferences).To(ContainElement(HaveField("UID", role.UID)), "the RoleBinding is owned by the Role")
	var want []rbacv1.Subject
	for _, sa := range serviceAccounts {
		want = append(want, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: c.Namespace})
	}
	g.Expect(binding.Subjects).To(ConsistOf(want))
	return ComponentRouteGrant{Role: role, Binding: binding}
}

// EventuallyNoGrant waits until the route has neither Role nor
// RoleBinding.
func (j *ComponentRouteJig) EventuallyNoGrant(ctx context.Context, c ComponentRoute) {
	GinkgoHelper()
	selector := c.grantSelector()
	rbac := j.f.Clientset.RbacV1()
	j.f.Eventually(ctx, func(g Gomega) {
		roles, err := rbac.Roles(contract.ConfigNamespace).List(ctx, selector)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(roles.Items).To(BeEmpty())
		bindings, err := rbac.RoleBindings(contract.ConfigNamespace).List(ctx, selector)
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(bindings.Items).To(BeEmpty())
	}).Should(Succeed())
}

// ExpectAccess asks the API server whether service account sa of the
// jig's namespace may get the Secret (a SubjectAccessReview), waiting for
// RBAC to settle.
func (j *ComponentRouteJig) ExpectAccess(ctx context.Context, sa, namespace, secret string, allowed bool) {
	GinkgoHelper()
	saNamespace := j.Namespace
	j.f.Eventually(ctx, func(g Gomega) {
		review, err := j.f.Clientset.AuthorizationV1().SubjectAccessReviews().Create(ctx, &authorizationv1.SubjectAccessReview{
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
