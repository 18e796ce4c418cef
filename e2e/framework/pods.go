package framework

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/fixtures"
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

// CreatePod creates pod and waits until it is Ready; it returns the live
// pod. A pod that does not get ready fails the spec saying why.
func (f *Framework) CreatePod(ctx context.Context, pod *corev1.Pod) *corev1.Pod {
	GinkgoHelper()
	_, err := f.Clientset.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create pod %s/%s", pod.Namespace, pod.Name)
	var live *corev1.Pod
	f.Eventually(ctx, func(g Gomega) {
		p, err := f.Clientset.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(podReady(p)).To(BeTrue(), "pod %s/%s is not ready (phase %s)", p.Namespace, p.Name, p.Status.Phase)
		live = p
	}).WithTimeout(f.Opts.Timeouts.PodReady).Should(Succeed(), func() string {
		ctx, cancel := f.diagnosisContext(ctx)
		defer cancel()
		p, err := f.Clientset.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			return fmt.Sprintf("pod %s/%s: %v", pod.Namespace, pod.Name, err)
		}
		return notReadyReasons(ctx, f.Clientset, pod.Namespace, []corev1.Pod{*p})
	})
	return live
}

// OneReplica is Deployment ns/name of one pod labelled app=name, running
// spec.
func OneReplica(ns, name string, spec corev1.PodSpec) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: spec},
		},
	}
}

// readyPods are the ready pods of Deployment ns/app (labelled app=app),
// by name and as EndpointSlice endpoints.
func (f *Framework) readyPods(ctx context.Context, ns, app string) ([]string, []discoveryv1.Endpoint) {
	GinkgoHelper()
	pods, err := f.Clientset.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + app})
	Expect(err).NotTo(HaveOccurred())
	var names []string
	var endpoints []discoveryv1.Endpoint
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil && podReady(&p) {
			names = append(names, p.Name)
			endpoints = append(endpoints, podEndpoint(&p))
		}
	}
	return names, endpoints
}

// CreateDeployment creates d and waits until all its replicas are ready.
func (f *Framework) CreateDeployment(ctx context.Context, d *appsv1.Deployment) {
	GinkgoHelper()
	_, err := f.Clientset.AppsV1().Deployments(d.Namespace).Create(ctx, d, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create deployment %s/%s", d.Namespace, d.Name)
	f.WaitDeploymentReady(ctx, d.Namespace, d.Name)
}

// WaitDeploymentReady waits until every replica of Deployment ns/name is
// ready. One that does not get ready fails the spec saying why: the
// Deployment's failure conditions and each pod's reason
// (PodNotReadyReasons).
func (f *Framework) WaitDeploymentReady(ctx context.Context, ns, name string) {
	GinkgoHelper()
	f.Eventually(ctx, func(g Gomega) {
		live, err := f.Clientset.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		want := ptr.Deref(live.Spec.Replicas, 1)
		g.Expect(live.Status.ReadyReplicas).To(Equal(want), "deployment %s/%s: %d of %d replicas ready", ns, name, live.Status.ReadyReplicas, want)
	}).WithTimeout(f.Opts.Timeouts.PodReady).Should(Succeed(), func() string {
		ctx, cancel := f.diagnosisContext(ctx)
		defer cancel()
		return DeploymentNotReadyReasons(ctx, f.Clientset, ns, name)
	})
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// diagnosisContext is the context of the reads that explain a failed
// wait: they run when the wait has given up, perhaps because the spec's
// context ended (bounded by Timeouts.Diagnosis).
func (f *Framework) diagnosisContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), f.Opts.Timeouts.Diagnosis)
}

// logTail is how many log lines of a failing container a diagnosis shows.
const logTail = 10

