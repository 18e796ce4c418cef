package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
)

// SpecNamespace creates a namespace that belongs to the running spec:
// labelled with the spec, dumped to the report directory if the spec
// fails, deleted when it ends.
func (f *Framework) SpecNamespace(ctx context.Context, prefix string) string {
	GinkgoHelper()
	return f.SpecNamespaceWithLabels(ctx, prefix, nil)
}

// SpecNamespaceWithLabels is SpecNamespace with extra labels (for
// namespace selectors).
func (f *Framework) SpecNamespaceWithLabels(ctx context.Context, prefix string, labels map[string]string) string {
	GinkgoHelper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		GenerateName: prefix + "-",
		Labels:       map[string]string{"router-conformance/spec": "true"},
	}}
	for k, v := range labels {
		ns.Labels[k] = v
	}
	created, err := f.Clientset.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create the spec's namespace")
	name := created.Name
	DeferCleanup(func(ctx SpecContext) {
		if CurrentSpecReport().Failed() {
			f.DumpNamespace(ctx, name)
		}
		err := f.Clientset.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{})
		Expect(err).NotTo(HaveOccurred(), "delete namespace %s", name)
	})
	return name
}

var unsafeChars = regexp.MustCompile(`[^a-zA-Z0-9._-]+`)

// failureDir is where a spec's diagnostics go.
func (f *Framework) failureDir(specText string) string {
	return filepath.Join(f.Opts.ReportDir, "failures", unsafeChars.ReplaceAllString(specText, "_"))
}

// DumpNamespace writes the namespace's pods, their logs, its Routes, its
// IngressRoutes and its events to <report-dir>/failures/<spec>/, for
// whoever reads a failed run.
func (f *Framework) DumpNamespace(ctx context.Context, ns string) {
	dir := f.failureDir(CurrentSpecReport().FullText())
	if pods, err := f.Clientset.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{}); err == nil {
		if b, err := json.MarshalIndent(pods, "", "  "); err == nil {
			writeDump(dir, fmt.Sprintf("pods-%s.json", ns), b) // per namespace: a spec may have several
		}
		for _, p := range pods.Items {
			for _, c := range p.Spec.Containers {
				logs, err := f.Clientset.CoreV1().Pods(ns).GetLogs(p.Name, &corev1.PodLogOptions{Container: c.Name}).DoRaw(ctx)
				if err != nil {
					logs = []byte(err.Error())
				}
				writeDump(dir, fmt.Sprintf("log-%s-%s.txt", p.Name, c.Name), logs)
			}
		}
	}
	// The Routes with every router's status entry: which router admitted
	// or refused what is gone once the namespace is.
	if routes, err := f.Routes.RouteV1().Routes(ns).List(ctx, metav1.ListOptions{}); err == nil {
		if b, err := json.MarshalIndent(routes, "", "  "); err == nil {
			writeDump(dir, fmt.Sprintf("routes-%s.json", ns), b)
		}
	}
	// The IngressRoutes with the router's status of each (a cluster
	// without their CRD has none to write).
	var irs irv1.IngressRouteList
	if err := f.Resources.WithNamespace(ns).List(ctx, &irs); err == nil && len(irs.Items) > 0 {
		if b, err := json.MarshalIndent(irs, "", "  "); err == nil {
			writeDump(dir, fmt.Sprintf("ingressroutes-%s.json", ns), b)
		}
	}
	f.writeEvents(ctx, dir, ns)
	GinkgoWriter.Printf("diagnostics of namespace %s written to %s\n", ns, dir)
}

// RecordFailure notes a failed spec in the report directory (so the
// process that owns the cluster knows to keep its logs).
func (f *Framework) RecordFailure(ctx context.Context, report SpecReport) {
	dir := f.failureDir(report.FullText())
	writeDump(dir, "failure.txt", []byte(report.FailureMessage()+"\n\n"+report.FailureLocation().String()+"\n"))
	if f.Env != nil {
		f.DumpRouter(ctx, filepath.Join(dir, "router"))
	}
}

// FailuresRecorded reports whether any spec of this run recorded a failure.
func (f *Framework) FailuresRecorded() bool {
	entries, err := os.ReadDir(filepath.Join(f.Opts.ReportDir, "failures"))
	return err == nil && len(entries) > 0
}
