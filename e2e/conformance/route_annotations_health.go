package conformance

import (
	"fmt"
	"slices"
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
// pods and the route's interval annotation ("" none).
type checkedBackend struct {
	name     string
	replicas int32
	interval string
}

// leastChecks is how many checks a pod checked every second gets within
// checkWindow at least; a pod checked every 5000ms gets at most a third
// as many (fewer than 5 to a process; a router may run two or more
// after reloads, each checking).
const leastChecks = 10

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
	// positive control: checks there are, a third as many or fewer), as with a value that
	// is no HAProxy time (1.5s: ignored); a route of one endpoint is never
	// checked, whatever the annotation. Each router
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
			backends := []checkedBackend{{"checked", 2, "1s"}, {"unannotated", 2, ""}, {"invalid", 2, "1.5s"}, {"single", 1, "1s"}}
			var (
				echoes = map[string]*framework.Echo{}
				reqs   = map[string]httpclient.Request{}
				before = map[string]map[string]int64{}
				checks = map[string][]int64{} // by backend, each pod's checks within the window
			)
			for _, b := range backends {
				backend := f.DeployEchoReplicasNamed(ctx, ns, b.name, b.replicas, f.Host(ns, b.name))
				r := f.TerminatedRouteTo(backend, b.name, termination, "")
				r.Annotations = map[string]string{contract.BalanceAnnotation: "roundrobin"}
				if b.interval != "" {
					r.Annotations[contract.HealthCheckIntervalAnnotation] = b.interval
				}
				echoes[b.name], reqs[b.name] = backend, ic.RequestTo(f.CreateRoute(ctx, r), backend, "/")
			}
			for _, b := range backends {
				before[b.name] = checksByPod(ctx, f, reqs[b.name], echoes[b.name])
			}
			time.Sleep(checkWindow)
			for _, b := range backends {
				for pod, n := range checksByPod(ctx, f, reqs[b.name], echoes[b.name]) {
					checks[b.name] = append(checks[b.name], n-before[b.name][pod])
				}
			}
			By(fmt.Sprintf("checks of each pod within %s: %v", checkWindow, checks))
			// A router may run an old process beside the new one for a
			// while after a reload, each checking: the control is held
			// to the checked pods' count, not to a fixed one.
			By("with the interval 1s: at least " + fmt.Sprint(leastChecks) + " checks of each of two pods within " + checkWindow.String())
			Expect(checks["checked"]).To(HaveEach(BeNumerically(">=", leastChecks)))
			for _, look := range []struct{ what, backend string }{
				{"positive control: without it (5000ms), each of two pods checked, a third as often or less", "unannotated"},
				{"an interval that is no HAProxy time (1.5s) is ignored: as without one", "invalid"},
			} {
				By(look.what)
				Expect(checks[look.backend]).To(HaveEach(SatisfyAll(BeNumerically(">=", 1), BeNumerically("<=", slices.Min(checks["checked"])/3))),
					"checks of the pods of route %s, beside %v with the interval 1s", look.backend, checks["checked"])
			}
			By("one endpoint, the interval 1s: never checked")
			Expect(checks["single"]).To(HaveEach(BeZero()))
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
