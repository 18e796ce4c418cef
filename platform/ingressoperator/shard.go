package ingressoperator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/pki"
)

// OwningIngressControllerLabel is upstream's label on what the operator
// makes for an IngressController (pkg/manifests/manifests.go).
const OwningIngressControllerLabel = "ingresscontroller.operator.openshift.io/owning-ingresscontroller"

func isDefault(ic *operatorv1.IngressController) bool {
	return ic.Name == contract.DefaultIngressController
}

// ShardDeployment renders a shard's router Deployment: the default's pod
// template (RouterDeployment) for this IngressController's name, image and
// domain, then its settings (selectors, ports, clientTLS, headers). Its
// volumes name the shard's own router-certs-, router-stats- and
// router-metrics-certs-<name> Secrets, which ShardSecrets makes.
func ShardDeployment(ic *operatorv1.IngressController, image string, s Settings) *appsv1.Deployment {
	d := RouterDeployment(RouterDeploymentOptions{IngressController: ic.Name, Image: image, Domain: ic.Spec.Domain, Fault: faults.Active()})
	// Upstream labels the Deployment with its owner too; the selector and
	// the pod labels stay the deployment-ingresscontroller label alone
	// (RouterDeployment shares one map among the three).
	d.Labels = map[string]string{DeploymentLabel: ic.Name, OwningIngressControllerLabel: ic.Name}
	Apply(d, ic, s)
	return d
}

// createShard creates ic's router Deployment and then its Secrets, owned
// by the Deployment as upstream owns them (certificate/default_cert.go,
// ingress/metrics.go): deleting the Deployment collects them. The pod
// waits for its Secret volumes, which exist long before the kubelet
// first looks (the Deployment, ReplicaSet and scheduler come first).
func (r *Reconciler) createShard(ctx context.Context, ic *operatorv1.IngressController, s Settings) (*appsv1.Deployment, error) {
	if ic.Spec.Domain == "" {
		return nil, &unavailableError{"DomainMissing", "spec.domain is required for an IngressController other than default"}
	}
	image, err := r.routerImage(ctx)
	if err != nil {
		return nil, err
	}
	d, err := r.Kube.AppsV1().Deployments(RouterNamespace).Create(ctx, ShardDeployment(ic, image, s), metav1.CreateOptions{})
	if err != nil {
		return nil, err
	}
	r.logf("ingresscontroller %s: router Deployment %s/%s created (image %s)", ic.Name, d.Namespace, d.Name, image)
	return d, r.ensureShardSecrets(ctx, ic, d)
}

// routerImage is the image shards run: RouterImage (upstream: the
// operator's IMAGE variable), else the default router's, so that a shard
// runs whatever router install put under test.
func (r *Reconciler) routerImage(ctx context.Context) (string, error) {
	if r.RouterImage != "" {
		return r.RouterImage, nil
	}
	d, err := r.Kube.AppsV1().Deployments(RouterNamespace).Get(ctx, contract.RouterDeploymentName(contract.DefaultIngressController), metav1.GetOptions{})
	if err != nil {
		return "", fmt.Errorf("no router image (IMAGE unset) and the default router's: %w", err)
	}
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name == RouterContainer {
			return c.Image, nil
		}
	}
	return "", fmt.Errorf("the default router Deployment has no %s container", RouterContainer)
}

