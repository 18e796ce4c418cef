package framework

import (
	"context"
	"maps"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
)

// Domain is the IngressController's status.domain, once the operator
// has set it: the domain its router serves a route's spec.subdomain
// under (ROUTER_DOMAIN).
func (ic *IngressController) Domain(ctx context.Context) string {
	GinkgoHelper()
	var domain string
	ic.f.Eventually(ctx, func(g Gomega) {
		live, err := ic.f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace).Get(ctx, ic.Name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(live.Status.Domain).NotTo(BeEmpty(), "IngressController %s has no status.domain", ic.Name)
		domain = live.Status.Domain
	}).Should(Succeed())
	return domain
}

// Delete deletes a shard of the spec's own and waits until it and its
// router pods are gone (the operator's finalizer has run). The default
// IngressController is never deleted.
func (ic *IngressController) Delete(ctx SpecContext) {
	GinkgoHelper()
	Expect(ic.Name).NotTo(Equal(contract.DefaultIngressController), "the default IngressController is never deleted")
	ic.f.startShardDeletion(ctx, ic.Name)
	ic.f.awaitShardDeleted(ctx, ic.Name)
}

// startShardDeletion deletes shard name without waiting: the process's
// next shard of that name (PendingIngressController) and the end of the
// process (AwaitShardsDeleted) wait for it to be gone, so that its
// router's shutdown overlaps the specs in between.
func (f *Framework) startShardDeletion(ctx SpecContext, name string) {
	GinkgoHelper()
	err := f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace).Delete(ctx, name, metav1.DeleteOptions{})
	Expect(err == nil || apierrors.IsNotFound(err)).To(BeTrue(), "delete IngressController %s: %v", name, err)
	if f.shardsGoing == nil {
		f.shardsGoing = map[string]string{}
	}
	f.shardsGoing[name] = CurrentSpecReport().FullText()
}

// AwaitShardsDeleted waits until every shard this process deleted is
// gone: the run leaves nothing of its own behind.
func (f *Framework) AwaitShardsDeleted(ctx context.Context) {
	GinkgoHelper()
	for _, name := range slices.Sorted(maps.Keys(f.shardsGoing)) {
		f.awaitShardDeleted(ctx, name)
	}
}

// awaitShardDeleted waits until shard name, if this process deleted it,
// is gone, its router pods too: the next shard of that name binds the
// same ports and labels its namespaces alike (a router still stopping
// must not write its status on the next spec's routes).
func (f *Framework) awaitShardDeleted(ctx context.Context, name string) {
	GinkgoHelper()
	spec, ok := f.shardsGoing[name]
	if !ok {
		return
	}
	start := time.Now()
	// The operator's finalizer holds the IngressController until its
	// router pods are gone (cluster-ingress-operator
	// finalizer-ingresscontroller): gone means the ports are free.
	f.Eventually(ctx, func(g Gomega) {
		_, err := f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace).Get(ctx, name, metav1.GetOptions{})
		g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "IngressController %s still there (err %v)", name, err)
		pods, err := f.Clientset.CoreV1().Pods(contract.RouterNamespace).List(ctx, metav1.ListOptions{LabelSelector: contract.RouterDeploymentLabel + "=" + name})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(pods.Items).To(BeEmpty(), "router pods of IngressController %s", name)
	}).WithTimeout(f.Opts.Timeouts.PodReady).Should(Succeed(), "IngressController %s, deleted when %q ended, is not gone", name, spec)
	// In the spec's captured output (report.json): how long a shard's
	// deletion still held the next one up.
	GinkgoWriter.Printf("IngressController %s of %q: gone after waiting %s\n", name, spec, time.Since(start).Round(time.Millisecond))
	delete(f.shardsGoing, name)
}
