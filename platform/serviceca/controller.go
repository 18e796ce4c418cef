// Package serviceca stands in for the serving-cert controller of
// openshift/service-ca-operator on clusters the suite installs: a Service
// annotated service.beta.openshift.io/serving-cert-secret-name gets a
// kubernetes.io/tls Secret of that name in its namespace, for
// <service>.<namespace>.svc and <service>.<namespace>.svc.cluster.local,
// signed by the service CA whose certificate and key install keeps in the
// Secret signing-key of openshift-service-ca (upstream's names). The
// router trusts that CA for reencrypt routes without
// destinationCACertificate: install publishes it as the router namespace's
// service-ca-bundle, which the router Deployment mounts as
// DEFAULT_DESTINATION_CA_PATH. It runs inside the ingress-reconciler.
//
// Upstream: service-ca-operator
// pkg/controller/servingcert/controller/secret_creating_controller.go
// (serviceServingCertController: Sync, generateCert, toBaseSecret,
// certSubjectsForService, ownerRef) and pkg/controller/api/api.go (the
// annotations). Not stood in for: rotation, the alpha annotations, the
// failure annotations, headless Services' pod wildcards beyond their
// names, and regenerating a Secret someone deletes while its Service
// lives.
package serviceca

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/pki"
)

const (
	// Namespace holds the signing key (service-ca-operator
	// pkg/operator/operatorclient: TargetNamespace).
	Namespace = "openshift-service-ca"
	// SigningKeySecret is the service CA's certificate and key
	// (kubernetes.io/tls; pkg/controller/api/resourcenames.go:
	// ServiceCASecretName).
	SigningKeySecret = "signing-key"
	// The Secret's annotations naming the Service it was made for
	// (pkg/controller/api/api.go).
	ServiceUIDAnnotation  = "service.beta.openshift.io/originating-service-uid"
	ServiceNameAnnotation = "service.beta.openshift.io/originating-service-name"
	// dnsSuffix is the cluster domain (upstream's --dns-suffix default).
	dnsSuffix = "cluster.local"
)

// NewSigner is a new service CA, named as upstream names its signer.
func NewSigner() (*pki.CA, error) {
	return pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: fmt.Sprintf("openshift-service-serving-signer@%d", time.Now().Unix())}})
}

// Hosts are the names a Service's serving certificate is for
// (certSubjectsForService): the Service's name in the cluster's DNS, and
// for a headless Service its pods' too.
func Hosts(svc *corev1.Service) []string {
	host := svc.Name + "." + svc.Namespace + ".svc"
	hosts := []string{host, host + "." + dnsSuffix}
	if svc.Spec.ClusterIP == corev1.ClusterIPNone {
		hosts = append(hosts, "*."+host, "*."+host+"."+dnsSuffix)
	}
	return hosts
}

// ServingSecret is the Secret name of svc's namespace holding a new
// serving certificate of ca for Hosts(svc): upstream's toBaseSecret and
// toRequiredSecret (tls.crt holds the certificate followed by its
// issuer's, as upstream's does; the Service owns it).
func ServingSecret(svc *corev1.Service, name string, ca *pki.CA) (*corev1.Secret, error) {
	leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: Hosts(svc)})
	if err != nil {
		return nil, err
	}
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: svc.Namespace,
			Annotations:     map[string]string{ServiceUIDAnnotation: string(svc.UID), ServiceNameAnnotation: svc.Name},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: svc.Name, UID: svc.UID}},
		},
		Type: corev1.SecretTypeTLS,
		Data: map[string][]byte{
			corev1.TLSCertKey:       append(append([]byte{}, leaf.CertPEM...), ca.CertPEM...),
			corev1.TLSPrivateKeyKey: leaf.KeyPEM,
		},
	}, nil
}