// DeploymentNotReadyReasons says why Deployment ns/name is not ready: its
// failure conditions (a pod the ReplicaSet could not create, a rollout
// past its deadline) and PodNotReadyReasons of its pods.
func DeploymentNotReadyReasons(ctx context.Context, cs kubernetes.Interface, ns, name string) string {
	d, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Sprintf("deployment %s/%s: %v", ns, name, err)
	}
	lines := []string{fmt.Sprintf("deployment %s/%s: %d replicas wanted, %d updated, %d ready", ns, name,
		ptr.Deref(d.Spec.Replicas, 1), d.Status.UpdatedReplicas, d.Status.ReadyReplicas)}
	for _, c := range d.Status.Conditions {
		if (c.Type == appsv1.DeploymentReplicaFailure && c.Status == corev1.ConditionTrue) ||
			(c.Type == appsv1.DeploymentProgressing && c.Status == corev1.ConditionFalse) {
			lines = append(lines, fmt.Sprintf("  %s (%s): %s", c.Type, c.Reason, c.Message))
		}
	}
	selector, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return strings.Join(append(lines, fmt.Sprintf("  selector: %v", err)), "\n")
	}
	for _, l := range strings.Split(PodNotReadyReasons(ctx, cs, ns, selector.String()), "\n") {
		lines = append(lines, "  "+l)
	}
	return strings.Join(lines, "\n")
}

// PodNotReadyReasons says, pod by pod, why the pods of ns matching the
// label selector are not ready: an image that cannot be pulled (the
// waiting reason and its message), a crash loop (the last exit code and
// reason, and the last log lines of the crashed container), a pod that
// cannot be scheduled (the PodScheduled condition's message), a failing
// readiness probe (the latest Unhealthy event), or else the pod's latest
// warning event. It is what a failed wait for pods reports, in place of
// "expected 0 to equal 1". Anything it cannot read is left out.
func PodNotReadyReasons(ctx context.Context, cs kubernetes.Interface, ns, selector string) string {
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return fmt.Sprintf("pods %q of %s: %v", selector, ns, err)
	}
	if len(pods.Items) == 0 {
		return fmt.Sprintf("no pod of %s matches %q", ns, selector)
	}
	return notReadyReasons(ctx, cs, ns, pods.Items)
}

// imagePullReasons are the waiting reasons of a container whose image
// cannot be had.
var imagePullReasons = []string{"ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull", "RegistryUnavailable"}

// notReadyReasons explains each pod of ns that is not ready.
func notReadyReasons(ctx context.Context, cs kubernetes.Interface, ns string, pods []corev1.Pod) string {
	var events []corev1.Event
	if list, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.kind=Pod"}); err == nil {
		events = list.Items
	}
	var lines []string
	for i := range pods {
		p := &pods[i]
		if podReady(p) {
			continue
		}
		lines = append(lines, podNotReady(ctx, cs, p, events)...)
	}
	if len(lines) == 0 {
		return fmt.Sprintf("all %d pods are ready now", len(pods))
	}
	return strings.Join(lines, "\n")
}

// podNotReady is the explanation of one pod that is not ready: a line
// naming it, then one indented line (or block) per reason.
func podNotReady(ctx context.Context, cs kubernetes.Interface, p *corev1.Pod, events []corev1.Event) []string {
	head := fmt.Sprintf("pod %s/%s: phase %s", p.Namespace, p.Name, p.Status.Phase)
	if p.Spec.NodeName != "" {
		head += " on " + p.Spec.NodeName
	}
	if p.DeletionTimestamp != nil {
		head += ", terminating"
	}
	var reasons []string
	explained, probing := false, false
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			reasons = append(reasons, fmt.Sprintf("not scheduled (%s): %s", c.Reason, c.Message))
			explained = true
		}
	}
	for _, group := range []struct {
		kind     string
		statuses []corev1.ContainerStatus
	}{{"init container", p.Status.InitContainerStatuses}, {"container", p.Status.ContainerStatuses}} {
		for _, st := range group.statuses {
			why, crashed, explains := containerNotReady(st)
			if why == "" {
				continue
			}
			explained = explained || explains
			probing = probing || st.State.Running != nil
			reasons = append(reasons, group.kind+" "+st.Name+": "+why)
			if crashed {
				reasons = append(reasons, logLines(ctx, cs, p, st)...)
			}
		}
	}
	if e := latestEvent(events, p, func(e corev1.Event) bool { return e.Reason == "Unhealthy" }); probing && e != nil {
		reasons = append(reasons, "latest Unhealthy event: "+e.Message)
		explained = true
	}
	if !explained {
		// Still creating, a volume that cannot be mounted, a sandbox that
		// cannot be set up: the kubelet says so in an event.
		if e := latestEvent(events, p, func(e corev1.Event) bool { return e.Type == corev1.EventTypeWarning }); e != nil {
			reasons = append(reasons, fmt.Sprintf("latest warning event (%s): %s", e.Reason, e.Message))
		} else if len(reasons) == 0 {
			reasons = append(reasons, "no reason reported yet")
		}
	}
	lines := []string{head}
	for _, r := range reasons {
		lines = append(lines, "  "+r)
	}
	return lines
}

