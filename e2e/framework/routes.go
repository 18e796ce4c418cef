package framework

import (
	"context"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/router-conformance/suite/contract"
)

// Host is a route host unique to the spec's namespace.
func (f *Framework) Host(ns, name string) string { return fmt.Sprintf("%s-%s.%s", name, ns, f.Domain) }

// RouteTo builds a route to the echo backend's port ("http" or "https"),
// with a unique host; set its TLS, annotations and headers before creating
// it.
func (f *Framework) RouteTo(backend *Echo, name, port string) *routev1.Route {
	GinkgoHelper()
	if port == EchoHTTPSPort && backend.leased != nil {
		Fail(fmt.Sprintf("route %s/%s: backend %s is a lease on the echo pool, which has no https port: deploy it with DeployTLSEcho or DeployEchoFor", backend.Namespace, name, backend.Service))
	}
	return &routev1.Route{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: backend.Namespace},
		Spec: routev1.RouteSpec{
			Host: f.Host(backend.Namespace, name),
			To:   routev1.RouteTargetReference{Kind: "Service", Name: backend.Service},
			Port: &routev1.RoutePort{TargetPort: intstr.FromString(port)},
		},
	}
}

// TerminatedRouteTo is RouteTo for a termination ("" is a plain HTTP
// route): to the backend port that termination reaches (plain and edge:
// HTTP; reencrypt and passthrough: the backend's own TLS), with the
// backend's CA as destinationCACertificate for reencrypt.
func (f *Framework) TerminatedRouteTo(backend *Echo, name string, termination routev1.TLSTerminationType, insecure routev1.InsecureEdgeTerminationPolicyType) *routev1.Route {
	GinkgoHelper()
	if termination == "" {
		return f.RouteTo(backend, name, EchoHTTPPort)
	}
	port := EchoHTTPPort
	if termination == routev1.TLSTerminationReencrypt || termination == routev1.TLSTerminationPassthrough {
		port = EchoHTTPSPort
	}
	route := f.RouteTo(backend, name, port)
	route.Spec.TLS = &routev1.TLSConfig{Termination: termination, InsecureEdgeTerminationPolicy: insecure}
	if termination == routev1.TLSTerminationReencrypt {
		route.Spec.TLS.DestinationCACertificate = string(backend.CA.CertPEM)
	}
	return route
}

// CreateRoute creates r (failing the spec if the API refuses it) and waits
// until this router admits it.
func (f *Framework) CreateRoute(ctx context.Context, r *routev1.Route) *routev1.Route {
	GinkgoHelper()
	created := f.CreateRouteNoWait(ctx, r)
	f.WaitAdmitted(ctx, created)
	return created
}

// CreateRouteNoWait creates r (failing the spec if the API refuses it),
// for a route the router is to refuse.
func (f *Framework) CreateRouteNoWait(ctx context.Context, r *routev1.Route) *routev1.Route {
	GinkgoHelper()
	created, err := f.Routes.RouteV1().Routes(r.Namespace).Create(ctx, r, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create route %s/%s", r.Namespace, r.Name)
	return created
}

// DeleteRoute deletes r.
func (f *Framework) DeleteRoute(ctx context.Context, r *routev1.Route) {
	GinkgoHelper()
	err := f.Routes.RouteV1().Routes(r.Namespace).Delete(ctx, r.Name, metav1.DeleteOptions{})
	Expect(err).NotTo(HaveOccurred(), "delete route %s/%s", r.Namespace, r.Name)
}

// WaitCreatedAfter waits until an object created now gets a creation
// timestamp later than older's, by the API server's own clock (it stamps
// whole seconds): a router orders the routes of one host by creation
// timestamp and only then by UID (openshift/router
// pkg/router/routeapihelpers/helper.go, RouteLessThan), so a spec that
// needs one route older than another creates the second after this. Each
// attempt creates and deletes a ConfigMap in older's namespace.
func (f *Framework) WaitCreatedAfter(ctx context.Context, older metav1.Object) {
	GinkgoHelper()
	f.Eventually(ctx, func(g Gomega) {
		probes := f.Clientset.CoreV1().ConfigMaps(older.GetNamespace())
		probe, err := probes.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "clock-"}}, metav1.CreateOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(probes.Delete(ctx, probe.Name, metav1.DeleteOptions{})).To(Succeed())
		created := older.GetCreationTimestamp()
		g.Expect(created.Before(&probe.CreationTimestamp)).To(BeTrue(),
			"an object created now is stamped %s, not after %s", probe.CreationTimestamp, created)
	}).Should(Succeed())
}

