package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
	"github.com/router-conformance/suite/pki"
)

// hstsCase is one route and one request; header is the exact
// Strict-Transport-Security the client must see, "" for none. Every case
// asserts the echo backend answered: an absent header is only evidence on
// a served request.
type hstsCase struct {
	termination routev1.TLSTerminationType
	insecure    routev1.InsecureEdgeTerminationPolicyType
	annotation  string
	overHTTP    bool
	conn        framework.Connection // over TLS: with SNI (fe_sni) unless WithoutSNI (fe_no_sni)
	header      string
}

// backendHSTSCase: a route whose backend sends its own
// Strict-Transport-Security; replaced says the client must see the
// route's annotation instead (one header), otherwise the backend's own.
type backendHSTSCase struct {
	termination routev1.TLSTerminationType
	annotation  string
	replaced    bool
}

// The HSTS per route that the HSTS admission enhancement
// (global-options-enable-hsts) keeps: the router adds the annotation's
// value verbatim on edge and reencrypt routes when it matches the upstream
// pattern, never on passthrough or plain HTTP routes.
func describeHSTS(f *framework.Framework) {
	framework.DescribeFeature(contract.FeatureHSTS, func() {
		// Document: the HSTS admission enhancement, section "Continue to enable
		// HSTS per-route (retain the existing feature functionality)"
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// ($hstsPattern; the edge/reencrypt route backend's `http-response
		// set-header Strict-Transport-Security`, only when TLSTermination is
		// edge or reencrypt and the annotation matches the pattern)
		DescribeTable("Strict-Transport-Security from the hsts_header annotation",
			func(ctx SpecContext, c hstsCase) {
				ns := f.SpecNamespace(ctx, "hsts")
				name := "r"
				host := f.Host(ns, name)
				backend := f.DeployEchoFor(ctx, ns, c.termination, host)
				route := f.TerminatedRouteTo(backend, name, c.termination, c.insecure)
				route.Annotations = map[string]string{contract.HSTSAnnotation: c.annotation}
				f.CreateRoute(ctx, route)
				req := c.conn.Over(f.HTTPS(host, "/"))
				if c.overHTTP {
					req = f.HTTP(host, "/")
				}
				if c.termination == routev1.TLSTerminationPassthrough {
					req.RootCAs = pki.Pool(backend.CA)
				}
				if c.header == "" {
					By("positive control: an edge route with max-age=600 on the same router gets its header")
					controlBackend := f.DeployEchoes(ctx, framework.EchoIn(ns, "control"))[0]
					control := f.CreateRoute(ctx, edgeRouteWithHSTS(f, controlBackend, "control", "max-age=600"))
					f.EventuallyResponds(ctx, c.conn.Over(f.HTTPS(control.Spec.Host, "/")), func(g Gomega, resp *httpclient.Response) {
						controlBackend.Served(g, resp)
						g.Expect(resp.Header.Values("Strict-Transport-Security")).To(Equal([]string{"max-age=600"}))
					})
				}
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					if c.header == "" {
						g.Expect(resp.Header.Values("Strict-Transport-Security")).To(BeEmpty())
					} else {
						g.Expect(resp.Header.Values("Strict-Transport-Security")).To(Equal([]string{c.header}))
					}
				})
			},
			Entry("edge, max-age", framework.ID("hsts/edge-max-age"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "max-age=31536000", header: "max-age=31536000"}),
			Entry("edge, includeSubDomains and preload", framework.ID("hsts/edge-all-directives"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "max-age=31536000;includeSubDomains;preload", header: "max-age=31536000;includeSubDomains;preload"}),
			Entry("reencrypt", framework.ID("hsts/reencrypt-max-age"), hstsCase{termination: routev1.TLSTerminationReencrypt, annotation: "max-age=600;includeSubDomains", header: "max-age=600;includeSubDomains"}),
			// Without SNI the client reaches fe_no_sni (the default
			// certificate), which picks the same route backend by Host.
			Entry("edge, without SNI", framework.ID("hsts/edge-max-age-no-sni"), hstsCase{termination: routev1.TLSTerminationEdge, conn: framework.WithoutSNI, annotation: "max-age=31536000", header: "max-age=31536000"}),
			Entry("reencrypt, without SNI", framework.ID("hsts/reencrypt-max-age-no-sni"), hstsCase{termination: routev1.TLSTerminationReencrypt, conn: framework.WithoutSNI, annotation: "max-age=600;includeSubDomains", header: "max-age=600;includeSubDomains"}),
			Entry("no max-age, without SNI: no header", framework.ID("hsts/no-max-age-no-header-no-sni"), hstsCase{termination: routev1.TLSTerminationEdge, conn: framework.WithoutSNI, annotation: "includeSubDomains;preload"}),
			Entry("directives in any case, spaces around ; and =", framework.ID("hsts/case-and-spaces-kept"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "MAX-AGE = 600 ; INCLUDESUBDOMAINS", header: "MAX-AGE = 600 ; INCLUDESUBDOMAINS"}),
			Entry("quoted max-age", framework.ID("hsts/quoted-max-age"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: `max-age="600"`, header: `max-age="600"`}),
			Entry("directives before max-age", framework.ID("hsts/directives-before-max-age"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "preload;max-age=600", header: "preload;max-age=600"}),
			Entry("max-age=0 (removes the host from HSTS)", framework.ID("hsts/max-age-zero"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "max-age=0", header: "max-age=0"}),
			Entry("no max-age: no header", framework.ID("hsts/no-max-age-no-header"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "includeSubDomains;preload"}),
			Entry("an unknown directive: no header", framework.ID("hsts/unknown-directive-no-header"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "max-age=600;always"}),
			// openshift/origin#19860: upstream's pattern must match the
			// whole value, so a trailing ';' (which RFC 6797's grammar
			// allows) gives no header; the issue was closed without
			// widening it.
			//
			// Document: the HSTS admission enhancement, section "Continue to
			// enable HSTS per-route (retain the existing feature
			// functionality)" (the template excerpt's $hstsPattern and
			// firstMatch)
			// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
			// ($hstsPattern: optional tokens only between ';' separators) and
			// pkg/router/template/template_helper.go (firstMatch: the pattern
			// anchored as \A(?:...)\z)
			Entry("a trailing ';': no header", framework.ID("hsts/trailing-semicolon-no-header"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "max-age=600;includeSubDomains;"}),
			// Directives are set apart by ';': the pattern has spaces only
			// around a ';', so a directive after a bare space is no
			// directive and the value gets no header.
			Entry("directives apart by a space only: no header", framework.ID("hsts/space-separated-no-header"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "max-age=600 includeSubDomains"}),
			Entry("passthrough: never", framework.ID("hsts/passthrough-never"), hstsCase{termination: routev1.TLSTerminationPassthrough, annotation: "max-age=600"}),
			Entry("plain HTTP route: never", framework.ID("hsts/plain-http-never"), hstsCase{annotation: "max-age=600", overHTTP: true}),
			// Upstream sends it over HTTP too: plain HTTP reaches the same
			// backend and its set-header has no ssl_fc condition. The
			// document's template excerpt has no such condition either.
			//
			// Document: the HSTS admission enhancement, section "Continue to
			// enable HSTS per-route (retain the existing feature functionality)"
			// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
			// (the edge/reencrypt route backend's Strict-Transport-Security
			// set-header, without an ssl_fc condition) and
			// pkg/router/template/util/haproxy/map_entry.go (generateHttpMapEntry:
			// an edge route with Allow is in os_http_be.map, its backend the same
			// as over TLS)
			Entry("edge with Allow, over HTTP: sent as over HTTPS", framework.ID("hsts/edge-allow-over-http"), hstsCase{termination: routev1.TLSTerminationEdge, insecure: routev1.InsecureEdgeTerminationPolicyAllow, annotation: "max-age=600", overHTTP: true, header: "max-age=600"}),
			Entry("edge with Allow, over HTTPS", framework.ID("hsts/edge-allow-over-https"), hstsCase{termination: routev1.TLSTerminationEdge, insecure: routev1.InsecureEdgeTerminationPolicyAllow, annotation: "max-age=600", header: "max-age=600"}),
		)

		// The annotation is read on every change of the route, not once:
		// each step waits for exactly the new value (once), so a router that
		// keeps the first value, or adds the new one beside it, fails. The
		// rollback the document prescribes is max-age=0; removing the
		// annotation drops the header.
		//
		// Document: the HSTS admission enhancement, sections "Continue to
		// enable HSTS per-route (retain the existing feature functionality)"
		// (max-age=0 negates the effect) and "Route Administration"
		// (`oc annotate --overwrite` with a new value; "setting the max-age
		// to 0 is the correct way to remove the header"; removing the
		// annotation is not the same)
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (the edge/reencrypt route backend's `http-response set-header
		// Strict-Transport-Security`, rendered from the annotation's current
		// value, absent when the annotation is) and pkg/router/template/router.go
		// (templateRouter.AddRoute: a changed route is removed and added
		// again; createServiceAliasConfig carries its current annotations)
		DescribeTable("the hsts_header annotation edited on a live route",
			func(ctx SpecContext, termination routev1.TLSTerminationType) {
				ns := f.SpecNamespace(ctx, "hsts-edit")
				backend := f.DeployEchoFor(ctx, ns, termination)
				route := f.TerminatedRouteTo(backend, "r", termination, "")
				route.Annotations = map[string]string{contract.HSTSAnnotation: "max-age=31536000"}
				f.CreateRoute(ctx, route)
				req := f.HTTPS(route.Spec.Host, "/")
				served := func(want ...string) {
					GinkgoHelper()
					f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
						backend.Served(g, resp)
						framework.HeaderExpectations{"Strict-Transport-Security": want}.Check(g, resp.Header, "the client")
					})
				}
				annotate := func(value *string) {
					GinkgoHelper()
					_, err := framework.Update(ctx, f.Routes.RouteV1().Routes(ns), route.Name, func(live *routev1.Route) {
						if value == nil {
							delete(live.Annotations, contract.HSTSAnnotation)
						} else {
							live.Annotations[contract.HSTSAnnotation] = *value
						}
					})
					Expect(err).NotTo(HaveOccurred(), "update the HSTS annotation of route %s/%s", ns, route.Name)
				}

				By("positive control: the value the route was created with is sent")
				served("max-age=31536000")

				By("edited: exactly the new value, once")
				annotate(annotation("max-age=600;includeSubDomains"))
				served("max-age=600;includeSubDomains")

				By("rolled back with max-age=0: max-age=0 is sent")
				annotate(annotation("max-age=0"))
				served("max-age=0")

				By("the annotation removed: no header on a served answer")
				annotate(nil)
				served()
			},
			Entry("edge", framework.ID("hsts/live-annotation-edit-edge"), routev1.TLSTerminationEdge),
			Entry("reencrypt", framework.ID("hsts/live-annotation-edit-reencrypt"), routev1.TLSTerminationReencrypt),
		)

		// The route's HSTS replaces whatever Strict-Transport-Security the
		// backend sends (HAProxy's set-header removes every occurrence before
		// adding its own): the client sees exactly one, the route's. Where
		// the router sends none (no annotation, one that does not match the
		// pattern, a passthrough route), nothing else in the router touches
		// the header, so the backend's own reach the client unchanged; a
		// route without the annotation to the same backend is each case's
		// positive control.
		//
		// Document: the HSTS admission enhancement, section "Continue to
		// enable HSTS per-route (retain the existing feature functionality)"
		// (the template excerpt: the route backend sets the header)
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (the edge/reencrypt route backend's `http-response set-header
		// Strict-Transport-Security`, only when the annotation matches
		// $hstsPattern; the template's only mention of the header) and
		// openshift/library-go pkg/route/validation/validation.go
		// (notAllowedHTTPHeaders: no header action may name
		// strict-transport-security)
		DescribeTable("a backend's own Strict-Transport-Security",
			func(ctx SpecContext, c backendHSTSCase) {
				ns := f.SpecNamespace(ctx, "hsts-backend")
				host, controlHost := f.Host(ns, "r"), f.Host(ns, "control")
				backend := f.DeployEchoFor(ctx, ns, c.termination, host, controlHost)
				route := f.TerminatedRouteTo(backend, "r", c.termination, "")
				route.Annotations = map[string]string{contract.HSTSAnnotation: c.annotation}
				f.CreateRoute(ctx, route)
				f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "control", c.termination, ""))
				fromBackend := []string{"max-age=1;preload", "max-age=2"}
				request := func(host string) httpclient.Request {
					req := f.HTTPS(host, "/")
					for _, v := range fromBackend {
						req = framework.WithHeader(req, echo.SetResponseHeader, "Strict-Transport-Security: "+v)
					}
					if c.termination == routev1.TLSTerminationPassthrough {
						req.RootCAs = pki.Pool(backend.CA)
					}
					return req
				}

				By("positive control: through a route without the annotation, the backend's own reach the client unchanged")
				f.EventuallyResponds(ctx, request(controlHost), func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					framework.HeaderExpectations{"Strict-Transport-Security": fromBackend}.Check(g, resp.Header, "the client")
				})

				want := fromBackend
				if c.replaced {
					By("the route's value replaces the backend's: one header, the route's")
					want = []string{c.annotation}
				} else {
					By("the router sends none, so the backend's own pass unchanged")
				}
				f.EventuallyResponds(ctx, request(host), func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					framework.HeaderExpectations{"Strict-Transport-Security": want}.Check(g, resp.Header, "the client")
				})
			},
			Entry("edge: replaced", framework.ID("hsts/backend-header-replaced-edge"), backendHSTSCase{termination: routev1.TLSTerminationEdge, annotation: "max-age=600;includeSubDomains", replaced: true}),
			Entry("reencrypt: replaced", framework.ID("hsts/backend-header-replaced-reencrypt"), backendHSTSCase{termination: routev1.TLSTerminationReencrypt, annotation: "max-age=600;includeSubDomains", replaced: true}),
			Entry("edge, an annotation without max-age: the backend's pass", framework.ID("hsts/backend-header-kept-invalid-annotation"), backendHSTSCase{termination: routev1.TLSTerminationEdge, annotation: "includeSubDomains;preload"}),
			Entry("passthrough: the backend's pass", framework.ID("hsts/backend-header-kept-passthrough"), backendHSTSCase{termination: routev1.TLSTerminationPassthrough, annotation: "max-age=600"}),
		)

		// A wildcard route (wildcardPolicy Subdomain, on an
		// IngressController that allows them) serves every host one label
		// under its host's parent, all through its one backend, where the
		// header is set: each name under the subdomain gets exactly the
		// annotation's value, over TLS with SNI and the route's own
		// certificate for *.<parent>, chosen by SNI. A name two labels
		// down, or under another parent, is not the route's: the router's
		// no-route answer. A router that sets HSTS for exact hosts only, or
		// serves the wildcard's own host alone, fails.
		//
		// Document: the HSTS admission enhancement, section "Continue to
		// enable HSTS per-route (retain the existing feature functionality)"
		// (a route with WildcardPolicy Subdomain serves the hosts of its
		// host's parent; the template excerpt: the route backend sets the
		// header)
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (the edge/reencrypt route backend's `http-response set-header
		// Strict-Transport-Security`; fe_sni's crt-list cert_config.map and
		// os_edge_reencrypt_be.map), pkg/router/template/util/util.go
		// (GenerateRouteRegexp and GenCertificateHostName with wildcard:
		// `^[^\.]*\.<parent>`, `*.<parent>`), pkg/router/template/router.go
		// (createServiceAliasConfig: IsWildcard when the route is Subdomain
		// and wildcard routes are allowed), from cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go
		// (desiredRouterDeployment: ROUTER_ALLOW_WILDCARD_ROUTES "true" for
		// routeAdmission.wildcardPolicy WildcardsAllowed)
		Describe("Strict-Transport-Security on a wildcard (Subdomain) route", f.SharedIngressControllerDecorator(), func() {
			own := f.SharedIngressController(framework.AllowWildcardRoutes)
			DescribeTable("for a route of each TLS termination",
				func(ctx SpecContext, termination routev1.TLSTerminationType) {
					ns := f.SpecNamespaceWithLabels(ctx, "hsts-wildcard", own.NamespaceLabels)
					parent := ns + "." + f.Domain
					backend := f.DeployEchoFor(ctx, ns, termination)
					const hsts = "max-age=31536000;includeSubDomains"
					ca := framework.NewRootCA("hsts wildcard " + ns)
					route := f.TerminatedRouteTo(backend, "wild", termination, "")
					route.Spec.Host, route.Spec.WildcardPolicy = "www."+parent, routev1.WildcardPolicySubdomain
					route.Annotations = map[string]string{contract.HSTSAnnotation: hsts}
					framework.WithRouteCertificate(route, ca, "*."+parent)
					route = f.CreateRouteNoWait(ctx, route)

					By("the IngressController's router admits it as a wildcard route")
					f.EventuallyRoute(ctx, route, func(g Gomega, live *routev1.Route) {
						entry := framework.IngressEntry(live, own.Name)
						g.Expect(entry).NotTo(BeNil(), "no status entry of router %s: %+v", own.Name, live.Status)
						g.Expect(framework.AdmittedBy(live, own.Name)).To(Equal(corev1.ConditionTrue), "entry of router %s: %+v", own.Name, *entry)
						g.Expect(entry.WildcardPolicy).To(Equal(routev1.WildcardPolicySubdomain), "entry of router %s: %+v", own.Name, *entry)
					})

					for i, name := range []string{"www", "a", "b"} {
						host := name + "." + parent
						if i == 0 {
							By("positive control: the route's own host, its certificate and the annotation's value")
						} else {
							By(host + ", under the subdomain: the route's certificate for *." + parent + " and exactly the annotation's value")
						}
						req := framework.WithSNI.Over(own.HTTPS(host, "/"))
						req.RootCAs = pki.Pool(ca) // only the route's certificate verifies
						f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
							backend.Served(g, resp)
							framework.HeaderExpectations{"Strict-Transport-Security": {hsts}}.Check(g, resp.Header, "the client")
						})
					}
					for _, host := range []string{"x.a." + parent, "a.other-" + parent} {
						By(host + ": not under the subdomain, not the route's (the router's no-route answer)")
						f.EventuallyResponds(ctx, framework.WithSNI.Over(own.HTTPS(host, "/")), framework.NotServed)
					}
				},
				Entry("edge", framework.ID("hsts/wildcard-route-edge"), routev1.TLSTerminationEdge),
				Entry("reencrypt", framework.ID("hsts/wildcard-route-reencrypt"), routev1.TLSTerminationReencrypt),
			)
		})

		// Beside a wildcard route whose header has includeSubDomains, in
		// its own namespace: a route for another host under the wildcard's
		// subdomain is admitted (the host admitter lets the wildcard's own
		// namespace in) and answers from its own backend with its own HSTS,
		// here none: the wildcard's header is not carried over to it (the
		// document's outcome 3, not chosen). A route for the parent domain
		// itself, wildcardPolicy None, is admitted beside the wildcard and
		// sends its own header: the pair the document recommends to claim
		// the subdomain and put HSTS on the parent. Every route carries a
		// certificate of the spec's CA for its host (the wildcard's for
		// *.<parent>), so each answer shows the router chose the route by
		// SNI.
		//
		// Document: the HSTS admission enhancement, section "Design
		// Details" (outcomes 2 to 4; the routes test2 in the owner
		// namespace, and hstsRoute beside claimSubdomainRoute)
		// Upstream: openshift/router pkg/router/controller/host_admitter.go
		// (HostAdmitter.displacedRoutes: a None route of the wildcard's
		// namespace neither displaces the wildcard nor is displaced by it;
		// a route for the parent is keyed under another domain),
		// images/router/haproxy/conf/haproxy-config.template (each route
		// backend's own `http-response set-header
		// Strict-Transport-Security`), pkg/router/template/util/util.go
		// (GenerateRouteRegexp) and pkg/router/template/util/map_paths.go
		// (SortMapPaths: exact hosts before the wildcard's pattern)
		It("sends each route's own header beside a wildcard route with includeSubDomains", framework.ID("hsts/wildcard-route-beside-exact-routes"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
			own := f.OwnIngressController(ctx, framework.AllowWildcardRoutes)
			ns := f.SpecNamespaceWithLabels(ctx, "hsts-wildcard-beside", own.NamespaceLabels)
			parent := ns + "." + f.Domain
			backends := f.DeployEchoes(ctx, framework.EchoIn(ns, "wild"), framework.EchoIn(ns, "exact"))
			wildBackend, exactBackend := backends[0], backends[1]
			ca := framework.NewRootCA("hsts wildcard beside " + ns)
			const wildHSTS, parentHSTS = "max-age=600;includeSubDomains", "max-age=31536000;includeSubDomains"
			createHSTSWildcard(ctx, f, own, ca, wildBackend, parent, wildHSTS)
			sibling := f.CreateRouteNoWait(ctx, hstsEdgeRoute(f, ca, exactBackend, "sibling", "abc."+parent, "", "abc."+parent))
			apex := f.CreateRouteNoWait(ctx, hstsEdgeRoute(f, ca, exactBackend, "apex", parent, parentHSTS, parent))
			By("a route of the wildcard's namespace under its subdomain, and one for the parent, are admitted")
			own.WaitAdmitted(ctx, sibling)
			own.WaitAdmitted(ctx, apex)

			for _, c := range []struct {
				what, host string
				backend    *framework.Echo
				hsts       []string
			}{
				{"positive control: the wildcard route's own host, its header", "www." + parent, wildBackend, []string{wildHSTS}},
				{"another host under the subdomain: the wildcard route, its header", "x." + parent, wildBackend, []string{wildHSTS}},
				{"the sibling route's host: its own backend, no header (the wildcard's is not added)", "abc." + parent, exactBackend, nil},
				{"the parent's route: its own backend and header", parent, exactBackend, []string{parentHSTS}},
			} {
				By(c.host + ": " + c.what)
				eventuallyHSTSFrom(ctx, f, own, ca, c.host, c.backend, c.hsts)
			}
		})

		// The wildcard holds its subdomain, not its parent: a route of
		// another namespace for a host under www.<parent>'s subdomain is
		// refused (the control), while its route for <parent> itself is
		// admitted and sends its own header. So another namespace can put
		// an HSTS policy on the parent of a wildcard route with
		// includeSubDomains, which the document says it cannot: the spec
		// asserts upstream.
		//
		// Document: the HSTS admission enhancement, section "Continue to
		// enable HSTS per-route (retain the existing feature
		// functionality)" ("there is no way for another namespace to put
		// an HSTS policy on foo.com"; upstream does otherwise)
		// Upstream: openshift/router pkg/router/controller/host_admitter.go
		// (HostAdmitter.addRoute and displacedRoutes: a wildcard claim is
		// keyed by GetDomainForHost of its host, <parent>, while a route
		// for <parent> is keyed under <parent>'s own parent; "a route in
		// another namespace holds host" for a host under the claim)
		It("lets another namespace put its own header on the parent of a wildcard route with includeSubDomains", framework.ID("hsts/wildcard-parent-from-another-namespace"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
			own := f.OwnIngressController(ctx, framework.AllowWildcardRoutes)
			owner := f.SpecNamespaceWithLabels(ctx, "hsts-wildcard-owner", own.NamespaceLabels)
			other := f.SpecNamespaceWithLabels(ctx, "hsts-wildcard-other", own.NamespaceLabels)
			parent := owner + "." + f.Domain
			backends := f.DeployEchoes(ctx, framework.EchoIn(owner, "wild"), framework.EchoIn(other, "apex"))
			wildBackend, otherBackend := backends[0], backends[1]
			ca := framework.NewRootCA("hsts wildcard parent " + owner)
			const wildHSTS, parentHSTS = "max-age=600;includeSubDomains", "max-age=31536000"
			createHSTSWildcard(ctx, f, own, ca, wildBackend, parent, wildHSTS)
			intruder := f.CreateRouteNoWait(ctx, hstsEdgeRoute(f, ca, otherBackend, "intruder", "abc."+parent, "", "abc."+parent))
			apex := f.CreateRouteNoWait(ctx, hstsEdgeRoute(f, ca, otherBackend, "apex", parent, parentHSTS, parent))

			By("the control: the other namespace's route under the subdomain is refused: " + contract.WildcardHostHeldByAnotherNamespace(intruder.Spec.Host))
			own.EventuallyRouteNotAdmitted(ctx, intruder, contract.ReasonHostAlreadyClaimed, contract.WildcardHostHeldByAnotherNamespace(intruder.Spec.Host))
			By("the other namespace's route for the parent itself is admitted")
			own.WaitAdmitted(ctx, apex)
			By(parent + ": the other namespace's backend and its header")
			eventuallyHSTSFrom(ctx, f, own, ca, parent, otherBackend, []string{parentHSTS})
			By(intruder.Spec.Host + ": the wildcard route's backend and header")
			eventuallyHSTSFrom(ctx, f, own, ca, intruder.Spec.Host, wildBackend, []string{wildHSTS})
		})
	})
}

