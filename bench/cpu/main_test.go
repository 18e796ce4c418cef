package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPodsAreGroupedByWhatTheyAre(t *testing.T) {
	const node = "router-conformance-control-plane"
	for _, c := range []struct {
		pod  podName
		want string
	}{
		{podName{Namespace: "kube-system", Name: "kube-apiserver-" + node, Owner: "Node", ConfigHash: "be11e628619113092dd1ca07e71b3b6a"}, "kube-system/kube-apiserver"},
		{podName{Namespace: "kube-system", Name: "kube-proxy-x7k2p", Owner: "DaemonSet"}, "kube-system/kube-proxy"},
		{podName{Namespace: "kube-system", Name: "coredns-6f6b679f8f-b5kqz", Owner: "ReplicaSet"}, "kube-system/coredns"},
		{podName{Namespace: "openshift-ingress", Name: "router-default-dd749674b-7rs5w", Owner: "ReplicaSet"}, "openshift-ingress/router-default"},
		{podName{Namespace: "openshift-ingress", Name: "router-shard-3-6d4987db87-w62rs", Owner: "ReplicaSet"}, "openshift-ingress/router-<shard>"},
		{podName{Namespace: "headers-buffer-tzh6p", Name: "echo-b845d8d74-xhg8j", App: "echo", Owner: "ReplicaSet"}, "spec fixture echo"},
		{podName{Namespace: "crl-x", Name: "probe"}, "spec fixture probe"},
	} {
		if got := group(c.pod, node); got != c.want {
			t.Errorf("group(%+v) = %q, want %q", c.pod, got, c.want)
		}
	}
}

func TestPodCgroupsAreRecognised(t *testing.T) {
	for name, want := range map[string]string{
		"kubelet-kubepods-besteffort-pod04b0f719_913a_4360_93e2_65e8154007c2.slice": "04b0f719_913a_4360_93e2_65e8154007c2",
		"kubelet-kubepods-burstable-podbe11e628619113092dd1ca07e71b3b6a.slice":      "be11e628619113092dd1ca07e71b3b6a",
		"pod04b0f719-913a-4360-93e2-65e8154007c2":                                   "04b0f719-913a-4360-93e2-65e8154007c2",
		"kubelet-kubepods-besteffort.slice":                                         "",
		"cri-containerd-0123.scope":                                                 "",
	} {
		got := ""
		if m := podCgroup.FindStringSubmatch(name); m != nil {
			got = m[1]
		}
		if got != want {
			t.Errorf("%s: pod %q, want %q", name, got, want)
		}
	}
}

func TestThePodsCgroupIsFoundUnderTheNode(t *testing.T) {
	node := t.TempDir()
	want := filepath.Join(node, "kubelet.slice", "kubelet-kubepods.slice")
	if err := os.MkdirAll(filepath.Join(want, "kubelet-kubepods-besteffort.slice"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(node, "cpuacct.usage"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := findPodsDir(node); got != want {
		t.Errorf("findPodsDir = %q, want %q", got, want)
	}
	if got := findPodsDir(t.TempDir()); got != "" {
		t.Errorf("a node without pods: findPodsDir = %q, want none", got)
	}
}
