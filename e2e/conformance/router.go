package conformance

import (
	"context"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// The router under test serves routes of every termination, and plain
// HTTP to a TLS route as its insecureEdgeTerminationPolicy says: the Route
// API itself, which no seed design document covers (openshift/api route/v1
// types.go documents it), as openshift/router's
// images/router/haproxy/conf/haproxy-config.template serves it (frontends
// public, public_ssl, fe_sni, fe_no_sni; the route backends).
func describeRouter(f *framework.Framework) {
	framework.DescribeFeature(contract.FeatureRouter, func() {
		// Document: none (the Route API: spec.tls.termination, documented in
		// openshift/api route/v1 types.go, TLSConfig and TLSTerminationType)
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontend public and os_http_be.map for a plain route; frontend
		// public_ssl, os_sni_passthrough.map and os_tcp_be.map for passthrough;
		// fe_sni/fe_no_sni and os_edge_reencrypt_be.map for edge and
		// reencrypt; the route backend's server line: ssl without sni for
		// reencrypt) and pkg/router/template/util/haproxy/map_entry.go
		// (GenerateMapEntry)
		DescribeTable("serves a route of each termination through the 127.0.0.1 port mappings",
			func(ctx SpecContext, termination routev1.TLSTerminationType, https bool, wantListener string) {
				ns := f.SpecNamespace(ctx, "router-termination")
				name := "route"
				if termination != "" {
					name = string(termination)
				}
				host := f.Host(ns, name)
				backend := f.DeployEcho(ctx, ns, host)
				f.CreateRoute(ctx, f.TerminatedRouteTo(backend, name, termination, ""))

				req := f.HTTP(host, "/"+name)
				if https {
					req = f.HTTPS(host, "/"+name)
				}
				if termination == routev1.TLSTerminationPassthrough {
					req.RootCAs = pki.Pool(backend.CA) // the backend's own certificate reaches the client
				}
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					g.Expect(resp.Echo.Listener).To(Equal(wantListener))
					g.Expect(resp.Echo.Host).To(Equal(host))
					g.Expect(resp.Echo.Path).To(Equal("/" + name))
					if termination == routev1.TLSTerminationReencrypt {
						// Upstream puts no sni on a reencrypt server line
						// (haproxy-config.template, the backend's server line).
						g.Expect(resp.Echo.TLS.ServerName).To(BeEmpty(), "the router sent SNI to the backend")
					}
				})
			},
			Entry("insecure (plain HTTP)", framework.ID("router/insecure-served"), routev1.TLSTerminationType(""), false, "http"),
			Entry("edge", framework.ID("router/edge-served"), routev1.TLSTerminationEdge, true, "http"),
			Entry("reencrypt (backend verified with destinationCACertificate)", framework.ID("router/reencrypt-served"), routev1.TLSTerminationReencrypt, true, "https"),
			Entry("passthrough", framework.ID("router/passthrough-served"), routev1.TLSTerminationPassthrough, true, "https"),
		)

		describeInsecureEdgeTermination(f)
		describeHostClaims(f)
		describeWildcardAdmission(f)
	})
}

// insecureOutcome is what plain HTTP to a TLS route gets.
type insecureOutcome string

const (
	// insecureNotServed: the router's no-route answer (upstream's
	// openshift_default backend: 503, error-page-503.http).
	insecureNotServed insecureOutcome = "not served"
	// insecureServed: the route's own backend, as over TLS.
	insecureServed insecureOutcome = "served"
	// insecureRedirected: 302 to https://<host><path>[?query].
	insecureRedirected insecureOutcome = "redirected"
)

// insecureCase is one route and one plain HTTP request to it. requestHost
// changes the Host header sent over HTTP ("" keeps the route's host);
// listener is the echo backend's port that answers over TLS and, with
// Allow, over HTTP (reencrypt reaches the backend over TLS either way).
type insecureCase struct {
	termination routev1.TLSTerminationType
	policy      routev1.InsecureEdgeTerminationPolicyType
	path        string // sent over HTTP, query included
	requestHost func(host string) string
	want        insecureOutcome
	listener    string
}

