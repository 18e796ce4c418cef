package framework

import (
	"context"
	"github.com/router-conformance/suite/fixtures"

	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// ScratchContainer is a container of one of the suite's FROM scratch
// images: unprivileged, read-only; never pulled on the kind profile (the
// images are loaded), pulled if missing on an existing cluster.
func (f *Framework) ScratchContainer(name, image string, args ...string) corev1.Container {
	return corev1.Container{
		Name:            name,
		Image:           image,
		ImagePullPolicy: f.FixturePullPolicy,
		Args:            args,
		Env: []corev1.EnvVar{
			{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
			{Name: "POD_NAMESPACE", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}},
		},
		SecurityContext: fixtures.RestrictedSecurityContext(),
	}
}

// HTTPReadiness probes GET path on port.
func HTTPReadiness(path string, port int32) *corev1.Probe {
	return &corev1.Probe{
		ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromInt32(port)}},
		PeriodSeconds: 1,
	}
}

// CreatePod creates pod and waits until it is Ready; it returns the live pod.
func (f *Framework) CreatePod(ctx context.Context, pod *corev1.Pod) *corev1.Pod {
	_, err := f.Clientset.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create pod %s/%s", pod.Namespace, pod.Name)
	var live *corev1.Pod
	f.Eventually(ctx, func(g Gomega) {
		p, err := f.Clientset.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(podReady(p)).To(BeTrue(), "pod %s/%s phase %s: %v", p.Namespace, p.Name, p.Status.Phase, p.Status.ContainerStatuses)
		live = p
	}).WithTimeout(f.Opts.Timeouts.PodReady).Should(Succeed())
	return live
}

// CreateDeployment creates d and waits until all its replicas are ready.
func (f *Framework) CreateDeployment(ctx context.Context, d *appsv1.Deployment) {
	_, err := f.Clientset.AppsV1().Deployments(d.Namespace).Create(ctx, d, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create deployment %s/%s", d.Namespace, d.Name)
	f.WaitDeploymentReady(ctx, d.Namespace, d.Name)
}

// WaitDeploymentReady waits until every replica of Deployment ns/name is
// ready.
func (f *Framework) WaitDeploymentReady(ctx context.Context, ns, name string) {
	f.Eventually(ctx, func(g Gomega) {
		live, err := f.Clientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(live.Status.ReadyReplicas).To(Equal(*live.Spec.Replicas), "deployment %s/%s ready replicas", ns, name)
	}).WithTimeout(f.Opts.Timeouts.PodReady).Should(Succeed())
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
