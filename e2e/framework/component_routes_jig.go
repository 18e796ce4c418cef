package framework

import (
	"context"
	"crypto/x509"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/componentoperator"
	"github.com/router-conformance/suite/pki"
)

// ComponentJig drives the suite's fixture component (DeployComponentOperator)
// for a spec: its namespace, echo backend, Route, default host and
// operator (started or not); what a cluster-admin does to it (the spec
// entry, the serving Secret in openshift-config); and what it shows
// through the API (its Route, its status entry).
type ComponentJig struct {
	Namespace, Route, DefaultHost string
	Backend                       *Echo
	Operator                      componentoperator.Options
	// Entries writes the Ingress config's entries of the component's
	// namespace.
	Entries *ComponentRouteJig
	f       *Framework
}

// NewComponentJig creates, in a namespace of its own, an echo backend and
// the component's Route on its default host (edge, the router's default
// certificate), admitted by route admission (no router's status is
// waited for: the platform specs that use it must not wait on the
// router, and its router specs wait for the answer); the fixture
// component is not started.
func NewComponentJig(ctx context.Context, f *Framework, prefix string) *ComponentJig {
	GinkgoHelper()
	ns := f.SpecNamespace(ctx, prefix)
	c := &ComponentJig{Namespace: ns, Route: "console", Backend: f.DeployEcho(ctx, ns), Entries: NewComponentRouteJig(f, ns), f: f}
	route := f.RouteTo(c.Backend, c.Route, EchoHTTPPort)
	route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
	c.DefaultHost = f.CreateAdmittedRoute(ctx, route).Spec.Host
	c.Operator = componentoperator.Options{Namespace: ns, Name: "console", RouteName: c.Route, DefaultHostname: c.DefaultHost}
	return c
}

// DeployComponentJig is NewComponentJig, started.
func DeployComponentJig(ctx context.Context, f *Framework, prefix string) *ComponentJig {
	GinkgoHelper()
	c := NewComponentJig(ctx, f, prefix)
	c.Start(ctx)
	return c
}

// Start runs the fixture component managing the Route.
func (c *ComponentJig) Start(ctx context.Context) {
	GinkgoHelper()
	c.Operator = c.f.DeployComponentOperator(ctx, c.Namespace, c.Operator.Name, c.Route, c.DefaultHost)
}

// SetSpec sets (hostname != "") or removes the cluster-admin's spec entry
// for the component.
func (c *ComponentJig) SetSpec(ctx context.Context, hostname, secret string) {
	GinkgoHelper()
	var entries []configv1.ComponentRouteSpec
	if hostname != "" {
		entries = []configv1.ComponentRouteSpec{{Namespace: c.Namespace, Name: c.Operator.Name, Hostname: configv1.Hostname(hostname),
			ServingCertKeyPairSecret: configv1.SecretNameReference{Name: secret}}}
	}
	Expect(c.Entries.UpdateSpec(ctx, entries)).To(Succeed(), "set the spec entry of component %s/%s", c.Namespace, c.Operator.Name)
}

// NewCA is a CA for the custom host's certificates.
func (c *ComponentJig) NewCA() *pki.CA {
	GinkgoHelper()
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Component route CA " + c.Namespace}})
	Expect(err).NotTo(HaveOccurred())
	return ca
}

// ServingSecret is a kubernetes.io/tls Secret in openshift-config with a
// new certificate of ca for host, and that certificate; it is not
// created.
func (c *ComponentJig) ServingSecret(ca *pki.CA, name, host string) (*corev1.Secret, *x509.Certificate) {
	GinkgoHelper()
	return TLSSecret(ca, contract.ConfigNamespace, name, host)
}

// CreateConfigSecret creates a Secret in openshift-config for the spec,
// deleted when the spec (or the container) ends.
func (c *ComponentJig) CreateConfigSecret(ctx context.Context, s *corev1.Secret) {
	GinkgoHelper()
	f := c.f
	_, err := f.Clientset.CoreV1().Secrets(s.Namespace).Create(ctx, s, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func(ctx SpecContext) {
		err := f.Clientset.CoreV1().Secrets(s.Namespace).Delete(ctx, s.Name, metav1.DeleteOptions{})
		Expect(err == nil || apierrors.IsNotFound(err)).To(BeTrue(), "delete secret %s: %v", s.Name, err)
	})
}