// Plain HTTP to an edge, reencrypt or passthrough route, by
// spec.tls.insecureEdgeTerminationPolicy. In openshift/router's
// images/router/haproxy/conf/haproxy-config.template, frontend public: Host lowercased first, then `acl secure_redirect
// base,map_reg_int(os_route_http_redirect.map) -m bool` and `http-request
// redirect location https://%[req.hdr(host),regsub(:[0-9]+$,,)]%[url] code
// 302 if secure_redirect` (host without port, path and query kept), then
// `use_backend %[base,map_reg(os_http_be.map)]`, else `default_backend
// openshift_default` (no server: 503, error-page-503.http). The maps come
// from pkg/router/template/util/haproxy/map_entry.go:
// generateHttpRedirectMapEntry gives every route with a host an entry, 1
// for Redirect (passthrough included) and 0 otherwise;
// generateHttpMapEntry puts only plain routes, and edge or reencrypt routes
// with Allow, into os_http_be.map (their be_edge_http / be_secure backend,
// the same as over TLS). generateHAProxyMap
// (pkg/router/template/template_helper.go) sorts each map with SortMapPaths
// (pkg/router/template/util/map_paths.go: reverse order, a host's longer
// path first), so the most specific route's entry decides.
func describeInsecureEdgeTermination(f *framework.Framework) {
	Describe("Route insecureEdgeTerminationPolicy", func() {
		// Document: none (the Route API: spec.tls.insecureEdgeTerminationPolicy,
		// documented in openshift/api route/v1 types.go, TLSConfig and
		// InsecureEdgeTerminationPolicyType)
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontend public: `acl secure_redirect` on os_route_http_redirect.map,
		// `http-request redirect location https://...%[url] code 302`,
		// `use_backend` on os_http_be.map, `default_backend openshift_default`)
		// and pkg/router/template/util/haproxy/map_entry.go
		// (generateHttpRedirectMapEntry, generateHttpMapEntry)
		DescribeTable("plain HTTP to a TLS route",
			func(ctx SpecContext, c insecureCase) {
				ns := f.SpecNamespace(ctx, "insecure-edge")
				name := "r"
				host := f.Host(ns, name)
				backend := f.DeployEcho(ctx, ns, host) // host: the passthrough client verifies the backend's certificate
				f.CreateRoute(ctx, f.TerminatedRouteTo(backend, name, c.termination, c.policy))

				By("positive control: the route is served over HTTPS")
				secure := f.HTTPS(host, "/secure")
				if c.termination == routev1.TLSTerminationPassthrough {
					secure.RootCAs = pki.Pool(backend.CA)
				}
				f.EventuallyResponds(ctx, secure, func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					g.Expect(resp.Echo.Listener).To(Equal(c.listener))
					g.Expect(resp.Echo.Path).To(Equal("/secure"))
				})

				By("plain HTTP: " + string(c.want))
				reqHost := host
				if c.requestHost != nil {
					reqHost = c.requestHost(host)
				}
				path, query, _ := strings.Cut(c.path, "?")
				f.EventuallyResponds(ctx, f.HTTP(reqHost, c.path), func(g Gomega, resp *httpclient.Response) {
					switch c.want {
					case insecureNotServed:
						framework.NotServed(g, resp)
					case insecureServed:
						backend.Served(g, resp)
						g.Expect(resp.Echo.Listener).To(Equal(c.listener), "the route's backend, as over TLS")
						g.Expect(resp.Echo.Host).To(Equal(host))
						g.Expect(resp.Echo.Path).To(Equal(path))
						g.Expect(resp.Echo.Query).To(Equal(query))
					case insecureRedirected:
						// httpclient never follows a redirect: this is the
						// router's own answer, which no backend saw.
						g.Expect(resp.Status).To(Equal(http.StatusFound), "body: %s", resp.Body)
						g.Expect(resp.Echo).To(BeNil(), "a backend answered: %+v", resp.Echo)
						location := "https://" + host + c.path
						if c.requestHost != nil {
							// The Host sent (lowercased), its port kept before
							// upstream's 823a6fd5f; dropped from it on.
							location = framework.ByRelease(f, contract.ChangeRedirectDropsHostPort, "https://"+strings.ToLower(reqHost)+c.path, location)
						}
						g.Expect(resp.Header.Values("Location")).To(Equal([]string{location}))
					}
				})
			},
			// No policy is None (map_entry.go: 0 in the redirect map, no
			// os_http_be.map entry).
			Entry("edge, no policy: not served over HTTP", framework.ID("router/edge-no-policy-over-http"), insecureCase{termination: routev1.TLSTerminationEdge, path: "/p", want: insecureNotServed, listener: "http"}),
			Entry("edge, None: not served over HTTP", framework.ID("router/edge-none-over-http"), insecureCase{termination: routev1.TLSTerminationEdge, policy: routev1.InsecureEdgeTerminationPolicyNone, path: "/p", want: insecureNotServed, listener: "http"}),
			Entry("edge, Allow: served over HTTP by the route's backend", framework.ID("router/edge-allow-over-http"), insecureCase{termination: routev1.TLSTerminationEdge, policy: routev1.InsecureEdgeTerminationPolicyAllow, path: "/p?q=1", want: insecureServed, listener: "http"}),
			Entry("edge, Redirect: 302 to https, path and query kept", framework.ID("router/edge-redirect-over-http"), insecureCase{termination: routev1.TLSTerminationEdge, policy: routev1.InsecureEdgeTerminationPolicyRedirect, path: "/p/q?x=1&y=2", want: insecureRedirected, listener: "http"}),
			// Host is lowercased before the redirect; from 4.22 on regsub
			// drops its port (contract.ChangeRedirectDropsHostPort).
			Entry("edge, Redirect: Location has the Host lowercased, its port as the release does", framework.ID("router/edge-redirect-location-host"), framework.Gated(contract.ChangeRedirectDropsHostPort), insecureCase{termination: routev1.TLSTerminationEdge, policy: routev1.InsecureEdgeTerminationPolicyRedirect, path: "/p?q=1",
				requestHost: func(h string) string { return strings.ToUpper(h) + ":8080" }, want: insecureRedirected, listener: "http"}),
			Entry("reencrypt, None: not served over HTTP", framework.ID("router/reencrypt-none-over-http"), insecureCase{termination: routev1.TLSTerminationReencrypt, policy: routev1.InsecureEdgeTerminationPolicyNone, path: "/p", want: insecureNotServed, listener: "https"}),
			// be_secure from os_http_be.map: reencrypted to the backend over HTTP too.
			Entry("reencrypt, Allow: served over HTTP by the route's backend, reencrypted", framework.ID("router/reencrypt-allow-over-http"), insecureCase{termination: routev1.TLSTerminationReencrypt, policy: routev1.InsecureEdgeTerminationPolicyAllow, path: "/p?q=1", want: insecureServed, listener: "https"}),
			Entry("reencrypt, Redirect: 302 to https, path and query kept", framework.ID("router/reencrypt-redirect-over-http"), insecureCase{termination: routev1.TLSTerminationReencrypt, policy: routev1.InsecureEdgeTerminationPolicyRedirect, path: "/p/q?x=1", want: insecureRedirected, listener: "https"}),
			// Passthrough takes None or Redirect only (library-go
			// validateInsecureEdgeTerminationPolicy refuses Allow).
			Entry("passthrough, None: not served over HTTP", framework.ID("router/passthrough-none-over-http"), insecureCase{termination: routev1.TLSTerminationPassthrough, policy: routev1.InsecureEdgeTerminationPolicyNone, path: "/p", want: insecureNotServed, listener: "https"}),
			Entry("passthrough, Redirect: 302 to https, path and query kept", framework.ID("router/passthrough-redirect-over-http"), insecureCase{termination: routev1.TLSTerminationPassthrough, policy: routev1.InsecureEdgeTerminationPolicyRedirect, path: "/p/q?x=1", want: insecureRedirected, listener: "https"}),
		)

		// Two edge routes on one host: the one without a path and the one
		// at /sub. Every route has an os_route_http_redirect.map entry
		// and the most specific matching one decides, so a route at a path
		// keeps its own policy under its host's route.
		//
		// Document: none (the Route API: spec.path and
		// spec.tls.insecureEdgeTerminationPolicy, documented in openshift/api
		// route/v1 types.go)
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontend public: secure_redirect from os_route_http_redirect.map,
		// then os_http_be.map), pkg/router/template/util/haproxy/map_entry.go
		// (generateHttpRedirectMapEntry: an entry for every route with a host),
		// pkg/router/template/template_helper.go (generateHAProxyMap) and
		// pkg/router/template/util/map_paths.go (SortMapPaths: a host's longer
		// path first)
		DescribeTable("the most specific route's policy decides over plain HTTP",
			func(ctx SpecContext, hostPolicy, subPolicy routev1.InsecureEdgeTerminationPolicyType, underSub, elsewhere insecureOutcome) {
				ns := f.SpecNamespace(ctx, "insecure-edge-paths")
				host := f.Host(ns, "r")
				backend := f.DeployEcho(ctx, ns)
				for _, r := range []struct {
					name, path string
					policy     routev1.InsecureEdgeTerminationPolicyType
				}{{"host", "", hostPolicy}, {"sub", "/sub", subPolicy}} {
					route := f.RouteTo(backend, r.name, framework.EchoHTTPPort)
					route.Spec.Host, route.Spec.Path = host, r.path
					route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge, InsecureEdgeTerminationPolicy: r.policy}
					f.CreateRoute(ctx, route)
				}

				By("positive control: both routes are served over HTTPS")
				for _, p := range []string{"/sub/x", "/other"} {
					f.EventuallyResponds(ctx, f.HTTPS(host, p), func(g Gomega, resp *httpclient.Response) {
						backend.Served(g, resp)
						g.Expect(resp.Echo.Path).To(Equal(p))
					})
				}

				for _, c := range []struct {
					path string
					want insecureOutcome
				}{{"/sub/x", underSub}, {"/other", elsewhere}} {
					By("plain HTTP to " + c.path + ": " + string(c.want))
					f.EventuallyResponds(ctx, f.HTTP(host, c.path), func(g Gomega, resp *httpclient.Response) {
						switch c.want {
						case insecureNotServed:
							framework.NotServed(g, resp)
						case insecureServed:
							backend.Served(g, resp)
							g.Expect(resp.Echo.Path).To(Equal(c.path))
						case insecureRedirected:
							g.Expect(resp.Status).To(Equal(http.StatusFound), "body: %s", resp.Body)
							g.Expect(resp.Echo).To(BeNil(), "a backend answered: %+v", resp.Echo)
							g.Expect(resp.Header.Values("Location")).To(Equal([]string{"https://" + host + c.path}))
						}
					})
				}
			},
			Entry("host Redirect, /sub Allow: /sub is served, the rest redirected", framework.ID("router/path-allow-under-redirect"),
				routev1.InsecureEdgeTerminationPolicyRedirect, routev1.InsecureEdgeTerminationPolicyAllow, insecureServed, insecureRedirected),
			Entry("host Redirect, /sub None: /sub is not served, the rest redirected", framework.ID("router/path-none-under-redirect"),
				routev1.InsecureEdgeTerminationPolicyRedirect, routev1.InsecureEdgeTerminationPolicyNone, insecureNotServed, insecureRedirected),
			Entry("host Allow, /sub Redirect: /sub is redirected, the rest served", framework.ID("router/path-redirect-under-allow"),
				routev1.InsecureEdgeTerminationPolicyAllow, routev1.InsecureEdgeTerminationPolicyRedirect, insecureRedirected, insecureServed),
		)
	})
}

