package install

import (
	"context"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/platform/ingressoperator"
)

// routerLogLines is how much of the router's log a failure shows.
const routerLogLines = 30

// hopeless are the container states that no amount of waiting mends.
var hopeless = map[string]bool{
	"ErrImagePull": true, "ImagePullBackOff": true, "ErrImageNeverPull": true, "InvalidImageName": true,
	"CreateContainerConfigError": true, "CreateContainerError": true, "CrashLoopBackOff": true,
}

// waitRouterReady waits for the router Deployment to roll out. A router
// that cannot start (image missing, crash loop) fails at once with its
// state and last log lines; one that runs but never gets ready fails at
// the timeout with the same, never with a bare "timed out".
func waitRouterReady(ctx context.Context, kube kubernetes.Interface, name string, t contract.Timeouts) error {
	var d *appsv1.Deployment
	var stuck error
	err := wait.PollUntilContextTimeout(ctx, t.ProvisionPoll, t.ClusterReady, true, func(ctx context.Context) (bool, error) {
		var err error
		if d, err = kube.AppsV1().Deployments(ingressoperator.RouterNamespace).Get(ctx, name, metav1.GetOptions{}); err != nil {
			return false, nil
		}
		if ingressoperator.RolledOut(d) {
			return true, nil
		}
		stuck = hopelessPod(ctx, kube, d)
		return stuck != nil, nil
	})
	if err == nil && stuck == nil {
		return nil
	}
	why := stuck
	if why == nil {
		why = fmt.Errorf("not ready within %s", t.ClusterReady)
	}
	return fmt.Errorf("router Deployment %s/%s: %w\n%s", ingressoperator.RouterNamespace, name, why, routerLogs(context.WithoutCancel(ctx), kube, d))
}

// hopelessPod reports a router pod whose container is in a state that
// waiting will not mend.
func hopelessPod(ctx context.Context, kube kubernetes.Interface, d *appsv1.Deployment) error {
	pods, err := kube.CoreV1().Pods(ingressoperator.RouterNamespace).List(ctx, metav1.ListOptions{LabelSelector: metav1.FormatLabelSelector(d.Spec.Selector)})
	if err != nil {
		return nil
	}
	for _, p := range pods.Items {
		for _, s := range p.Status.ContainerStatuses {
			if w := s.State.Waiting; w != nil && hopeless[w.Reason] {
				return fmt.Errorf("pod %s: container %s is %s: %s", p.Name, s.Name, w.Reason, w.Message)
			}
		}
	}
	return nil
}

// routerLogs is the state and last log lines of each router pod (the
// previous container's too, after a restart).
func routerLogs(ctx context.Context, kube kubernetes.Interface, d *appsv1.Deployment) string {
	if d == nil {
		return "(no router Deployment)"
	}
	pods, err := kube.CoreV1().Pods(ingressoperator.RouterNamespace).List(ctx, metav1.ListOptions{LabelSelector: metav1.FormatLabelSelector(d.Spec.Selector)})
	if err != nil {
		return fmt.Sprintf("(router pods: %v)", err)
	}
	var b strings.Builder
	for _, p := range pods.Items {
		fmt.Fprintf(&b, "pod %s: phase %s\n", p.Name, p.Status.Phase)
		for _, previous := range []bool{true, false} {
			opts := &corev1.PodLogOptions{Container: ingressoperator.RouterContainer, TailLines: ptr.To[int64](routerLogLines), Previous: previous}
			logs, err := kube.CoreV1().Pods(p.Namespace).GetLogs(p.Name, opts).DoRaw(ctx)
			if err != nil {
				continue
			}
			which := "current"
			if previous {
				which = "previous"
			}
			fmt.Fprintf(&b, "--- last %d log lines (%s container) ---\n%s\n", routerLogLines, which, strings.TrimSpace(string(logs)))
		}
	}
	if b.Len() == 0 {
		return "(no router pod was created: kubectl -n " + ingressoperator.RouterNamespace + " describe deployment " + d.Name + ")"
	}
	return b.String()
}