// RotateSecret gives the Secret new contents, a new certificate of ca for
// host (as a cluster-admin rotates it, in place), and returns them.
func (c *ComponentJig) RotateSecret(ctx context.Context, ca *pki.CA, s *corev1.Secret, host string) (*corev1.Secret, *x509.Certificate) {
	GinkgoHelper()
	next, cert := c.ServingSecret(ca, s.Name, host)
	updated, err := Update(ctx, c.f.Clientset.CoreV1().Secrets(s.Namespace), s.Name, func(live *corev1.Secret) { live.Data = next.Data })
	Expect(err).NotTo(HaveOccurred(), "rotate secret %s/%s", s.Namespace, s.Name)
	return updated, cert
}

// Status is the component's status entry, or nil.
func (c *ComponentJig) Status(ctx context.Context, g Gomega) *configv1.ComponentRouteStatus {
	live, err := c.f.ConfigAPI.ConfigV1().Ingresses().Get(ctx, contract.IngressConfig, metav1.GetOptions{})
	g.ExpectWithOffset(1, err).NotTo(HaveOccurred())
	for i, e := range live.Status.ComponentRoutes {
		if e.Namespace == c.Namespace && e.Name == c.Operator.Name {
			return &live.Status.ComponentRoutes[i]
		}
	}
	return nil
}

// EventuallyStatus waits until the component's status entry passes check.
func (c *ComponentJig) EventuallyStatus(ctx context.Context, check func(Gomega, *configv1.ComponentRouteStatus)) {
	GinkgoHelper()
	c.f.Eventually(ctx, func(g Gomega) {
		entry := c.Status(ctx, g)
		g.Expect(entry).NotTo(BeNil(), "no status entry for %s/%s", c.Namespace, c.Operator.Name)
		check(g, entry)
	}).Should(Succeed())
}

// EventuallyAllWellAt waits for the component's status entry to hold
// host alone as its current hostname, with Degraded and Progressing False
// (ExpectAsExpected).
func (c *ComponentJig) EventuallyAllWellAt(ctx context.Context, host string) {
	GinkgoHelper()
	c.EventuallyStatus(ctx, func(g Gomega, e *configv1.ComponentRouteStatus) {
		g.Expect(e.CurrentHostnames).To(ConsistOf(configv1.Hostname(host)))
		ExpectAsExpected(g, e)
	})
}

// ExpectAsExpected checks that Degraded and Progressing are False with
// the authentication operator's AsExpected "All is well"
// (custom_route_conditions.go ensureDefaultConditions): no error, and the
// Route admitted under its host.
func ExpectAsExpected(g Gomega, e *configv1.ComponentRouteStatus) {
	for _, typ := range []string{componentoperator.ConditionDegraded, componentoperator.ConditionProgressing} {
		c := meta.FindStatusCondition(e.Conditions, typ)
		g.ExpectWithOffset(1, c).NotTo(BeNil(), "no %s condition: %+v", typ, e.Conditions)
		g.ExpectWithOffset(1, *c).To(And(
			HaveField("Status", metav1.ConditionFalse),
			HaveField("Reason", contract.ComponentRouteReasonAsExpected),
			HaveField("Message", contract.ComponentRouteMessageAsExpected)), "%s", typ)
	}
}

// ExpectCustomRouteError checks Degraded True and Progressing False, both
// with reason CustomRouteError and exactly message
// (custom_route_conditions.go checkErrorsConfiguringCustomRoute).
func ExpectCustomRouteError(g Gomega, e *configv1.ComponentRouteStatus, message string) {
	for typ, status := range map[string]metav1.ConditionStatus{componentoperator.ConditionDegraded: metav1.ConditionTrue, componentoperator.ConditionProgressing: metav1.ConditionFalse} {
		c := meta.FindStatusCondition(e.Conditions, typ)
		g.ExpectWithOffset(1, c).NotTo(BeNil(), "no %s condition: %+v", typ, e.Conditions)
		g.ExpectWithOffset(1, *c).To(And(
			HaveField("Status", status),
			HaveField("Reason", contract.ComponentRouteReasonError),
			HaveField("Message", message)), "%s", typ)
	}
}

