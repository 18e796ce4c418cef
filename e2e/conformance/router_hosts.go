package conformance

import (
	"crypto/x509"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// Route hosts on the wire: the names a request may carry for a route's
// host (a trailing dot, SNI in upper case), and the host each router
// serves and reports a route under (spec.host, a generated host, or
// spec.subdomain under the router's own domain).
func describeRouteHosts(f *framework.Framework) {
	Describe("route hosts", func() {
		// A fully qualified Host, with its trailing dot, names the same
		// route: plain HTTP, and edge over TLS (Go sends SNI without the
		// dot, as RFC 6066 asks, so the connection reaches the route's
		// frontend either way and the Host header decides).
		//
		// Document: none (the Route API: spec.host, openshift/api route/v1
		// types.go)
		// Upstream: openshift/router pkg/router/template/util/util.go
		// (GenerateRouteRegexp: `^<host>\.?(:[0-9]+)?...`, "Allow trailing
		// dots in host names", openshift/router#180, rhbz#1878319) and
		// images/router/haproxy/conf/haproxy-config.template (frontends
		// public and fe_sni: `use_backend` on `base` through
		// os_http_be.map and os_edge_reencrypt_be.map)
		DescribeTable("a Host with a trailing dot",
			func(ctx SpecContext, termination routev1.TLSTerminationType) {
				ns := f.SpecNamespace(ctx, "host-dot")
				host := f.Host(ns, "r")
				backend := f.DeployEchoFor(ctx, ns, termination)
				f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "r", termination, ""))
				request := func(h string) httpclient.Request {
					if termination == routev1.TLSTerminationEdge {
						return f.HTTPS(h, "/p")
					}
					return f.HTTP(h, "/p")
				}
				for _, h := range []string{host, host + "."} {
					label := "Host " + h + ": served by the route's backend"
					if h == host {
						label = "positive control: " + label
					}
					By(label)
					f.EventuallyResponds(ctx, request(h), func(g Gomega, resp *httpclient.Response) {
						backend.Served(g, resp)
						g.Expect(resp.Echo.Path).To(Equal("/p"))
					})
				}
			},
			Entry("plain HTTP", framework.ID("router/host-trailing-dot-http"), routev1.TLSTerminationType("")),
			Entry("edge", framework.ID("router/host-trailing-dot-edge"), routev1.TLSTerminationEdge),
		)

		// A client that sends the route's host in upper case as its TLS
		// server name reaches the route as with the name in lower case:
		// an edge route presents its own certificate (the client trusts
		// only that certificate's CA) and its backend answers; a
		// passthrough route's backend, whose own certificate the client
		// verifies, answers on its TLS port.
		//
		// Document: none (the Route API: spec.host and spec.tls,
		// openshift/api route/v1 types.go)
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontend public_ssl: `req.ssl_sni,lower` through
		// os_sni_passthrough.map and os_tcp_be.map; fe_sni: the crt-list
		// certificate for the server name, "DNS labels are case
		// insensitive (RFC 4343)"), openshift/origin#14157
		DescribeTable("a TLS server name in upper case",
			func(ctx SpecContext, termination routev1.TLSTerminationType) {
				ns := f.SpecNamespace(ctx, "sni-case")
				host := f.Host(ns, "r")
				backend := f.DeployEchoFor(ctx, ns, termination, host)
				route := f.TerminatedRouteTo(backend, "r", termination, "")
				var roots *x509.CertPool
				listener := "https"
				if termination == routev1.TLSTerminationEdge {
					ca := framework.NewRootCA("route CA " + ns)
					framework.WithRouteCertificate(route, ca, host)
					roots, listener = pki.Pool(ca), "http"
				} else {
					roots = pki.Pool(backend.CA) // passthrough: the backend's own certificate
				}
				f.CreateRoute(ctx, route)
				for _, sni := range []string{host, strings.ToUpper(host)} {
					label := "SNI " + sni + ": the route's certificate, its backend answers"
					if sni == host {
						label = "positive control: " + label
					}
					By(label)
					req := f.HTTPS(host, "/p")
					req.SNI, req.RootCAs = sni, roots
					f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
						backend.Served(g, resp)
						g.Expect(resp.Echo.Listener).To(Equal(listener))
						g.Expect(resp.Echo.Path).To(Equal("/p"))
					})
				}
			},
			Entry("edge, the route's own certificate", framework.ID("router/sni-upper-case-edge"), routev1.TLSTerminationEdge),
			Entry("passthrough", framework.ID("router/sni-upper-case-passthrough"), routev1.TLSTerminationPassthrough),
		)

		describeGeneratedHost(f)
		describeRouteHostsByRouter(f)
	})
}

