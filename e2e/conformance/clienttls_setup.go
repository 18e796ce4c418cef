package conformance

import (
	"context"
	"crypto/tls"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// mtlsSetup is what a client-TLS container shares: an IngressController
// of its own, a namespace it serves, the edge route the clients call and
// its echo backend, and the client certificates by name.
type mtlsSetup struct {
	f      *framework.Framework
	ic     *framework.IngressController
	ns     string
	host   string          // the edge route's, set by the container
	echo   *framework.Echo // behind host, set by the container
	leaves map[string]*pki.Leaf
	certs  map[string]*tls.Certificate
}

// newMTLSSetup gives the container its own IngressController and a
// namespace that it serves; call it in BeforeAll.
func newMTLSSetup(ctx context.Context, f *framework.Framework, prefix string) *mtlsSetup {
	ic := f.OwnIngressController(ctx)
	return &mtlsSetup{
		f: f, ic: ic,
		ns:     f.SpecNamespaceWithLabels(ctx, prefix, ic.NamespaceLabels),
		leaves: map[string]*pki.Leaf{},
		certs:  map[string]*tls.Certificate{},
	}
}

// clientSubject is the subject of the client certificate called cn.
func clientSubject(cn string) pki.Subject {
	return pki.Subject{Country: "US", Organization: "Example", OrganizationalUnit: "Eng", CommonName: cn}
}

// issue issues the client certificate name of ca.
func (m *mtlsSetup) issue(name string, ca *pki.CA, window pki.Window) {
	leaf, err := ca.IssueClient(pki.ClientOptions{Subject: clientSubject(name), Window: window})
	Expect(err).NotTo(HaveOccurred())
	cert, err := leaf.TLSCertificate()
	Expect(err).NotTo(HaveOccurred())
	m.leaves[name], m.certs[name] = leaf, &cert
}

// request is a request to the edge route with client's certificate.
func (m *mtlsSetup) request(client string) httpclient.Request {
	return framework.WithCert(m.ic.HTTPS(m.host, "/"), m.certs[client])
}

// eventuallyServed waits until the echo backend answers the client.
func (m *mtlsSetup) eventuallyServed(ctx context.Context, client string) {
	m.f.EventuallyResponds(ctx, m.request(client), func(g Gomega, resp *httpclient.Response) { m.echo.Served(g, resp) })
}

// clientCAMap creates ConfigMap name in the config namespace holding the
// CA bundle, deleted when the container ends; it returns name.
func (m *mtlsSetup) clientCAMap(ctx context.Context, name, bundle string) string {
	cs := m.f.Clientset
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: contract.ConfigNamespace}, Data: map[string]string{contract.ClientCAKey: bundle}}
	_, err := cs.CoreV1().ConfigMaps(contract.ConfigNamespace).Create(ctx, cm, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func(ctx SpecContext) {
		Expect(cs.CoreV1().ConfigMaps(contract.ConfigNamespace).Delete(ctx, name, metav1.DeleteOptions{})).To(Succeed())
	})
	return name
}

// requireClientTLS sets the IngressController's clientTLS and waits for
// the rollout.
func (m *mtlsSetup) requireClientTLS(ctx context.Context, policy operatorv1.ClientCertificatePolicy, caMap string, patterns ...string) {
	m.ic.Update(ctx, func(ic *operatorv1.IngressController) {
		ic.Spec.ClientTLS = operatorv1.ClientTLS{ClientCertificatePolicy: policy, ClientCA: configv1.ConfigMapNameReference{Name: caMap}, AllowedSubjectPatterns: patterns}
	})
}

// newEdgeMTLSSetup is newMTLSSetup with a crlserver in the namespace and
// an echo backend behind the edge route the clients call.
func newEdgeMTLSSetup(ctx context.Context, f *framework.Framework, prefix string) (*mtlsSetup, *framework.CRLServer) {
	m := newMTLSSetup(ctx, f, prefix)
	server := f.DeployCRLServer(ctx, m.ns)
	m.echo = f.DeployEcho(ctx, m.ns)
	route := f.RouteTo(m.echo, "mtls", framework.EchoHTTPPort)
	route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
	m.host = f.CreateRoute(ctx, route).Spec.Host
	return m, server
}
