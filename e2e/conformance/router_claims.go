package conformance

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// hostRoute is a route to backend's port (Service port name) on host at
// path.
func hostRoute(f *framework.Framework, backend *framework.Echo, name, host, path string) *routev1.Route {
	GinkgoHelper()
	r := f.RouteTo(backend, name, framework.EchoHTTPPort)
	r.Spec.Host, r.Spec.Path = host, path
	return r
}

// Who owns a host: of the routes that claim one host, a router serves
// those of the namespace of the oldest route (creation timestamp, then
// UID), one per path, and refuses the others with reason
// HostAlreadyClaimed (contract/hostclaims.go has upstream's messages);
// deleting the holder frees the host for the routes it hid.
func describeHostClaims(f *framework.Framework) {
	Describe("who owns a host", func() {
		// Document: none (the Route API: spec.host and spec.path, openshift/api
		// route/v1 types.go: "routers use the oldest route with a given host
		// when resolving conflicts"; IngressController
		// spec.routeAdmission.namespaceOwnership, operator/v1 types_ingress.go:
		// Strict, the default, does not let routes of different namespaces
		// claim one host)
		// Upstream: openshift/router pkg/router/controller/unique_host.go
		// (UniqueHost.HandleRoute: the HostAlreadyClaimed messages; on
		// Deleted the hidden routes are activated),
		// pkg/router/controller/hostindex/activation.go (SameNamespace,
		// hasExistingMatch), pkg/router/controller/status.go
		// (StatusAdmitter.RecordRouteRejection), pkg/cmd/infra/router/template.go
		// (NewUniqueHost with ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK false, as
		// cluster-ingress-operator pkg/operator/controller/ingress/deployment.go
		// sets it for Strict)
		DescribeTable("a newer route on a held host",
			func(ctx SpecContext, sameNamespace bool) {
				ns := f.SpecNamespace(ctx, "host-claims")
				newerNS := ns
				if !sameNamespace {
					newerNS = f.SpecNamespace(ctx, "host-claims-newer")
				}
				host := f.Host(ns, "shared")
				backends := f.DeployEchoes(ctx, framework.EchoIn(ns, "older"), framework.EchoIn(newerNS, "newer"))
				olderBackend, newerBackend := backends[0], backends[1]

				older := f.CreateRoute(ctx, hostRoute(f, olderBackend, "older", host, ""))
				f.WaitCreatedAfter(ctx, older)
				newer := f.CreateRouteNoWait(ctx, hostRoute(f, newerBackend, "newer", host, ""))
				elsewhere := f.CreateRouteNoWait(ctx, hostRoute(f, newerBackend, "elsewhere", host, "/other"))

				By("the newer route at the older route's path is refused")
				want := contract.HostClaimedByAnotherNamespace(host, newer.Name)
				if sameNamespace {
					want = contract.HostClaimedInNamespace(older.Name, host)
				}
				f.EventuallyRouteNotAdmitted(ctx, newer, contract.ReasonHostAlreadyClaimed, want)
				if sameNamespace {
					By("a route of the owning namespace at another path is admitted")
					f.WaitAdmitted(ctx, elsewhere)
				} else {
					By("a route of another namespace is refused at any path")
					f.EventuallyRouteNotAdmitted(ctx, elsewhere, contract.ReasonHostAlreadyClaimed,
						contract.HostClaimedByAnotherNamespace(host, elsewhere.Name))
				}

				By("positive control: the older route serves the host")
				f.EventuallyResponds(ctx, f.HTTP(host, "/"), func(g Gomega, resp *httpclient.Response) {
					olderBackend.Served(g, resp)
					g.Expect(resp.Echo.Path).To(Equal("/"))
				})
				By("/other/x: by the route at /other only if it was admitted")
				f.EventuallyResponds(ctx, f.HTTP(host, "/other/x"), func(g Gomega, resp *httpclient.Response) {
					if sameNamespace {
						newerBackend.Served(g, resp)
					} else {
						olderBackend.Served(g, resp)
					}
					g.Expect(resp.Echo.Path).To(Equal("/other/x"))
				})

				By("the older route deleted: the newer routes are admitted and serve the host")
				f.DeleteRoute(ctx, older)
				f.WaitAdmitted(ctx, newer)
				f.WaitAdmitted(ctx, elsewhere)
				for _, p := range []string{"/", "/other/x"} {
					f.EventuallyResponds(ctx, f.HTTP(host, p), func(g Gomega, resp *httpclient.Response) {
						newerBackend.Served(g, resp)
						g.Expect(resp.Echo.Path).To(Equal(p))
					})
				}
			},
			Entry("in another namespace: refused at any path, served once the older route is deleted", framework.ID("router/host-claimed-by-another-namespace"), false),
			Entry("in the same namespace: refused at the older route's path, admitted at another", framework.ID("router/host-claimed-in-namespace"), true),
		)

		// namespaceOwnership InterNamespaceAllowed lifts the namespace
		// check, as cluster-ingress-operator's TestRouteAdmissionPolicy
		// switches it on an IngressController of its own: under Strict
		// (the default) a newer route of another namespace on a held host
		// is refused even at another path; once InterNamespaceAllowed
		// rolls out it is admitted and serves its path beside the older
		// route, while a host and path still has one owner (the oldest
		// route): a newer route at the older route's path is refused.
		//
		// Document: none (IngressController spec.routeAdmission.namespaceOwnership,
		// openshift/api operator/v1 types_ingress.go: InterNamespaceAllowed
		// "allows routes to claim different paths of the same host name
		// across namespaces")
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go
		// (desiredRouterDeployment: ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK
		// "true" for InterNamespaceAllowed) and test/e2e/operator_test.go
		// (TestRouteAdmissionPolicy); openshift/router
		// pkg/router/controller/unique_host.go (UniqueHost.HandleRoute: the
		// HostAlreadyClaimed messages) and pkg/router/controller/hostindex
		// (activation.go: SameNamespace under Strict, OldestFirst with the
		// check disabled; hasExistingMatch: one route a path)
		It("lets another namespace's route share a host at another path once namespaceOwnership is InterNamespaceAllowed", framework.ID("router/inter-namespace-allowed-shares-host"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
			own := f.OwnIngressController(ctx) // namespaceOwnership Strict, the default
			first := f.SpecNamespaceWithLabels(ctx, "ownership-first", own.NamespaceLabels)
			second := f.SpecNamespaceWithLabels(ctx, "ownership-second", own.NamespaceLabels)
			host := f.Host(first, "shared")
			backends := f.DeployEchoes(ctx, framework.EchoIn(first, "echo"), framework.EchoIn(second, "echo"))
			firstBackend, secondBackend := backends[0], backends[1]
			servedBy := func(path string, backend *framework.Echo) {
				GinkgoHelper()
				f.EventuallyResponds(ctx, own.HTTP(host, path), func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					g.Expect(resp.Echo.Path).To(Equal(path))
				})
			}

			older := f.CreateRouteNoWait(ctx, hostRoute(f, firstBackend, "older", host, "/foo"))
			own.WaitAdmitted(ctx, older)
			f.WaitCreatedAfter(ctx, older)
			other := f.CreateRouteNoWait(ctx, hostRoute(f, secondBackend, "other", host, "/bar"))
			By("Strict: the other namespace's route at another path is refused")
			own.EventuallyRouteNotAdmitted(ctx, other, contract.ReasonHostAlreadyClaimed, contract.HostClaimedByAnotherNamespace(host, other.Name))
			By("positive control: the older route serves its path; the other path is not served")
			servedBy("/foo", firstBackend)
			f.EventuallyResponds(ctx, own.HTTP(host, "/bar"), framework.NotServed)

			own.Update(ctx, framework.AllowInterNamespaceClaims)
			By("InterNamespaceAllowed: the other namespace's route is admitted and serves its path, beside the older route")
			own.WaitAdmitted(ctx, other)
			servedBy("/bar", secondBackend)
			servedBy("/foo", firstBackend)

			samePath := f.CreateRouteNoWait(ctx, hostRoute(f, secondBackend, "same-path", host, "/foo"))
			By("a host and path still has one owner: a newer route at the older route's path is refused")
			own.EventuallyRouteNotAdmitted(ctx, samePath, contract.ReasonHostAlreadyClaimed, contract.HostClaimedByAnotherNamespace(host, samePath.Name))
			servedBy("/foo", firstBackend)
		})

		// openshift/router#57: passthrough cannot share a host with a route
		// of another TLS termination at a path, whichever is older: the
		// older holds the host, the newer is refused (same namespace: the
		// in-namespace message naming the newest held route). Served by
		// connection kind as upstream's frontends route them: with SNI,
		// public_ssl sends a passthrough host to its TCP backend
		// (os_sni_passthrough.map, os_tcp_be.map) and any other to fe_sni;
		// without SNI, fe_no_sni chooses by Host and path
		// (os_edge_reencrypt_be.map), where no passthrough route is; plain
		// HTTP, frontend public (os_http_be.map: the edge route, whose
		// insecureEdgeTerminationPolicy is Allow here).
		//
		// Document: none (the Route API: spec.path and spec.tls.termination,
		// openshift/api route/v1 types.go)
		// Upstream: openshift/router pkg/router/controller/hostindex/activation.go
		// (hasExistingMatch, openshift/router#57 "hostindex: Passthrough
		// displaces path-based TLS"), pkg/router/controller/unique_host.go
		// (UniqueHost.HandleRoute) and
		// images/router/haproxy/conf/haproxy-config.template (frontends
		// public_ssl, fe_sni, fe_no_sni, public)
		DescribeTable("passthrough and an edge route at a path on one host",
			func(ctx SpecContext, passthroughFirst bool, before, after []hostProbe) {
				ns := f.SpecNamespace(ctx, "host-passthrough")
				host := f.Host(ns, "r")
				backend := f.DeployTLSEcho(ctx, ns, host) // host: the passthrough client verifies the backend's certificate
				passthrough := f.TerminatedRouteTo(backend, "passthrough", routev1.TLSTerminationPassthrough, "")
				edge := f.TerminatedRouteTo(backend, "edge", routev1.TLSTerminationEdge, routev1.InsecureEdgeTerminationPolicyAllow)
				passthrough.Spec.Host, edge.Spec.Host, edge.Spec.Path = host, host, "/p"
				first, second := edge, passthrough
				if passthroughFirst {
					first, second = passthrough, edge
				}

				first = f.CreateRoute(ctx, first)
				f.WaitCreatedAfter(ctx, first)
				second = f.CreateRouteNoWait(ctx, second)
				By("the newer route is refused")
				f.EventuallyRouteNotAdmitted(ctx, second, contract.ReasonHostAlreadyClaimed, contract.HostClaimedInNamespace(first.Name, host))
				checkHostProbes(ctx, f, backend, host, before)

				By("the older route deleted: the newer is admitted and served")
				f.DeleteRoute(ctx, first)
				f.WaitAdmitted(ctx, second)
				checkHostProbes(ctx, f, backend, host, after)
			},
			Entry("passthrough first: TLS with SNI reaches the passthrough backend at the edge route's path", framework.ID("router/passthrough-holds-host-against-path-edge"), true,
				[]hostProbe{{framework.WithSNI.Name, "/p", servedByPassthrough}, {framework.WithoutSNI.Name, "/p", notServedOnHost}, {plainHTTP, "/p", notServedOnHost}},
				[]hostProbe{{framework.WithSNI.Name, "/p", servedByEdge}, {framework.WithoutSNI.Name, "/p", servedByEdge}, {plainHTTP, "/p", servedByEdge}}),
			Entry("edge at a path first: the passthrough route is refused, the host's other paths are not served", framework.ID("router/path-edge-holds-host-against-passthrough"), false,
				[]hostProbe{{framework.WithSNI.Name, "/p", servedByEdge}, {framework.WithoutSNI.Name, "/p", servedByEdge}, {plainHTTP, "/p", servedByEdge}, {framework.WithSNI.Name, "/", notServedOnHost}},
				[]hostProbe{{framework.WithSNI.Name, "/", servedByPassthrough}, {framework.WithSNI.Name, "/p", servedByPassthrough}, {framework.WithoutSNI.Name, "/p", notServedOnHost}, {plainHTTP, "/p", notServedOnHost}}),
		)
	})
}

