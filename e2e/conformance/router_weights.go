package conformance

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// weightSample is how many requests one look at a weighted split sends,
// each on a connection of its own with no cookie: each is balanced.
const weightSample = 48

// weightCase is one weighted route: the weights of spec.to and of its one
// alternate backend, and the share of weightSample the alternate gets,
// within [least, most].
type weightCase struct {
	termination routev1.TLSTerminationType
	to, alt     int32
	least, most int
	// balance is the route's balance annotation ("" none).
	balance string
}

// describeRouteWeights: spec.to and spec.alternateBackends.
func describeRouteWeights(f *framework.Framework) {
	// A route's requests are shared among its services by their weights:
	// with weights 1 and 3 the alternate backend answers about three
	// requests in four (the router balances round robin between several
	// services, so the split is near exact; reloads restart it, hence the
	// band); a service of weight 0 gets none while the other gets every
	// one; equal weights share them evenly.
	//
	// Document: none (the Route API: openshift/api route/v1/types.go,
	// RouteSpec: "Requests are distributed among the backends depending
	// on the weights assigned to each backend", "Weight 0 causes no
	// requests to the backend"; RouteTargetReference.weight)
	// Upstream: openshift/router pkg/router/template/router.go
	// (getServiceUnits, calculateServiceWeights: a service's weight shared
	// among its endpoints, the heaviest scaled to 256),
	// images/router/haproxy/conf/haproxy-config.template (`balance
	// roundrobin` with more than one active service; every server line's
	// weight), openshift/origin test/extended/router/weighted.go
	DescribeTable("spec.to and alternateBackends share the route's requests by weight",
		func(ctx SpecContext, c weightCase) {
			ns := f.SpecNamespace(ctx, "weights")
			primary, alternate := weightedBackends(ctx, f, ns, c.termination, "weighted")
			route := weightedRoute(f, primary, alternate, "weighted", c.termination, c.to, c.alt)
			if c.balance != "" {
				route.Annotations = map[string]string{contract.BalanceAnnotation: c.balance}
			}
			f.CreateRoute(ctx, route)
			req := weightedRequest(f, route, primary, alternate)

			By(fmt.Sprintf("weights %d and %d: the alternate answers %d to %d of %d requests, the primary the rest", c.to, c.alt, c.least, c.most, weightSample))
			f.Eventually(ctx, func(g Gomega) {
				toPrimary, toAlternate := 0, 0
				for _, resp := range framework.Answers(ctx, g, req, weightSample) {
					g.Expect(primary.Answered(resp.Echo) || alternate.Answered(resp.Echo)).To(BeTrue(), "answered by neither backend: status %d, body %s", resp.Status, resp.Body)
					if alternate.Answered(resp.Echo) {
						toAlternate++
					} else {
						toPrimary++
					}
				}
				g.Expect(toAlternate).To(BeNumerically(">=", c.least), "alternate %d, primary %d", toAlternate, toPrimary)
				g.Expect(toAlternate).To(BeNumerically("<=", c.most), "alternate %d, primary %d", toAlternate, toPrimary)
			}).Should(Succeed())
		},
		Entry("reencrypt, 1 and 3", framework.ID("router/weights-split-reencrypt"),
			weightCase{termination: routev1.TLSTerminationReencrypt, to: 1, alt: 3, least: 30, most: 42}),
		Entry("passthrough, 1 and 3", framework.ID("router/weights-split-passthrough"),
			weightCase{termination: routev1.TLSTerminationPassthrough, to: 1, alt: 3, least: 30, most: 42}),
		// Round robin: with one active service a passthrough route
		// balances by source, which would keep this one client on one
		// backend whatever the weights.
		Entry("passthrough, 100 and 0, round robin: none to the alternate", framework.ID("router/weights-zero-gets-none-passthrough"),
			weightCase{termination: routev1.TLSTerminationPassthrough, to: 100, alt: 0, least: 0, most: 0, balance: "roundrobin"}),
		Entry("plain HTTP, 1 and 3", framework.ID("router/weights-split-http"),
			weightCase{to: 1, alt: 3, least: 30, most: 42}),
		Entry("edge, 1 and 3", framework.ID("router/weights-split-edge"),
			weightCase{termination: routev1.TLSTerminationEdge, to: 1, alt: 3, least: 30, most: 42}),
		Entry("plain HTTP, 100 and 100: evenly", framework.ID("router/weights-split-even"),
			weightCase{to: 100, alt: 100, least: 18, most: 30}),
		Entry("plain HTTP, 100 and 0: none to the alternate", framework.ID("router/weights-zero-gets-none"),
			weightCase{to: 100, alt: 0, least: 0, most: 0}),
		Entry("plain HTTP, 0 and 100: none to the primary", framework.ID("router/weights-zero-primary-gets-none"),
			weightCase{to: 0, alt: 100, least: weightSample, most: weightSample}),
	)

	// A service's share is spread over its endpoints, whatever their
	// number: a primary of two pods and an alternate of one, weighing
	// the same, answer half the requests each, and both pods of the
	// primary answer.
	//
	// Document: none (the Route API: openshift/api route/v1/types.go,
	// RouteSpec: "When the backend has more than one endpoint the
	// requests that end up on the backend are roundrobin distributed
	// among the endpoints")
	// Upstream: openshift/router pkg/router/template/router.go
	// (calculateServiceWeights: a service's weight divided by its
	// endpoints; TestCalculateServiceWeights "50/50 with 2 vs 1
	// endpoints")
	It("a service's share is spread over its endpoints", framework.ID("router/weights-shared-by-endpoints"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "weights-endpoints")
		primary := f.DeployEchoReplicas(ctx, ns, 2)
		alternate := f.DeployEchoes(ctx, framework.EchoIn(ns, "alternate"))[0]
		route := f.TerminatedRouteTo(primary, "weighted", "", "")
		route.Spec.To.Weight = ptr.To[int32](1)
		route.Spec.AlternateBackends = []routev1.RouteTargetReference{{Kind: "Service", Name: alternate.Service, Weight: ptr.To[int32](1)}}
		f.CreateRoute(ctx, route)
		req := f.RequestTo(route, primary, "/")

		By(fmt.Sprintf("the alternate answers 19 to 29 of %d requests, and both pods of the primary answer", weightSample))
		f.Eventually(ctx, func(g Gomega) {
			toAlternate := 0
			primaryPods := map[string]bool{}
			for _, resp := range framework.Answers(ctx, g, req, weightSample) {
				g.Expect(primary.Answered(resp.Echo) || alternate.Answered(resp.Echo)).To(BeTrue(), "answered by neither backend: status %d, body %s", resp.Status, resp.Body)
				if alternate.Answered(resp.Echo) {
					toAlternate++
				} else {
					primaryPods[resp.Echo.Pod] = true
				}
			}
			g.Expect(toAlternate).To(BeNumerically(">=", 19), "alternate %d of %d", toAlternate, weightSample)
			g.Expect(toAlternate).To(BeNumerically("<=", 29), "alternate %d of %d", toAlternate, weightSample)
			g.Expect(primaryPods).To(HaveLen(2), "pods of the primary that answered")
		}).Should(Succeed())
	})

	// A route whose every service weighs 0 has no backend: the router
	// answers its own 503. Beside it, the same services with the primary
	// weighing 1 serve.
	//
	// Document: none (the Route API: openshift/api route/v1/types.go,
	// RouteSpec: "If all weights are zero the route will be considered
	// to have no backends and return a standard 503 response")
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (every server of weight 0: no usable server), openshift/origin
	// test/extended/router/weighted.go (zeroweightroute: 503)
	DescribeTable("every weight 0: the router's 503",
		func(ctx SpecContext, termination routev1.TLSTerminationType) {
			ns := f.SpecNamespace(ctx, "weights-zero")
			primary, alternate := weightedBackends(ctx, f, ns, termination, "control", "zero")
			control := f.CreateRoute(ctx, weightedRoute(f, primary, alternate, "control", termination, 1, 0))
			zero := f.CreateRoute(ctx, weightedRoute(f, primary, alternate, "zero", termination, 0, 0))

			By("positive control: the primary weighing 1 serves")
			f.EventuallyResponds(ctx, weightedRequest(f, control, primary, alternate), primary.Served)
			if termination == routev1.TLSTerminationPassthrough {
				By("every weight 0: the router has no server to pass the connection to and closes it unanswered")
				f.EventuallyRefused(ctx, weightedRequest(f, zero, primary, alternate), httpclient.ClosedWithoutAnswer)
				return
			}
			By("every weight 0: 503 from the router")
			f.EventuallyResponds(ctx, weightedRequest(f, zero, primary, alternate), framework.NotServed)
		},
		Entry("plain HTTP", framework.ID("router/weights-all-zero-http"), routev1.TLSTerminationType("")),
		Entry("edge", framework.ID("router/weights-all-zero-edge"), routev1.TLSTerminationEdge),
		Entry("reencrypt", framework.ID("router/weights-all-zero-reencrypt"), routev1.TLSTerminationReencrypt),
		Entry("passthrough", framework.ID("router/weights-all-zero-passthrough"), routev1.TLSTerminationPassthrough),
	)
}

