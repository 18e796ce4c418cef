package framework

import (
	"context"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/fixtures/componentoperator"
	"github.com/router-conformance/suite/internal/kubeapply"
)

// DeployComponentOperator runs the suite's fixture component (a component
// operator with a configurable route; it follows cluster-authentication-
// operator's custom route controller, pkg/controllers/customroute/
// custom_route_controller.go customRouteController.sync: see package
// componentoperator) for the Route named routeName in ns, on defaultHost,
// and waits until it is ready; it is stopped, and its entries removed,
// when the spec (or the Ordered container, when called in BeforeAll) ends.
// The Route must exist: like upstream, the component publishes no status
// entry without it.
func (f *Framework) DeployComponentOperator(ctx context.Context, ns, name, routeName, defaultHost string) componentoperator.Options {
	GinkgoHelper()
	o, stop := f.StartComponentOperator(ctx, ns, name, routeName, defaultHost)
	DeferCleanup(stop)
	return o
}

// StartComponentOperator is DeployComponentOperator for callers outside a
// spec (the bench): stop ends it. The operator is stopped before its
// entries are removed, or it would write its entry back.
func (f *Framework) StartComponentOperator(ctx context.Context, ns, name, routeName, defaultHost string) (componentoperator.Options, func(context.Context)) {
	GinkgoHelper()
	o := componentoperator.Options{Namespace: ns, Name: name, RouteName: routeName, DefaultHostname: defaultHost,
		Image: f.Image("component-operator"), PullPolicy: f.FixturePullPolicy, Fault: f.Opts.SwitchedOn()}
	for _, obj := range componentoperator.Objects(o) {
		if _, isDeployment := obj.(*appsv1.Deployment); isDeployment {
			continue // created below, and waited for
		}
		Expect(kubeapply.Apply(ctx, f.Resources, obj)).To(Succeed(), "apply %s", obj.GetName())
	}
	deployment := componentoperator.Deployment(o)
	f.CreateDeployment(ctx, deployment)
	return o, func(ctx context.Context) {
		Expect(f.Clientset.AppsV1().Deployments(ns).Delete(ctx, deployment.Name, metav1.DeleteOptions{})).To(Succeed())
		f.Eventually(ctx, func(g Gomega) {
			pods, err := f.Clientset.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: metav1.FormatLabelSelector(deployment.Spec.Selector)})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(pods.Items).To(BeEmpty(), "the component operator must be gone before its entry is removed")
		}).WithTimeout(f.Opts.Timeouts.PodReady).Should(Succeed())
		f.removeComponentEntries(ctx, ns, name)
		for _, obj := range []componentoperator.Object{componentoperator.ClusterRoleBinding(o), componentoperator.ClusterRole(o)} {
			err := f.Resources.Delete(ctx, obj)
			Expect(err == nil || apierrors.IsNotFound(err)).To(BeTrue(), "delete %s: %v", obj.GetName(), err)
		}
	}
}

// removeComponentEntries takes the component's entries out of the Ingress
// config's status and spec (status first: the entry is the component's,
// and it is stopped by now).
func (f *Framework) removeComponentEntries(ctx context.Context, ns, name string) {
	GinkgoHelper()
	ingresses := f.ConfigAPI.ConfigV1().Ingresses()
	_, err := Update(ctx, StatusWriter[*configv1.Ingress]{Client: ingresses}, contract.IngressConfig, func(live *configv1.Ingress) {
		live.Status.ComponentRoutes = componentoperator.WithoutEntry(live.Status.ComponentRoutes, ns, name)
	})
	Expect(err).NotTo(HaveOccurred(), "remove the status entry of component %s/%s from Ingress %s", ns, name, contract.IngressConfig)
	_, err = Update(ctx, ingresses, contract.IngressConfig, func(live *configv1.Ingress) {
		live.Spec.ComponentRoutes = slices.DeleteFunc(live.Spec.ComponentRoutes, func(e configv1.ComponentRouteSpec) bool {
			return e.Namespace == ns && e.Name == name
		})
	})
	Expect(err).NotTo(HaveOccurred(), "remove the spec entry of component %s/%s from Ingress %s", ns, name, contract.IngressConfig)
}