// hstsEdgeRoute is an edge route (wildcardPolicy None) for host with a
// certificate of ca for certHost and, unless hsts is "", the hsts_header
// annotation.
func hstsEdgeRoute(f *framework.Framework, ca *pki.CA, backend *framework.Echo, name, host, hsts, certHost string) *routev1.Route {
	GinkgoHelper()
	r := f.TerminatedRouteTo(backend, name, routev1.TLSTerminationEdge, "")
	r.Spec.Host, r.Spec.WildcardPolicy = host, routev1.WildcardPolicyNone
	if hsts != "" {
		r.Annotations = map[string]string{contract.HSTSAnnotation: hsts}
	}
	framework.WithRouteCertificate(r, ca, certHost)
	return r
}

// createHSTSWildcard creates the edge wildcard (Subdomain) route "wild"
// for www.<parent> with hsts and a certificate of ca for *.<parent>, waits
// until ic admits it, and then until a route created next is stamped
// after it (the older route holds the hosts).
func createHSTSWildcard(ctx SpecContext, f *framework.Framework, ic *framework.IngressController, ca *pki.CA, backend *framework.Echo, parent, hsts string) {
	GinkgoHelper()
	wild := hstsEdgeRoute(f, ca, backend, "wild", "www."+parent, hsts, "*."+parent)
	wild.Spec.WildcardPolicy = routev1.WildcardPolicySubdomain
	wild = f.CreateRouteNoWait(ctx, wild)
	ic.WaitAdmitted(ctx, wild)
	f.WaitCreatedAfter(ctx, wild)
}

// eventuallyHSTSFrom waits until host, over TLS with SNI through ic and
// verified by ca alone (the routes' certificates), is served by backend
// with exactly the Strict-Transport-Security values hsts.
func eventuallyHSTSFrom(ctx SpecContext, f *framework.Framework, ic *framework.IngressController, ca *pki.CA, host string, backend *framework.Echo, hsts []string) {
	GinkgoHelper()
	req := framework.WithSNI.Over(ic.HTTPS(host, "/"))
	req.RootCAs = pki.Pool(ca)
	f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
		backend.Served(g, resp)
		framework.HeaderExpectations{"Strict-Transport-Security": hsts}.Check(g, resp.Header, "the client")
	})
}
