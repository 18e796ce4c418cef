package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/fixtures/probe"
)

// Probe is a probe pod of a spec's namespace, reached through the API
// server's pod proxy.
type Probe struct {
	Namespace, Name, IP string
	f                   *Framework
}

// DeployProbe starts a probe pod in ns and waits until it is ready.
func (f *Framework) DeployProbe(ctx context.Context, ns string) *Probe {
	GinkgoHelper()
	c := f.ScratchContainer("probe", f.Image("probe"))
	c.ReadinessProbe = HTTPReadiness("/healthz", probe.Port)
	pod := f.CreatePod(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "probe", Namespace: ns, Labels: map[string]string{"app": "probe"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{c}},
	})
	return &Probe{Namespace: ns, Name: pod.Name, IP: pod.Status.PodIP, f: f}
}

func (p *Probe) get(ctx context.Context, path string, params map[string]string, out any) error {
	raw, err := p.f.Clientset.CoreV1().Pods(p.Namespace).ProxyGet("http", p.Name, strconv.Itoa(probe.Port), path, params).DoRaw(ctx)
	if err != nil {
		return fmt.Errorf("probe %s/%s %s: %w", p.Namespace, p.Name, path, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("probe %s answer %q: %w", path, raw, err)
	}
	return nil
}

// Dial opens a TCP connection from the pod to addr.
func (p *Probe) Dial(ctx context.Context, addr, timeout string) (probe.DialResult, error) {
	var r probe.DialResult
	return r, p.get(ctx, "/dial", map[string]string{"addr": addr, "timeout": timeout}, &r)
}

// DNS asks the pod's nameserver (CoreDNS) for name's A records.
func (p *Probe) DNS(ctx context.Context, name string) (probe.DNSResult, error) {
	var r probe.DNSResult
	return r, p.get(ctx, "/dns", map[string]string{"name": name, "type": "A"}, &r)
}

// HTTP fetches url from the pod (names resolved by the pod's resolver).
func (p *Probe) HTTP(ctx context.Context, url string) (probe.HTTPResult, error) {
	var r probe.HTTPResult
	return r, p.get(ctx, "/http", map[string]string{"url": url}, &r)
}
