package framework

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
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
	ic.f.AwaitShardDeleted(ctx)
}
