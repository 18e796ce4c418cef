package conformance

import (
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
)

// The route annotations: the per-route settings OpenShift's documentation
// lists (openshift/openshift-docs
// modules/nw-route-specific-annotations.adoc, "Route-specific
// annotations") and upstream's template reads (openshift/router
// images/router/haproxy/conf/haproxy-config.template, the route
// backends). Each is read only when its value matches upstream's pattern
// whole; any other value is ignored without a word, and the route is
// served with the router's default.
func describeRouteAnnotations(f *framework.Framework) {
	framework.DescribeFeature(contract.FeatureRouteAnnotations, func() {
		describeRouteTimeouts(f)
		describeTunnelTimeout(f)
		describeSlowRequest(f)
		describeRewriteTarget(f)
		describeAllowlist(f)
		describeCookieSameSite(f)
		describeBalance(f)
		describeLeastConn(f)
		describeRouteLimits(f)
		describeHealthCheckInterval(f)
		describeHardStopAfter(f)
		describeKeepAlive(f)
	})
}

// Waits of the timeout specs: the route's timeout, a backend slower
// than it, and one well within it.
const (
	routeTimeout   = "2s"
	slowerThanIt   = "4s"
	withinIt       = "500ms"
	tunnelOverIt   = "10s"
	timeoutNoUnit  = "2000" // milliseconds: the same 2s
	serverTimedOut = http.StatusGatewayTimeout
)

// timeoutCase is one route of the timeout specs: its termination, its
// timeout and timeout-tunnel annotations ("" none), and whether a request
// whose backend answers after slowerThanIt is served.
type timeoutCase struct {
	termination routev1.TLSTerminationType
	timeout     string
	tunnel      string
	slowServed  bool
}

// expectSlowAnswer: a route bounded by routeTimeout does not serve an
// answer after slowerThanIt. Over HTTP the client gets the router's 504;
// on passthrough, where the router sees no HTTP, the idle connection is
// closed unanswered.
func expectSlowAnswer(ctx SpecContext, f *framework.Framework, slow httpclient.Request, backend *framework.Echo, termination routev1.TLSTerminationType) {
	GinkgoHelper()
	if termination == routev1.TLSTerminationPassthrough {
		By("the connection idle for longer than the timeout is closed unanswered")
		f.EventuallyRefused(ctx, slow, httpclient.ClosedWithoutAnswer)
		return
	}
	By("an answer after " + slowerThanIt + " gets the router's 504")
	f.EventuallyResponds(ctx, slow, func(g Gomega, resp *httpclient.Response) {
		g.Expect(resp.Status).To(Equal(serverTimedOut), "body: %s", resp.Body)
		g.Expect(resp.Echo).To(BeNil(), "the backend's answer reached the client")
	})
}

