package routeadmission

import (
	"context"

	configv1 "github.com/openshift/api/config/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// LiveCluster reads the policies and namespaces from the API server on
// each request: a policy change applies to the very next admission.
type LiveCluster struct {
	Kube   kubernetes.Interface
	Config configclient.Interface
}

// RequiredHSTSPolicies of Ingress "cluster"; an error when it cannot be
// read, its absence included (the API server's not-found error).
func (c LiveCluster) RequiredHSTSPolicies(ctx context.Context) ([]configv1.RequiredHSTSPolicy, error) {
	ing, err := c.Config.ConfigV1().Ingresses().Get(ctx, "cluster", metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return ing.Spec.RequiredHSTSPolicies, nil
}

// Namespace reads one namespace.
func (c LiveCluster) Namespace(ctx context.Context, name string) (*corev1.Namespace, error) {
	return c.Kube.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
}
