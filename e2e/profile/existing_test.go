package profile

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/router-conformance/suite/contract"
)

// What the report names is the image as deployed, not the runtime's name
// for it (containerd reports an image pulled by digest by its config
// digest).
func TestDeployedRouterIsTheImageThePodSpecNames(t *testing.T) {
	const ref = "registry.example/router@sha256:4242"
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "router-default-1", Namespace: contract.RouterNamespace,
			Labels: map[string]string{contract.RouterDeploymentLabel: contract.DefaultIngressController}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "router", Image: ref}}},
		Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{
			Name: "router", Image: "sha256:c0ffee", ImageID: ref,
		}}},
	}
	img, err := deployedRouter(context.Background(), fake.NewClientset(pod))
	if err != nil {
		t.Fatal(err)
	}
	if img.Ref != ref || img.ID != ref || img.Digest != "sha256:4242" {
		t.Errorf("router image %+v, want ref and id %s, digest sha256:4242", img, ref)
	}
	// Two replicas of one image are one router; a second image is refused.
	twin := pod.DeepCopy()
	twin.Name = "router-default-2"
	if img, err := deployedRouter(context.Background(), fake.NewClientset(pod, twin)); err != nil || img.ID != ref {
		t.Errorf("two replicas of one image: %+v %v", img, err)
	}
	other := pod.DeepCopy()
	other.Name = "router-default-3"
	other.Status.ContainerStatuses[0].ImageID = "registry.example/router@sha256:4343"
	want := "the router pods run two images: router-default-1 " + ref + ", router-default-3 registry.example/router@sha256:4343: wait until the router's rollout is done, one image judged at a time"
	if _, err := deployedRouter(context.Background(), fake.NewClientset(pod, other)); err == nil || err.Error() != want {
		t.Errorf("two images: %v\nwant %q", err, want)
	}
	// No router pod: one line saying what is missing.
	if _, err := deployedRouter(context.Background(), fake.NewClientset()); err == nil {
		t.Error("no router pod, no error")
	}
}
