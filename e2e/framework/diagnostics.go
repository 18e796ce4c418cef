package framework

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/remotecommand"

	"github.com/router-conformance/suite/contract"
)

// DumpRouter writes what a person needs to see why a router spec failed:
// each router pod's generated HAProxy configuration (every replica's: a
// change that reached one replica and not another shows here), the logs
// (current and previous) of the router, webhook and reconciler pods, which
// node each pod runs on, and the events of their namespaces.
func (f *Framework) DumpRouter(ctx context.Context, dir string) {
	for _, ns := range []string{contract.RouterNamespace, contract.OperatorNamespace} {
		pods, err := f.Clientset.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			GinkgoWriter.Printf("dump %s: %v\n", ns, err)
			continue
		}
		writeDump(dir, "pods-"+ns+".txt", []byte(podTable(pods.Items)))
		for _, p := range pods.Items {
			for _, c := range p.Spec.Containers {
				for _, previous := range []bool{false, true} {
					logs, err := f.Clientset.CoreV1().Pods(ns).GetLogs(p.Name, &corev1.PodLogOptions{Container: c.Name, Previous: previous}).DoRaw(ctx)
					if err != nil {
						continue
					}
					suffix := ""
					if previous {
						suffix = "-previous"
					}
					writeDump(dir, fmt.Sprintf("log-%s-%s%s.txt", p.Name, c.Name, suffix), logs)
				}
			}
			if c := p.Spec.Containers[0]; c.Name == contract.RouterContainer && p.Status.Phase == corev1.PodRunning {
				cfg, err := f.execIn(ctx, ns, p.Name, c.Name, "cat", "/var/lib/haproxy/router/haproxy.cfg")
				if err != nil {
					cfg = []byte(err.Error())
				}
				writeDump(dir, "haproxy-"+p.Name+".cfg", cfg)
			}
		}
		f.writeEvents(ctx, dir, ns)
	}
}

// podTable is kubectl get pods -o wide's gist: name, node, phase, ready
// containers, restarts, pod IP.
func podTable(pods []corev1.Pod) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-60s %-40s %-10s %-6s %-8s %s\n", "POD", "NODE", "PHASE", "READY", "RESTARTS", "IP")
	for _, p := range pods {
		ready, restarts := 0, int32(0)
		for _, c := range p.Status.ContainerStatuses {
			if c.Ready {
				ready++
			}
			restarts += c.RestartCount
		}
		phase := string(p.Status.Phase)
		if p.DeletionTimestamp != nil {
			phase = "Terminating"
		}
		fmt.Fprintf(&b, "%-60s %-40s %-10s %-6s %-8d %s\n", p.Name, p.Spec.NodeName, phase, fmt.Sprintf("%d/%d", ready, len(p.Spec.Containers)), restarts, p.Status.PodIP)
	}
	return b.String()
}

func writeDump(dir, name string, data []byte) {
	if err := os.MkdirAll(dir, 0o755); err == nil {
		err = os.WriteFile(filepath.Join(dir, name), data, 0o644)
		if err == nil {
			return
		}
	}
	GinkgoWriter.Printf("dump %s: cannot write\n", name)
}

func (f *Framework) writeEvents(ctx context.Context, dir, ns string) {
	events, err := f.Clientset.CoreV1().Events(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return
	}
	var lines []string
	for _, e := range events.Items {
		lines = append(lines, fmt.Sprintf("%s %s %s/%s: %s", e.LastTimestamp.Format("15:04:05"), e.Type, e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Message))
	}
	writeDump(dir, "events-"+ns+".txt", []byte(strings.Join(lines, "\n")+"\n"))
}

// execIn runs a command in a container (the API's exec, no kubectl).
func (f *Framework) execIn(ctx context.Context, ns, pod, container string, command ...string) ([]byte, error) {
	req := f.Clientset.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Container: container, Command: command, Stdout: true, Stderr: true}, scheme.ParameterCodec)
	exec, err := remotecommand.NewSPDYExecutor(f.Config, "POST", req.URL())
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	if err := exec.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &stdout, Stderr: &stderr}); err != nil {
		return nil, fmt.Errorf("exec %v: %w: %s", command, err, stderr.String())
	}
	return stdout.Bytes(), nil
}
