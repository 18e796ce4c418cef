package existing

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/klient/k8s"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/platform/ingressoperator"
)

// routerNodeSelector is upstream's default node placement of a router
// (cluster-ingress-operator pkg/operator/controller/ingress/deployment.go,
// desiredRouterDeployment): Linux workers.
var routerNodeSelector = map[string]string{corev1.LabelOSStable: "linux", kind.WorkerRoleLabel: ""}

// placeRouters makes the rendered default IngressController the one a
// vendor's highly available cluster has: spec.replicas and its routers on
// the workers (spec.nodePlacement, what upstream defaults to), and renders
// its router Deployment as the platform's operator will keep it
// (ingressoperator.Desired and Apply), so that the first reconcile
// changes nothing and nothing rolls out twice.
func placeRouters(objs []k8s.Object, replicas int32) error {
	var ic *operatorv1.IngressController
	var d *appsv1.Deployment
	for _, obj := range objs {
		switch o := obj.(type) {
		case *operatorv1.IngressController:
			if o.Name == contract.DefaultIngressController {
				ic = o
			}
		case *appsv1.Deployment:
			if o.Name == contract.RouterDeploymentName(contract.DefaultIngressController) {
				d = o
			}
		}
	}
	if ic == nil || d == nil {
		return fmt.Errorf("the rendered manifests have no default IngressController (%v) or no router Deployment (%v)", ic != nil, d != nil)
	}
	ic.Spec.Replicas = ptr.To(replicas)
	ic.Spec.NodePlacement = &operatorv1.NodePlacement{NodeSelector: &metav1.LabelSelector{MatchLabels: routerNodeSelector}}
	s, err := ingressoperator.Desired(ic, nil)
	if err != nil {
		return err
	}
	ingressoperator.Apply(d, ic, s)
	return nil
}

// waitServed waits until the routers answer through the load balancer:
// the no-route 503 on both ports, on a new connection each time, twice
// the replica count in a row (round robin: every replica answered).
func waitServed(ctx context.Context, lab *Lab, t contract.Timeouts) error {
	client := &http.Client{
		Timeout: t.Request,
		Transport: &http.Transport{
			DisableKeepAlives: true,
			// Readiness only: the suite judges the router's certificates.
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true, ServerName: "router-conformance-lab." + lab.Domain}, //nolint:gosec
		},
	}
	var last error
	err := wait.PollUntilContextTimeout(ctx, t.ProvisionPoll, t.ClusterReady, true, func(ctx context.Context) (bool, error) {
		for range 2 * lab.Replicas {
			for _, url := range []string{"http://" + lab.HTTPAddr + "/", "https://" + lab.HTTPSAddr + "/"} {
				req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
				if err != nil {
					return false, err
				}
				req.Host = "router-conformance-lab." + lab.Domain
				resp, err := client.Do(req)
				if err != nil {
					last = err
					return false, nil
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusServiceUnavailable {
					last = fmt.Errorf("%s: HTTP %d, not the router's no-route 503", url, resp.StatusCode)
					return false, nil
				}
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("the routers do not answer through the load balancer (%s, %s): %v: %w", lab.HTTPAddr, lab.HTTPSAddr, last, err)
	}
	return nil
}

// RouterPods is what `kubectl get nodes,pods -o wide` says of the lab's
// nodes and its default router's pods (the node's own kubectl).
func RouterPods(ctx context.Context, name string) (string, error) {
	if name == "" {
		name = DefaultName
	}
	node := name + "-control-plane"
	kubectl := func(args ...string) (string, error) {
		return kind.Docker(ctx, append([]string{"exec", node, "kubectl", "--kubeconfig=/etc/kubernetes/admin.conf"}, args...)...)
	}
	nodes, err := kubectl("get", "nodes", "-o", "wide")
	if err != nil {
		return "", err
	}
	pods, err := kubectl("get", "pods", "-n", contract.RouterNamespace, "-l", contract.RouterDeploymentLabel+"="+contract.DefaultIngressController, "-o", "wide")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("$ kubectl get nodes -o wide\n%s\n\n$ kubectl get pods -n %s -l %s=%s -o wide\n%s\n(%s)\n",
		nodes, contract.RouterNamespace, contract.RouterDeploymentLabel, contract.DefaultIngressController, pods, time.Now().UTC().Format(time.RFC3339)), nil
}