// describeRouteTimeouts: haproxy.router.openshift.io/timeout and
// timeout-tunnel.
func describeRouteTimeouts(f *framework.Framework) {
	// A route's timeout bounds how long the router waits for its backend's
	// answer: a backend slower than it gets the client the router's 504,
	// one within it is served, and a route without the annotation on the
	// same router waits out the router's default (30s) and serves the slow
	// answer. A value without a unit is milliseconds. On a passthrough
	// route the router sees no HTTP: the timeout bounds the idle
	// connection (HAProxy's tunnel timeout), which it closes unanswered,
	// and timeout-tunnel, when set, takes its place.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table, haproxy.router.openshift.io/timeout
	// and timeout-tunnel; "Router timeout variables" (TimeUnits); "A route
	// setting custom timeout" (ms when no unit is given)
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// ($timeSpecPattern; the HTTP route backend: `timeout server` from
	// timeout, `timeout tunnel` from timeout-tunnel; the be_tcp backend:
	// `timeout tunnel` from timeout-tunnel, else timeout, both through
	// clipHAProxyTimeoutValue and firstMatch), pkg/router/template/template_helper.go
	// (clipHAProxyTimeoutValue, TestClipHAProxyTimeoutValue)
	DescribeTable("the timeout annotation bounds the wait for the backend's answer",
		func(ctx SpecContext, c timeoutCase) {
			ns := f.SpecNamespace(ctx, "timeout")
			// A passthrough backend's certificate names every route's host.
			backend := f.DeployEchoFor(ctx, ns, c.termination, f.Host(ns, "timeout"), f.Host(ns, "default"), f.Host(ns, "bounded"))
			route := f.TerminatedRouteTo(backend, "timeout", c.termination, "")
			route.Annotations = map[string]string{}
			if c.timeout != "" {
				route.Annotations[contract.TimeoutAnnotation] = c.timeout
			}
			if c.tunnel != "" {
				route.Annotations[contract.TimeoutTunnelAnnotation] = c.tunnel
			}
			f.CreateRoute(ctx, route)
			unbounded := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "default", c.termination, ""))
			slow := func(r *routev1.Route) httpclient.Request {
				return framework.WithHeader(f.RequestTo(r, backend, "/"), echo.Delay, slowerThanIt)
			}

			By("positive control: an answer within " + routeTimeout + " is served")
			f.EventuallyResponds(ctx, framework.WithHeader(f.RequestTo(route, backend, "/"), echo.Delay, withinIt), backend.Served)
			By("positive control: the same route without the annotation serves an answer after " + slowerThanIt)
			f.EventuallyResponds(ctx, slow(unbounded), backend.Served)
			if c.slowServed {
				By("positive control: the same route with timeout " + routeTimeout + " alone does not serve it")
				bounded := f.TerminatedRouteTo(backend, "bounded", c.termination, "")
				bounded.Annotations = map[string]string{contract.TimeoutAnnotation: routeTimeout}
				f.CreateRoute(ctx, bounded)
				expectSlowAnswer(ctx, f, slow(bounded), backend, c.termination)
			}

			if c.slowServed {
				By("an answer after " + slowerThanIt + " is served")
				f.EventuallyResponds(ctx, slow(route), backend.Served)
				return
			}
			expectSlowAnswer(ctx, f, slow(route), backend, c.termination)
		},
		Entry("plain HTTP, "+routeTimeout, framework.ID("route-annotations/timeout-http"),
			timeoutCase{timeout: routeTimeout}),
		Entry("edge, "+routeTimeout, framework.ID("route-annotations/timeout-edge"),
			timeoutCase{termination: routev1.TLSTerminationEdge, timeout: routeTimeout}),
		Entry("reencrypt, "+routeTimeout, framework.ID("route-annotations/timeout-reencrypt"),
			timeoutCase{termination: routev1.TLSTerminationReencrypt, timeout: routeTimeout}),
		Entry("plain HTTP, "+timeoutNoUnit+" without a unit: milliseconds", framework.ID("route-annotations/timeout-no-unit-milliseconds"),
			timeoutCase{timeout: timeoutNoUnit}),
		// An answer after 4s is served whether the value is read as 2000
		// seconds or ignored: the entry above tells them apart.
		Entry("plain HTTP, 1.5s: no such value, ignored", framework.ID("route-annotations/timeout-invalid-ignored"),
			timeoutCase{timeout: "1.5s", slowServed: true}),
		Entry("plain HTTP, 10S: units are lower case, ignored", framework.ID("route-annotations/timeout-unit-case-ignored"),
			timeoutCase{timeout: "10S", slowServed: true}),
		Entry("plain HTTP, timeout-tunnel alone: no bound on an HTTP answer", framework.ID("route-annotations/timeout-tunnel-not-server-http"),
			timeoutCase{tunnel: routeTimeout, slowServed: true}),
		Entry("passthrough, "+routeTimeout+": the idle connection", framework.ID("route-annotations/timeout-passthrough"),
			timeoutCase{termination: routev1.TLSTerminationPassthrough, timeout: routeTimeout}),
		Entry("passthrough, "+routeTimeout+" with timeout-tunnel "+tunnelOverIt+": the tunnel's wins", framework.ID("route-annotations/timeout-tunnel-wins-passthrough"),
			timeoutCase{termination: routev1.TLSTerminationPassthrough, timeout: routeTimeout, tunnel: tunnelOverIt, slowServed: true}),
	)
}

// slowHeadWait is longer than the router's wait for a request head (10s).
const slowHeadWait = 20 * time.Second // not a wait: the bound of one exchange that must outlast the router's own 10s