// describeGeneratedHost: the host route admission gives a route created
// with neither spec.host nor spec.subdomain.
func describeGeneratedHost(f *framework.Framework) {
	// A route created without spec.host and spec.subdomain is stored
	// with spec.host <name>-<namespace>.<cluster ingress domain> (a dot
	// of its name written as a dash) and the annotation
	// openshift.io/host.generated "true"; a route created with a host
	// keeps it unannotated (the positive control), and one with only
	// spec.subdomain keeps an empty host.
	//
	// Document: none (the Route API: spec.host, openshift/api route/v1
	// types.go: "If not specified a route name will typically be
	// automatically chosen")
	// Upstream: openshift-apiserver pkg/route/apiserver/registry/route/strategy.go
	// (routeStrategy.PrepareForCreate, allocateHost) and library-go
	// pkg/route/hostassignment (AllocateHost: none for a Subdomain
	// wildcard route or one with spec.subdomain, HostGeneratedAnnotationKey;
	// SimpleAllocationPlugin.GenerateHostname), the suffix being the
	// cluster's ingress domain (openshift-apiserver
	// pkg/cmd/openshift-apiserver/openshiftapiserver/config.go,
	// RoutingConfig.Subdomain)
	It("admission generates <name>-<namespace>.<ingress domain> for a route created without host or subdomain", framework.ID("router/generated-host"), framework.JudgesPlatform, func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "generated-host")
		backend := f.ServiceWithoutPods(ctx, ns)
		given := f.RouteTo(backend, "given", framework.EchoHTTPPort)
		By("positive control: a route created with a host keeps it, without the annotation")
		given = f.CreateAdmittedRoute(ctx, given)
		Expect(given.Spec.Host).To(Equal(f.Host(ns, "given")))
		Expect(given.Annotations).NotTo(HaveKey(contract.HostGeneratedAnnotation))

		By("a route without host or subdomain gets the generated host")
		generated := f.RouteTo(backend, "web.v1", framework.EchoHTTPPort)
		generated.Spec.Host = ""
		generated = f.CreateAdmittedRoute(ctx, generated)
		Expect(generated.Spec.Host).To(Equal("web-v1-" + ns + "." + f.Domain))
		Expect(generated.Annotations).To(HaveKeyWithValue(contract.HostGeneratedAnnotation, "true"))

		By("a route with spec.subdomain only keeps an empty host")
		sub := f.RouteTo(backend, "sub", framework.EchoHTTPPort)
		sub.Spec.Host, sub.Spec.Subdomain = "", "sub-"+ns
		sub = f.CreateAdmittedRoute(ctx, sub)
		Expect(sub.Spec.Host).To(BeEmpty())
		Expect(sub.Annotations).NotTo(HaveKey(contract.HostGeneratedAnnotation))
	})
}

// hostCase is one route of the host table: its spec.host and
// spec.subdomain as created.
type hostCase struct {
	name, host, subdomain string
}

