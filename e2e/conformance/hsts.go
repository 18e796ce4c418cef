package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
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
	header      string
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
				backend := f.DeployEcho(ctx, ns, host)
				route := f.TerminatedRouteTo(backend, name, c.termination, c.insecure)
				route.Annotations = map[string]string{contract.HSTSAnnotation: c.annotation}
				f.CreateRoute(ctx, route)
				req := f.HTTPS(host, "/")
				if c.overHTTP {
					req = f.HTTP(host, "/")
				}
				if c.termination == routev1.TLSTerminationPassthrough {
					req.RootCAs = pki.Pool(backend.CA)
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
			Entry("directives in any case, spaces around ; and =", framework.ID("hsts/case-and-spaces-kept"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "MAX-AGE = 600 ; INCLUDESUBDOMAINS", header: "MAX-AGE = 600 ; INCLUDESUBDOMAINS"}),
			Entry("quoted max-age", framework.ID("hsts/quoted-max-age"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: `max-age="600"`, header: `max-age="600"`}),
			Entry("directives before max-age", framework.ID("hsts/directives-before-max-age"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "preload;max-age=600", header: "preload;max-age=600"}),
			Entry("max-age=0 (removes the host from HSTS)", framework.ID("hsts/max-age-zero"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "max-age=0", header: "max-age=0"}),
			Entry("no max-age: no header", framework.ID("hsts/no-max-age-no-header"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "includeSubDomains;preload"}),
			Entry("an unknown directive: no header", framework.ID("hsts/unknown-directive-no-header"), hstsCase{termination: routev1.TLSTerminationEdge, annotation: "max-age=600;always"}),
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
	})
}