// plainHTTP is a hostProbe's connection kind for plain HTTP (the others
// are framework.Connection names).
const plainHTTP = "plain HTTP"

// Who answers a hostProbe.
const (
	servedByPassthrough = "the passthrough backend"
	servedByEdge        = "the edge route"
	notServedOnHost     = "not served"
)

// hostProbe is one request to the shared host: how it connects, its path
// and who must answer.
type hostProbe struct{ connection, path, want string }

// checkHostProbes sends each probe until it converges; the answers
// (served ones first in every table, as the positive control) come from
// the backend's TLS listener through passthrough, its HTTP listener
// through the edge route, or from the router's no-route answer.
func checkHostProbes(ctx context.Context, f *framework.Framework, backend *framework.Echo, host string, probes []hostProbe) {
	GinkgoHelper()
	for i, p := range probes {
		label := p.connection + " " + p.path + ": " + p.want
		if i == 0 {
			label = "positive control: " + label
		}
		By(label)
		var req httpclient.Request
		switch p.connection {
		case plainHTTP:
			req = f.HTTP(host, p.path)
		case framework.WithoutSNI.Name:
			req = framework.WithoutSNI.Over(f.HTTPS(host, p.path))
		default:
			req = framework.WithSNI.Over(f.HTTPS(host, p.path))
		}
		if p.want == servedByPassthrough {
			req.RootCAs = pki.Pool(backend.CA) // the backend's own certificate reaches the client
		}
		f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
			switch p.want {
			case notServedOnHost:
				framework.NotServed(g, resp)
			case servedByPassthrough:
				backend.Served(g, resp)
				g.Expect(resp.Echo.Listener).To(Equal("https"), "not the passthrough backend's TLS listener")
				g.Expect(resp.Echo.Path).To(Equal(p.path))
			case servedByEdge:
				backend.Served(g, resp)
				g.Expect(resp.Echo.Listener).To(Equal("http"), "not the edge route's backend port")
				g.Expect(resp.Echo.Path).To(Equal(p.path))
			}
		})
	}
}
