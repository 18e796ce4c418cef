package framework

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
)

// UpdateIngressController changes the default IngressController, waits
// until the change has taken effect (observed, rolled out, Available),
// and restores the previous spec when the spec ends. Only for Serial specs:
// the IngressController is one for the whole cluster.
func (f *Framework) UpdateIngressController(ctx context.Context, change func(*operatorv1.IngressController)) {
	ics := f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace)
	var previous operatorv1.IngressControllerSpec
	Eventually(func(g Gomega) {
		ic, err := ics.Get(ctx, contract.DefaultIngressController, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		previous = *ic.Spec.DeepCopy()
		change(ic)
		_, err = ics.Update(ctx, ic, metav1.UpdateOptions{})
		g.Expect(err).NotTo(HaveOccurred())
	}).WithContext(ctx).WithTimeout(f.Opts.Timeouts.Converge).Should(Succeed())
	DeferCleanup(func(ctx SpecContext) {
		Eventually(func(g Gomega) {
			ic, err := ics.Get(ctx, contract.DefaultIngressController, metav1.GetOptions{})
			g.Expect(err).NotTo(HaveOccurred())
			ic.Spec = previous
			_, err = ics.Update(ctx, ic, metav1.UpdateOptions{})
			g.Expect(err).NotTo(HaveOccurred())
		}).WithContext(ctx).WithTimeout(f.Opts.Timeouts.Converge).Should(Succeed())
		f.WaitIngressControllerSettled(ctx)
	})
	f.WaitIngressControllerSettled(ctx)
}

// WaitIngressControllerSettled waits until the default IngressController's
// current spec runs.
func (f *Framework) WaitIngressControllerSettled(ctx context.Context) {
	Eventually(func(g Gomega) {
		ic, err := f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace).Get(ctx, contract.DefaultIngressController, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(contract.IngressControllerSettled(ic)).To(BeTrue(), "IngressController status: %+v", ic.Status)
	}).WithContext(ctx).WithTimeout(f.Opts.Timeouts.PodReady).Should(Succeed())
}

// SetRequiredHSTSPolicies replaces the cluster's required HSTS policies
// and restores the previous ones when the spec ends (Serial specs only).
func (f *Framework) SetRequiredHSTSPolicies(ctx context.Context, policies []configv1.RequiredHSTSPolicy) {
	ingresses := f.ConfigAPI.ConfigV1().Ingresses()
	var previous []configv1.RequiredHSTSPolicy
	update := func(ctx context.Context, p []configv1.RequiredHSTSPolicy, keep bool) {
		Eventually(func(g Gomega) {
			ing, err := ingresses.Get(ctx, contract.IngressConfig, metav1.GetOptions{})
			g.Expect(err).NotTo(HaveOccurred())
			if keep {
				previous = ing.Spec.RequiredHSTSPolicies
			}
			ing.Spec.RequiredHSTSPolicies = p
			_, err = ingresses.Update(ctx, ing, metav1.UpdateOptions{})
			g.Expect(err).NotTo(HaveOccurred())
		}).WithContext(ctx).WithTimeout(f.Opts.Timeouts.Converge).Should(Succeed())
	}
	update(ctx, policies, true)
	DeferCleanup(func(ctx SpecContext) { update(ctx, previous, false) })
}