// ExpectProgressing checks Progressing True with reason and exactly
// message, and Degraded False with AsExpected "All is well"
// (custom_route_conditions.go checkIngressURI, then
// ensureDefaultConditions): the component acting on the entry, nothing
// wrong.
func ExpectProgressing(g Gomega, e *configv1.ComponentRouteStatus, reason, message string) {
	p := meta.FindStatusCondition(e.Conditions, componentoperator.ConditionProgressing)
	g.ExpectWithOffset(1, p).NotTo(BeNil(), "no %s condition: %+v", componentoperator.ConditionProgressing, e.Conditions)
	g.ExpectWithOffset(1, *p).To(And(
		HaveField("Status", metav1.ConditionTrue),
		HaveField("Reason", reason),
		HaveField("Message", message)), "%s", componentoperator.ConditionProgressing)
	d := meta.FindStatusCondition(e.Conditions, componentoperator.ConditionDegraded)
	g.ExpectWithOffset(1, d).NotTo(BeNil(), "no %s condition: %+v", componentoperator.ConditionDegraded, e.Conditions)
	g.ExpectWithOffset(1, *d).To(And(
		HaveField("Status", metav1.ConditionFalse),
		HaveField("Reason", contract.ComponentRouteReasonAsExpected),
		HaveField("Message", contract.ComponentRouteMessageAsExpected)), "%s", componentoperator.ConditionDegraded)
}

// WithoutTransitionTimes is the entry with its conditions'
// lastTransitionTime cleared: its content, for comparing an entry with
// one written anew.
func WithoutTransitionTimes(e configv1.ComponentRouteStatus) configv1.ComponentRouteStatus {
	out := *e.DeepCopy()
	for i := range out.Conditions {
		out.Conditions[i].LastTransitionTime = metav1.Time{}
	}
	return out
}

// checkRoute checks the component's Route: on host, edge, with cert (PEM,
// the Secret's tls.crt) as its own certificate, or none when cert is nil.
func (c *ComponentJig) checkRoute(ctx context.Context, g Gomega, host string, cert []byte) {
	r, err := c.f.Routes.RouteV1().Routes(c.Namespace).Get(ctx, c.Route, metav1.GetOptions{})
	g.ExpectWithOffset(1, err).NotTo(HaveOccurred())
	g.ExpectWithOffset(1, r.Spec.Host).To(Equal(host), "route %s/%s host", c.Namespace, c.Route)
	g.ExpectWithOffset(1, r.Spec.TLS).NotTo(BeNil(), "route %s/%s tls", c.Namespace, c.Route)
	g.ExpectWithOffset(1, r.Spec.TLS.Termination).To(Equal(routev1.TLSTerminationEdge))
	g.ExpectWithOffset(1, r.Spec.TLS.Certificate).To(Equal(string(cert)), "route %s/%s certificate (want the Secret's tls.crt, or none)", c.Namespace, c.Route)
}

// ExpectRoute checks the Route once (a positive control, or a state that
// must hold).
func (c *ComponentJig) ExpectRoute(ctx context.Context, host string, cert []byte) {
	c.checkRoute(ctx, Default, host, cert)
}

// EventuallyRoute waits until the Route is so.
func (c *ComponentJig) EventuallyRoute(ctx context.Context, host string, cert []byte) {
	GinkgoHelper()
	c.f.Eventually(ctx, func(g Gomega) { c.checkRoute(ctx, g, host, cert) }).Should(Succeed())
}

// Presents checks that the component's backend answered over a TLS
// connection on which the router presented exactly cert.
func (c *ComponentJig) Presents(cert *x509.Certificate) func(Gomega, *httpclient.Response) {
	return c.Backend.ServedPresenting(cert)
}
