package conformance

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
)

// Waits of the limit specs: a backend that answers after heldFor, and
// the time two such requests take at most when they run side by side
// (served one after the other they take twice heldFor).
const (
	heldFor      = 3 * time.Second         // not a wait: the delay asked of the backend
	sideBySide   = 4500 * time.Millisecond // not a wait: the line between one heldFor and two
	rateBurst    = 12
	rateLimit    = "5"
	holdBeforeIt = time.Second // not a wait: the head start of the held request
)

// connectionLimitCase is one route of the limit specs: its termination and its
// annotations, and whether they bound it (false: the router ignores
// them, as it ignores a value it cannot read).
type connectionLimitCase struct {
	termination routev1.TLSTerminationType
	annotations map[string]string
	bounded     bool
}

// describeRouteLimits: pod-concurrent-connections and the
// rate-limit-connections annotations.
func describeRouteLimits(f *framework.Framework) {
	// pod-concurrent-connections bounds the connections the router opens
	// to each pod of the route: with 1, of two requests sent together to
	// a backend that answers after 3s the second waits for the first and
	// both are served after 6s; without it, or with a value that is no
	// number, both are served after 3s, as on the route beside it
	// without the annotation. The bound is each router's (no coordination
	// among replicas): the spec has an IngressController of its own, one
	// router.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table, pod-concurrent-connections
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (every server line of the route backends: ` maxconn <value>` when
	// isInteger; a request past it waits in the backend's queue)
	DescribeTable("pod-concurrent-connections bounds the connections to each pod",
		func(ctx SpecContext, c connectionLimitCase) {
			ic := f.OwnIngressController(ctx)
			ns := f.SpecNamespaceWithLabels(ctx, "pod-connections", ic.NamespaceLabels)
			backend := f.DeployEchoFor(ctx, ns, c.termination, f.Host(ns, "limited"), f.Host(ns, "unlimited"))
			limited := f.TerminatedRouteTo(backend, "limited", c.termination, "")
			limited.Annotations = c.annotations
			f.CreateRoute(ctx, limited)
			unlimited := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "unlimited", c.termination, ""))

			By("positive control: without the annotation two requests are served side by side")
			expectPairTakes(ctx, f, ic.RequestTo(unlimited, backend, "/"), backend, false)
			if c.bounded {
				By("with it the second waits for the first")
			} else {
				By("the annotation is ignored: side by side")
			}
			expectPairTakes(ctx, f, ic.RequestTo(limited, backend, "/"), backend, c.bounded)
		},
		f.OwnIngressControllerDecorator(),
		Entry("plain HTTP, 1", framework.ID("route-annotations/pod-connections-http"),
			connectionLimitCase{annotations: map[string]string{contract.PodConcurrentConnectionsAnnotation: "1"}, bounded: true}),
		Entry("passthrough, 1", framework.ID("route-annotations/pod-connections-passthrough"),
			connectionLimitCase{termination: routev1.TLSTerminationPassthrough, annotations: map[string]string{contract.PodConcurrentConnectionsAnnotation: "1"}, bounded: true}),
		Entry("plain HTTP, one: no number, ignored", framework.ID("route-annotations/pod-connections-invalid-ignored"),
			connectionLimitCase{annotations: map[string]string{contract.PodConcurrentConnectionsAnnotation: "one"}}),
	)

	// With rate-limit-connections set to true the router tracks each
	// source on the route: past rate-http requests in its window, or
	// rate-tcp new connections, or concurrent-tcp connections at once
	// (the one being opened counts), the source's connection is closed
	// unanswered (never a 429). Without the switch the same limits are
	// ignored, on the route beside it. Each router tracks its sources
	// apart: the spec has an IngressController of its own, one router.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table, rate-limit-connections and its
	// concurrent-tcp, rate-http and rate-tcp
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (the route backends, when isTrue of rate-limit-connections: a
	// stick table of conn_cur, conn_rate(3s) and http_req_rate(10s),
	// `tcp-request content track-sc2 src`, and `tcp-request content reject`
	// on src_conn_cur, src_conn_rate and, in HTTP backends only,
	// src_http_req_rate, each when isInteger)
	DescribeTable("rate-limit-connections closes the connection of a source past its limits",
		func(ctx SpecContext, termination routev1.TLSTerminationType, limit string) {
			ic := f.OwnIngressController(ctx)
			ns := f.SpecNamespaceWithLabels(ctx, "rate-limit", ic.NamespaceLabels)
			backend := f.DeployEchoFor(ctx, ns, termination, f.Host(ns, "limited"), f.Host(ns, "switched-off"))
			limits := map[string]string{limit: rateLimit}
			if limit == contract.RateLimitConcurrentTCPAnnotation {
				limits[limit] = "2"
			}
			off := f.TerminatedRouteTo(backend, "switched-off", termination, "")
			off.Annotations = limits
			f.CreateRoute(ctx, off)
			limited := f.TerminatedRouteTo(backend, "limited", termination, "")
			limited.Annotations = map[string]string{contract.RateLimitAnnotation: "true"}
			for k, v := range limits {
				limited.Annotations[k] = v
			}
			f.CreateRoute(ctx, limited)
			f.EventuallyResponds(ctx, ic.RequestTo(limited, backend, "/"), backend.Served)

			for _, look := range []struct {
				what    string
				route   *routev1.Route
				limited bool
			}{
				{"positive control: without rate-limit-connections the same limit is ignored", off, false},
				{"with it, the source past its limit has its connection closed unanswered", limited, true},
			} {
				By(look.what)
				req := ic.RequestTo(look.route, backend, "/")
				f.Eventually(ctx, func(g Gomega) {
					served, closed := 0, 0
					if limit == contract.RateLimitConcurrentTCPAnnotation {
						held := holdRequest(ctx, framework.WithHeader(req, echo.Delay, heldFor.String()))
						time.Sleep(holdBeforeIt)
						served, closed = countOutcomes(ctx, g, req, 1, backend)
						g.Expect(<-held).To(Succeed(), "the held request")
					} else {
						served, closed = countOutcomes(ctx, g, req, rateBurst, backend)
					}
					if look.limited {
						g.Expect(closed).To(BeNumerically(">", 0), "%d served, %d closed unanswered", served, closed)
					} else {
						g.Expect(closed).To(BeZero(), "%d served, %d closed unanswered", served, closed)
					}
				}).Should(Succeed())
			}
		},
		f.OwnIngressControllerDecorator(),
		Entry("plain HTTP, rate-http "+rateLimit+" in a burst of 12", framework.ID("route-annotations/rate-http-http"), routev1.TLSTerminationType(""), contract.RateLimitRateHTTPAnnotation),
		Entry("edge, rate-http "+rateLimit+" in a burst of 12", framework.ID("route-annotations/rate-http-edge"), routev1.TLSTerminationEdge, contract.RateLimitRateHTTPAnnotation),
		Entry("plain HTTP, concurrent-tcp 2 with one held", framework.ID("route-annotations/concurrent-tcp-http"), routev1.TLSTerminationType(""), contract.RateLimitConcurrentTCPAnnotation),
		Entry("passthrough, rate-tcp "+rateLimit+" in a burst of 12", framework.ID("route-annotations/rate-tcp-passthrough"), routev1.TLSTerminationPassthrough, contract.RateLimitRateTCPAnnotation),
	)
}

