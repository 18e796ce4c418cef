package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SpecNamespace creates a namespace that belongs to the running spec:
// labelled with the spec, dumped to the report directory if the spec
// fails, deleted when it ends.
func SpecNamespace(ctx context.Context, prefix string) string {
	return SpecNamespaceWithLabels(ctx, prefix, nil)
}

// SpecNamespaceWithLabels is SpecNamespace with extra labels (for
// namespace selectors).
func SpecNamespaceWithLabels(ctx context.Context, prefix string, labels map[string]string) string {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		GenerateName: prefix + "-",
		Labels:       map[string]string{"router-conformance/spec": "true"},
	}}
	for k, v := range labels {
		ns.Labels[k] = v
	}
	created, err := E.Clientset.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create the spec's namespace")
	name := created.Name
	DeferCleanup(func(ctx SpecContext) {
		if CurrentSpecReport().Failed() {
			DumpNamespace(ctx, name)
		}
		err := E.Clientset.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{})
		Expect(err).NotTo(HaveOccurred(), "delete namespace %s", name)
	})
	return name
}

var unsafeChars = regexp.MustCompile(`[^a-zA-Z0-9._-]+`)

// DumpNamespace writes the namespace's pods, their logs and its events to
// <report-dir>/failures/<spec>/, for whoever reads a failed run.
func DumpNamespace(ctx context.Context, ns string) {
	dir := filepath.Join(Opts.ReportDir, "failures", unsafeChars.ReplaceAllString(CurrentSpecReport().FullText(), "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		GinkgoWriter.Printf("dump: %v\n", err)
		return
	}
	write := func(name string, v any) {
		b, err := json.MarshalIndent(v, "", "  ")
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
		if err != nil {
			GinkgoWriter.Printf("dump %s: %v\n", name, err)
		}
	}
	if pods, err := E.Clientset.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{}); err == nil {
		write("pods.json", pods)
		for _, p := range pods.Items {
			for _, c := range p.Spec.Containers {
				logs, err := E.Clientset.CoreV1().Pods(ns).GetLogs(p.Name, &corev1.PodLogOptions{Container: c.Name}).DoRaw(ctx)
				if err != nil {
					logs = []byte(err.Error())
				}
				_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("log-%s-%s.txt", p.Name, c.Name)), logs, 0o644)
			}
		}
	}
	if events, err := E.Clientset.CoreV1().Events(ns).List(ctx, metav1.ListOptions{}); err == nil {
		var lines []string
		for _, e := range events.Items {
			lines = append(lines, fmt.Sprintf("%s %s %s/%s: %s", e.LastTimestamp.Format("15:04:05"), e.Type, e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Message))
		}
		_ = os.WriteFile(filepath.Join(dir, "events.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	}
	GinkgoWriter.Printf("diagnostics of namespace %s written to %s\n", ns, dir)
}

// RecordFailure notes a failed spec in the report directory (so the
// process that owns the cluster knows to keep its logs).
func RecordFailure(ctx context.Context, report SpecReport) {
	dir := filepath.Join(Opts.ReportDir, "failures", unsafeChars.ReplaceAllString(report.FullText(), "_"))
	writeDump(dir, "failure.txt", []byte(report.FailureMessage()+"\n\n"+report.FailureLocation().String()+"\n"))
	if E != nil {
		DumpRouter(ctx, filepath.Join(dir, "router"))
	}
}

// FailuresRecorded reports whether any spec of this run recorded a failure.
func FailuresRecorded() bool {
	entries, err := os.ReadDir(filepath.Join(Opts.ReportDir, "failures"))
	return err == nil && len(entries) > 0
}