// ensureShardSecrets creates whichever of the shard's Secrets and its
// router-internal Service is missing,
// and adopts one a Deployment of the same name left behind: an
// IngressController deleted and made again at once (a repeated run)
// would otherwise see its Secrets collected after its router started.
func (r *Reconciler) ensureShardSecrets(ctx context.Context, ic *operatorv1.IngressController, owner *appsv1.Deployment) error {
	secrets := r.Kube.CoreV1().Secrets(RouterNamespace)
	ref := []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: owner.Name, UID: owner.UID, Controller: ptr.To(true)}}
	for _, name := range []string{DefaultCertificateSecretName(ic.Name), StatsSecretName(ic.Name), MetricsCertsSecretName(ic.Name)} {
		live, err := secrets.Get(ctx, name, metav1.GetOptions{})
		if err == nil {
			if o := live.OwnerReferences; len(o) == 1 && o[0].Kind == "Deployment" && o[0].UID != owner.UID {
				live.OwnerReferences = ref
				_, err = secrets.Update(ctx, live, metav1.UpdateOptions{})
			}
			if err != nil {
				return err
			}
			continue
		}
		if !apierrors.IsNotFound(err) {
			return err
		}
		s, err := ShardSecret(ic, name)
		if err != nil {
			return err
		}
		s.OwnerReferences = ref
		if _, err := secrets.Create(ctx, s, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	return r.ensureInternalService(ctx, ic.Name, ref)
}

// ShardSecret makes one of a shard's Secrets as install makes the
// default's: the default certificate, a wildcard for *.<domain> from a new
// CA kept under ca.crt (upstream signs it with its router-ca:
// certificate/default_cert.go); the metrics certificate for the
// router-internal-<name> Service (the service-ca operator's on
// OpenShift; nothing on kind checks its issuer); the stats credentials.
func ShardSecret(ic *operatorv1.IngressController, name string) (*corev1.Secret, error) {
	meta := metav1.ObjectMeta{Name: name, Namespace: RouterNamespace, Labels: map[string]string{OwningIngressControllerLabel: ic.Name}}
	var ca, host string
	switch name {
	case DefaultCertificateSecretName(ic.Name):
		ca, host = "ingress-operator CA", "*."+ic.Spec.Domain
	case MetricsCertsSecretName(ic.Name):
		ca, host = "service CA", "router-internal-"+ic.Name+"."+RouterNamespace+".svc"
	case StatsSecretName(ic.Name):
		password := make([]byte, 16)
		if _, err := rand.Read(password); err != nil {
			return nil, err
		}
		return &corev1.Secret{ObjectMeta: meta, Data: map[string][]byte{
			"statsUsername": []byte("stats"), "statsPassword": []byte(hex.EncodeToString(password)),
		}}, nil
	default:
		return nil, fmt.Errorf("%s is not a router Secret of ingresscontroller %s", name, ic.Name)
	}
	root, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: ca}})
	if err != nil {
		return nil, err
	}
	leaf, err := root.IssueServer(pki.ServerOptions{Hosts: []string{host}})
	if err != nil {
		return nil, err
	}
	return &corev1.Secret{ObjectMeta: meta, Type: corev1.SecretTypeTLS, Data: map[string][]byte{
		"tls.crt": leaf.ChainPEM(), "tls.key": leaf.KeyPEM, "ca.crt": root.CertPEM,
	}}, nil
}

// removeOrphans deletes the router Deployment of every shard whose
// IngressController is gone, found by upstream's
// deployment-ingresscontroller label; the garbage collector takes its
// ReplicaSets, pods and Secrets. The default's is never deleted: only
// install makes it.
func (r *Reconciler) removeOrphans(ctx context.Context, deployments []*appsv1.Deployment, ics []*operatorv1.IngressController) error {
	live := map[string]bool{contract.DefaultIngressController: true}
	for _, ic := range ics {
		live[ic.Name] = true
	}
	for _, d := range deployments {
		owner := d.Labels[DeploymentLabel]
		if owner == "" || live[owner] || d.DeletionTimestamp != nil {
			continue
		}
		err := r.Kube.AppsV1().Deployments(d.Namespace).Delete(ctx, d.Name, metav1.DeleteOptions{
			PropagationPolicy: ptr.To(metav1.DeletePropagationBackground),
			Preconditions:     &metav1.Preconditions{UID: ptr.To(d.UID)},
		})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("router Deployment %s/%s of the deleted ingresscontroller %s: %w", d.Namespace, d.Name, owner, err)
		}
		r.logf("ingresscontroller %s is gone: router Deployment %s/%s deleted", owner, d.Namespace, d.Name)
	}
	return nil
}

// shardSelector selects every router Deployment by upstream's label.
func shardSelector() labels.Selector {
	req, _ := labels.NewRequirement(DeploymentLabel, selection.Exists, nil)
	return labels.NewSelector().Add(*req)
}
