package framework

import (
	"context"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
)

// ExpectRefusal asserts that the API refused with one of the rule's
// upstream wordings, and with its status (reason and HTTP code) where
// upstream fixes one; an admission, or any other error, fails.
func ExpectRefusal(g Gomega, err error, want contract.Refusal) {
	g.ExpectWithOffset(1, err).To(HaveOccurred(), "admitted; want the refusal %s", want)
	g.ExpectWithOffset(1, want.Matches(err.Error())).To(BeTrue(), "got %q; want %s", err.Error(), want)
	if want.Status == (contract.APIStatus{}) {
		return
	}
	var status apierrors.APIStatus
	g.ExpectWithOffset(1, errors.As(err, &status)).To(BeTrue(), "%q is no API status error; want %s", err.Error(), want)
	got := contract.APIStatus{Reason: string(status.Status().Reason), Code: status.Status().Code}
	g.ExpectWithOffset(1, got).To(Equal(want.Status), "refused as %s (%d): %q; want %s", got.Reason, got.Code, err.Error(), want)
}

var dryRun = []string{metav1.DryRunAll}

// DryRun adapts a typed client to Update with every write a dry run: the
// API's answer to a change (a refusal, asserted once with ExpectRefusal),
// with nothing stored, read again only on a conflict.
type DryRun[T any] struct{ Client GetUpdater[T] }

func (d DryRun[T]) Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error) {
	return d.Client.Get(ctx, name, opts)
}

func (d DryRun[T]) Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	opts.DryRun = dryRun
	return d.Client.Update(ctx, obj, opts)
}

// EventuallyRouteRefused waits until creating route is refused with want,
// then creates it for real and asserts the same refusal. Admission reads
// the Ingress config through informer caches (on OpenShift, of several API
// servers), so a policy set a moment ago may not apply yet; the dry runs
// store nothing while it settles.
func (f *Framework) EventuallyRouteRefused(ctx context.Context, route *routev1.Route, want contract.Refusal) {
	GinkgoHelper()
	routes := f.Routes.RouteV1().Routes(route.Namespace)
	f.Eventually(ctx, func(g Gomega) {
		_, err := routes.Create(ctx, route.DeepCopy(), metav1.CreateOptions{DryRun: dryRun})
		ExpectRefusal(g, err, want)
	}).Should(Succeed())
	_, err := routes.Create(ctx, route.DeepCopy(), metav1.CreateOptions{})
	ExpectRefusal(Default, err, want)
}

// EventuallyRouteUpdateRefused is EventuallyRouteRefused for an update of
// the live route by change. Each attempt reads the route again on a
// conflict only (the router writes its status meanwhile), so a conflict
// never stands in for the refusal.
func (f *Framework) EventuallyRouteUpdateRefused(ctx context.Context, ns, name string, change func(*routev1.Route), want contract.Refusal) {
	GinkgoHelper()
	routes := f.Routes.RouteV1().Routes(ns)
	f.Eventually(ctx, func(g Gomega) {
		_, err := Update(ctx, DryRun[*routev1.Route]{Client: routes}, name, change)
		ExpectRefusal(g, err, want)
	}).Should(Succeed())
	_, err := Update(ctx, routes, name, change)
	ExpectRefusal(Default, err, want)
}

// CreateAdmittedRoute creates r and expects route admission to accept it,
// waiting for no router: a platform spec's positive control, which a
// broken router must not fail (CreateRoute also waits for the default
// router's Admitted status, a router's verdict).
func (f *Framework) CreateAdmittedRoute(ctx context.Context, r *routev1.Route) *routev1.Route {
	GinkgoHelper()
	created, err := f.Routes.RouteV1().Routes(r.Namespace).Create(ctx, r, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "route admission refused route %s/%s", r.Namespace, r.Name)
	return created
}
