package serviceca

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/pki"
)

func signingSecret(t *testing.T) (*corev1.Secret, *pki.CA) {
	t.Helper()
	ca, err := NewSigner()
	if err != nil {
		t.Fatal(err)
	}
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: SigningKeySecret, Namespace: Namespace},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{corev1.TLSCertKey: ca.CertPEM, corev1.TLSPrivateKeyKey: ca.KeyPEM},
	}, ca
}

func annotated(ns, name, secret string) *corev1.Service {
	return &corev1.Service{ObjectMeta: metav1.ObjectMeta{
		Name: name, Namespace: ns, UID: types.UID("uid-" + name),
		Annotations: map[string]string{contract.ServingCertSecretAnnotation: secret},
	}}
}

func syncOnce(t *testing.T, c *Controller, objs ...*corev1.Service) {
	t.Helper()
	inf := informers.NewSharedInformerFactory(c.Kube, 0)
	for _, s := range objs {
		if err := inf.Core().V1().Services().Informer().GetIndexer().Add(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range objs {
		if err := c.sync(context.Background(), inf.Core().V1().Services().Lister(), s.Namespace+"/"+s.Name); err != nil {
			t.Fatalf("sync %s/%s: %v", s.Namespace, s.Name, err)
		}
	}
}

func TestServingSecretIsForTheServiceNamesSignedByTheServiceCA(t *testing.T) {
	signing, ca := signingSecret(t)
	svc := annotated("ns", "echo", "echo-cert")
	kube := kubefake.NewClientset(signing, svc)
	c := &Controller{Kube: kube, Logf: t.Logf}
	syncOnce(t, c, svc)

	s, err := kube.CoreV1().Secrets("ns").Get(context.Background(), "echo-cert", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Type != corev1.SecretTypeTLS || s.Annotations[ServiceUIDAnnotation] != "uid-echo" || s.Annotations[ServiceNameAnnotation] != "echo" {
		t.Errorf("secret type %s, annotations %v", s.Type, s.Annotations)
	}
	if len(s.OwnerReferences) != 1 || s.OwnerReferences[0].UID != "uid-echo" || s.OwnerReferences[0].Kind != "Service" {
		t.Errorf("owner references %+v, want the Service", s.OwnerReferences)
	}
	block, rest := pem.Decode(s.Data[corev1.TLSCertKey])
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if issuer, _ := pem.Decode(rest); issuer == nil {
		t.Error("tls.crt lacks the issuer's certificate after the serving certificate (upstream's layout)")
	}
	for _, name := range []string{"echo.ns.svc", "echo.ns.svc.cluster.local"} {
		if _, err := cert.Verify(x509.VerifyOptions{DNSName: name, Roots: pki.Pool(ca)}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	live, err := kube.CoreV1().Services("ns").Get(context.Background(), "echo", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := live.Annotations[contract.ServingCertSignedByAnnotation]; got != ca.Cert.Subject.CommonName {
		t.Errorf("signed-by %q, want %q", got, ca.Cert.Subject.CommonName)
	}

	// A second pass keeps the Secret: it is current.
	before := s.Data[corev1.TLSCertKey]
	syncOnce(t, c, live)
	again, _ := kube.CoreV1().Secrets("ns").Get(context.Background(), "echo-cert", metav1.GetOptions{})
	if string(again.Data[corev1.TLSCertKey]) != string(before) {
		t.Error("a current Secret was reissued")
	}
}

func TestAnotherServicesSecretIsNeverOverwritten(t *testing.T) {
	signing, _ := signingSecret(t)
	svc := annotated("ns", "echo", "taken")
	taken := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "taken", Namespace: "ns"}, Data: map[string][]byte{"x": []byte("y")}}
	kube := kubefake.NewClientset(signing, svc, taken)
	syncOnce(t, &Controller{Kube: kube, Logf: t.Logf}, svc)
	s, _ := kube.CoreV1().Secrets("ns").Get(context.Background(), "taken", metav1.GetOptions{})
	if string(s.Data["x"]) != "y" || len(s.Data) != 1 {
		t.Errorf("secret overwritten: %v", s.Data)
	}
}

func TestASecretOfAnotherCAIsReissued(t *testing.T) {
	signing, ca := signingSecret(t)
	svc := annotated("ns", "echo", "echo-cert")
	other, err := NewSigner()
	if err != nil {
		t.Fatal(err)
	}
	stale, err := ServingSecret(svc, "echo-cert", other)
	if err != nil {
		t.Fatal(err)
	}
	kube := kubefake.NewClientset(signing, svc, stale)
	syncOnce(t, &Controller{Kube: kube, Logf: t.Logf}, svc)
	s, _ := kube.CoreV1().Secrets("ns").Get(context.Background(), "echo-cert", metav1.GetOptions{})
	if !Current(s, svc, ca) {
		t.Error("the Secret of another CA was not reissued by the service CA")
	}
}

func TestHeadlessServiceCoversItsPods(t *testing.T) {
	svc := annotated("ns", "db", "db-cert")
	svc.Spec.ClusterIP = corev1.ClusterIPNone
	want := []string{"db.ns.svc", "db.ns.svc.cluster.local", "*.db.ns.svc", "*.db.ns.svc.cluster.local"}
	got := Hosts(svc)
	if len(got) != len(want) {
		t.Fatalf("hosts %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("hosts %v, want %v", got, want)
		}
	}
}
