package framework

import (
	"crypto/x509"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/pki"
)

// NewRootCA is a new root CA called commonName, for the certificates a
// spec serves.
func NewRootCA(commonName string) *pki.CA {
	GinkgoHelper()
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: commonName}})
	Expect(err).NotTo(HaveOccurred())
	return ca
}

// TLSSecret is a kubernetes.io/tls Secret ns/name with a new certificate
// of ca for hosts (its chain in tls.crt), and that certificate; it is not
// created.
func TLSSecret(ca *pki.CA, ns, name string, hosts ...string) (*corev1.Secret, *x509.Certificate) {
	GinkgoHelper()
	leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: hosts})
	Expect(err).NotTo(HaveOccurred())
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{corev1.TLSCertKey: leaf.ChainPEM(), corev1.TLSPrivateKeyKey: leaf.KeyPEM},
	}, leaf.Cert
}

// WithRouteCertificate gives route (edge or reencrypt, spec.tls set) a
// new certificate of ca for hosts, "*.<parent>" for a wildcard route:
// spec.tls.certificate, key and caCertificate, as a route carries its own
// certificate. A client verifies it with pki.Pool(ca).
func WithRouteCertificate(route *routev1.Route, ca *pki.CA, hosts ...string) {
	GinkgoHelper()
	leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: hosts})
	Expect(err).NotTo(HaveOccurred())
	route.Spec.TLS.Certificate, route.Spec.TLS.Key, route.Spec.TLS.CACertificate = string(leaf.CertPEM), string(leaf.KeyPEM), string(ca.CertPEM)
}
