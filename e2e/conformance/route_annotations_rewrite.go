package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// rewriteRoute is one route of the rewrite-target table: its spec.path
// and its annotation.
type rewriteRoute struct {
	name, path, target string
}

// rewriteRow is one row of the documentation's rewrite-target examples:
// the route, the request path and the path the backend gets ("" where
// the request does not match the route's path, so no route takes it).
type rewriteRow struct {
	route           rewriteRoute
	request, backed string
}

var (
	rewriteFooToRoot = rewriteRoute{"foo-root", "/foo", "/"}
	rewriteFooToBar  = rewriteRoute{"foo-bar", "/foo", "/bar"}
	rewriteFooToBaz  = rewriteRoute{"foo-baz", "/foo", "/baz"}
	rewriteDirToRoot = rewriteRoute{"dir-root", "/foo/", "/"}
	rewriteRoutes    = []rewriteRoute{rewriteFooToRoot, rewriteFooToBar, rewriteFooToBaz, rewriteDirToRoot}
	// rewriteExamples is the documentation's table, row by row.
	rewriteExamples = []rewriteRow{
		{rewriteFooToRoot, "/foo", "/"},
		{rewriteFooToRoot, "/foo/", "/"},
		{rewriteFooToRoot, "/foo/bar", "/bar"},
		{rewriteFooToRoot, "/foo/bar/", "/bar/"},
		{rewriteFooToBar, "/foo", "/bar"},
		{rewriteFooToBar, "/foo/", "/bar/"},
		{rewriteFooToBaz, "/foo/bar", "/baz/bar"},
		{rewriteFooToBaz, "/foo/bar/", "/baz/bar/"},
		{rewriteDirToRoot, "/foo", ""},
		{rewriteDirToRoot, "/foo/", "/"},
		{rewriteDirToRoot, "/foo/bar", "/bar"},
	}
)

// describeRewriteTarget: haproxy.router.openshift.io/rewrite-target.
func describeRewriteTarget(f *framework.Framework) {
	// The part of the request path that matches the route's spec.path is
	// replaced with the annotation's target before the request reaches
	// the backend: every row of the documentation's examples, on each
	// termination whose router sees the path. A request the route's path
	// does not match ("/foo" for a route at "/foo/") reaches no route:
	// the router's own 503.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table (rewrite-target), "A route specifying a
	// rewrite target" and the rewrite-target examples table
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// ($pathRewriteTargetPattern `^/.*$`; the HTTP route backend: `http-request
	// replace-path '^<path>/?(.*)$' '/\1'` for the target "/", '^<path>(.*)$'
	// '<target>\1' for any other), pkg/router/template/util/rewritetarget
	// (SanitizeInput), pkg/router/router_test.go (TestConfigTemplate:
	// "Rewrite target with root path", "non-root path")
	DescribeTable("rewrite-target replaces the matched path before the backend",
		func(ctx SpecContext, termination routev1.TLSTerminationType) {
			ns := f.SpecNamespace(ctx, "rewrite")
			backend := f.DeployEchoFor(ctx, ns, termination)
			routes := map[rewriteRoute]*routev1.Route{}
			for _, r := range rewriteRoutes {
				route := f.TerminatedRouteTo(backend, r.name, termination, "")
				route.Spec.Path = r.path
				route.Annotations = map[string]string{contract.RewriteTargetAnnotation: r.target}
				routes[r] = f.CreateRoute(ctx, route)
			}
			for _, row := range rewriteExamples {
				req := f.RequestTo(routes[row.route], backend, row.request)
				if row.backed == "" {
					By(row.route.path + " rewritten to " + row.route.target + ": " + row.request + " matches no route")
					f.EventuallyResponds(ctx, req, framework.NotServed)
					continue
				}
				By(row.route.path + " rewritten to " + row.route.target + ": " + row.request + " reaches the backend as " + row.backed)
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					g.Expect(resp.Echo.Path).To(Equal(row.backed))
				})
			}
		},
		Entry("plain HTTP", framework.ID("route-annotations/rewrite-target-http"), routev1.TLSTerminationType("")),
		Entry("edge", framework.ID("route-annotations/rewrite-target-edge"), routev1.TLSTerminationEdge),
		Entry("reencrypt", framework.ID("route-annotations/rewrite-target-reencrypt"), routev1.TLSTerminationReencrypt),
	)

	// A target that does not begin with "/" is no target: the request
	// reaches the backend with its own path. A passthrough route's router
	// never sees the path, so its annotation changes nothing. Beside each,
	// a route with the target "/bar" on the same router rewrites.
	//
	// Document: as above (the rewrite-target row of the Route annotations
	// table: the rewrite path of the request)
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (firstMatch of `^/.*$`; no rewrite in the be_tcp backend)
	DescribeTable("rewrite-target is not applied",
		func(ctx SpecContext, termination routev1.TLSTerminationType, target string) {
			ns := f.SpecNamespace(ctx, "rewrite-not")
			host := f.Host(ns, "kept")
			backend := f.DeployEchoFor(ctx, ns, termination, host)
			kept := f.TerminatedRouteTo(backend, "kept", termination, "")
			if termination != routev1.TLSTerminationPassthrough {
				kept.Spec.Path = "/foo"
			}
			kept.Annotations = map[string]string{contract.RewriteTargetAnnotation: target}
			f.CreateRoute(ctx, kept)

			By("positive control: a route at /foo with the target /bar rewrites /foo/x to /bar/x")
			control := f.TerminatedRouteTo(backend, "control", routev1.TLSTerminationEdge, "")
			control.Spec.Path = "/foo"
			control.Annotations = map[string]string{contract.RewriteTargetAnnotation: "/bar"}
			f.CreateRoute(ctx, control)
			f.EventuallyResponds(ctx, f.RequestTo(control, backend, "/foo/x"), func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				g.Expect(resp.Echo.Path).To(Equal("/bar/x"))
			})

			By("the request reaches the backend as sent: /foo/x")
			f.EventuallyResponds(ctx, f.RequestTo(kept, backend, "/foo/x"), func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				g.Expect(resp.Echo.Path).To(Equal("/foo/x"))
			})
		},
		Entry("plain HTTP, a target without a leading /", framework.ID("route-annotations/rewrite-target-relative-ignored"), routev1.TLSTerminationType(""), "bar"),
		Entry("passthrough, the target /", framework.ID("route-annotations/rewrite-target-passthrough-ignored"), routev1.TLSTerminationPassthrough, "/"),
	)
}
