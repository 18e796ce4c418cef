package conformance

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
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
				backend := f.DeployEchoFor(ctx, ns, termination, host)
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
		describeRoutePaths(f)
		describeRouteWeights(f)
		describeRouteWeightLimits(f)
		describeRouteHosts(f)
		describeServiceCA(f)
		describeExtendedValidation(f)
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
				backend := f.DeployEchoFor(ctx, ns, c.termination, host) // host: the passthrough client verifies the backend's certificate
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
			// cluster-ingress-operator's TestSecureRedirectCorrectness: for
			// "/", Location is exactly https://<host>/.
			Entry("edge, Redirect: 302 to https://<host>/ for /", framework.ID("router/edge-redirect-root-over-http"), insecureCase{termination: routev1.TLSTerminationEdge, policy: routev1.InsecureEdgeTerminationPolicyRedirect, path: "/", want: insecureRedirected, listener: "http"}),
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
