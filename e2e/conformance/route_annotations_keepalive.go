package conformance

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// The router's wait for a new request on a kept-alive connection
// (ROUTER_SLOWLORIS_HTTP_KEEPALIVE's default, `timeout http-keep-alive`)
// and the inspect delay the documentation adds to it.
const (
	keepAliveTimeout = 300 * time.Second // not a wait: upstream's default http-keep-alive, which the spec measures
	inspectDelay     = 5 * time.Second   // not a wait: upstream's tcp-request inspect-delay, which the spec measures
	keepAliveSlack   = 2 * time.Second   // not a wait: how late past 305s the router may close it
)

// describeKeepAlive: the router timeout variable ROUTER_SLOWLORIS_HTTP_KEEPALIVE.
func describeKeepAlive(f *framework.Framework) {
	// After an answer, a connection the client keeps alive and sends
	// nothing more on is kept open for 300s (the positive control: not
	// closed any sooner), and closed by the router within the 5s inspect
	// delay after that. The spec waits for the router's own close, on an
	// IngressController of its own: a reload would close an idle
	// connection at once, and no other spec's route reloads it. These
	// are the suite's longest specs: they run first.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// "Router timeout variables", ROUTER_SLOWLORIS_HTTP_KEEPALIVE (300s),
	// and the note that adds tcp-request inspect-delay (5s) to it
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (defaults: `timeout http-keep-alive` from
	// ROUTER_SLOWLORIS_HTTP_KEEPALIVE, else 300s; frontends public and
	// public_ssl: `tcp-request inspect-delay` from ROUTER_INSPECT_DELAY,
	// else 5s)
	DescribeTable("the router closes a kept-alive connection idle for 300s, within the 5s inspect delay after",
		func(ctx SpecContext, termination routev1.TLSTerminationType) {
			ic := f.OwnIngressController(ctx)
			ns := f.SpecNamespaceWithLabels(ctx, "keep-alive", ic.NamespaceLabels)
			backend := f.DeployEchoFor(ctx, ns, termination)
			req := ic.RequestTo(f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "kept", termination, "")), backend, "/")
			f.EventuallyResponds(ctx, req, backend.Served)

			idle, err := httpclient.KeptAliveFor(ctx, req, keepAliveTimeout+inspectDelay+keepAliveSlack)
			Expect(err).NotTo(HaveOccurred())
			By(fmt.Sprintf("the router closed it after %s idle", idle.Round(time.Millisecond)))
			By("positive control: open for the whole " + keepAliveTimeout.String())
			Expect(idle).To(BeNumerically(">=", keepAliveTimeout))
			By("closed by the router within the inspect delay after")
			Expect(idle).To(BeNumerically("<=", keepAliveTimeout+inspectDelay+keepAliveSlack))
		},
		f.OwnIngressControllerDecorator(), SpecPriority(100),
		Entry("plain HTTP", framework.ID("route-annotations/keep-alive-300s-http"), routev1.TLSTerminationType("")),
		Entry("edge", framework.ID("route-annotations/keep-alive-300s-edge"), routev1.TLSTerminationEdge),
	)
}