// describeSlowRequest: the router's wait for a request head
// (ROUTER_SLOWLORIS_TIMEOUT).
func describeSlowRequest(f *framework.Framework) {
	// A client that has not sent its whole request head 10s after it
	// began gets the router's 408 Request Time-out; a whole request on
	// the same route is served.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// "Router timeout variables", ROUTER_SLOWLORIS_TIMEOUT (10s)
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (defaults: `timeout http-request` from ROUTER_SLOWLORIS_TIMEOUT, else
	// 10s)
	It("a request head still unfinished after 10s gets the router's 408", framework.ID("route-annotations/slow-request-head-408"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "slow-head")
		backend := f.DeployEcho(ctx, ns)
		route := f.CreateRoute(ctx, f.RouteTo(backend, "slow", framework.EchoHTTPPort))
		By("positive control: a whole request is served")
		f.EventuallyResponds(ctx, f.RequestTo(route, backend, "/"), backend.Served)
		By("a head begun and never finished: 408 after 10s")
		start := time.Now()
		line, err := httpclient.SlowHead(ctx, f.HTTPAddr, route.Spec.Host, slowHeadWait)
		Expect(err).NotTo(HaveOccurred())
		Expect(line).To(HavePrefix("HTTP/1.1 408 "), "the router's answer")
		Expect(time.Since(start)).To(BeNumerically(">=", 9*time.Second), "answered before the router's 10s") // not a wait: the router's 10s, less a second of clock
	})
}

// tunnelIdle is how long a tunnel stays idle in the tunnel timeout spec:
// longer than the route's timeout-tunnel (routeTimeout).
const tunnelIdle = 4 * time.Second // not a wait: the idle time asked of the tunnel, past the route's 2s

// describeTunnelTimeout: haproxy.router.openshift.io/timeout-tunnel on
// an upgraded (WebSocket) connection.
func describeTunnelTimeout(f *framework.Framework) {
	// On plain, edge and reencrypt routes timeout-tunnel bounds an
	// upgraded connection: a WebSocket idle for longer is closed by the
	// router, while on the route beside it without the annotation (the
	// router's 1h) the same idle WebSocket still carries data.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table, timeout-tunnel ("WebSocket over
	// cleartext, edge, reencrypt"); "Router timeout variables",
	// ROUTER_DEFAULT_TUNNEL_TIMEOUT (1h)
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (the HTTP route backend: `timeout tunnel` from timeout-tunnel;
	// defaults: `timeout tunnel` 1h)
	DescribeTable("timeout-tunnel closes an idle WebSocket",
		func(ctx SpecContext, termination routev1.TLSTerminationType) {
			ns := f.SpecNamespace(ctx, "tunnel")
			backend := f.DeployEchoFor(ctx, ns, termination)
			bounded := f.TerminatedRouteTo(backend, "bounded", termination, "")
			bounded.Annotations = map[string]string{contract.TimeoutTunnelAnnotation: routeTimeout}
			f.CreateRoute(ctx, bounded)
			unbounded := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "unbounded", termination, ""))
			for _, look := range []struct {
				what   string
				route  *routev1.Route
				closed bool
			}{
				{"positive control: without the annotation a WebSocket idle for " + tunnelIdle.String() + " still carries data", unbounded, false},
				{"with timeout-tunnel " + routeTimeout + " the router has closed it", bounded, true},
			} {
				By(look.what)
				f.Eventually(ctx, func(g Gomega) {
					tunnel, err := httpclient.OpenTunnel(ctx, f.RequestTo(look.route, backend, "/"))
					g.Expect(err).NotTo(HaveOccurred())
					defer tunnel.Close()
					g.Expect(tunnel.Echo("before", f.Opts.Timeouts.Request)).To(Succeed(), "the tunnel carries data at first")
					time.Sleep(tunnelIdle)
					err = tunnel.Echo("after", f.Opts.Timeouts.Request)
					if look.closed {
						g.Expect(err).To(MatchError(httpclient.ErrTunnelClosed))
					} else {
						g.Expect(err).NotTo(HaveOccurred())
					}
				}).Should(Succeed())
			}
		},
		Entry("plain HTTP", framework.ID("route-annotations/timeout-tunnel-websocket-http"), routev1.TLSTerminationType("")),
		Entry("edge", framework.ID("route-annotations/timeout-tunnel-websocket-edge"), routev1.TLSTerminationEdge),
		Entry("reencrypt", framework.ID("route-annotations/timeout-tunnel-websocket-reencrypt"), routev1.TLSTerminationReencrypt),
	)
}
