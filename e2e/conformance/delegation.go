package conformance

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// The IngressRoute design document (Contour), sections "Delegation",
// "IngressRoute CRD", "Delegation rules", "Validation rules", "Reporting
// status", "IngressRoutes dispatch only to services in the same namespace"
// and "Security Concerns": a root IngressRoute carries the virtual host;
// other IngressRoutes (vertices) are reachable only by delegation of a
// path prefix; routes match most specific first; a route sends traffic
// only to services of its own object's namespace; an object with any
// invalid part is rejected whole; the routes of a vertex, delegate routes
// included, lie inside the prefix delegated to it.
//
// Where the document speaks it decides. Where it is silent the specs
// follow shipped Contour, github.com/projectcontour/contour v1.0.1
// (internal/dag/builder.go unless said otherwise), cited per spec. Where
// both are silent, or Contour or Gateway API later changed what v1.0.1
// did, a spec asserts neither side and says why.
//
// Status: a spec requires the currentStatus ("valid", "invalid",
// "orphaned"), the design document's delegationStatuses where it shows
// them, and for an invalid object a description carrying one of the
// accepted wordings of its condition (contract/ingressroute_status.go:
// Contour v1.0.1's beside the reference router's), never text Contour's
// wording lacks.
//
// Every IngressRoute lives in the spec's own namespaces, so the specs run
// in parallel.
func describeDelegation(f *framework.Framework) {
	framework.DescribeFeature(contract.FeatureDelegation, func() {
		describeDelegationRouting(f)
		describeDelegationInvalid(f)
		describeDelegationStatus(f)
		describeDelegationTLS(f)
	})
}

// createSecret creates secret.
func createSecret(ctx SpecContext, f *framework.Framework, secret *corev1.Secret) {
	GinkgoHelper()
	_, err := f.Clientset.CoreV1().Secrets(secret.Namespace).Create(ctx, secret, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create secret %s/%s", secret.Namespace, secret.Name)
}

// servedEveryTime sends req, once the router has converged, a fixed
// number of times more, and every answer must pass check: a route
// balanced over endpoints it should not reach shows one within a few
// answers, whatever the balancing (a run of three alone can be luck).
func servedEveryTime(ctx SpecContext, req httpclient.Request, check func(Gomega, *httpclient.Response)) {
	GinkgoHelper()
	const answers = 10
	for i := range answers {
		resp, err := framework.Do(ctx, req)
		Expect(err).NotTo(HaveOccurred(), "request %d to %s%s", i+1, req.Host, req.Path)
		check(Default, resp)
	}
}

// httpsWith is req verifying the router's certificate against ca.
func httpsWith(req httpclient.Request, ca *pki.CA) httpclient.Request {
	req.RootCAs = pki.Pool(ca)
	return req
}

// redirectedToHTTPS checks the router's own 301 to https://host+path, as
// shipped Contour answers plain HTTP to a TLS root (see
// delegation/tls-http-redirect).
func redirectedToHTTPS(host, path string) func(Gomega, *httpclient.Response) {
	return func(g Gomega, resp *httpclient.Response) {
		g.Expect(resp.Status).To(Equal(http.StatusMovedPermanently), "body: %s", resp.Body)
		g.Expect(resp.Echo).To(BeNil(), "a backend answered: %+v", resp.Echo)
		g.Expect(resp.Header.Values("Location")).To(Equal([]string{"https://" + host + path}))
	}
}

// rootRoute is a root IngressRoute: it carries the virtual host.
func rootRoute(ns, name, fqdn string, routes ...irv1.Route) *irv1.IngressRoute {
	ir := vertexRoute(ns, name, routes...)
	ir.Spec.VirtualHost = &irv1.VirtualHost{Fqdn: fqdn}
	return ir
}

// vertexRoute is an IngressRoute without a virtual host: live only when
// delegated to.
func vertexRoute(ns, name string, routes ...irv1.Route) *irv1.IngressRoute {
	return &irv1.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: irv1.Spec{Routes: routes}}
}

func toService(match string, services ...string) irv1.Route {
	r := irv1.Route{Match: match}
	for _, s := range services {
		r.Services = append(r.Services, irv1.Service{Name: s, Port: framework.EchoHTTPServicePort})
	}
	return r
}

// toPort routes match to port of service.
func toPort(match, service string, port int) irv1.Route {
	return irv1.Route{Match: match, Services: []irv1.Service{{Name: service, Port: port}}}
}

func delegateTo(match, name, ns string) irv1.Route {
	return irv1.Route{Match: match, Delegate: &irv1.Delegate{Name: name, Namespace: ns}}
}

func expectValid(g Gomega, st irv1.Status) {
	g.ExpectWithOffset(1, st.CurrentStatus).To(Equal(irv1.StatusValid), "description: %s", st.Description)
}

func expectOrphaned(g Gomega, st irv1.Status) {
	g.ExpectWithOffset(1, st.CurrentStatus).To(Equal(irv1.StatusOrphaned), "description: %s", st.Description)
}

// expectConnected checks the object is valid and connected to its parent
// under prefix, with the time it was connected.
func expectConnected(parent, parentNS, prefix string) func(Gomega, irv1.Status) {
	return func(g Gomega, st irv1.Status) {
		expectValid(g, st)
		g.ExpectWithOffset(1, st.DelegationStatuses).To(ContainElement(HaveField("State.Connected", And(
			Not(BeNil()),
			HaveField("Parent", Equal(irv1.Parent{Name: parent, Namespace: parentNS, Prefix: prefix})),
			HaveField("ConnectedAt.Time", Not(BeZero())),
		))))
	}
}
