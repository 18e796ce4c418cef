package conformance

import (
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

// balanceSample is how many requests one look at a route's balancing
// sends, each on a connection of its own with no cookie.
const balanceSample = 16

// spread is how a sample of requests fell on a backend of two pods.
type spread struct {
	name  string
	holds func(pods []string) bool
}

var (
	// alternating: round robin, every request on the other pod than the
	// one before (a reload restarts it: a sample is taken again).
	alternating = spread{"alternating between the two pods", func(p []string) bool {
		for i := 1; i < len(p); i++ {
			if p[i] == p[i-1] {
				return false
			}
		}
		return len(distinct(p)) == 2
	}}
	// onePod: every request of this one client on the same pod (source).
	onePod = spread{"every request on one pod", func(p []string) bool { return len(distinct(p)) == 1 }}
	// bothPods: both pods answer (random; never source for one client).
	bothPods = spread{"both pods answering", func(p []string) bool { return len(distinct(p)) == 2 }}
)

func distinct(p []string) []string { return slices.Compact(slices.Sorted(slices.Values(p))) }

// balanceCase is one route of the balance specs: its termination, its
// balance annotation ("" none) and how its requests spread; the control
// is a route to the same two pods with another annotation and its spread.
type balanceCase struct {
	termination    routev1.TLSTerminationType
	balance        string
	spread         spread
	controlBalance string
	controlSpread  spread
}

// describeBalance: haproxy.router.openshift.io/balance.
func describeBalance(f *framework.Framework) {
	// The annotation chooses how the route's requests are spread among
	// the endpoints of its service (a backend of two pods here): roundrobin
	// alternates, source keeps one client on one pod. Without it a
	// passthrough route balances by source and every other route at
	// random. Beside each, a route with another algorithm on the same
	// pods spreads its requests its own way; whichever of the two needs
	// both pods is looked at first, so that both are known to be served.
	// Each router keeps its own count (no coordination among replicas),
	// so the spec has an IngressController of its own: one router.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table, haproxy.router.openshift.io/balance
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// ($balanceAlgoPattern; the HTTP route backend: the annotation, else
	// roundrobin with more than one active service, else
	// ROUTER_LOAD_BALANCE_ALGORITHM or random; the be_tcp backend: the
	// annotation, else ROUTER_TCP_BALANCE_SCHEME or source), cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (random, and source for
	// passthrough)
	DescribeTable("the balance annotation chooses how requests spread among the route's endpoints",
		func(ctx SpecContext, c balanceCase) {
			ic := f.OwnIngressController(ctx)
			ns := f.SpecNamespaceWithLabels(ctx, "balance", ic.NamespaceLabels)
			backend := f.DeployEchoReplicas(ctx, ns, 2, f.Host(ns, "balanced"), f.Host(ns, "control"))
			routeWith := func(name, balance string) *routev1.Route {
				GinkgoHelper()
				r := f.TerminatedRouteTo(backend, name, c.termination, "")
				if balance != "" {
					r.Annotations = map[string]string{contract.BalanceAnnotation: balance}
				}
				return f.CreateRoute(ctx, r)
			}
			looks := []struct {
				what   string
				route  *routev1.Route
				spread spread
			}{
				{"the route (balance " + c.balance + ")", routeWith("balanced", c.balance), c.spread},
				{"control: a route with balance " + c.controlBalance, routeWith("control", c.controlBalance), c.controlSpread},
			}
			if c.spread.name == onePod.name {
				looks[0], looks[1] = looks[1], looks[0]
			}
			for _, l := range looks {
				By(l.what + ": " + l.spread.name)
				req := ic.RequestTo(l.route, backend, "/")
				f.Eventually(ctx, func(g Gomega) {
					var pods []string
					for _, resp := range framework.Answers(ctx, g, req, balanceSample) {
						backend.Served(g, resp)
						pods = append(pods, resp.Echo.Pod)
					}
					g.Expect(l.spread.holds(pods)).To(BeTrue(), "%d requests answered by %v", balanceSample, pods)
				}).Should(Succeed())
			}
		},
		f.OwnIngressControllerDecorator(),
		Entry("plain HTTP, roundrobin", framework.ID("route-annotations/balance-roundrobin-http"),
			balanceCase{balance: "roundrobin", spread: alternating, controlBalance: "source", controlSpread: onePod}),
		Entry("plain HTTP, source", framework.ID("route-annotations/balance-source-http"),
			balanceCase{balance: "source", spread: onePod, controlBalance: "roundrobin", controlSpread: alternating}),
		Entry("edge, roundrobin", framework.ID("route-annotations/balance-roundrobin-edge"),
			balanceCase{termination: routev1.TLSTerminationEdge, balance: "roundrobin", spread: alternating, controlBalance: "source", controlSpread: onePod}),
		Entry("plain HTTP, none: random", framework.ID("route-annotations/balance-default-random-http"),
			balanceCase{spread: bothPods, controlBalance: "source", controlSpread: onePod}),
		Entry("passthrough, none: source", framework.ID("route-annotations/balance-default-source-passthrough"),
			balanceCase{termination: routev1.TLSTerminationPassthrough, spread: onePod, controlBalance: "roundrobin", controlSpread: alternating}),
		Entry("passthrough, roundrobin", framework.ID("route-annotations/balance-roundrobin-passthrough"),
			balanceCase{termination: routev1.TLSTerminationPassthrough, balance: "roundrobin", spread: alternating, controlBalance: "source", controlSpread: onePod}),
	)
}

// leastConnSample is how many requests follow the held one: random
// balancing sends them all to the free pod once in 2^8 looks.
const leastConnSample = 8

// describeLeastConn: balance leastconn.
func describeLeastConn(f *framework.Framework) {
	// With leastconn, while one pod holds a slow request every new request
	// goes to the other, which has no connection; round robin on the same
	// pods, beside it, alternates between them meanwhile.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table, haproxy.router.openshift.io/balance
	// (leastconn)
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// ($balanceAlgoPattern: `balance leastconn` from the annotation)
	It("balance leastconn sends new requests to the pod with the fewest connections", framework.ID("route-annotations/balance-leastconn-http"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
		ic := f.OwnIngressController(ctx) // one router: replicas count connections apart
		ns := f.SpecNamespaceWithLabels(ctx, "leastconn", ic.NamespaceLabels)
		backend := f.DeployEchoReplicas(ctx, ns, 2)
		routeWith := func(name, balance string) httpclient.Request {
			GinkgoHelper()
			r := f.TerminatedRouteTo(backend, name, "", "")
			r.Annotations = map[string]string{contract.BalanceAnnotation: balance}
			return ic.RequestTo(f.CreateRoute(ctx, r), backend, "/")
		}
		leastconn, roundrobin := routeWith("leastconn", "leastconn"), routeWith("roundrobin", "roundrobin")
		for _, look := range []struct {
			what   string
			req    httpclient.Request
			others func(held string, pods []string) bool
		}{
			{"positive control: round robin still alternates, onto the pod that holds a request too", roundrobin,
				func(held string, pods []string) bool { return slices.Contains(pods, held) }},
			{"leastconn: every new request goes to the pod without one", leastconn,
				func(held string, pods []string) bool { return !slices.Contains(pods, held) && len(distinct(pods)) == 1 }},
		} {
			By(look.what)
			f.Eventually(ctx, func(g Gomega) {
				held := holdRequestOnPod(ctx, look.req)
				var pods []string
				for _, resp := range framework.Answers(ctx, g, look.req, leastConnSample) {
					backend.Served(g, resp)
					pods = append(pods, resp.Echo.Pod)
				}
				pod := <-held
				g.Expect(pod).NotTo(BeEmpty(), "the held request was not served")
				g.Expect(look.others(pod, pods)).To(BeTrue(), "held on %s; the next %d answered by %v", pod, leastConnSample, pods)
			}).Should(Succeed())
		}
	})
}

// holdRequestOnPod sends req, whose backend answers after heldFor, in
// the background, and waits holdBeforeIt so that it is held; the
// channel gets the pod that answered it ("" if none did).
func holdRequestOnPod(ctx SpecContext, req httpclient.Request) <-chan string {
	req = framework.WithHeader(req, echo.Delay, heldFor.String())
	req.Timeout = 4 * heldFor
	done := make(chan string, 1)
	go func() {
		defer GinkgoRecover()
		resp, err := framework.Do(ctx, req)
		if err != nil || resp.Echo == nil {
			done <- ""
			return
		}
		done <- resp.Echo.Pod
	}()
	time.Sleep(holdBeforeIt)
	return done
}
