package ingressoperator

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/router-conformance/suite/contract"
)

// InternalService is the router-internal-<name> Service upstream's
// operator makes for every IngressController, whatever its publishing
// strategy (cluster-ingress-operator pkg/manifests/assets/router/
// service-internal.yaml, ingress controller's ensureInternalIngressControllerService):
// ClusterIP, the router container's http, https and metrics ports, the
// deployment-ingresscontroller selector. In-cluster runs reach routers
// through it.
func InternalService(ic string) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{
			Name: contract.InternalServiceName(ic), Namespace: RouterNamespace,
			Labels: map[string]string{OwningIngressControllerLabel: ic},
		},
		Spec: corev1.ServiceSpec{
			Type:     corev1.ServiceTypeClusterIP,
			Selector: map[string]string{DeploymentLabel: ic},
			Ports: []corev1.ServicePort{
				{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("http")},
				{Name: "https", Port: 443, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("https")},
				{Name: "metrics", Port: StatsPort, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromString("metrics")},
			},
		},
	}
}

// ensureInternalService creates a shard's router-internal Service unless
// it exists, owned by its router Deployment (collected with it), and
// adopts one an earlier Deployment of the same name left behind, as
// ensureShardSecrets does for its Secrets.
func (r *Reconciler) ensureInternalService(ctx context.Context, icName string, owner []metav1.OwnerReference) error {
	services := r.Kube.CoreV1().Services(RouterNamespace)
	live, err := services.Get(ctx, contract.InternalServiceName(icName), metav1.GetOptions{})
	switch {
	case err == nil:
		if o := live.OwnerReferences; len(o) == 1 && o[0].Kind == "Deployment" && o[0].UID != owner[0].UID {
			live.OwnerReferences = owner
			_, err = services.Update(ctx, live, metav1.UpdateOptions{})
		}
		return err
	case !apierrors.IsNotFound(err):
		return err
	}
	svc := InternalService(icName)
	svc.OwnerReferences = owner
	if _, err := services.Create(ctx, svc, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return nil
}
