package framework

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
)

// DeployServingCertEcho runs an echo backend whose https port serves the
// certificate the cluster's service CA issued for its Service, as
// origin's reencrypt test deploys its backend: Service ns/name annotated
// service.beta.openshift.io/serving-cert-secret-name (<name>-serving-cert),
// that Secret waited for (the service-ca operator writes it; on the kind
// profile the suite's stand-in), then one replica mounting it, ready. It
// returns the backend (its CA is nil: no spec holds the service CA's key)
// and the Secret as written.
func (f *Framework) DeployServingCertEcho(ctx context.Context, ns, name string) (*Echo, *corev1.Secret) {
	GinkgoHelper()
	secretName := name + "-serving-cert"
	f.createEchoService(ctx, echoService(ns, name, true, map[string]string{contract.ServingCertSecretAnnotation: secretName}))
	var secret *corev1.Secret
	f.Eventually(ctx, func(g Gomega) {
		s, err := f.Clientset.CoreV1().Secrets(ns).Get(ctx, secretName, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred(), "the service CA did not write secret %s/%s for the annotated service", ns, secretName)
		g.Expect(s.Type).To(Equal(corev1.SecretTypeTLS))
		g.Expect(s.Data).To(HaveKey(corev1.TLSCertKey))
		g.Expect(s.Data).To(HaveKey(corev1.TLSPrivateKeyKey))
		secret = s
	}).Should(Succeed())
	f.createEchoDeployment(ctx, ns, name, secretName, 1)
	e := &Echo{Namespace: ns, Service: name}
	f.waitEcho(ctx, e)
	return e, secret
}

// ServiceCABundle is the service CA bundle the router trusts for
// reencrypt routes without destinationCACertificate: the router
// namespace's service-ca-bundle ConfigMap (cluster-ingress-operator
// mounts it as DEFAULT_DESTINATION_CA_PATH).
func (f *Framework) ServiceCABundle(ctx context.Context) []byte {
	GinkgoHelper()
	cm, err := f.Clientset.CoreV1().ConfigMaps(contract.RouterNamespace).Get(ctx, contract.ServiceCABundleConfigMap, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred(), "the router's service CA bundle")
	Expect(cm.Data).To(HaveKey(contract.ServiceCABundleKey))
	return []byte(cm.Data[contract.ServiceCABundleKey])
}
