package conformance

import (
	"encoding/base64"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
	"github.com/router-conformance/suite/pki"
)

// describeIngressControllerActions: the IngressController's actions on
// its own routes (a shard each), and the refusal of Host.
func describeIngressControllerActions(f *framework.Framework) {
	// Document: the HTTP header actions enhancement, sections "Goals"
	// (1, 2 and 8), "How do Route headers interact with
	// IngressController headers of the same value?" and
	// "Implementation Details/Notes/Constraints" (A: the fe_sni and
	// fe_no_sni frontends, for edge and reencrypt routes)
	// Upstream: cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (headerValues:
	// ROUTER_HTTP_REQUEST_HEADERS, ROUTER_HTTP_RESPONSE_HEADERS),
	// openshift/router pkg/cmd/infra/router/template.go (the
	// set-delete-http-request/response-header flags) and
	// images/router/haproxy/conf/haproxy-config.template (frontends
	// public, fe_sni and fe_no_sni: .HTTPRequestHeaders and
	// .HTTPResponseHeaders; the route backend's own, be_edge_http or
	// be_secure, after the frontend's for requests and before it for
	// responses)
	Describe("come first in requests and last in responses, so the route wins requests and the IngressController responses; an IngressController Delete no route action touches holds", f.SharedIngressControllerDecorator(), func() {
		own := f.SharedIngressController(func(ic *operatorv1.IngressController) {
			ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
				Request: []operatorv1.IngressControllerHTTPHeader{
					framework.IngressControllerSetHeader("X-Both", "from-ingresscontroller"),
					framework.IngressControllerSetHeader("X-IC-Set", "ic"),
					framework.IngressControllerSetHeader("X-Set-Then-Delete", "ic"),
					framework.IngressControllerDeleteHeader("X-Delete-Then-Set"),
					framework.IngressControllerDeleteHeader("X-IC-Delete"),
					framework.IngressControllerSetHeader("X-Host-Lower", "%[req.hdr(host),lower]"),
				},
				Response: []operatorv1.IngressControllerHTTPHeader{
					framework.IngressControllerSetHeader("X-Both", "from-ingresscontroller"),
					framework.IngressControllerDeleteHeader("X-Backend-Leak"),
					framework.IngressControllerSetHeader("Cache-Control", "max-age=60"),
				},
			}}
		})
		DescribeTable("for a route of each TLS termination",
			func(ctx SpecContext, termination routev1.TLSTerminationType) {
				req, backend := routeWithHeaders(ctx, f, own, "headers-ic", termination, routev1.RouteHTTPHeaderActions{
					Request: []routev1.RouteHTTPHeader{
						framework.RouteSetHeader("X-Both", "from-route"),
						framework.RouteDeleteHeader("X-Set-Then-Delete"),
						framework.RouteSetHeader("X-Delete-Then-Set", "route"),
					},
					Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-Both", "from-route")},
				})
				req = framework.WithHeader(req, "X-Delete-Then-Set", "from-client")
				// Deleted by the IngressController alone: no route
				// action names it.
				req = framework.WithHeader(req, "X-IC-Delete", "from-client")
				req = framework.WithHeader(req, "X-Client-Kept", "from-client")
				req = framework.WithHeader(req, echo.SetResponseHeader, "X-Backend-Leak: internal")
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					servedOver(g, backend, resp, termination)
					framework.HeaderExpectations{
						"X-Both":            {"from-route"},
						"X-Ic-Set":          {"ic"},
						"X-Set-Then-Delete": nil,
						"X-Delete-Then-Set": {"route"},
						"X-Host-Lower":      {strings.ToLower(req.Host)},
						"X-Ic-Delete":       nil,
						// The positive control of X-IC-Delete: another
						// header the client sent arrives.
						"X-Client-Kept": {"from-client"},
					}.Check(g, http.Header(resp.Echo.Headers), "the backend")
					framework.HeaderExpectations{
						"X-Both":         {"from-ingresscontroller"},
						"X-Backend-Leak": nil,
					}.Check(g, resp.Header, "the client")
				})
			},
			Entry("edge", framework.ID("header-actions/ingresscontroller-precedence"), routev1.TLSTerminationEdge),
			Entry("reencrypt", framework.ID("header-actions/ingresscontroller-precedence-reencrypt"), routev1.TLSTerminationReencrypt),
		)

		// The IngressController's Cache-Control replaces the route's
		// (no-store, which alone would keep the cookie's private away,
		// as header-actions/route-cache-control-no-store-no-cookie-private
		// shows), and the session cookie's private still comes after it:
		// the frontend's http-response rules run before HAProxy inserts
		// the server cookie (describeSessionCookie has the upstream
		// lines).
		DescribeTable("are followed by the session cookie's Cache-Control: private",
			func(ctx SpecContext, termination routev1.TLSTerminationType) {
				req, backend := routeWithHeaders(ctx, f, own, "cache-control-ic", termination, routev1.RouteHTTPHeaderActions{
					Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("Cache-Control", "no-store")},
				})
				req = framework.WithHeader(req, echo.SetResponseHeader, "Cache-Control: public")
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					servedOver(g, backend, resp, termination)
					g.Expect(resp.Header.Values("Set-Cookie")).To(HaveLen(1), "Set-Cookie")
					g.Expect(resp.Header.Values("Cache-Control")).To(Equal([]string{"max-age=60", "private"}), "Cache-Control")
				})
			},
			Entry("edge", framework.ID("header-actions/ingresscontroller-cache-control-then-cookie-private"), routev1.TLSTerminationEdge),
			Entry("reencrypt", framework.ID("header-actions/ingresscontroller-cache-control-then-cookie-private-reencrypt"), routev1.TLSTerminationReencrypt),
		)
	})

	// cluster-ingress-operator test/e2e/set_delete_test.go,
	// TestSetIngressControllerResponseHeaders: the public frontend
	// applies them to plain HTTP routes too.
	//
	// Document: the HTTP header actions enhancement, sections "Goals"
	// (1 and 2: for all routes) and "Can we use conditional values for
	// headers?"
	// Upstream: cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (headerValues) and
	// openshift/router images/router/haproxy/conf/haproxy-config.template
	// (frontend public: .HTTPRequestHeaders and .HTTPResponseHeaders)
	It("apply to a plain HTTP route", framework.ID("header-actions/ingresscontroller-plain-http"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
		own := f.OwnIngressController(ctx, func(ic *operatorv1.IngressController) {
			ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
				Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Frame-Options", "DENY")},
				Request:  []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Condition", "foo if bar")},
			}}
		})
		ns := f.SpecNamespaceWithLabels(ctx, "headers-ic-http", own.NamespaceLabels)
		backend := f.DeployEcho(ctx, ns)
		route := f.CreateRoute(ctx, f.RouteTo(backend, "plain", framework.EchoHTTPPort))
		f.EventuallyResponds(ctx, own.HTTP(route.Spec.Host, "/"), func(g Gomega, resp *httpclient.Response) {
			backend.Served(g, resp)
			framework.HeaderExpectations{"X-Condition": {"foo if bar"}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
			framework.HeaderExpectations{"X-Frame-Options": {"DENY"}}.Check(g, resp.Header, "the client")
		})
	})

	// The IngressController's actions live in fe_sni and fe_no_sni,
	// which a passthrough route's connection never reaches: public_ssl
	// hands it to the route's TCP backend still encrypted.
	//
	// Document: the HTTP header actions enhancement, sections "API
	// Extensions" (IngressControllerHTTPHeaders.actions: "Headers
	// cannot be set or deleted for TLS passthrough connections"),
	// "Non-Goals" (4) and "Why don't you set/delete the headers on
	// frontend public_ssl in the haproxy.config?"
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (frontend public_ssl: os_sni_passthrough.map and os_tcp_be.map to
	// be_tcp before be_sni/be_no_sni; .HTTPRequestHeaders and
	// .HTTPResponseHeaders in public, fe_sni and fe_no_sni only)
	It("are not applied to a passthrough route", framework.ID("header-actions/ingresscontroller-passthrough-not-applied"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
		own := f.OwnIngressController(ctx, func(ic *operatorv1.IngressController) {
			ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
				Request: []operatorv1.IngressControllerHTTPHeader{
					framework.IngressControllerSetHeader("X-IC-Request", "ic"),
					framework.IngressControllerDeleteHeader("X-Client-Sent"),
				},
				Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-IC-Response", "ic")},
			}}
		})
		ns := f.SpecNamespaceWithLabels(ctx, "headers-ic-passthrough", own.NamespaceLabels)
		passthroughHost := f.Host(ns, "passthrough")
		// The passthrough route's host is on the backend's own certificate.
		backend := f.DeployTLSEcho(ctx, ns, passthroughHost)
		edge := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "edge", routev1.TLSTerminationEdge, ""))
		f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "passthrough", routev1.TLSTerminationPassthrough, ""))

		By("positive control: an edge route of the same IngressController gets its actions")
		f.EventuallyResponds(ctx, framework.WithHeader(own.HTTPS(edge.Spec.Host, "/"), "X-Client-Sent", "from-client"), func(g Gomega, resp *httpclient.Response) {
			backend.Served(g, resp)
			framework.HeaderExpectations{"X-Ic-Request": {"ic"}, "X-Client-Sent": nil}.Check(g, http.Header(resp.Echo.Headers), "the backend")
			framework.HeaderExpectations{"X-Ic-Response": {"ic"}}.Check(g, resp.Header, "the client")
		})

		By("the passthrough route's backend terminates TLS and sees the request as the client sent it")
		req := framework.WithHeader(own.HTTPS(passthroughHost, "/"), "X-Client-Sent", "from-client")
		req.RootCAs = pki.Pool(backend.CA)
		f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
			backend.Served(g, resp)
			g.Expect(resp.Echo.Listener).To(Equal("https"), "the listener the passthrough route reached")
			g.Expect(resp.Echo.TLS.ServerName).To(Equal(passthroughHost), "the backend's TLS saw the client's SNI")
			framework.HeaderExpectations{"X-Ic-Request": nil, "X-Client-Sent": {"from-client"}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
			framework.HeaderExpectations{"X-Ic-Response": nil}.Check(g, resp.Header, "the client")
		})
	})

	// The document's own example: x-forwarded-client-cert set from
	// the client certificate, the router's x-ssl-client-der deleted.
	// The IngressController's actions run after the X-SSL* headers
	// that mutual TLS adds, so its Delete removes the router's own.
	// (The example writes `action: Set`; the API's shape is
	// action.type with action.set.value.)
	//
	// Document: the HTTP header actions enhancement, sections "Will
	// this enhancement cover setting or deleting request headers in
	// addition to response headers?" (the x-ssl-client-der to
	// x-forwarded-client-cert migration) and "X-SSL"
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (fe_sni and fe_no_sni: with ROUTER_MUTUAL_TLS_AUTH, `http-request
	// set-header X-SSL-Client-DER %{+Q}[ssl_c_der,base64]` and the other
	// X-SSL* lines, then .HTTPRequestHeaders) and cluster-ingress-operator
	// pkg/operator/controller/ingress/deployment.go (headerValues)
	It("replace the router's X-SSL-Client-DER with X-Forwarded-Client-Cert, as the document's migration example", framework.ID("header-actions/ingresscontroller-client-der-migration"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
		jig := framework.NewClientTLSJig(ctx, f, "headers-ic-mtls")
		ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "header actions CA " + jig.Namespace}})
		Expect(err).NotTo(HaveOccurred())
		leaf, err := ca.IssueClient(pki.ClientOptions{Subject: pki.Subject{Organization: "Example", CommonName: "client"}})
		Expect(err).NotTo(HaveOccurred())
		cert, err := leaf.TLSCertificate()
		Expect(err).NotTo(HaveOccurred())
		caMap := jig.ClientCAMap(ctx, "client-ca-"+jig.Namespace, string(ca.CertPEM))
		jig.Configure(ctx, func(ic *operatorv1.IngressController) {
			ic.Spec.ClientTLS = operatorv1.ClientTLS{ClientCertificatePolicy: operatorv1.ClientCertificatePolicyRequired, ClientCA: configv1.ConfigMapNameReference{Name: caMap}}
			ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
				Request: []operatorv1.IngressControllerHTTPHeader{
					framework.IngressControllerSetHeader("x-forwarded-client-cert", "%{+Q}[ssl_c_der,base64]"),
					framework.IngressControllerDeleteHeader("x-ssl-client-der"),
				},
			}}
		})
		backend := f.DeployEcho(ctx, jig.Namespace)
		route := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "mtls", routev1.TLSTerminationEdge, ""))
		f.EventuallyResponds(ctx, framework.WithCert(jig.IC.HTTPS(route.Spec.Host, "/"), &cert), func(g Gomega, resp *httpclient.Response) {
			backend.Served(g, resp)
			framework.HeaderExpectations{
				"X-Forwarded-Client-Cert": {base64.StdEncoding.EncodeToString(leaf.Cert.Raw)},
				"X-Ssl-Client-Der":        nil,
				// The positive control of the Delete: the router's
				// other X-SSL* headers arrive.
				"X-Ssl-Client-Dn": {"/O=Example/CN=client"},
			}.Check(g, http.Header(resp.Echo.Headers), "the backend")
		})
	})

	// A dry run: the refusal is the API's, and nothing of the default
	// IngressController changes even if it were admitted. The
	// refusal is asserted once (a conflict with the operator's
	// status writes is read again, nothing else).
	//
	// Document: the HTTP header actions enhancement, sections "Host"
	// and "Why is it okay to still allow the host header on the
	// route?"
	// Upstream: openshift/api operator/v1/types_ingresscontroller.go
	// (IngressControllerHTTPHeader's CEL rule: "host header may not be
	// modified via header actions") and openshift/library-go
	// pkg/route/validation/validation.go (validateHeaders: Host is not
	// in notAllowedHTTPHeaders)
	It("refuses Host on the IngressController, while a route may set it", framework.ID("header-actions/ingresscontroller-refuse-host"), framework.JudgesPlatform, func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "headers-ic-host")
		By("positive control: a route may set Host")
		r := f.RouteTo(&framework.Echo{Namespace: ns, Service: "echo"}, "host", framework.EchoHTTPPort)
		r.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("Host", "other.example")}}}
		_, err := f.Routes.RouteV1().Routes(ns).Create(ctx, r, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())

		ics := framework.DryRun[*operatorv1.IngressController]{Client: f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace)}
		_, err = framework.Update(ctx, ics, contract.DefaultIngressController, func(ic *operatorv1.IngressController) {
			ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
				Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("Host", "other.example")},
			}}
		})
		framework.ExpectRefusal(Default, err, contract.IngressControllerHostHeaderDenied)
	})
}

