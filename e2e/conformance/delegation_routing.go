package conformance

import (
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
)

// describeDelegationRouting: what a root, its delegations and their
// routes serve: hosts, prefixes, namespaces, services and ports.
func describeDelegationRouting(f *framework.Framework) {
	// IngressRoute design document, section "IngressRoute CRD"
	// (spec.virtualhost): the root names the fqdn and its aliases; a host
	// no root claims is not served.
	//
	// Document: the IngressRoute design document (Contour), section
	// "IngressRoute CRD" (spec.virtualhost: the fqdn and its aliases)
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (computeIngressRoute: spec.virtualhost.fqdn names the virtual host).
	// v1.0.1's IngressRoute has no aliases (its
	// site/_docs_1_0/ingressroute.md, "Virtualhost aliases", delegates /
	// from one root per name), so the aliases follow the document
	It("a root serves its fqdn and every alias; another host gets the router's no-route answer", framework.ID("delegation/root-fqdn-and-aliases"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "ir-root")
		backend := f.DeployEcho(ctx, ns)
		fqdn := f.Host(ns, "www")
		aliases := []string{f.Host(ns, "alias-one"), f.Host(ns, "alias-two")}
		r := rootRoute(ns, "root", fqdn, toService("/", backend.Service))
		r.Spec.VirtualHost.Aliases = aliases
		f.CreateIngressRoute(ctx, r)

		f.EventuallyIngressRouteStatus(ctx, ns, "root", expectValid)
		for _, host := range append([]string{fqdn}, aliases...) {
			f.EventuallyResponds(ctx, f.HTTP(host, "/"), backend.Served)
		}
		By("a host no root claims: the router's no-route answer")
		f.EventuallyResponds(ctx, f.HTTP(f.Host(ns, "unclaimed"), "/"), framework.NotServed)
	})

	// IngressRoute design document, section "IngressRoute CRD": routes
	// "can be present in any order, and will be matched from most to
	// least specific" (Contour v1.0.1 internal/contour/route.go,
	// longestRouteFirst). Whether a prefix matches whole path segments
	// is not asserted: the document does not say, and shipped Contour
	// serves a plain string prefix (internal/envoy/route.go,
	// RouteMatch: Envoy's prefix match), so /foobar goes to /foo there,
	// while the reference router matches segments. The table keeps only
	// paths both readings send to the same route.
	//
	// Document: the IngressRoute design document (Contour), section
	// "IngressRoute CRD" (routes "matched from most to least specific")
	// Upstream: projectcontour/contour v1.0.1 internal/contour/route.go
	// (longestRouteFirst) and internal/envoy/route.go (RouteMatch: Envoy's
	// prefix match; the segment boundary is not asserted)
	It("the most specific prefix wins whatever the list order", framework.ID("delegation/most-specific-prefix"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "ir-prefix")
		b := f.DeployEchoes(ctx, framework.EchoIn(ns, "top"), framework.EchoIn(ns, "foo"), framework.EchoIn(ns, "bar"))
		top, foo, bar := b[0], b[1], b[2]
		host := f.Host(ns, "www")
		// Listed least specific first: the order must not matter.
		f.CreateIngressRoute(ctx, rootRoute(ns, "root", host,
			toService("/", top.Service), toService("/foo", foo.Service), toService("/foo/bar", bar.Service)))
		f.EventuallyIngressRouteStatus(ctx, ns, "root", expectValid)
		for _, c := range []struct {
			path    string
			backend *framework.Echo
		}{
			{"/", top}, {"/other", top}, {"/foo", foo}, {"/foo/", foo}, {"/foo/baz", foo},
			{"/foo/bar", bar}, {"/foo/bar/", bar}, {"/foo/bar/baz", bar},
		} {
			By(c.path + " → " + c.backend.Service)
			f.EventuallyResponds(ctx, f.HTTP(host, c.path), c.backend.Served)
		}
	})

	// IngressRoute design document, sections "Delegation" and
	// "IngressRoute CRD" (the google-finance example): a root hands a
	// prefix to a vertex, in its own namespace or another, and the vertex
	// on to the next; the status of each vertex names its parent and
	// prefix (section "Reporting status", delegationStatuses).
	//
	// Document: the IngressRoute design document (Contour), sections
	// "Delegation", "IngressRoute CRD" (the google-finance example) and
	// "Reporting status" (delegationStatuses)
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (processIngressRoutes: a delegate route followed into its namespace,
	// or the parent's, under the delegated prefix). v1.0.1 writes no
	// delegationStatuses (internal/k8s/status.go, CRDStatus.SetStatus):
	// for the status the document decides
	It("delegates within a namespace and across namespaces, several levels deep", framework.ID("delegation/multi-level-chain"), func(ctx SpecContext) {
		rootNS := f.SpecNamespace(ctx, "ir-chain-root")
		teamNS := f.SpecNamespace(ctx, "ir-chain-team")
		b := f.DeployEchoes(ctx, framework.EchoIn(rootNS, "echo"), framework.EchoIn(rootNS, "blog"), framework.EchoIn(teamNS, "echo"))
		rootBackend, blogBackend, teamBackend := b[0], b[1], b[2]
		host := f.Host(rootNS, "www")
		f.CreateIngressRoute(ctx, rootRoute(rootNS, "root", host, toService("/", rootBackend.Service), delegateTo("/blog", "blog", "")))
		f.CreateIngressRoute(ctx, vertexRoute(rootNS, "blog", toService("/blog", blogBackend.Service), delegateTo("/blog/team", "team", teamNS)))
		f.CreateIngressRoute(ctx, vertexRoute(teamNS, "team", toService("/blog/team", teamBackend.Service)))

		f.EventuallyIngressRouteStatus(ctx, rootNS, "blog", expectConnected("root", rootNS, "/blog"))
		f.EventuallyIngressRouteStatus(ctx, teamNS, "team", expectConnected("blog", rootNS, "/blog/team"))
		f.EventuallyResponds(ctx, f.HTTP(host, "/"), rootBackend.Served)
		f.EventuallyResponds(ctx, f.HTTP(host, "/blog/post"), blogBackend.Served)
		f.EventuallyResponds(ctx, f.HTTP(host, "/blog/team/page"), teamBackend.Served)
	})

	// A blank delegate namespace is the delegating object's own, not the
	// root's: a vertex in another namespace that delegates with the
	// namespace blank reaches its neighbour, while the IngressRoute of the
	// same name in the root's namespace stays orphaned (the negative
	// beside it; the vertex's own prefix is the positive control).
	//
	// Document: the IngressRoute design document (Contour), section
	// "IngressRoute CRD" (delegate.namespace: if blank the current
	// namespace is assumed)
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (processIngressRoutes: a delegate's empty namespace is the
	// delegating IngressRoute's)
	It("a vertex's delegate with a blank namespace is looked up in the vertex's own namespace, not the root's", framework.ID("delegation/vertex-blank-namespace-own"), func(ctx SpecContext) {
		rootNS := f.SpecNamespace(ctx, "ir-blank-root")
		teamNS := f.SpecNamespace(ctx, "ir-blank-team")
		b := f.DeployEchoes(ctx, framework.EchoIn(rootNS, "decoy"), framework.EchoIn(teamNS, "echo"), framework.EchoIn(teamNS, "sub"))
		decoy, teamBackend, subBackend := b[0], b[1], b[2]
		host := f.Host(rootNS, "www")
		f.CreateIngressRoute(ctx, rootRoute(rootNS, "root", host, delegateTo("/team", "team", teamNS)))
		f.CreateIngressRoute(ctx, vertexRoute(teamNS, "team", toService("/team", teamBackend.Service), delegateTo("/team/sub", "sub", "")))
		f.CreateIngressRoute(ctx, vertexRoute(teamNS, "sub", toService("/team/sub", subBackend.Service)))
		f.CreateIngressRoute(ctx, vertexRoute(rootNS, "sub", toService("/team/sub", decoy.Service)))

		By("positive control: the vertex in the team's namespace is served under its prefix")
		f.EventuallyIngressRouteStatus(ctx, teamNS, "team", expectConnected("root", rootNS, "/team"))
		f.EventuallyResponds(ctx, f.HTTP(host, "/team/page"), teamBackend.Served)
		By("its blank-namespace delegate reaches its own namespace's sub; the root's namespace's sub stays orphaned")
		f.EventuallyIngressRouteStatus(ctx, teamNS, "sub", expectConnected("team", teamNS, "/team/sub"))
		f.EventuallyResponds(ctx, f.HTTP(host, "/team/sub/page"), subBackend.Served)
		f.EventuallyIngressRouteStatus(ctx, rootNS, "sub", expectOrphaned)
	})

	// IngressRoute design document, section "IngressRoutes dispatch only
	// to services in the same namespace": a route names services of its
	// own object's namespace only, so a team cannot publish another
	// team's service. Contour v1.0.1 internal/dag/builder.go
	// (processIngressRoutes) marks such an object invalid
	// ("Service [%s:%d] is invalid or missing", which names no
	// namespace).
	//
	// Document: the IngressRoute design document (Contour), section
	// "IngressRoutes dispatch only to services in the same namespace"
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (processIngressRoutes: lookupService in the IngressRoute's own
	// namespace, "Service [%s:%d] is invalid or missing")
	It("a route reaches only services of its own namespace: a service that exists only elsewhere makes the object invalid", framework.ID("delegation/own-namespace-services"), func(ctx SpecContext) {
		rootNS := f.SpecNamespace(ctx, "ir-svc-root")
		teamNS := f.SpecNamespace(ctx, "ir-svc-team")
		b := f.DeployEchoes(ctx, framework.EchoIn(rootNS, "private"), framework.EchoIn(teamNS, "echo"))
		other, teamBackend := b[0], b[1]
		host := f.Host(rootNS, "www")
		f.CreateIngressRoute(ctx, rootRoute(rootNS, "root", host, delegateTo("/team", "team", teamNS)))
		f.CreateIngressRoute(ctx, vertexRoute(teamNS, "team", toService("/team", other.Service)))

		f.EventuallyIngressRouteStatus(ctx, teamNS, "team", framework.IngressRouteStatusIs(contract.IngressRouteServiceNotFound(teamNS, other.Service, 8080)))
		f.EventuallyResponds(ctx, f.HTTP(host, "/team"), framework.NotServed)
		By("positive control: a service of the vertex's own namespace is served")
		f.UpdateIngressRoute(ctx, teamNS, "team", func(ir *irv1.IngressRoute) {
			ir.Spec.Routes = []irv1.Route{toService("/team", teamBackend.Service)}
		})
		f.EventuallyIngressRouteStatus(ctx, teamNS, "team", expectConnected("root", rootNS, "/team"))
		f.EventuallyResponds(ctx, f.HTTP(host, "/team"), teamBackend.Served)
	})

	// IngressRoute design document, sections "Delegation rules" (rules 3
	// and 4: a vertex no delegation reaches is orphaned and has no
	// effect) and "Reporting status" (orphaned, with its lastParent): a
	// vertex no root reaches has no effect and says so; the root
	// switching its delegation moves the traffic.
	//
	// Document: the IngressRoute design document (Contour), sections
	// "Delegation rules" (rules 3 and 4) and "Reporting status" (orphaned,
	// lastParent)
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (computeIngressRoute and setOrphaned: a vertex is orphaned unless
	// processIngressRoutes reaches it; buildDAG writes "orphaned"). v1.0.1
	// writes no lastParent (internal/k8s/status.go, CRDStatus.SetStatus):
	// the document decides
	It("orphans have no effect until delegated to; switching a delegation moves traffic and orphans the old vertex", framework.ID("delegation/orphan-then-switch"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "ir-bluegreen")
		b := f.DeployEchoes(ctx, framework.EchoIn(ns, "blue"), framework.EchoIn(ns, "green"))
		blue, green := b[0], b[1]
		host := f.Host(ns, "www")
		f.CreateIngressRoute(ctx, vertexRoute(ns, "blue", toService("/app", blue.Service)))
		f.CreateIngressRoute(ctx, vertexRoute(ns, "green", toService("/app", green.Service)))
		f.EventuallyIngressRouteStatus(ctx, ns, "blue", expectOrphaned)
		f.EventuallyIngressRouteStatus(ctx, ns, "green", expectOrphaned)

		By("the root delegates /app to blue: blue is connected and served")
		f.CreateIngressRoute(ctx, rootRoute(ns, "root", host, delegateTo("/app", "blue", "")))
		f.EventuallyIngressRouteStatus(ctx, ns, "blue", expectConnected("root", ns, "/app"))
		f.EventuallyResponds(ctx, f.HTTP(host, "/app"), blue.Served)
		f.EventuallyIngressRouteStatus(ctx, ns, "green", expectOrphaned)

		By("switched to green: green served, blue orphaned with its last parent")
		f.UpdateIngressRoute(ctx, ns, "root", func(ir *irv1.IngressRoute) {
			ir.Spec.Routes = []irv1.Route{delegateTo("/app", "green", "")}
		})
		f.EventuallyResponds(ctx, f.HTTP(host, "/app"), green.Served)
		f.EventuallyIngressRouteStatus(ctx, ns, "green", expectConnected("root", ns, "/app"))
		f.EventuallyIngressRouteStatus(ctx, ns, "blue", func(g Gomega, st irv1.Status) {
			expectOrphaned(g, st)
			g.Expect(st.DelegationStatuses).To(ContainElement(HaveField("State.Orphaned.LastParent", Equal(&irv1.ObjectRef{Name: "root", Namespace: ns}))))
		})
	})

	// IngressRoute design document, section "Delegation rules" (rule 3: a
	// vertex is reachable once a delegation to it exists): a delegation
	// may name an object that does not exist yet. Contour v1.0.1
	// internal/dag/builder.go (processIngressRoutes) skips such a route
	// and keeps the parent valid; creating the target brings the prefix
	// to life.
	//
	// Document: the IngressRoute design document (Contour), section
	// "Delegation rules" (rule 3: a vertex is reachable once a delegation
	// to it exists)
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (processIngressRoutes: a delegate route whose target does not exist
	// is skipped, and the parent stays valid)
	It("a delegation to an object that does not exist serves nothing at that prefix; creating it makes it live", framework.ID("delegation/pending-delegation"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "ir-pending")
		b := f.DeployEchoes(ctx, framework.EchoIn(ns, "echo"), framework.EchoIn(ns, "later"))
		rootBackend, later := b[0], b[1]
		host := f.Host(ns, "www")
		f.CreateIngressRoute(ctx, rootRoute(ns, "root", host, toService("/", rootBackend.Service), delegateTo("/later", "later", "")))
		f.EventuallyIngressRouteStatus(ctx, ns, "root", expectValid)
		By("positive control: the root's own prefix is served; /later falls to it, no vertex serves it")
		f.EventuallyResponds(ctx, f.HTTP(host, "/later"), rootBackend.Served)

		start := time.Now()
		f.CreateIngressRoute(ctx, vertexRoute(ns, "later", toService("/later", later.Service)))
		f.EventuallyResponds(ctx, f.HTTP(host, "/later"), later.Served)
		AddReportEntry("vertex created → its path served", time.Since(start).Round(time.Millisecond).String())
		f.EventuallyIngressRouteStatus(ctx, ns, "later", expectConnected("root", ns, "/later"))
		f.EventuallyIngressRouteStatus(ctx, ns, "root", expectValid)
	})

	// IngressRoute design document, section "IngressRoute CRD" (the /ads
	// route): service is a list, "allowing the services for a route to be
	// handled by more than one service". Contour v1.0.1 balances a route
	// over all of them, evenly when no weight is set
	// (internal/envoy/route.go, weightedClusters).
	//
	// Document: the IngressRoute design document (Contour), section
	// "IngressRoute CRD" (the /ads route: service is a list)
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (processIngressRoutes: a Cluster per service) and
	// internal/envoy/route.go (weightedClusters: even weights when none is
	// set)
	It("several services on one route all receive traffic", framework.ID("delegation/several-services"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "ir-weights")
		b := f.DeployEchoes(ctx, framework.EchoIn(ns, "one"), framework.EchoIn(ns, "two"))
		one, two := b[0], b[1]
		host := f.Host(ns, "www")
		f.CreateIngressRoute(ctx, rootRoute(ns, "root", host, toService("/", one.Service, two.Service)))
		f.EventuallyIngressRouteStatus(ctx, ns, "root", expectValid)
		seen := map[string]bool{}
		f.Eventually(ctx, func(g Gomega) {
			resp, err := framework.Do(ctx, f.HTTP(host, "/"))
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(resp.Status).To(Equal(http.StatusOK))
			g.Expect(resp.Echo).NotTo(BeNil())
			g.Expect(one.Answered(resp.Echo) || two.Answered(resp.Echo)).To(BeTrue(), "only the route's services may answer, not pod %s/%s on port %d", resp.Echo.Namespace, resp.Echo.Pod, resp.Echo.Port)
			by := two.Service
			if one.Answered(resp.Echo) {
				by = one.Service
			}
			seen[by] = true
			g.Expect(seen).To(HaveLen(2), "every service answers in turn")
		}).Should(Succeed())
	})

	// Contour v1.0.1 site/_docs_1_0/ingressroute.md, "Virtualhost
	// aliases": two roots delegating / to one vertex present its routes
	// under both hosts. IngressRoute design document, section "Reporting
	// status": "delegationStatuses is a list, because in the
	// non-orphaned case, an IngressRoute may be a part of several
	// delegation chains", each connected entry naming its parent and
	// prefix. (Contour v1.0.1 writes currentStatus and description only,
	// internal/k8s/status.go SetStatus; the document decides.)
	//
	// Document: the IngressRoute design document (Contour), section
	// "Reporting status" (delegationStatuses is a list: "an IngressRoute
	// may be a part of several delegation chains")
	// Upstream: projectcontour/contour v1.0.1
	// site/_docs_1_0/ingressroute.md ("Virtualhost aliases": two roots
	// delegating / to one vertex) and internal/dag/builder.go
	// (processIngressRoutes, once per root). v1.0.1 writes no
	// delegationStatuses (internal/k8s/status.go, CRDStatus.SetStatus):
	// the document decides
	It("a vertex two roots delegate to is served under both hosts and its status names both parents", framework.ID("delegation/shared-vertex-two-roots"), func(ctx SpecContext) {
		rootNS := f.SpecNamespace(ctx, "ir-shared-root")
		siteNS := f.SpecNamespace(ctx, "ir-shared-site")
		site := f.DeployEcho(ctx, siteNS)
		www, bare := f.Host(rootNS, "www"), f.Host(rootNS, "bare")
		f.CreateIngressRoute(ctx, vertexRoute(siteNS, "site", toService("/", site.Service)))
		f.CreateIngressRoute(ctx, rootRoute(rootNS, "www", www, delegateTo("/", "site", siteNS)))
		f.CreateIngressRoute(ctx, rootRoute(rootNS, "bare", bare, delegateTo("/", "site", siteNS)))

		f.EventuallyIngressRouteStatus(ctx, siteNS, "site", func(g Gomega, st irv1.Status) {
			expectConnected("www", rootNS, "/")(g, st)
			expectConnected("bare", rootNS, "/")(g, st)
		})
		f.EventuallyResponds(ctx, f.HTTP(www, "/page"), site.Served)
		f.EventuallyResponds(ctx, f.HTTP(bare, "/page"), site.Served)

		By("one root deleted: its host is not served, the other still is, and the status names the remaining parent only")
		f.DeleteIngressRoute(ctx, rootNS, "bare")
		f.EventuallyResponds(ctx, f.HTTP(bare, "/page"), framework.NotServed)
		f.EventuallyResponds(ctx, f.HTTP(www, "/page"), site.Served)
		f.EventuallyIngressRouteStatus(ctx, siteNS, "site", func(g Gomega, st irv1.Status) {
			expectConnected("www", rootNS, "/")(g, st)
			g.Expect(st.DelegationStatuses).NotTo(ContainElement(HaveField("State.Connected", And(Not(BeNil()), HaveField("Parent.Name", "bare")))))
		})
	})

	// IngressRoute design document, section "IngressRoute CRD": "service
	// defines the properties of the service in the current namespace";
	// each entry is a "service name/port pair". Contour v1.0.1
	// internal/dag/builder.go (lookupService) picks the Service port
	// whose number is the entry's port, and the route's upstream is
	// that port's endpoints alone. The Service here has two ports, each
	// with endpoints of its own backend, so an answer names the port
	// it came through.
	//
	// Document: the IngressRoute design document (Contour), section
	// "IngressRoute CRD" (a service name/port pair)
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (processIngressRoutes and lookupService: the Service port whose
	// number is the entry's port)
	It("a service entry's port picks that port of the Service: each of two ports reaches only its own endpoints", framework.ID("delegation/service-named-port"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "ir-ports")
		b := f.DeployEchoes(ctx, framework.EchoIn(ns, "first"), framework.EchoIn(ns, "second"))
		first, second := b[0], b[1]
		f.ServicePerBackend(ctx, ns, "pair", framework.PortTo{Port: 8080, Echo: first}, framework.PortTo{Port: 9090, Echo: second})
		host := f.Host(ns, "www")
		f.CreateIngressRoute(ctx, rootRoute(ns, "root", host, toPort("/first", "pair", 8080), toPort("/second", "pair", 9090)))
		f.EventuallyIngressRouteStatus(ctx, ns, "root", expectValid)
		f.EventuallyResponds(ctx, f.HTTP(host, "/first"), first.Served)
		f.EventuallyResponds(ctx, f.HTTP(host, "/second"), second.Served)
		servedEveryTime(ctx, f.HTTP(host, "/first"), first.Served)
		servedEveryTime(ctx, f.HTTP(host, "/second"), second.Served)

		By("the ports swapped between the routes: the traffic follows the port")
		f.UpdateIngressRoute(ctx, ns, "root", func(ir *irv1.IngressRoute) {
			ir.Spec.Routes = []irv1.Route{toPort("/first", "pair", 9090), toPort("/second", "pair", 8080)}
		})
		f.EventuallyResponds(ctx, f.HTTP(host, "/first"), second.Served)
		f.EventuallyResponds(ctx, f.HTTP(host, "/second"), first.Served)
		servedEveryTime(ctx, f.HTTP(host, "/first"), second.Served)
		servedEveryTime(ctx, f.HTTP(host, "/second"), first.Served)
	})
}
