package framework

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"
)

const testNS = "spec-ns"

func testPod(name string, status corev1.PodStatus) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS, Labels: map[string]string{"app": "echo"}, UID: types.UID("uid-" + name)},
		Spec:       corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "echo", Image: "echo:test"}}},
		Status:     status,
	}
}

func notReadyStatus(containers ...corev1.ContainerStatus) corev1.PodStatus {
	return corev1.PodStatus{
		Phase:             corev1.PodPending,
		Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}},
		ContainerStatuses: containers,
	}
}

func podEvent(pod, reason, typ, message string, at time.Time) *corev1.Event {
	return &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: pod + "." + reason + at.Format("150405"), Namespace: testNS},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: testNS, Name: pod, UID: types.UID("uid-" + pod)},
		Reason:         reason, Type: typ, Message: message,
		LastTimestamp: metav1.NewTime(at),
	}
}

func reasons(t *testing.T, objects ...runtime.Object) string {
	t.Helper()
	got := PodNotReadyReasons(context.Background(), fake.NewClientset(objects...), testNS, "app=echo")
	t.Logf("reasons:\n%s", got)
	return got
}

func expectAll(t *testing.T, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("the reasons do not say %q:\n%s", w, got)
		}
	}
}

func TestPodNotReadyReasonsImagePull(t *testing.T) {
	for _, reason := range []string{"ErrImagePull", "ImagePullBackOff"} {
		t.Run(reason, func(t *testing.T) {
			msg := `Back-off pulling image "echo:test": not found`
			got := reasons(t, testPod("echo-1", notReadyStatus(corev1.ContainerStatus{
				Name: "echo", Image: "echo:test",
				State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}},
			})))
			expectAll(t, got, "pod spec-ns/echo-1", "container echo", "cannot be pulled", reason, msg)
			if strings.Contains(got, "log lines") {
				t.Errorf("no logs for a container that never ran:\n%s", got)
			}
		})
	}
}

func TestPodNotReadyReasonsCrashLoop(t *testing.T) {
	got := reasons(t, testPod("echo-1", notReadyStatus(corev1.ContainerStatus{
		Name: "echo", Image: "echo:test", RestartCount: 4,
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 40s restarting failed container"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
			ExitCode: 2, Reason: "Error", Message: "open /tls/tls.crt: no such file or directory",
		}},
	})))
	expectAll(t, got, "container echo", "CrashLoopBackOff", "4 restarts", "last exit code 2 (Error)", "open /tls/tls.crt")
	// The fake clientset answers every log request with "fake logs"; a
	// client that cannot read logs leaves them out.
	if strings.Contains(got, "log lines") {
		expectAll(t, got, "last 1 log lines of echo:", "| fake logs")
	}
}

func TestPodNotReadyReasonsUnschedulable(t *testing.T) {
	status := notReadyStatus()
	status.Conditions = append(status.Conditions, corev1.PodCondition{
		Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable,
		Message: "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }",
	})
	pod := testPod("echo-1", status)
	pod.Spec.NodeName = ""
	expectAll(t, reasons(t, pod), "not scheduled (Unschedulable)", "untolerated taint")
}

func TestPodNotReadyReasonsReadinessProbe(t *testing.T) {
	now := time.Now()
	status := notReadyStatus(corev1.ContainerStatus{
		Name: "echo", Image: "echo:test", Started: ptr.To(true),
		State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}},
	})
	status.Phase = corev1.PodRunning
	got := reasons(t, testPod("echo-1", status),
		podEvent("echo-1", "Unhealthy", corev1.EventTypeWarning, "Readiness probe failed: HTTP probe failed with statuscode: 500", now.Add(-time.Minute)),
		podEvent("echo-1", "Unhealthy", corev1.EventTypeWarning, "Readiness probe failed: connection refused", now),
		podEvent("echo-2", "Unhealthy", corev1.EventTypeWarning, "another pod's probe", now.Add(time.Minute)),
	)
	expectAll(t, got, "container echo: running, not ready", "latest Unhealthy event: Readiness probe failed: connection refused")
	if strings.Contains(got, "statuscode: 500") || strings.Contains(got, "another pod") {
		t.Errorf("want the latest Unhealthy event of this pod only:\n%s", got)
	}
}

func TestPodNotReadyReasonsLatestWarning(t *testing.T) {
	pod := testPod("echo-1", notReadyStatus(corev1.ContainerStatus{
		Name: "echo", Image: "echo:test",
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}},
	}))
	got := reasons(t, pod, podEvent("echo-1", "FailedMount", corev1.EventTypeWarning, `MountVolume.SetUp failed for volume "tls" : secret "echo-tls" not found`, time.Now()))
	expectAll(t, got, "container echo: waiting (ContainerCreating)", "latest warning event (FailedMount)", `secret "echo-tls" not found`)
}

func TestPodNotReadyReasonsSkipsReadyPods(t *testing.T) {
	ready := testPod("echo-ready", corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}})
	if got := reasons(t, ready); !strings.Contains(got, "ready now") {
		t.Errorf("a ready pod has no reason: %s", got)
	}
	if got := reasons(t); !strings.Contains(got, `no pod of spec-ns matches "app=echo"`) {
		t.Errorf("no pod: %s", got)
	}
}

func TestDeploymentNotReadyReasons(t *testing.T) {
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "echo", Namespace: testNS},
		Spec:       appsv1.DeploymentSpec{Replicas: ptr.To[int32](1), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "echo"}}},
		Status: appsv1.DeploymentStatus{Conditions: []appsv1.DeploymentCondition{{
			Type: appsv1.DeploymentReplicaFailure, Status: corev1.ConditionTrue, Reason: "FailedCreate",
			Message: `pods "echo-1" is forbidden: violates PodSecurity "restricted:latest"`,
		}}},
	}
	got := DeploymentNotReadyReasons(context.Background(), fake.NewClientset(d), testNS, "echo")
	t.Logf("reasons:\n%s", got)
	expectAll(t, got, "deployment spec-ns/echo: 1 replicas wanted, 0 updated, 0 ready", "ReplicaFailure (FailedCreate)", "violates PodSecurity", `no pod of spec-ns matches "app=echo"`)
}