// weighing sets a route's spec.to weight and gives it one alternate
// backend per weight in alternates.
func weighing(to int32, alternates ...int32) func(*routev1.Route) {
	return func(r *routev1.Route) {
		r.Spec.To.Weight = ptr.To(to)
		r.Spec.AlternateBackends = nil
		for i, w := range alternates {
			r.Spec.AlternateBackends = append(r.Spec.AlternateBackends, routev1.RouteTargetReference{Kind: "Service", Name: fmt.Sprintf("alternate-%d", i), Weight: ptr.To(w)})
		}
	}
}

// describeRouteWeightLimits: the Route API's bounds on the weights.
func describeRouteWeightLimits(f *framework.Framework) {
	// The API refuses a weight outside 0-256 (spec.to's or an alternate
	// backend's) and a fourth alternate backend, in the words of the
	// platform's validator (the Route CRD's schema where Route is a CRD,
	// library-go's validation on openshift-apiserver: contract/refusals.go).
	// Beside each refusal, the same route at the bound is admitted (the
	// positive control).
	//
	// Document: none (the Route API: openshift/api route/v1/types.go,
	// RouteTargetReference.weight's Minimum=0 and Maximum=256,
	// RouteSpec.alternateBackends' MaxItems=3)
	// Upstream: openshift/library-go pkg/route/validation/validation.go
	// (validateRoute: "weight must be an integer between 0 and 256",
	// "cannot specify more than 3 alternate backends"), openshift/api
	// route/v1/zz_generated.crd-manifests/routes.crd.yaml (minimum,
	// maximum, maxItems)
	DescribeTable("the API bounds a route's weights to 0-256 and its alternate backends to three", framework.JudgesPlatform,
		func(ctx SpecContext, atBound, beyond func(*routev1.Route), want contract.Refusal) {
			ns := f.SpecNamespace(ctx, "weights-limits")
			backend := &framework.Echo{Namespace: ns, Service: "primary"}
			routes := f.Routes.RouteV1().Routes(ns)

			By("positive control: at the bound, admitted")
			bound := f.RouteTo(backend, "at-bound", framework.EchoHTTPPort)
			atBound(bound)
			_, err := routes.Create(ctx, bound, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())

			By("beyond it: refused with the API's message")
			past := f.RouteTo(backend, "beyond", framework.EchoHTTPPort)
			beyond(past)
			_, err = routes.Create(ctx, past, metav1.CreateOptions{})
			framework.ExpectRefusal(Default, err, want)
		},
		Entry("spec.to weighing 257", framework.ID("router/weights-refuse-above-256"), weighing(256), weighing(257),
			contract.RouteWeightOutOfRange("spec.to.weight", 257)),
		Entry("spec.to weighing -1", framework.ID("router/weights-refuse-negative"), weighing(0, 1), weighing(-1, 1),
			contract.RouteWeightOutOfRange("spec.to.weight", -1)),
		Entry("an alternate backend weighing 257", framework.ID("router/weights-refuse-alternate-above-256"), weighing(1, 256), weighing(1, 257),
			contract.RouteWeightOutOfRange("spec.alternateBackends[0].weight", 257)),
		Entry("four alternate backends", framework.ID("router/weights-refuse-four-alternates"), weighing(1, 1, 1, 1), weighing(1, 1, 1, 1, 1),
			contract.RouteAlternateBackendsOverLimit),
	)

	// A weight left out is stored as 100, spec.to's and an alternate
	// backend's alike; beside them, a weight given is stored as given.
	//
	// Document: none (the Route API: openshift/api route/v1/types.go,
	// RouteTargetReference.weight "default 100")
	// Upstream: openshift/library-go pkg/route/defaulting/defaults.go
	// (SetDefaults_RouteTargetReference, which openshift-apiserver
	// applies), openshift/api route/v1/zz_generated.crd-manifests/routes.crd.yaml
	// (default: 100)
	It("a weight left out is stored as 100", framework.ID("router/weights-default-100"), framework.JudgesPlatform, func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "weights-default")
		backend := &framework.Echo{Namespace: ns, Service: "primary"}
		r := f.RouteTo(backend, "defaulted", framework.EchoHTTPPort)
		r.Spec.AlternateBackends = []routev1.RouteTargetReference{
			{Kind: "Service", Name: "alternate-0"},
			{Kind: "Service", Name: "alternate-1", Weight: ptr.To[int32](7)},
		}
		stored, err := f.Routes.RouteV1().Routes(ns).Create(ctx, r, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		weights := []*int32{stored.Spec.To.Weight}
		for _, b := range stored.Spec.AlternateBackends {
			weights = append(weights, b.Weight)
		}
		Expect(weights).To(HaveExactElements(HaveValue(BeEquivalentTo(100)), HaveValue(BeEquivalentTo(100)), HaveValue(BeEquivalentTo(7))),
			"the stored weights of spec.to, the alternate backend without one and the one of weight 7")
	})
}

