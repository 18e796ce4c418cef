package conformance

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
)

// checkWindow is how long the health check specs count the checks each
// pod gets (checksByPod).
const checkWindow = 10 * time.Second // not a wait: the window the router's checks are counted over

// checkedBackend is one backend of the health check spec: its name, its
// pods, the route's interval annotation ("" none) and how many checks
// each pod gets within checkWindow, [least, most].
type checkedBackend struct {
	what, name  string
	replicas    int32
	interval    string
	least, most int64
}

// describeHealthCheckInterval: router.openshift.io/haproxy.health.check.interval.
func describeHealthCheckInterval(f *framework.Framework) {
	// The router checks each endpoint of a route of more than one on its
	// own, and the echo backend counts the checks it gets: HAProxy's
	// layer-4 check (plain and passthrough backends) resets the TCP
	// handshake before it completes, which only the pod's kernel counts
	// (echo.Response.HandshakesReset); its TLS check (a reencrypt
	// backend's `ssl` server) is a connection that closes without a
	// request (echo.Response.Unrequested). With the annotation at 1s a
	// pod is checked about once a second; without
	// it, every 5000ms, beside it on a backend of as many pods (the
	// positive control: checks there are, and fewer); a route of one
	// endpoint is never checked, whatever the annotation. Each router
	// checks on its own, so the spec has an IngressController of its
	// own: one router. The routes balance round robin, so that each pod
	// answers and tells its count.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table,
	// router.openshift.io/haproxy.health.check.interval
	// (ROUTER_BACKEND_CHECK_INTERVAL)
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// ($health_check_interval: the annotation matching $timeSpecPattern,
	// else ROUTER_BACKEND_CHECK_INTERVAL, else 5000ms; the server lines of
	// the HTTP and the be_tcp backends: `check inter` only when
	// $cfg.ActiveEndpoints is above 1)
	DescribeTable("the health check interval sets how often the router checks each endpoint",
		func(ctx SpecContext, termination routev1.TLSTerminationType) {
			ic := f.OwnIngressController(ctx)
			ns := f.SpecNamespaceWithLabels(ctx, "health", ic.NamespaceLabels)
			backends := []checkedBackend{
				{"with the interval 1s: about one check a second on each of two pods", "checked", 2, "1s", 6, 20},
				{"positive control: without it, one every 5000ms", "unannotated", 2, "", 1, 4},
				{"one endpoint, the interval 1s: no check", "single", 1, "1s", 0, 0},
			}
			type counted struct {
				checkedBackend
				backend *framework.Echo
				req     httpclient.Request
				before  map[string]int64
			}
			var all []counted
			for _, b := range backends {
				backend := f.DeployEchoReplicasNamed(ctx, ns, b.name, b.replicas, f.Host(ns, b.name))
				r := f.TerminatedRouteTo(backend, b.name, termination, "")
				r.Annotations = map[string]string{contract.BalanceAnnotation: "roundrobin"}
				if b.interval != "" {
					r.Annotations[contract.HealthCheckIntervalAnnotation] = b.interval
				}
				all = append(all, counted{checkedBackend: b, backend: backend, req: ic.RequestTo(f.CreateRoute(ctx, r), backend, "/")})
			}
			for i := range all {
				all[i].before = checksByPod(ctx, f, all[i].req, all[i].backend)
			}
			time.Sleep(checkWindow)
			for _, c := range all {
				By(c.what)
				after := checksByPod(ctx, f, c.req, c.backend)
				for pod, n := range after {
					Expect(n-c.before[pod]).To(SatisfyAll(BeNumerically(">=", c.least), BeNumerically("<=", c.most)),
						"pod %s: checks within %s", pod, checkWindow)
				}
			}
		},
		f.OwnIngressControllerDecorator(),
		Entry("plain HTTP", framework.ID("route-annotations/health-check-interval-http"), routev1.TLSTerminationType("")),
		Entry("reencrypt", framework.ID("route-annotations/health-check-interval-reencrypt"), routev1.TLSTerminationReencrypt),
		Entry("passthrough", framework.ID("route-annotations/health-check-interval-passthrough"), routev1.TLSTerminationPassthrough),
	)
}

// checksByPod is how many checks each of backend's pods has had (its
// handshakes reset and its connections closed without a request), read
// through req (which balances round robin: twice as many requests as
// pods reach each).
func checksByPod(ctx SpecContext, f *framework.Framework, req httpclient.Request, backend *framework.Echo) map[string]int64 {
	GinkgoHelper()
	counts := map[string]int64{}
	f.Eventually(ctx, func(g Gomega) {
		for _, resp := range framework.Answers(ctx, g, req, 2*len(backend.Pods)) {
			backend.Served(g, resp)
			g.Expect(resp.Echo.HandshakesReset).To(BeNumerically(">=", 0), "pod %s cannot read its kernel's counters (%s)", resp.Echo.Pod, echo.SNMPFile)
			counts[resp.Echo.Pod] = max(counts[resp.Echo.Pod], resp.Echo.HandshakesReset+resp.Echo.Unrequested)
		}
		g.Expect(counts).To(HaveLen(len(backend.Pods)), "the pods that answered")
	}).Should(Succeed())
	return counts
}
