package conformance

import (
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
)

// publicCacheControl is what the backend answers in the session cookie
// specs: a response any cache may keep, which the router's cookie makes
// private.
const publicCacheControl = "max-age=7200, must-revalidate, public"

// cookieCase is one route of the session cookie specs: its termination
// and insecure policy, the frontend the request goes through (every one
// reaches the same route backend, where the cookie is inserted), the
// disable_cookies annotation ("" none), the cookie_name annotation and
// the name it gives ("" for the route's default name), and the Set-Cookie
// attributes expected after the value ("" for no cookie at all).
type cookieCase struct {
	termination routev1.TLSTerminationType
	insecure    routev1.InsecureEdgeTerminationPolicyType
	over        frontendPath
	disable     string
	cookieName  string
	named       string
	attributes  string
}

// cacheControlCase is one route of the Cache-Control action specs: its
// termination, the frontend the request goes through, the value its
// response action sets, whether cookies are disabled, and the
// Cache-Control values the client gets, in order.
type cacheControlCase struct {
	termination routev1.TLSTerminationType
	over        frontendPath
	set         string
	disable     bool
	want        []string
}

// describeSessionCookie: the router's session cookie, and the
// Cache-Control: private it adds with it, against a backend's public one
// (default IngressController).
func describeSessionCookie(f *framework.Framework) {
	// A route's backend inserts a session cookie on an answer to a client
	// that sent none: named after the route (the hex md5 of
	// " <namespace>:<name>" without a cookie_name annotation), with
	// HAProxy's path=/, HttpOnly, and Secure with SameSite=None on edge
	// and reencrypt routes that do not allow plain HTTP. HAProxy's nocache adds Cache-Control: private
	// to that answer beside the backend's public value; both reach the
	// client. disable_cookies=true leaves both out: the backend's value
	// alone, beside the positive control of the same route without the
	// annotation on the same router. A passthrough route has no cookie:
	// its backend is TCP and the router never sees the answer.
	//
	// Document: the HTTP header actions enhancement, section "Can we
	// please make sure to only add the `cache-control: private` header if
	// there is no `cache-control: public` header already present in the
	// response?"
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (the route backend, unless isTrue of the
	// haproxy.router.openshift.io/disable_cookies annotation: `cookie
	// <router.openshift.io/cookie_name, ROUTER_COOKIE_NAME or
	// $cfg.RoutingKeyName> insert indirect nocache httponly`, plus `secure
	// attr SameSite=<router.openshift.io/cookie-same-site, else None>` for
	// edge and reencrypt without insecureEdgeTerminationPolicy Allow; each
	// server's `cookie <IdHash>`; no cookie in the passthrough be_tcp
	// backends) and pkg/router/template/router.go
	// (createServiceAliasConfig: RoutingKeyName, the md5 of "<termination>
	// <namespace>:<name>" taken before the termination is set)
	DescribeTable("inserts its session cookie with Cache-Control: private beside the backend's public value, unless cookies are disabled",
		func(ctx SpecContext, c cookieCase) {
			ic := f.DefaultIngressController()
			ns := f.SpecNamespaceWithLabels(ctx, "cookies", ic.NamespaceLabels)
			backend := f.DeployEchoFor(ctx, ns, c.termination)
			route := f.TerminatedRouteTo(backend, "cookies", c.termination, c.insecure)
			if c.disable != "" {
				route.Annotations = map[string]string{contract.DisableCookiesAnnotation: c.disable}
				By("positive control: the same route without the annotation gets its cookie and private")
				control := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "cookies-control", c.termination, c.insecure))
				expectSessionCookie(ctx, f, c.over.request(ic, control.Spec.Host), backend, control, []string{publicCacheControl, "private"})
			}
			name := contract.DefaultCookieName(route.Namespace, route.Name)
			if c.cookieName != "" {
				route.Annotations = map[string]string{contract.CookieNameAnnotation: c.cookieName}
				if c.named != "" {
					name = c.named
					By("positive control: the same route without the annotation gets its default name")
					control := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "cookies-control", c.termination, c.insecure))
					expectSessionCookie(ctx, f, c.over.request(ic, control.Spec.Host), backend, control, []string{publicCacheControl, "private"})
				}
			}
			f.CreateRoute(ctx, route)
			req := framework.WithHeader(c.over.request(ic, route.Spec.Host), echo.SetResponseHeader, "Cache-Control: "+publicCacheControl)
			cookie := regexp.MustCompile("^" + regexp.QuoteMeta(name) + "=[^;]+" + regexp.QuoteMeta(c.attributes) + "$")
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				if c.attributes == "" {
					g.Expect(resp.Header.Values("Set-Cookie")).To(BeEmpty(), "Set-Cookie")
					g.Expect(resp.Header.Values("Cache-Control")).To(Equal([]string{publicCacheControl}), "Cache-Control")
					return
				}
				g.Expect(resp.Header.Values("Set-Cookie")).To(HaveExactElements(MatchRegexp(cookie.String())), "Set-Cookie")
				g.Expect(resp.Header.Values("Cache-Control")).To(Equal([]string{publicCacheControl, "private"}), "Cache-Control")
			})
		},
		Entry("edge", framework.ID("header-actions/session-cookie-private-edge"),
			cookieCase{termination: routev1.TLSTerminationEdge, over: overFeSNI, attributes: "; path=/; HttpOnly; Secure; SameSite=None"}),
		Entry("reencrypt", framework.ID("header-actions/session-cookie-private-reencrypt"),
			cookieCase{termination: routev1.TLSTerminationReencrypt, over: overFeSNI, attributes: "; path=/; HttpOnly; Secure; SameSite=None"}),
		Entry("edge, without SNI", framework.ID("header-actions/session-cookie-private-edge-no-sni"),
			cookieCase{termination: routev1.TLSTerminationEdge, over: overFeNoSNI, attributes: "; path=/; HttpOnly; Secure; SameSite=None"}),
		Entry("reencrypt, without SNI", framework.ID("header-actions/session-cookie-private-reencrypt-no-sni"),
			cookieCase{termination: routev1.TLSTerminationReencrypt, over: overFeNoSNI, attributes: "; path=/; HttpOnly; Secure; SameSite=None"}),
		Entry("plain HTTP", framework.ID("header-actions/session-cookie-private-over-http"),
			cookieCase{over: overPublic, attributes: "; path=/; HttpOnly"}),
		// Allow: the same backend serves plain HTTP, so the cookie is
		// neither Secure nor SameSite.
		Entry("edge with insecureEdgeTerminationPolicy Allow, over plain HTTP", framework.ID("header-actions/session-cookie-private-edge-allow-over-http"),
			cookieCase{termination: routev1.TLSTerminationEdge, insecure: routev1.InsecureEdgeTerminationPolicyAllow, over: overPublic, attributes: "; path=/; HttpOnly"}),
		Entry("edge, cookies disabled", framework.ID("header-actions/session-cookie-disabled-edge"),
			cookieCase{termination: routev1.TLSTerminationEdge, over: overFeSNI, disable: "true"}),
		Entry("reencrypt, cookies disabled", framework.ID("header-actions/session-cookie-disabled-reencrypt"),
			cookieCase{termination: routev1.TLSTerminationReencrypt, over: overFeSNI, disable: "true"}),
		Entry("edge, cookies disabled, without SNI", framework.ID("header-actions/session-cookie-disabled-edge-no-sni"),
			cookieCase{termination: routev1.TLSTerminationEdge, over: overFeNoSNI, disable: "true"}),
		Entry("plain HTTP, cookies disabled", framework.ID("header-actions/session-cookie-disabled-over-http"),
			cookieCase{over: overPublic, disable: "true"}),
		// router.openshift.io/cookie_name names the cookie when it is a
		// token of [a-zA-Z0-9_-] (the template's firstMatch), else the
		// route keeps its default name.
		Entry("edge, cookie_name", framework.ID("header-actions/session-cookie-named-edge"),
			cookieCase{termination: routev1.TLSTerminationEdge, over: overFeSNI, cookieName: "sticky_Session-1", named: "sticky_Session-1", attributes: "; path=/; HttpOnly; Secure; SameSite=None"}),
		Entry("plain HTTP, cookie_name", framework.ID("header-actions/session-cookie-named-over-http"),
			cookieCase{over: overPublic, cookieName: "sticky_Session-1", named: "sticky_Session-1", attributes: "; path=/; HttpOnly"}),
		Entry("edge, cookie_name not a token: the default name", framework.ID("header-actions/session-cookie-name-invalid-edge"),
			cookieCase{termination: routev1.TLSTerminationEdge, over: overFeSNI, cookieName: "not a token!", attributes: "; path=/; HttpOnly; Secure; SameSite=None"}),
		// The backend answers the client itself, over its own TLS.
		Entry("passthrough: no cookie", framework.ID("header-actions/session-cookie-none-passthrough"),
			cookieCase{termination: routev1.TLSTerminationPassthrough, over: overFeSNI}),
	)

	// A route's response action on Cache-Control does not override the
	// cookie's private: HAProxy runs the http-response rules (the route
	// backend's, then the frontend's) before it inserts the server
	// cookie, and nocache then adds Cache-Control: private to an answer
	// that is still cacheable. A cacheable value set by the action gets
	// private after it; an uncacheable one (no-store) gets none;
	// disable_cookies leaves the action's value alone (the control). The
	// backend's public value is what the action replaces.
	//
	// Document: the HTTP header actions enhancement, sections "How do
	// Route headers interact with IngressController headers of the same
	// value?" and "Does a custom header value defined in RouteSpec
	// override the route annotation ?" (upstream does otherwise for the
	// session cookie's Cache-Control)
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (the route backend: its .Route.Spec.HTTPHeaders.Actions.Response
	// `http-response set-header`, and `cookie ... insert indirect nocache
	// httponly` unless haproxy.router.openshift.io/disable_cookies);
	// HAProxy's http_process_res_common (the http-response rules, then
	// the server cookie; nocache adds "Cache-control: private" to a
	// cacheable answer, http_check_response_for_cacheability)
	DescribeTable("add the cookie's Cache-Control: private after a route's cacheable Cache-Control action",
		func(ctx SpecContext, c cacheControlCase) {
			ic := f.DefaultIngressController()
			ns := f.SpecNamespaceWithLabels(ctx, "cache-control", ic.NamespaceLabels)
			backend := f.DeployEchoFor(ctx, ns, c.termination)
			route := f.TerminatedRouteTo(backend, "cache-control", c.termination, "")
			route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{
				Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("Cache-Control", c.set)},
			}}
			if c.disable {
				By("positive control: the same route without the annotation gets its cookie and private")
				control := route.DeepCopy()
				control.Name, control.Spec.Host = "cache-control-on", f.Host(ns, "cache-control-on")
				f.CreateRoute(ctx, control)
				expectSessionCookie(ctx, f, c.over.request(ic, control.Spec.Host), backend, control, []string{c.set, "private"})
				route.Annotations = map[string]string{contract.DisableCookiesAnnotation: "true"}
			}
			f.CreateRoute(ctx, route)
			req := framework.WithHeader(c.over.request(ic, route.Spec.Host), echo.SetResponseHeader, "Cache-Control: "+publicCacheControl)
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				cookies := HaveLen(1)
				if c.disable {
					cookies = BeEmpty()
				}
				g.Expect(resp.Header.Values("Set-Cookie")).To(cookies, "Set-Cookie")
				g.Expect(resp.Header.Values("Cache-Control")).To(Equal(c.want), "Cache-Control")
			})
		},
		Entry("edge", framework.ID("header-actions/route-cache-control-then-cookie-private-edge"),
			cacheControlCase{termination: routev1.TLSTerminationEdge, over: overFeSNI, set: "max-age=60", want: []string{"max-age=60", "private"}}),
		Entry("reencrypt", framework.ID("header-actions/route-cache-control-then-cookie-private-reencrypt"),
			cacheControlCase{termination: routev1.TLSTerminationReencrypt, over: overFeSNI, set: "max-age=60", want: []string{"max-age=60", "private"}}),
		Entry("edge, without SNI", framework.ID("header-actions/route-cache-control-then-cookie-private-edge-no-sni"),
			cacheControlCase{termination: routev1.TLSTerminationEdge, over: overFeNoSNI, set: "max-age=60", want: []string{"max-age=60", "private"}}),
		Entry("plain HTTP", framework.ID("header-actions/route-cache-control-then-cookie-private-over-http"),
			cacheControlCase{over: overPublic, set: "max-age=60", want: []string{"max-age=60", "private"}}),
		Entry("edge, an uncacheable value: no private", framework.ID("header-actions/route-cache-control-no-store-no-cookie-private"),
			cacheControlCase{termination: routev1.TLSTerminationEdge, over: overFeSNI, set: "no-store", want: []string{"no-store"}}),
		Entry("edge, cookies disabled", framework.ID("header-actions/route-cache-control-cookies-disabled"),
			cacheControlCase{termination: routev1.TLSTerminationEdge, over: overFeSNI, set: "max-age=60", disable: true, want: []string{"max-age=60"}}),
	)
}

// expectSessionCookie: route answers req (the backend asked to send
// Cache-Control: public) with one session cookie of its own name and
// Cache-Control want: the positive control beside a route whose cookies
// are disabled, on the same router.
func expectSessionCookie(ctx SpecContext, f *framework.Framework, req httpclient.Request, backend *framework.Echo, route *routev1.Route, want []string) {
	GinkgoHelper()
	req = framework.WithHeader(req, echo.SetResponseHeader, "Cache-Control: "+publicCacheControl)
	name := contract.DefaultCookieName(route.Namespace, route.Name)
	f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
		backend.Served(g, resp)
		g.Expect(resp.Header.Values("Set-Cookie")).To(HaveExactElements(HavePrefix(name+"=")), "Set-Cookie")
		g.Expect(resp.Header.Values("Cache-Control")).To(Equal(want), "Cache-Control")
	})
}