// weightedBackends are a route's primary and alternate backends in ns:
// leases on the echo pool for plain and edge routes; for reencrypt and
// passthrough, TLS backends of their own (each of its own CA) whose
// certificates name the hosts of the routes named.
func weightedBackends(ctx SpecContext, f *framework.Framework, ns string, termination routev1.TLSTerminationType, routes ...string) (primary, alternate *framework.Echo) {
	GinkgoHelper()
	if termination != routev1.TLSTerminationReencrypt && termination != routev1.TLSTerminationPassthrough {
		b := f.DeployEchoes(ctx, framework.EchoIn(ns, "primary"), framework.EchoIn(ns, "alternate"))
		return b[0], b[1]
	}
	var hosts []string
	for _, r := range routes {
		hosts = append(hosts, f.Host(ns, r))
	}
	return f.DeployTLSEchoNamed(ctx, ns, "primary", hosts...), f.DeployTLSEchoNamed(ctx, ns, "alternate", hosts...)
}

// weightedRoute is a route named name to primary weighing to, with the
// alternate backend weighing alt; a reencrypt route verifies either
// backend (its destination CA holds both CAs).
func weightedRoute(f *framework.Framework, primary, alternate *framework.Echo, name string, termination routev1.TLSTerminationType, to, alt int32) *routev1.Route {
	GinkgoHelper()
	r := f.TerminatedRouteTo(primary, name, termination, "")
	r.Spec.To.Weight = ptr.To(to)
	r.Spec.AlternateBackends = []routev1.RouteTargetReference{{Kind: "Service", Name: alternate.Service, Weight: ptr.To(alt)}}
	if termination == routev1.TLSTerminationReencrypt {
		r.Spec.TLS.DestinationCACertificate = string(primary.CA.CertPEM) + string(alternate.CA.CertPEM)
	}
	return r
}

// weightedRequest is the request for the route; over passthrough the
// client trusts both backends' CAs.
func weightedRequest(f *framework.Framework, route *routev1.Route, primary, alternate *framework.Echo) httpclient.Request {
	req := f.RequestTo(route, primary, "/")
	if route.Spec.TLS != nil && route.Spec.TLS.Termination == routev1.TLSTerminationPassthrough {
		req.RootCAs = pki.Pool(primary.CA, alternate.CA)
	}
	return req
}