// Current says whether secret already holds a certificate of ca for svc
// (upstream's secretRequiresCertGeneration, negated: issued by the
// current CA, for the expected names).
func Current(secret *corev1.Secret, svc *corev1.Service, ca *pki.CA) bool {
	block, _ := pem.Decode(secret.Data[corev1.TLSCertKey])
	if block == nil || len(secret.Data[corev1.TLSPrivateKeyKey]) == 0 {
		return false
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil || cert.CheckSignatureFrom(ca.Cert) != nil {
		return false
	}
	for _, h := range Hosts(svc) {
		if !slices.Contains(cert.DNSNames, h) {
			return false
		}
	}
	return time.Now().Before(cert.NotAfter)
}

// Controller writes the serving certificate Secrets.
type Controller struct {
	Kube kubernetes.Interface
	Logf func(format string, args ...any)
}

// Run watches Services in every namespace and writes the Secret of each
// annotated one until ctx ends.
func (c *Controller) Run(ctx context.Context) error {
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	defer queue.ShutDown()
	inf := informers.NewSharedInformerFactory(c.Kube, 10*time.Minute)
	services := inf.Core().V1().Services()
	enqueue := func(obj any) {
		if svc, ok := obj.(*corev1.Service); ok && svc.Annotations[contract.ServingCertSecretAnnotation] != "" {
			queue.Add(svc.Namespace + "/" + svc.Name)
		}
	}
	if _, err := services.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue, UpdateFunc: func(_, obj any) { enqueue(obj) },
	}); err != nil {
		return err
	}
	inf.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), services.Informer().HasSynced) {
		if ctx.Err() != nil {
			return nil
		}
		return errors.New("service cache did not sync")
	}
	go func() { <-ctx.Done(); queue.ShutDown() }()
	for {
		key, quit := queue.Get()
		if quit {
			return nil
		}
		if err := c.sync(ctx, services.Lister(), key); err != nil {
			c.Logf("service CA: %s: %v", key, err)
			queue.AddRateLimited(key)
		} else {
			queue.Forget(key)
		}
		queue.Done(key)
	}
}

// signer reads the service CA from its Secret (every time: a reinstall
// may have replaced it).
func (c *Controller) signer(ctx context.Context) (*pki.CA, error) {
	s, err := c.Kube.CoreV1().Secrets(Namespace).Get(ctx, SigningKeySecret, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("the service CA's signing key: %w", err)
	}
	return pki.ParseCA(s.Data[corev1.TLSCertKey], s.Data[corev1.TLSPrivateKeyKey])
}

func (c *Controller) sync(ctx context.Context, lister corelisters.ServiceLister, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	svc, err := lister.Services(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	secretName := svc.Annotations[contract.ServingCertSecretAnnotation]
	if secretName == "" {
		return nil
	}
	ca, err := c.signer(ctx)
	if err != nil {
		return err
	}
	secrets := c.Kube.CoreV1().Secrets(ns)
	live, err := secrets.Get(ctx, secretName, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		live = nil
	case err != nil:
		return err
	case live.Annotations[ServiceUIDAnnotation] != string(svc.UID):
		// Another Service's, or nobody's: never overwritten (upstream's
		// generateCert refuses it with this wording, and does not retry).
		c.Logf("service CA: secret %s/%s does not have corresponding service UID %v", ns, secretName, svc.UID)
		return nil
	}
	if live == nil || !Current(live, svc, ca) {
		want, err := ServingSecret(svc, secretName, ca)
		if err != nil {
			return err
		}
		if live == nil {
			_, err = secrets.Create(ctx, want, metav1.CreateOptions{})
		} else {
			want.ResourceVersion = live.ResourceVersion
			_, err = secrets.Update(ctx, want, metav1.UpdateOptions{})
		}
		if err != nil {
			return err
		}
		c.Logf("service CA: wrote secret %s/%s for service %s", ns, secretName, svc.Name)
	}
	signer := ca.Cert.Subject.CommonName
	if svc.Annotations[contract.ServingCertSignedByAnnotation] == signer {
		return nil
	}
	updated := svc.DeepCopy()
	updated.Annotations[contract.ServingCertSignedByAnnotation] = signer
	_, err = c.Kube.CoreV1().Services(ns).Update(ctx, updated, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return nil // a newer Service comes through the informer
	}
	return err
}
