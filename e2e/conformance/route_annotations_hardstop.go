package conformance

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// The hard-stop-after specs: the annotation's value, and how long the
// held tunnel is left idle before and after the reload (twice it).
const (
	hardStopAfter = "5s"
	pastHardStop  = 10 * time.Second // not a wait: the idle time asked of the held tunnel, twice hard-stop-after
)

// describeHardStopAfter: ingress.operator.openshift.io/hard-stop-after.
func describeHardStopAfter(f *framework.Framework) {
	// With hard-stop-after on the IngressController, or on the Ingress
	// config for an IngressController without its own, a router's old
	// HAProxy that still holds a connection after a reload is stopped
	// that long after it: a WebSocket held across a reload is closed.
	// Beside it, the positive controls on the same router: the same
	// WebSocket idle as long without a reload still carries data, and
	// right after the reload too (the reload itself keeps it). The
	// Ingress config's annotation redeploys every router, so that spec is
	// Serial and Disruptive.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table, ingresses.config/cluster
	// ingress.operator.openshift.io/hard-stop-after (ROUTER_HARD_STOP_AFTER)
	// Upstream: openshift/cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (HardStopAfterIsEnabled:
	// the IngressController's annotation when valid, else the Ingress
	// config's; clipHAProxyTimeoutValue; ROUTER_HARD_STOP_AFTER),
	// openshift/router images/router/haproxy/conf/haproxy-config.template
	// (global: hard-stop-after)
	It("hard-stop-after on the IngressController closes what a router holds across a reload, that long after it",
		framework.ID("route-annotations/hard-stop-after-ingresscontroller"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
			ic := f.OwnIngressController(ctx, func(ic *operatorv1.IngressController) {
				ic.Annotations = map[string]string{contract.HardStopAfterAnnotation: hardStopAfter}
			})
			expectHeldTunnelStopped(ctx, f, ic)
		})

	// The same set on the Ingress config, for an IngressController
	// without an annotation of its own.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table, hard-stop-after (set on the
	// IngressController or on the ingress config)
	// Upstream: openshift/cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (HardStopAfterIsEnabled)
	It("hard-stop-after on the Ingress config reaches an IngressController without its own",
		framework.ID("route-annotations/hard-stop-after-ingress-config"), Serial, framework.Disruptive, func(ctx SpecContext) {
			f.AnnotateIngressConfig(ctx, contract.HardStopAfterAnnotation, hardStopAfter)
			expectHeldTunnelStopped(ctx, f, f.OwnIngressController(ctx))
		})
}

// expectHeldTunnelStopped: on ic's router, whose hard-stop-after is
// hardStopAfter, a WebSocket idle for pastHardStop still carries data;
// after a reload it still does at once, and is closed pastHardStop later.
func expectHeldTunnelStopped(ctx SpecContext, f *framework.Framework, ic *framework.IngressController) {
	GinkgoHelper()
	ns := f.SpecNamespaceWithLabels(ctx, "hard-stop", ic.NamespaceLabels)
	backend := f.DeployEcho(ctx, ns)
	held := ic.RequestTo(f.CreateRoute(ctx, f.RouteTo(backend, "held", framework.EchoHTTPPort)), backend, "/")
	var tunnel *httpclient.Tunnel
	f.Eventually(ctx, func(g Gomega) {
		t, err := httpclient.OpenTunnel(ctx, held)
		g.Expect(err).NotTo(HaveOccurred())
		if err := t.Echo("open", f.Opts.Timeouts.Request); err != nil {
			t.Close()
			g.Expect(err).NotTo(HaveOccurred(), "the tunnel carries data at first")
		}
		tunnel = t
	}).Should(Succeed())
	DeferCleanup(tunnel.Close)

	By("positive control: without a reload, the tunnel idle for " + pastHardStop.String() + " still carries data")
	time.Sleep(pastHardStop)
	Expect(tunnel.Echo("idle", f.Opts.Timeouts.Request)).To(Succeed())

	By("a reload (another route served); positive control: the reload keeps the tunnel")
	reload := f.CreateRoute(ctx, f.RouteTo(backend, "reload", framework.EchoHTTPPort))
	f.EventuallyResponds(ctx, ic.RequestTo(reload, backend, "/"), backend.Served)
	Expect(tunnel.Echo("reloaded", f.Opts.Timeouts.Request)).To(Succeed())

	By("hard-stop-after " + hardStopAfter + ": " + pastHardStop.String() + " after the reload the old process is gone, and the tunnel with it")
	time.Sleep(pastHardStop)
	Expect(tunnel.Echo("stopped", f.Opts.Timeouts.Request)).To(MatchError(httpclient.ErrTunnelClosed))
}
