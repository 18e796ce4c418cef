package framework

import (
	"context"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/util/retry"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// CreateIngressRoute creates ir; the spec's namespace takes it away.
func (f *Framework) CreateIngressRoute(ctx context.Context, ir *irv1.IngressRoute) *irv1.IngressRoute {
	GinkgoHelper()
	Expect(f.Resources.Create(ctx, ir)).To(Succeed(), "create IngressRoute %s/%s", ir.Namespace, ir.Name)
	return ir
}

// UpdateIngressRoute applies change to the live object, again on a
// conflict only (the router writes its status meanwhile); any other error
// fails the spec at once.
func (f *Framework) UpdateIngressRoute(ctx context.Context, ns, name string, change func(*irv1.IngressRoute)) {
	GinkgoHelper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var live irv1.IngressRoute
		if err := f.Resources.Get(ctx, name, ns, &live); err != nil {
			return err
		}
		change(&live)
		return f.Resources.Update(ctx, &live)
	})
	Expect(err).NotTo(HaveOccurred(), "update IngressRoute %s/%s", ns, name)
}

// DeleteIngressRoute deletes one IngressRoute.
func (f *Framework) DeleteIngressRoute(ctx context.Context, ns, name string) {
	GinkgoHelper()
	Expect(f.Resources.Delete(ctx, &irv1.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})).To(Succeed(), "delete IngressRoute %s/%s", ns, name)
}

// GetIngressRoute reads one IngressRoute.
func (f *Framework) GetIngressRoute(ctx context.Context, g Gomega, ns, name string) *irv1.IngressRoute {
	var live irv1.IngressRoute
	g.ExpectWithOffset(1, f.Resources.Get(ctx, name, ns, &live)).To(Succeed(), "get IngressRoute %s/%s", ns, name)
	return &live
}

// EventuallyIngressRouteStatus waits until the router's status of the
// IngressRoute passes check.
func (f *Framework) EventuallyIngressRouteStatus(ctx context.Context, ns, name string, check func(g Gomega, st irv1.Status)) {
	GinkgoHelper()
	f.Eventually(ctx, func(g Gomega) {
		check(g, f.GetIngressRoute(ctx, g, ns, name).Status)
	}).Should(Succeed())
}

// IngressRouteStatusIs checks an IngressRoute's status against a
// condition of the contract (contract/ingressroute_status.go): its
// currentStatus, and a description carrying one of the condition's
// accepted wordings, Contour v1.0.1's or the reference router's. No spec
// asks for text Contour's wording lacks.
func IngressRouteStatusIs(d contract.StatusDescription) func(Gomega, irv1.Status) {
	return func(g Gomega, st irv1.Status) {
		g.ExpectWithOffset(1, st.CurrentStatus).To(Equal(d.CurrentStatus), "description: %s", st.Description)
		g.ExpectWithOffset(1, d.Matches(st.Description)).To(BeTrue(), "description %q, want %s", st.Description, d)
	}
}

// NotServed checks that resp is the router's own no-route answer: 503,
// and no backend saw the request (upstream's error-page-503.http; the
// reference router answers alike).
func NotServed(g Gomega, resp *httpclient.Response) {
	g.ExpectWithOffset(1, resp.Status).To(Equal(http.StatusServiceUnavailable), "want the router's no-route answer; body: %s", resp.Body)
	g.ExpectWithOffset(1, resp.Echo).To(BeNil(), "a backend answered: %+v", resp.Echo)
}

// CreateIngressRouteRaw creates ir as the API receives it after edit has
// changed its spec: for what the typed object cannot write, such as an
// empty list its omitempty field drops ("routes: []").
func (f *Framework) CreateIngressRouteRaw(ctx context.Context, ir *irv1.IngressRoute, edit func(spec map[string]any)) {
	GinkgoHelper()
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(ir)
	Expect(err).NotTo(HaveOccurred())
	spec, _ := obj["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		obj["spec"] = spec
	}
	edit(spec)
	u := &unstructured.Unstructured{Object: obj}
	u.SetGroupVersionKind(irv1.GroupVersion.WithKind(irv1.Kind))
	Expect(f.Resources.Create(ctx, u)).To(Succeed(), "create IngressRoute %s/%s with spec %v", ir.Namespace, ir.Name, spec)
}