// hostRoute is a route to backend's port (Service port name) on host at
// path.
func hostRoute(f *framework.Framework, backend *framework.Echo, name, host, path string) *routev1.Route {
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
				backend := f.DeployEcho(ctx, ns, host) // host: the passthrough client verifies the backend's certificate
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

// Wildcard (Subdomain) routes are the router's to admit or refuse, as
// the routeAdmission of its IngressController says
// (ROUTER_ALLOW_WILDCARD_ROUTES).
func describeWildcardAdmission(f *framework.Framework) {
	Describe("wildcard (Subdomain) routes", func() {
		// An IngressController with the default routeAdmission
		// (wildcardPolicy WildcardsDisallowed) has its router refuse a
		// route with wildcardPolicy Subdomain, in upstream's words
		// (contract/wildcard.go), and serve neither its host nor any other
		// under its parent; its status entry still names the route's
		// policy. A None route on the same IngressController, admitted and
		// served, is the positive control.
		//
		// Document: none (the Route API: spec.wildcardPolicy, openshift/api
		// route/v1 types.go; IngressController
		// spec.routeAdmission.wildcardPolicy, operator/v1
		// types_ingress.go: WildcardsDisallowed by default)
		// Upstream: openshift/router pkg/cmd/infra/router/router.go
		// (RouterSelection.RouteAdmissionFunc: "wildcard routes are not
		// allowed"), pkg/router/controller/host_admitter.go
		// (HostAdmitter.HandleRoute: RecordRouteRejection with reason
		// RouteNotAdmitted, the route deleted from the plugins below),
		// pkg/router/controller/status.go (recordIngressCondition: the
		// entry's wildcardPolicy is the route's), from cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go
		// (desiredRouterDeployment: ROUTER_ALLOW_WILDCARD_ROUTES "false"
		// unless WildcardsAllowed)
		It("are refused where the IngressController does not allow them, its default", framework.ID("router/wildcard-route-refused-by-default"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
			own := f.OwnIngressController(ctx)
			if own.Name == contract.DefaultIngressController {
				// No shard of its own: the cluster's default, back to the
				// default policy for this spec.
				own.Update(ctx, func(ic *operatorv1.IngressController) {
					if ic.Spec.RouteAdmission != nil {
						ic.Spec.RouteAdmission.WildcardPolicy = ""
					}
				})
			}
			ns := f.SpecNamespaceWithLabels(ctx, "wildcard-refused", own.NamespaceLabels)
			parent := ns + "." + f.Domain
			backend := f.DeployEcho(ctx, ns)
			none := f.RouteTo(backend, "none", framework.EchoHTTPPort)
			none.Spec.WildcardPolicy = routev1.WildcardPolicyNone
			none = f.CreateRouteNoWait(ctx, none)
			wild := f.RouteTo(backend, "wild", framework.EchoHTTPPort)
			wild.Spec.Host, wild.Spec.WildcardPolicy = "www."+parent, routev1.WildcardPolicySubdomain
			wild = f.CreateRouteNoWait(ctx, wild)

			By("positive control: the None route is admitted and served")
			own.WaitAdmitted(ctx, none)
			f.EventuallyResponds(ctx, own.HTTP(none.Spec.Host, "/"), backend.Served)

			By("the Subdomain route is refused: RouteNotAdmitted, " + contract.WildcardRoutesNotAllowed)
			own.EventuallyRouteNotAdmitted(ctx, wild, contract.ReasonRouteNotAdmitted, contract.WildcardRoutesNotAllowed)
			f.EventuallyRoute(ctx, wild, func(g Gomega, live *routev1.Route) {
				entry := framework.IngressEntry(live, own.Name)
				g.Expect(entry).NotTo(BeNil())
				g.Expect(entry.WildcardPolicy).To(Equal(routev1.WildcardPolicySubdomain), "entry of router %s: %+v", own.Name, *entry)
			})
			for _, host := range []string{wild.Spec.Host, "a." + parent} {
				By(host + ": not served")
				f.EventuallyResponds(ctx, own.HTTP(host, "/"), framework.NotServed)
			}
		})

		// Where wildcard routes are allowed, a wildcard route for
		// www.<parent> holds the whole subdomain for its namespace: a route
		// of another namespace for a host under it is refused
		// (HostAlreadyClaimed: the host admitter is unchanged, the
		// document's outcome 4 not chosen) and the wildcard route keeps
		// serving that host; a second wildcard route of the same
		// namespace under the same parent is refused too, while a plain
		// route of that namespace under it is admitted (the positive
		// control). Then namespaceOwnership InterNamespaceAllowed lifts
		// the namespace check: the other namespace's route is admitted and
		// served by its own backend. One IngressController for both specs,
		// in order.
		//
		// Document: the HSTS admission enhancement, sections "Continue to
		// enable HSTS per-route (retain the existing feature
		// functionality)" (a Subdomain route exclusively serves the hosts
		// of its parent; another route under it only from the same
		// namespace) and "Design Details" (test1 and test2 in namespaces
		// owner and notowner: HostAlreadyClaimed; not a second Subdomain
		// route; "Exceptions can be made by setting the IngressOperator's
		// routeAdmission.namespaceOwnership")
		// Upstream: openshift/router pkg/router/controller/host_admitter.go
		// (HostAdmitter.addRoute and displacedRoutes: claimedWildcards
		// keyed by the parent, "a route in another namespace holds host"
		// for another namespace, the full error within one;
		// disableNamespaceCheck), pkg/router/controller/host_admitter_test.go
		// (TestWildcardSubDomainOwnership), and cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go
		// (desiredRouterDeployment: ROUTER_ALLOW_WILDCARD_ROUTES,
		// ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK)
		Describe("a wildcard route's subdomain", Ordered, f.OwnIngressControllerDecorator(), func() {
			var (
				own                        *framework.IngressController
				parent                     string
				ownerBackend, otherBackend *framework.Echo
				wild, intruder             *routev1.Route
			)
			BeforeAll(func(ctx SpecContext) {
				own = f.OwnIngressController(ctx, framework.AllowWildcardRoutes)
				owner := f.SpecNamespaceWithLabels(ctx, "wildcard-owner", own.NamespaceLabels)
				other := f.SpecNamespaceWithLabels(ctx, "wildcard-other", own.NamespaceLabels)
				parent = owner + "." + f.Domain
				backends := f.DeployEchoes(ctx, framework.EchoIn(owner, "echo"), framework.EchoIn(other, "echo"))
				ownerBackend, otherBackend = backends[0], backends[1]
				wild = hostRoute(f, ownerBackend, "wild", "www."+parent, "")
				wild.Spec.WildcardPolicy = routev1.WildcardPolicySubdomain
				wild = f.CreateRouteNoWait(ctx, wild)
				own.WaitAdmitted(ctx, wild)
				f.WaitCreatedAfter(ctx, wild)
			})

			It("is held for the wildcard route's namespace", framework.ID("router/wildcard-route-holds-subdomain"), func(ctx SpecContext) {
				intruder = f.CreateRouteNoWait(ctx, hostRoute(f, otherBackend, "abc", "abc."+parent, ""))
				second := hostRoute(f, ownerBackend, "second-wild", "two."+parent, "")
				second.Spec.WildcardPolicy = routev1.WildcardPolicySubdomain
				second = f.CreateRouteNoWait(ctx, second)
				sibling := f.CreateRouteNoWait(ctx, hostRoute(f, ownerBackend, "sibling", "sib."+parent, ""))

				By("another namespace's route under the subdomain is refused: " + contract.WildcardHostHeldByAnotherNamespace(intruder.Spec.Host))
				own.EventuallyRouteNotAdmitted(ctx, intruder, contract.ReasonHostAlreadyClaimed, contract.WildcardHostHeldByAnotherNamespace(intruder.Spec.Host))
				By("a second wildcard route of the owner's namespace under the same parent is refused")
				own.EventuallyRouteNotAdmitted(ctx, second, contract.ReasonHostAlreadyClaimed,
					contract.WildcardRouteBlocksHost(wild.Namespace, wild.Name, parent, second.Spec.Host))
				By("positive control: a plain route of the owner's namespace under the subdomain is admitted")
				own.WaitAdmitted(ctx, sibling)
				By(intruder.Spec.Host + ": served by the wildcard route's backend, not the refused route's")
				f.EventuallyResponds(ctx, own.HTTP(intruder.Spec.Host, "/"), ownerBackend.Served)
			})

			It("lets another namespace's route under it in once namespaceOwnership is InterNamespaceAllowed", framework.ID("router/wildcard-route-inter-namespace-allowed"), func(ctx SpecContext) {
				own.Update(ctx, framework.AllowInterNamespaceClaims)
				By("the other namespace's route under the subdomain is admitted and served by its own backend")
				own.WaitAdmitted(ctx, intruder)
				f.EventuallyResponds(ctx, own.HTTP(intruder.Spec.Host, "/"), otherBackend.Served)
				By("positive control: the wildcard route still serves the rest of the subdomain")
				own.WaitAdmitted(ctx, wild)
				f.EventuallyResponds(ctx, own.HTTP("x."+parent, "/"), ownerBackend.Served)
			})
		})
	})
}