// containerNotReady says why a container is not ready ("" if it is),
// whether it has crashed (its logs then say why), and whether that
// explains it (a bare "waiting (ContainerCreating)" or "running, not
// ready" does not: an event does).
func containerNotReady(st corev1.ContainerStatus) (why string, crashed, explains bool) {
	if st.Ready {
		return "", false, false
	}
	last := ""
	if t := st.LastTerminationState.Terminated; t != nil {
		last = fmt.Sprintf(", last exit code %d (%s)", t.ExitCode, t.Reason)
		if t.Message != "" {
			last += ": " + strings.TrimSpace(t.Message)
		}
	}
	switch w, t := st.State.Waiting, st.State.Terminated; {
	case w != nil && slices.Contains(imagePullReasons, w.Reason):
		return fmt.Sprintf("image %s cannot be pulled (%s): %s", st.Image, w.Reason, w.Message), false, true
	case w != nil && w.Reason == "CrashLoopBackOff":
		return fmt.Sprintf("crash loop (CrashLoopBackOff), %d restarts%s", st.RestartCount, last), true, true
	case w != nil:
		why = "waiting"
		if w.Reason != "" {
			why += " (" + w.Reason + ")"
		}
		if w.Message != "" {
			why += ": " + w.Message
		}
		return why + last, st.RestartCount > 0, w.Message != "" || st.RestartCount > 0
	case t != nil:
		why = fmt.Sprintf("terminated, exit code %d (%s)", t.ExitCode, t.Reason)
		if t.Message != "" {
			why += ": " + strings.TrimSpace(t.Message)
		}
		return why, t.ExitCode != 0, true
	case st.State.Running != nil:
		if st.RestartCount > 0 {
			// Between two crashes of a loop: the previous instance's logs.
			crashed := st.LastTerminationState.Terminated != nil && st.LastTerminationState.Terminated.ExitCode != 0
			return fmt.Sprintf("running, not ready, %d restarts%s", st.RestartCount, last), crashed, crashed
		}
		return "running, not ready", false, false
	}
	return "no state reported yet", false, false
}

// logLines are the last lines a crashed container wrote (its previous
// instance when it has been restarted), indented; none when they cannot
// be read.
func logLines(ctx context.Context, cs kubernetes.Interface, p *corev1.Pod, st corev1.ContainerStatus) []string {
	opts := &corev1.PodLogOptions{Container: st.Name, Previous: st.State.Terminated == nil, TailLines: ptr.To[int64](logTail), LimitBytes: ptr.To[int64](8 << 10)}
	raw, err := cs.CoreV1().Pods(p.Namespace).GetLogs(p.Name, opts).DoRaw(ctx)
	text := strings.TrimRight(string(raw), "\n")
	if err != nil || text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if len(lines) > logTail {
		lines = lines[len(lines)-logTail:]
	}
	out := []string{fmt.Sprintf("  last %d log lines of %s:", len(lines), st.Name)}
	for _, l := range lines {
		out = append(out, "    | "+l)
	}
	return out
}

// latestEvent is the most recent event about pod p that passes keep.
func latestEvent(events []corev1.Event, p *corev1.Pod, keep func(corev1.Event) bool) *corev1.Event {
	var latest *corev1.Event
	for i, e := range events {
		if e.InvolvedObject.Kind != "Pod" || e.InvolvedObject.Name != p.Name || (e.InvolvedObject.UID != "" && e.InvolvedObject.UID != p.UID) || !keep(e) {
			continue
		}
		if latest == nil || !eventTime(e).Before(eventTime(*latest)) {
			latest = &events[i]
		}
	}
	return latest
}

// eventTime is when an event last happened, whichever API wrote it.
func eventTime(e corev1.Event) time.Time {
	t := e.CreationTimestamp.Time
	for _, c := range []time.Time{e.FirstTimestamp.Time, e.LastTimestamp.Time, e.EventTime.Time} {
		if c.After(t) {
			t = c
		}
	}
	if e.Series != nil && e.Series.LastObservedTime.After(t) {
		t = e.Series.LastObservedTime.Time
	}
	return t
}
