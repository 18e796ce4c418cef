package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// Route paths: a route's spec.path is matched against the request's path
// on a segment boundary, and a path holding blanks is written safely into
// the router's configuration.
func describeRoutePaths(f *framework.Framework) {
	Describe("route paths", func() {
		// Three routes of one host: at "/", "/sub" and "/dir/". A path
		// without a trailing slash matches itself and what lies under it
		// ("/sub", "/sub/x"), never a longer segment ("/subpar"); a path
		// ending in "/" matches only below it, so "/dir" goes to the
		// route at "/". Each route has its own backend, so every answer
		// names the route that took it.
		//
		// Document: none (the Route API: spec.path, openshift/api route/v1
		// types.go: "path that the router watches for, to route traffic for
		// to the service")
		// Upstream: openshift/router pkg/router/template/util/util.go
		// (GenerateRouteRegexp: `(/.*)?` after a path without a trailing
		// slash, `(.*)?` after one with it, "/" matching everything) and
		// util_test.go (TestGenerateRouteRegexp: "subpath with trailing
		// slash", "path segment boundary"), pkg/router/template/util/map_paths.go
		// (SortMapPaths: a host's longer path first)
		It("match on a segment boundary: /sub takes /sub and /sub/x, not /subpar; /dir/ does not take /dir", framework.ID("router/path-segment-boundary"), func(ctx SpecContext) {
			ns := f.SpecNamespace(ctx, "path-segments")
			host := f.Host(ns, "r")
			backends := f.DeployEchoes(ctx, framework.EchoIn(ns, "root"), framework.EchoIn(ns, "sub"), framework.EchoIn(ns, "dir"))
			root, sub, dir := backends[0], backends[1], backends[2]
			f.CreateRoute(ctx, hostRoute(f, root, "root", host, "/"))
			f.CreateRoute(ctx, hostRoute(f, sub, "sub", host, "/sub"))
			f.CreateRoute(ctx, hostRoute(f, dir, "dir", host, "/dir/"))

			for i, p := range []struct {
				path string
				want *framework.Echo
			}{
				{"/sub/x", sub}, {"/sub", sub}, {"/dir/x", dir}, {"/dir/", dir},
				{"/subpar", root}, {"/sub.x", root}, {"/dir", root}, {"/other", root},
			} {
				label := p.path + ": the route at " + map[*framework.Echo]string{root: "/", sub: "/sub", dir: "/dir/"}[p.want]
				if i == 0 {
					label = "positive control: " + label
				}
				By(label)
				f.EventuallyResponds(ctx, f.HTTP(host, p.path), func(g Gomega, resp *httpclient.Response) {
					p.want.Served(g, resp)
					g.Expect(resp.Echo.Path).To(Equal(p.path))
				})
			}
		})

		// A route whose path holds a blank other than a space (route
		// validation refuses a space or "#": library-go
		// pkg/route/validation/validation.go, validatePath) is admitted,
		// and the router keeps loading its configuration: a route created
		// before it and one created after it (which only a configuration written after
		// the blank route entered it can serve) are both served. Its own
		// path cannot be asked for: a blank is not allowed in an HTTP/1.1
		// request line (the router answers 400), and the percent-encoded
		// form does not match it (both routers compare the path as sent).
		//
		// Document: none (the Route API: spec.path, openshift/api route/v1
		// types.go; its CRD asks only that it begin with "/")
		// Upstream: openshift/router pkg/router/template/util/util.go
		// (GenerateRouteRegexp: space, tab, CR and LF written as \x20, \t,
		// \r, \n in the map entries, rhbz#2074304, openshift/router#381) and
		// util/haproxy/map_entry_test.go (TestGenerateHttpRedirectMapEntry,
		// "host with path with a space, tab, CR, LF")
		DescribeTable("a path holding a blank",
			func(ctx SpecContext, path string) {
				ns := f.SpecNamespace(ctx, "path-blank")
				backends := f.DeployEchoes(ctx, framework.EchoIn(ns, "before"), framework.EchoIn(ns, "blank"), framework.EchoIn(ns, "after"))
				before, blank, after := backends[0], backends[1], backends[2]
				beforeRoute := f.CreateRoute(ctx, f.RouteTo(before, "before", framework.EchoHTTPPort))
				By("positive control: a route created before it is served")
				f.EventuallyResponds(ctx, f.HTTP(beforeRoute.Spec.Host, "/"), before.Served)

				By("the route with the blank in its path is admitted")
				blankRoute := f.RouteTo(blank, "blank", framework.EchoHTTPPort)
				blankRoute.Spec.Path = path
				f.CreateRoute(ctx, blankRoute)

				By("a route created after it is served, and the one before still is")
				afterRoute := f.CreateRoute(ctx, f.RouteTo(after, "after", framework.EchoHTTPPort))
				f.EventuallyResponds(ctx, f.HTTP(afterRoute.Spec.Host, "/"), after.Served)
				f.EventuallyResponds(ctx, f.HTTP(beforeRoute.Spec.Host, "/"), before.Served)
			},
			Entry("a tab", framework.ID("router/path-with-tab"), "/a\tb"),
		)
	})
}