// describeRouteHostsByRouter: the host each router reports and serves a
// route under, on two routers of different domains (the default and a
// shard of the spec's own), as origin's subdomain test arranges it.
func describeRouteHostsByRouter(f *framework.Framework) {
	// Four routes in a namespace both routers serve: with neither host
	// nor subdomain (admission generates <name>-<namespace>.<cluster
	// ingress domain>), with host only, with subdomain only (spec.host
	// stays empty; each router uses <subdomain>.<its own domain>), with
	// both (the host wins). Each router's entry names the host it admits
	// the route under, and the router serves the route there.
	//
	// Document: none (the Route API: spec.host and spec.subdomain,
	// openshift/api route/v1 types.go: "subdomain ... the router's
	// domain ... If both host and subdomain are specified, then host
	// takes precedence")
	// Upstream: openshift/router pkg/cmd/infra/router/router.go
	// (RouterSelection.RouteUpdate: spec.host from spec.subdomain and
	// ROUTER_DOMAIN when spec.host is empty) and
	// pkg/router/controller/status.go (the entry's host is the route's),
	// cluster-ingress-operator pkg/operator/controller/ingress/deployment.go
	// (desiredRouterDeployment: ROUTER_DOMAIN from status.domain),
	// library-go pkg/route/hostassignment (AllocateHost,
	// SimpleAllocationPlugin.GenerateHostname: the generated host), as
	// openshift/origin test/extended/router/subdomain.go checks them
	It("each router reports and serves a route under spec.host, a generated host, or spec.subdomain under its own domain", framework.ID("router/status-host-by-router-domain"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
		shard := f.OwnIngressController(ctx)
		if shard.Name == contract.DefaultIngressController {
			Skip("this profile cannot reach a new IngressController's ports")
		}
		def := f.DefaultIngressController()
		domains := map[*framework.IngressController]string{def: def.Domain(ctx), shard: shard.Domain(ctx)}
		Expect(domains[def]).NotTo(Equal(domains[shard]), "the two routers share a domain")
		ns := f.SpecNamespaceWithLabels(ctx, "route-hosts", shard.NamespaceLabels)
		backend := f.DeployEcho(ctx, ns)
		given := f.Host(ns, "given")
		for _, c := range []hostCase{{"neither", "", ""}, {"host", given, ""}, {"subdomain", "", "sub-" + ns}, {"both", given, "sub2-" + ns}} {
			By("route " + c.name + ": host " + quoteOrNone(c.host) + ", subdomain " + quoteOrNone(c.subdomain))
			route := f.RouteTo(backend, c.name, framework.EchoHTTPPort)
			route.Spec.Host, route.Spec.Subdomain = c.host, c.subdomain
			if c.name == "both" {
				route.Spec.Path = "/both" // the host route holds "/"
			}
			route = f.CreateRouteNoWait(ctx, route)
			for _, router := range []*framework.IngressController{def, shard} {
				want := c.host
				switch {
				case c.host == "" && c.subdomain == "":
					want = c.name + "-" + ns + "." + f.Domain // the cluster's ingress domain, for every router
				case c.host == "":
					want = c.subdomain + "." + domains[router]
				}
				router.WaitAdmitted(ctx, route)
				f.EventuallyRoute(ctx, route, func(g Gomega, live *routev1.Route) {
					if c.host == "" && c.subdomain != "" {
						g.Expect(live.Spec.Host).To(BeEmpty(), "spec.host of a route with spec.subdomain only")
					}
					entry := framework.IngressEntry(live, router.Name)
					g.Expect(entry).NotTo(BeNil())
					g.Expect(entry.Host).To(Equal(want), "entry of router %s: %+v", router.Name, *entry)
				})
				path := route.Spec.Path
				if path == "" {
					path = "/"
				}
				By("router " + router.Name + " serves it at " + want)
				f.EventuallyResponds(ctx, router.HTTP(want, path), func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					g.Expect(resp.Echo.Path).To(Equal(path))
				})
			}
		}
	})
}

// quoteOrNone is a spec.host or spec.subdomain for a step's text.
func quoteOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return `"` + s + `"`
}