// expectPairTakes: two requests sent together to a backend that answers
// after heldFor are both served, within sideBySide, or (serial) after it.
func expectPairTakes(ctx SpecContext, f *framework.Framework, req httpclient.Request, backend *framework.Echo, serial bool) {
	GinkgoHelper()
	req = framework.WithHeader(req, echo.Delay, heldFor.String())
	req.Timeout = 4 * heldFor
	f.Eventually(ctx, func(g Gomega) {
		start := time.Now()
		var wg sync.WaitGroup
		results := make([]*httpclient.Response, 2)
		errs := make([]error, 2)
		for i := range results {
			wg.Go(func() { results[i], errs[i] = framework.Do(ctx, req) })
		}
		wg.Wait()
		took := time.Since(start)
		for i := range results {
			g.Expect(errs[i]).NotTo(HaveOccurred())
			backend.Served(g, results[i])
		}
		if serial {
			g.Expect(took).To(BeNumerically(">=", sideBySide), "two requests took %s", took)
		} else {
			g.Expect(took).To(BeNumerically("<", sideBySide), "two requests took %s", took)
		}
	}).Should(Succeed())
}

// holdRequest sends req (whose backend answers late) in the background;
// the channel gets nil once it was served.
func holdRequest(ctx SpecContext, req httpclient.Request) <-chan error {
	req.Timeout = 4 * heldFor
	done := make(chan error, 1)
	go func() {
		defer GinkgoRecover()
		resp, err := framework.Do(ctx, req)
		if err == nil && resp.Status != http.StatusOK {
			err = fmt.Errorf("status %d, body %s", resp.Status, resp.Body)
		}
		done <- err
	}()
	return done
}

// countOutcomes sends n requests one after the other and counts those the
// backend served and those closed unanswered; any other outcome (another
// error, another status) fails.
func countOutcomes(ctx SpecContext, g Gomega, req httpclient.Request, n int, backend *framework.Echo) (served, closed int) {
	for range n {
		resp, err := framework.Do(ctx, req)
		if httpclient.Alert(err) == httpclient.ClosedWithoutAnswer {
			closed++
			continue
		}
		g.Expect(err).NotTo(HaveOccurred())
		backend.Served(g, resp)
		served++
	}
	return served, closed
}