// describeIngressControllerListOrder: the IngressController's own list
// order, over each frontend.
func describeIngressControllerListOrder(f *framework.Framework) {
	// The IngressController's list order: names are unique within a list (a
	// second action on one header is refused: the CRD keys the list by name),
	// so, as the route's list-order specs do, the order shows where a later
	// action reads what an earlier one changed: a copy (a dynamic value) of a
	// header the same list deletes, before the delete and after it (then set,
	// empty), in the request list and in the response list, in the frontend
	// the path reaches.
	//
	// Document: the HTTP header actions enhancement, sections "API Extensions"
	// (IngressControllerHTTPHeaderActions: the actions "will be performed on
	// the headers in sequence as defined in the list") and "Implementation
	// Details/Notes/Constraints" (A: the frontends public, fe_sni and
	// fe_no_sni)
	// Upstream: cluster-ingress-operator pkg/operator/controller/ingress/deployment.go
	// (headerValues: the actions joined in list order into
	// ROUTER_HTTP_REQUEST_HEADERS and ROUTER_HTTP_RESPONSE_HEADERS),
	// openshift/router pkg/cmd/infra/router/template.go (parsing them in
	// order) and images/router/haproxy/conf/haproxy-config.template (frontends
	// public, fe_sni and fe_no_sni: set-header and del-header lines in the
	// order of .HTTPRequestHeaders and .HTTPResponseHeaders)
	Describe("apply in list order", f.SharedIngressControllerDecorator(), func() {
		own := f.SharedIngressController(func(ic *operatorv1.IngressController) {
			ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
				Request: []operatorv1.IngressControllerHTTPHeader{
					framework.IngressControllerSetHeader("X-Copy-Before", "%[req.hdr(X-Orig-Before)]"),
					framework.IngressControllerDeleteHeader("X-Orig-Before"),
					framework.IngressControllerDeleteHeader("X-Orig-After"),
					framework.IngressControllerSetHeader("X-Copy-After", "%[req.hdr(X-Orig-After)]"),
				},
				Response: []operatorv1.IngressControllerHTTPHeader{
					framework.IngressControllerSetHeader("X-Copy-Before", "%[res.hdr(X-Orig-Before)]"),
					framework.IngressControllerDeleteHeader("X-Orig-Before"),
					framework.IngressControllerDeleteHeader("X-Orig-After"),
					framework.IngressControllerSetHeader("X-Copy-After", "%[res.hdr(X-Orig-After)]"),
				},
			}}
		})
		DescribeTable("in the frontend a request reaches",
			func(ctx SpecContext, path frontendPath) {
				req, backend := path.routeOver(ctx, f, own, "headers-ic-order", "order")
				req = framework.WithHeader(req, "X-Orig-Before", "from-client-before")
				req = framework.WithHeader(req, "X-Orig-After", "from-client-after")
				req = framework.WithHeader(req, echo.SetResponseHeader, "X-Orig-Before: from-backend-before")
				req = framework.WithHeader(req, echo.SetResponseHeader, "X-Orig-After: from-backend-after")
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					framework.HeaderExpectations{
						"X-Copy-Before": {"from-client-before"}, "X-Orig-Before": nil,
						"X-Copy-After": {""}, "X-Orig-After": nil,
					}.Check(g, http.Header(resp.Echo.Headers), "the backend")
					framework.HeaderExpectations{
						"X-Copy-Before": {"from-backend-before"}, "X-Orig-Before": nil,
						"X-Copy-After": {""}, "X-Orig-After": nil,
					}.Check(g, resp.Header, "the client")
				})
			},
			Entry("over plain HTTP (public)", framework.ID("header-actions/ingresscontroller-list-order-over-http"), overPublic),
			Entry("over TLS with SNI (fe_sni)", framework.ID("header-actions/ingresscontroller-list-order-sni"), overFeSNI),
			Entry("over TLS without SNI (fe_no_sni)", framework.ID("header-actions/ingresscontroller-list-order-no-sni"), overFeNoSNI),
		)
	})
}