// WaitAdmitted waits for the route's Admitted=True condition from the
// router named "default".
func (f *Framework) WaitAdmitted(ctx context.Context, r *routev1.Route) {
	GinkgoHelper()
	f.waitAdmittedBy(ctx, contract.DefaultIngressController, r)
}

// waitAdmittedBy is WaitAdmitted for the router routerName.
func (f *Framework) waitAdmittedBy(ctx context.Context, routerName string, r *routev1.Route) {
	GinkgoHelper()
	f.EventuallyRoute(ctx, r, func(g Gomega, live *routev1.Route) {
		g.Expect(AdmittedBy(live, routerName)).To(Equal(corev1.ConditionTrue), "route %s/%s, entry of router %s: %+v", r.Namespace, r.Name, routerName, live.Status)
	})
}

// Admitted is the status of the default router's Admitted condition.
func Admitted(r *routev1.Route) corev1.ConditionStatus {
	return AdmittedBy(r, contract.DefaultIngressController)
}

// AdmittedBy is the status of the Admitted condition in routerName's
// entry of the route's status (a router is named after its
// IngressController); Unknown when it has no entry.
func AdmittedBy(r *routev1.Route, routerName string) corev1.ConditionStatus {
	if c := AdmittedConditionBy(r, routerName); c != nil {
		return c.Status
	}
	return corev1.ConditionUnknown
}

// AdmittedConditionBy is the Admitted condition in routerName's entry of
// the route's status; nil when there is none.
func AdmittedConditionBy(r *routev1.Route, routerName string) *routev1.RouteIngressCondition {
	in := IngressEntry(r, routerName)
	if in == nil {
		return nil
	}
	for i, c := range in.Conditions {
		if c.Type == routev1.RouteAdmitted {
			return &in.Conditions[i]
		}
	}
	return nil
}

// IngressEntry is routerName's entry in the route's status; nil when it
// has none.
func IngressEntry(r *routev1.Route, routerName string) *routev1.RouteIngress {
	for i, in := range r.Status.Ingress {
		if in.RouterName == routerName {
			return &r.Status.Ingress[i]
		}
	}
	return nil
}

// EventuallyRouteNotAdmitted waits until the default router's Admitted
// condition on r is False with exactly reason and message, as upstream's
// status writer records a refusal (openshift/router
// pkg/router/controller/status.go, StatusAdmitter.RecordRouteRejection).
// message is the exact text, or a matcher where upstream's message is an
// aggregate of which the spec names one part (ContainSubstring).
func (f *Framework) EventuallyRouteNotAdmitted(ctx context.Context, r *routev1.Route, reason string, message any) {
	GinkgoHelper()
	f.eventuallyRouteNotAdmittedBy(ctx, contract.DefaultIngressController, r, reason, message)
}

// eventuallyRouteNotAdmittedBy is EventuallyRouteNotAdmitted for the
// router routerName.
func (f *Framework) eventuallyRouteNotAdmittedBy(ctx context.Context, routerName string, r *routev1.Route, reason string, message any) {
	GinkgoHelper()
	matchMessage, ok := message.(types.GomegaMatcher)
	if !ok {
		matchMessage = Equal(message)
	}
	f.EventuallyRoute(ctx, r, func(g Gomega, live *routev1.Route) {
		c := AdmittedConditionBy(live, routerName)
		g.Expect(c).NotTo(BeNil(), "route %s/%s has no Admitted condition from router %s: %+v", r.Namespace, r.Name, routerName, live.Status)
		g.Expect(c.Status).To(Equal(corev1.ConditionFalse), "route %s/%s: %+v", r.Namespace, r.Name, *c)
		g.Expect(c.Reason).To(Equal(reason), "route %s/%s: %+v", r.Namespace, r.Name, *c)
		g.Expect(c.Message).To(matchMessage, "route %s/%s: %+v", r.Namespace, r.Name, *c)
	})
}

// EventuallyRoute waits until check passes on the live route.
func (f *Framework) EventuallyRoute(ctx context.Context, r *routev1.Route, check func(g Gomega, live *routev1.Route)) {
	GinkgoHelper()
	f.Eventually(ctx, func(g Gomega) {
		live, err := f.Routes.RouteV1().Routes(r.Namespace).Get(ctx, r.Name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		check(g, live)
	}).Should(Succeed())
}
