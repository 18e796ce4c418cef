package conformance

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// The Ingress client TLS enhancement (client-tls), sections "Proposal" and
// "Implementing Support for Certificate Revocation Lists": the
// IngressController's clientTLS, with CRLs the router downloads from the
// distribution points of the CA certificates, served by a crlserver pod.
// The document has a controller of the ingress operator download the CRLs
// into a ConfigMap; the code that shipped downloads them in the router
// (openshift/router pkg/router/crl/crl.go), and the code decides: the
// CRL specs judge the router. Each container has an IngressController of
// its own and is Ordered, so that its PKI and its router's rollouts are shared; the
// staggered-CRL scenario (describeCRLRefresh) and the fail-closed one
// (describeCRLFailClosed) are containers of their own, because they wait
// out real time: CRL lifetimes, and upstream's retry of a failed download.
func describeClientTLS(f *framework.Framework) {
	framework.DescribeFeature(contract.FeatureClientTLS, func() {
		describeClientTLSChange(f)
		describeClientTLSWithCRLs(f)
		describeCRLRefresh(f)
		describeCRLFailClosed(f)
		describeCRLDistributionPoints(f)
	})
}

// A clientTLS change belongs to the client-tls feature (a router that
// does not claim it skips it); it checks the same served route as the
// Router feature's.
func describeClientTLSChange(f *framework.Framework) {
	Describe("Router with an IngressController clientTLS change", func() {
		// Without clientTLS the router must not ask for a certificate at all
		// (no CertificateRequest in the handshake), and it must stop asking
		// once clientTLS is removed again: none -> Required -> none, over
		// each connection kind (upstream's fe_sni and fe_no_sni each have
		// their own bind).
		//
		// Document: the Ingress client TLS enhancement, sections "Proposal"
		// (without spec.clientTLS "the IngressController does not request
		// client certificates on TLS connections"; clientCertificatePolicy
		// Required, clientCA) and "Implementing Basic Support for Client
		// Certificate Verification" (the verify option on the bind stanzas
		// of the TLS frontends, only when ROUTER_MUTUAL_TLS_AUTH is set)
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go (desiredRouterDeployment:
		// ROUTER_MUTUAL_TLS_AUTH and ROUTER_MUTUAL_TLS_AUTH_CA only when
		// spec.clientTLS.clientCertificatePolicy is set) and openshift/router
		// images/router/haproxy/conf/haproxy-config.template (frontends fe_sni
		// and fe_no_sni: the bind's `verify` and `ca-file` only `with (env
		// "ROUTER_MUTUAL_TLS_AUTH")`; HAProxy's default is verify none)
		DescribeTable("applies it, and asks for a client certificate only while clientTLS is set",
			func(ctx SpecContext, conn framework.Connection) {
				jig := framework.NewClientTLSJig(ctx, f, "router-clienttls")
				ns := jig.Namespace
				host := f.Host(ns, "edge")
				backend := f.DeployEcho(ctx, ns)
				route := f.RouteTo(backend, "edge", framework.EchoHTTPPort)
				route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
				f.CreateRoute(ctx, route)
				noCert := conn.Over(jig.IC.HTTPS(host, "/"))
				servedUnasked := func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					g.Expect(resp.CertificateRequested).To(BeFalse(), "the router sent a CertificateRequest without clientTLS")
				}

				By("before the change: no CertificateRequest, a client without a certificate is served")
				f.EventuallyResponds(ctx, noCert, servedUnasked)

				ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "clientTLS CA " + ns}})
				Expect(err).NotTo(HaveOccurred())
				leaf, err := ca.IssueClient(pki.ClientOptions{Subject: pki.Subject{Organization: "Example", CommonName: "client"}})
				Expect(err).NotTo(HaveOccurred())
				cert, err := leaf.TLSCertificate()
				Expect(err).NotTo(HaveOccurred())
				caMap := jig.ClientCAMap(ctx, "client-ca-"+ns, string(ca.CertPEM))

				By("clientTLS Required: no certificate is refused; positive control: a valid one is asked for and served")
				jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caMap)
				f.EventuallyRefused(ctx, noCert, "certificate required")
				f.EventuallyResponds(ctx, framework.WithCert(noCert, &cert), func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					g.Expect(resp.CertificateRequested).To(BeTrue(), "the router did not ask for a certificate under Required")
				})

				By("clientTLS removed: the router stops asking, and a client without a certificate is served")
				jig.IC.Update(ctx, func(ic *operatorv1.IngressController) { ic.Spec.ClientTLS = operatorv1.ClientTLS{} })
				f.EventuallyResponds(ctx, noCert, servedUnasked)
			},
			Entry("with SNI", framework.ID("client-tls/required-change-applied"), f.OwnIngressControllerDecorator(), framework.WithSNI),
			Entry("without SNI", framework.ID("client-tls/required-change-applied-no-sni"), f.OwnIngressControllerDecorator(), framework.WithoutSNI),
		)
	})
}

// icDERHeader is the request header the main container's
// IngressController sets to the client certificate.
const icDERHeader = "X-Client-Der"

// The main client-TLS container: one IngressController under Required
// (then Optional, and subject patterns), the CAs of the own-CRL layout,
// a five-CA chain, and routes of every TLS termination.
func describeClientTLSWithCRLs(f *framework.Framework) {
	// Slow containers are scheduled first, so the parallel run is not
	// left waiting on them at the end.
	Describe("with CRLs from distribution points", f.OwnIngressControllerDecorator(), Ordered, SpecPriority(100), func() {
		const crlLifetime = 40 * time.Second // not a wait: the lifetime (nextUpdate) of the CRLs the crlserver publishes, data the router is given
		var (
			jig *framework.ClientTLSJig
			// Routes of the other terminations under the same clientTLS,
			// and a plain route (plain HTTP, which mutual TLS never reaches).
			passthroughHost, reencryptHost, plainHost string
			// chain is root, foo, bar, baz, quux: each CA issued by the one
			// before, each with its own CRL (TestMTLSWithCRLs' multiple-intermediate-ca).
			chain    []*framework.CRLAuthority
			server   *framework.CRLServer
			pub      *framework.Publisher
			inter    *framework.CRLAuthority
			caBundle string
		)
		BeforeAll(func(ctx SpecContext) {
			jig = framework.NewClientTLSJig(ctx, f, "client-tls")
			ns := jig.Namespace
			server = f.DeployCRLServer(ctx, ns)
			// Own-CRL layout: each CA certificate names the URL of its own CRL.
			root := framework.NewCRLAuthority(server, nil, "Client Root CA", "root.crl.pem")
			inter = framework.NewCRLAuthority(server, root.CA, "Client Intermediate CA", "intermediate.crl.pem")
			revokedInter := framework.NewCRLAuthority(server, root.CA, "Revoked Intermediate CA", "revoked-intermediate.crl.pem")
			other := framework.NewCRLAuthority(server, nil, "Other Root CA", "other-root.crl.pem")
			// A CA whose CRL revokes 30 000 serials: over 1 MB of DER.
			large := framework.NewCRLAuthority(server, nil, "Large CRL CA", "large.crl")
			large.Filler = 30000
			foreign, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Foreign CA"}})
			Expect(err).NotTo(HaveOccurred())

			jig.Issue("valid", inter.CA, pki.Window{})
			jig.Issue("revoked", inter.CA, pki.Window{})
			jig.Issue("expired", inter.CA, pki.Expired())
			jig.Issue("not-yet-valid", inter.CA, pki.NotYetValid())
			jig.Issue("someone-else", inter.CA, pki.Window{})
			jig.Issue("of-revoked-intermediate", revokedInter.CA, pki.Window{})
			jig.Issue("of-other-root", other.CA, pki.Window{})
			jig.Issue("untrusted", foreign, pki.Window{})
			jig.Issue("of-large-crl-ca", large.CA, pki.Window{})
			jig.Issue("revoked-in-large-crl", large.CA, pki.Window{})

			chain = []*framework.CRLAuthority{framework.NewCRLAuthority(server, nil, "Chain Root CA", "chain-root.crl.pem")}
			for _, name := range []string{"foo", "bar", "baz", "quux"} {
				chain = append(chain, framework.NewCRLAuthority(server, chain[len(chain)-1].CA, "Chain "+name+" CA", "chain-"+name+".crl.pem"))
			}
			for _, a := range chain {
				jig.Issue("signed-by-"+a.Key, a.CA, pki.Window{})
				jig.Issue("revoked-by-"+a.Key, a.CA, pki.Window{})
			}

			pub = &framework.Publisher{Server: server, Lifetime: crlLifetime}
			for _, a := range append([]*framework.CRLAuthority{root, inter, revokedInter, other, large}, chain...) {
				pub.Add(a)
			}
			for _, a := range chain {
				pub.SetRevoked(ctx, a, []*pki.Leaf{jig.Leaves["revoked-by-"+a.Key]}, nil)
			}
			pub.SetRevoked(ctx, root, nil, []*pki.CA{revokedInter.CA})
			pub.SetRevoked(ctx, inter, []*pki.Leaf{jig.Leaves["revoked"]}, nil)
			pub.SetRevoked(ctx, large, []*pki.Leaf{jig.Leaves["revoked-in-large-crl"]}, nil)
			pub.Start(ctx)

			// The passthrough route's host is on the backend's own certificate.
			backend := f.DeployEcho(ctx, ns, f.Host(ns, "passthrough"))
			route := f.RouteTo(backend, "mtls", framework.EchoHTTPPort)
			route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
			// The HTTP header actions enhancement's dynamic value (section "Should
			// this enhancement allow setting dynamic header values?"): the client
			// certificate, by a route action.
			route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{
				Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-Client-Cert", "%{+Q}[ssl_c_der,base64]")},
			}}
			f.CreateRoute(ctx, route)
			jig.Host, jig.Echo = route.Spec.Host, backend
			passthrough := f.RouteTo(backend, "passthrough", framework.EchoHTTPSPort)
			passthrough.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationPassthrough}
			passthroughHost = f.CreateRoute(ctx, passthrough).Spec.Host
			reencrypt := f.RouteTo(backend, "reencrypt", framework.EchoHTTPSPort)
			reencrypt.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationReencrypt, DestinationCACertificate: string(backend.CA.CertPEM)}
			reencryptHost = f.CreateRoute(ctx, reencrypt).Spec.Host
			plainHost = f.CreateRoute(ctx, f.RouteTo(backend, "plain", framework.EchoHTTPPort)).Spec.Host

			cas := []*pki.CA{root.CA, inter.CA, revokedInter.CA, other.CA, large.CA}
			for _, a := range chain {
				cas = append(cas, a.CA)
			}
			caBundle = jig.ClientCAMap(ctx, "client-ca-"+ns, string(pki.Bundle(cas...)))
			// One rollout for both: Required, and the IngressController's own
			// dynamic action with the client certificate (the specs after
			// change only clientTLS, so the action stays for the container).
			jig.IC.Update(ctx, func(ic *operatorv1.IngressController) {
				ic.Spec.ClientTLS = framework.ClientTLS(operatorv1.ClientCertificatePolicyRequired, caBundle)
				ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
					Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader(icDERHeader, "%{+Q}[ssl_c_der,base64]")},
				}}
			})
		})

		// Document: the Ingress client TLS enhancement, section "Implementing
		// Support for Certificate Revocation Lists" (there the operator
		// downloads; the router does in the code that shipped)
		// Upstream: openshift/router pkg/router/crl/crl.go (ManageCRLs,
		// downloadMissingCRLs and getCRL: each CA certificate's CRL from its
		// http distribution points)
		It("downloads every CA's CRL from its distribution point", framework.ID("client-tls/crl-downloaded"), func(ctx SpecContext) {
			f.Eventually(ctx, func(g Gomega) {
				fetches, err := server.Fetches(ctx)
				g.Expect(err).NotTo(HaveOccurred())
				for _, key := range []string{"root.crl.pem", "intermediate.crl.pem", "revoked-intermediate.crl.pem", "other-root.crl.pem", "large.crl"} {
					g.Expect(fetches).To(HaveKeyWithValue("/"+key, BeNumerically(">", 0)), "fetches of %s", key)
				}
			}).Should(Succeed())
		})

		// Document: the Ingress client TLS enhancement, sections "Proposal"
		// (Required: clients without a valid certificate rejected) and "As a
		// cluster administrator, I want to require client certificates using
		// a CA that I control, respecting its certificate revocation list"
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontends fe_sni and fe_no_sni: `verify required`, the CA bundle
		// and crl-file /var/lib/haproxy/mtls/latest/crls.pem) and
		// pkg/router/crl/crl.go (writeCRLFile: the CRLs of every CA of the
		// bundle)
		DescribeTable("Required: each client gets its exact outcome",
			func(ctx SpecContext, conn framework.Connection, client string, alert string) {
				req := jig.RequestOver(conn, client)
				if alert != "" {
					By("positive control: a valid client is served")
					jig.EventuallyServedOver(ctx, conn, "valid")
					f.EventuallyRefused(ctx, req, alert)
					return
				}
				f.EventuallyResponds(ctx, req, jig.Echo.Served)
			},
			Entry("a valid client", framework.ID("client-tls/required-valid"), framework.WithSNI, "valid", ""),
			Entry("a client of a second root in the bundle", framework.ID("client-tls/required-second-root"), framework.WithSNI, "of-other-root", ""),
			Entry("no certificate", framework.ID("client-tls/required-no-certificate"), framework.WithSNI, "", "certificate required"),
			Entry("a certificate of a CA outside the bundle", framework.ID("client-tls/required-untrusted-ca"), framework.WithSNI, "untrusted", "unknown certificate authority"),
			Entry("an expired certificate", framework.ID("client-tls/required-expired"), framework.WithSNI, "expired", "expired certificate"),
			Entry("a certificate not yet valid", framework.ID("client-tls/required-not-yet-valid"), framework.WithSNI, "not-yet-valid", "bad certificate"),
			Entry("a revoked certificate", framework.ID("client-tls/required-revoked-leaf"), framework.WithSNI, "revoked", "revoked certificate"),
			Entry("a client of a revoked intermediate", framework.ID("client-tls/required-revoked-intermediate"), framework.WithSNI, "of-revoked-intermediate", "revoked certificate"),
			Entry("a client of the CA with a large CRL", framework.ID("client-tls/required-large-crl"), framework.WithSNI, "of-large-crl-ca", ""),
			Entry("a certificate revoked in a large CRL", framework.ID("client-tls/required-revoked-in-large-crl"), framework.WithSNI, "revoked-in-large-crl", "revoked certificate"),
			// Without SNI: upstream's fe_no_sni, with its own bind (verify,
			// ca-file, crl-file); the default certificate, the route by the
			// Host header.
			Entry("a valid client, without SNI", framework.ID("client-tls/required-valid-no-sni"), framework.WithoutSNI, "valid", ""),
			Entry("a client of a second root in the bundle, without SNI", framework.ID("client-tls/required-second-root-no-sni"), framework.WithoutSNI, "of-other-root", ""),
			Entry("no certificate, without SNI", framework.ID("client-tls/required-no-certificate-no-sni"), framework.WithoutSNI, "", "certificate required"),
			Entry("a certificate of a CA outside the bundle, without SNI", framework.ID("client-tls/required-untrusted-ca-no-sni"), framework.WithoutSNI, "untrusted", "unknown certificate authority"),
			Entry("an expired certificate, without SNI", framework.ID("client-tls/required-expired-no-sni"), framework.WithoutSNI, "expired", "expired certificate"),
			Entry("a certificate not yet valid, without SNI", framework.ID("client-tls/required-not-yet-valid-no-sni"), framework.WithoutSNI, "not-yet-valid", "bad certificate"),
			Entry("a revoked certificate, without SNI", framework.ID("client-tls/required-revoked-leaf-no-sni"), framework.WithoutSNI, "revoked", "revoked certificate"),
			Entry("a client of a revoked intermediate, without SNI", framework.ID("client-tls/required-revoked-intermediate-no-sni"), framework.WithoutSNI, "of-revoked-intermediate", "revoked certificate"),
			Entry("a certificate revoked in a large CRL, without SNI", framework.ID("client-tls/required-revoked-in-large-crl-no-sni"), framework.WithoutSNI, "revoked-in-large-crl", "revoked certificate"),
		)

		// Upstream sets eleven X-SSL* headers in fe_sni and fe_no_sni after
		// deleting all twelve the client sent (X-SSL-Client-Subject is
		// deleted, never set): each frontend its own lines, so each
		// connection kind is its own case. Over plain HTTP (public) the
		// twelve are deleted and none is set, mutual TLS on or not: the
		// case openshift/router#787 (OCPBUGS-86718) closed, a client
		// claiming a certificate identity where it presented none. The
		// client forges all twelve; the positive control is the same
		// request served, with another header of its own kept.
		//
		// Document: the HTTP header actions enhancement, sections "X-SSL" and
		// "Should this enhancement allow setting dynamic header values?"
		// (%{+Q}[ssl_c_der,base64]); the Ingress client TLS enhancement names
		// no header; neither says what becomes of a client's own X-SSL*
		// headers, the template does
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontends public, fe_sni and fe_no_sni: `http-request del-header
		// X-SSL...` for the twelve unless ROUTER_MUTUAL_TLS_HEADER_FILTER is
		// false, default true; fe_sni and fe_no_sni with ROUTER_MUTUAL_TLS_AUTH:
		// `http-request set-header X-SSL...` from ssl_fc and the ssl_c_*
		// fetches) and pkg/router/template/router.go (getHeadersList: the
		// route's own action)
		DescribeTable("forwards the client certificate to the backend in the upstream headers and a route's dynamic value, never the X-SSL* headers a client forges",
			func(ctx SpecContext, conn framework.Connection, overTLS bool) {
				cert := jig.Leaves["valid"].Cert
				der := base64.StdEncoding.EncodeToString(cert.Raw)
				sha := sha1.Sum(cert.Raw)
				req := jig.IC.HTTP(plainHost, "/")
				if overTLS {
					req = jig.RequestOver(conn, "valid")
				}
				req = framework.WithHeader(req, "X-Not-Ssl", "kept")
				for _, h := range xsslHeaders {
					req = framework.WithHeader(req, h, "forged")
				}
				// Over plain HTTP: none of the twelve; the plain route has no
				// action of its own.
				want := framework.HeaderExpectations{"X-Not-Ssl": {"kept"}, "X-Client-Cert": nil}
				for _, h := range xsslHeaders {
					want[h] = nil
				}
				if overTLS {
					for h, v := range map[string]string{
						"X-SSL":                  "1",
						"X-SSL-Client-Verify":    "0",
						"X-SSL-Client-DN":        "/C=US/O=Example/OU=Eng/CN=valid",
						"X-SSL-Client-CN":        "valid",
						"X-SSL-Issuer":           "/O=Example/CN=Client Intermediate CA",
						"X-SSL-Client-Serial":    strings.ToUpper(hex.EncodeToString(cert.SerialNumber.Bytes())),
						"X-SSL-Client-Version":   "3",
						"X-SSL-Client-SHA1":      strings.ToUpper(hex.EncodeToString(sha[:])),
						"X-SSL-Client-NotBefore": cert.NotBefore.UTC().Format("060102150405Z"),
						"X-SSL-Client-NotAfter":  cert.NotAfter.UTC().Format("060102150405Z"),
						"X-SSL-Client-DER":       der,
						// The route's own action with %{+Q}[ssl_c_der,base64].
						"X-Client-Cert": der,
					} {
						want[h] = []string{v}
					}
				}
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					jig.Echo.Served(g, resp)
					want.Check(g, http.Header(resp.Echo.Headers), "the backend")
				})
			},
			Entry("with SNI", framework.ID("client-tls/certificate-headers-forwarded"), framework.WithSNI, true),
			Entry("without SNI", framework.ID("client-tls/certificate-headers-forwarded-no-sni"), framework.WithoutSNI, true),
			Entry("over plain HTTP (public): none", framework.ID("client-tls/xssl-forged-over-http"), framework.Connection{}, false),
		)

		// The container's IngressController sets icDERHeader to
		// %{+Q}[ssl_c_der,base64] (BeforeAll): an IngressController action
		// runs in the TLS frontends, so each connection kind is its own
		// case; the client's own value of the header is replaced.
		//
		// Document: the HTTP header actions enhancement, sections "User
		// Stories" (1, Example 2: an IngressController request header
		// X-SSL-Client-Cert: %{+Q}[ssl_c_der,base64] for all applications),
		// "Goals" (7) and "Should this enhancement allow setting dynamic
		// header values?"
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go (headerValues:
		// ROUTER_HTTP_REQUEST_HEADERS) and openshift/router
		// images/router/haproxy/conf/haproxy-config.template (frontends fe_sni
		// and fe_no_sni: .HTTPRequestHeaders, after the X-SSL* sets)
		DescribeTable("an IngressController action with the client certificate reaches the backend",
			func(ctx SpecContext, conn framework.Connection) {
				der := base64.StdEncoding.EncodeToString(jig.Leaves["valid"].Cert.Raw)
				req := framework.WithHeader(jig.RequestOver(conn, "valid"), icDERHeader, "spoofed")
				f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
					jig.Echo.Served(g, resp)
					framework.HeaderExpectations{icDERHeader: {der}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
				})
			},
			Entry("with SNI", framework.ID("client-tls/ingresscontroller-der-header"), framework.WithSNI),
			Entry("without SNI", framework.ID("client-tls/ingresscontroller-der-header-no-sni"), framework.WithoutSNI),
		)

		// Upstream: mTLS is configured on fe_sni and fe_no_sni only; a
		// passthrough route leaves public_ssl for its backend before them.
		//
		// Document: the Ingress client TLS enhancement, section "Implementing
		// Basic Support for Client Certificate Verification" (the verify option
		// on the bind stanzas of the TLS frontends)
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontend public_ssl: os_sni_passthrough.map and os_tcp_be.map before
		// be_sni/be_no_sni; `verify` on the fe_sni and fe_no_sni binds only) and
		// openshift/api operator/v1 types_ingresscontroller.go (ClientTLS)
		It("Required: applies to reencrypt routes, not to passthrough routes", framework.ID("client-tls/required-reencrypt-not-passthrough"), func(ctx SpecContext) {
			By("positive control: the edge route refuses a client without a certificate")
			f.EventuallyRefused(ctx, jig.IC.HTTPS(jig.Host, "/"), "certificate required")
			By("a passthrough route serves the same client: the backend terminates TLS")
			pass := jig.IC.HTTPS(passthroughHost, "/")
			pass.RootCAs = pki.Pool(jig.Echo.CA)
			f.EventuallyResponds(ctx, pass, func(g Gomega, resp *httpclient.Response) {
				jig.Echo.Served(g, resp)
				g.Expect(resp.Echo.Listener).To(Equal("https"))
			})
			By("a reencrypt route refuses it, and serves a valid client")
			f.EventuallyRefused(ctx, jig.IC.HTTPS(reencryptHost, "/"), "certificate required")
			f.EventuallyResponds(ctx, framework.WithCert(jig.IC.HTTPS(reencryptHost, "/"), jig.Certs["valid"]), func(g Gomega, resp *httpclient.Response) {
				jig.Echo.Served(g, resp)
				g.Expect(http.Header(resp.Echo.Headers).Values("X-SSL-Client-CN")).To(Equal([]string{"valid"}))
			})
		})

		// cluster-ingress-operator test/e2e/client_tls_test.go, TestMTLSWithCRLs
		// multiple-intermediate-ca: root→foo→bar→baz→quux, each CA's own CRL.
		//
		// Document: the Ingress client TLS enhancement, section "Implementing
		// Support for Certificate Revocation Lists" (a CRL for each certificate
		// of the bundle that names a distribution point)
		// Upstream: openshift/router pkg/router/crl/crl.go (downloadMissingCRLs:
		// every CA certificate of the bundle) and
		// images/router/haproxy/conf/haproxy-config.template (crl-file on the
		// fe_sni and fe_no_sni binds)
		It("a chain of five CAs with a CRL each: every signed-by-X client served, every revoked-by-X refused", framework.ID("client-tls/crl-chain-of-five"), func(ctx SpecContext) {
			for _, a := range chain {
				jig.EventuallyServed(ctx, "signed-by-"+a.Key)
				f.EventuallyRefused(ctx, jig.Request("revoked-by-"+a.Key), "revoked certificate")
			}
		})

		// Document: the Ingress client TLS enhancement, sections "Implementing
		// Support for Certificate Revocation Lists" (a CRL downloaded again once
		// its nextUpdate has elapsed) and "Risks and Mitigations" (the refresh
		// period from nextUpdate)
		// Upstream: openshift/router pkg/router/crl/crl.go (ManageCRLs: wakes
		// at the earliest nextUpdate; downloadMissingCRLs: an expired CRL
		// downloaded again; updateCRLFile)
		It("takes a CRL rotation: un-revoked, then revoked again", framework.ID("client-tls/crl-rotation"), func(ctx SpecContext) {
			By("positive control: the certificate is revoked now")
			f.EventuallyRefused(ctx, jig.Request("revoked"), "revoked certificate")
			start := time.Now()
			pub.SetRevoked(ctx, inter, nil, nil)
			f.EventuallyRespondsWithin(ctx, f.Opts.Timeouts.CRLRefresh, jig.Request("revoked"), jig.Echo.Served)
			AddReportEntry("CRL rotation latency (un-revoke)", time.Since(start).Round(time.Second).String())

			pub.SetRevoked(ctx, inter, []*pki.Leaf{jig.Leaves["revoked"]}, nil)
			f.EventuallyRefusedWithin(ctx, f.Opts.Timeouts.CRLRefresh, jig.Request("revoked"), "revoked certificate")
		})

		// The operator joins the patterns as (?:p1|p2); HAProxy matches the
		// subject DN with it, unanchored, and denies with 403.
		//
		// The document and upstream differ: the document has the
		// IngressController reject the certificate and deny the connection;
		// upstream completes the handshake and answers the request with HTTP
		// 403 (`http-request deny`). The spec asserts upstream's 403.
		//
		// Document: the Ingress client TLS enhancement, sections "Proposal"
		// (allowedSubjectPatterns: "rejects any client certificate that does
		// not match") and "Implementing Basic Support for Client Certificate
		// Verification" (ROUTER_MUTUAL_TLS_AUTH_FILTER, ssl_c_s_dn)
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/ingress/deployment.go (desiredRouterDeployment:
		// "(?:" + strings.Join(allowedSubjectPatterns, "|") + ")" into
		// ROUTER_MUTUAL_TLS_AUTH_FILTER) and openshift/router
		// images/router/haproxy/conf/haproxy-config.template (fe_sni and
		// fe_no_sni: `acl cert_cn_matches ssl_c_s_dn -m reg`, `http-request
		// deny unless cert_cn_matches`)
		DescribeTable("enforces allowedSubjectPatterns: a matching subject is served, others get 403",
			func(ctx SpecContext, conn framework.Connection) {
				jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caBundle, "/CN=valid$", "/CN=of-other-root$", "OU=Eng/CN=signed-by-chain-root")
				for _, c := range []string{"valid", "of-other-root", "signed-by-chain-root.crl.pem"} {
					jig.EventuallyServedOver(ctx, conn, c)
				}
				f.EventuallyResponds(ctx, jig.RequestOver(conn, "someone-else"), func(g Gomega, resp *httpclient.Response) {
					g.Expect(resp.Status).To(Equal(http.StatusForbidden))
					g.Expect(resp.Echo).To(BeNil(), "the backend must not see a refused client")
				})
			},
			Entry("with SNI", framework.ID("client-tls/subject-patterns"), framework.WithSNI),
			Entry("without SNI", framework.ID("client-tls/subject-patterns-no-sni"), framework.WithoutSNI),
		)

		// Upstream sets the X-SSL* headers unconditionally, so without a
		// certificate they arrive present and empty. The document names no
		// header for Optional (it only has the certificate requested, not
		// required): the present-but-empty headers are upstream's, beyond the
		// document, and the spec asserts upstream. A client without a
		// certificate is still asked for one (CertificateRequested): the
		// positive control of the change specs' "no CertificateRequest
		// without clientTLS".
		//
		// Document: the Ingress client TLS enhancement, sections "Proposal"
		// (Optional: requested, not required) and "As a cluster administrator,
		// I want to enable optional use of client certificates"
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (fe_sni and fe_no_sni: `verify optional` with the CA bundle; the
		// X-SSL* set-header lines, unconditional)
		DescribeTable("Optional: no certificate and a valid one are served, an invalid or untrusted one refused",
			func(ctx SpecContext, conn framework.Connection) {
				jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyOptional, caBundle)
				f.EventuallyResponds(ctx, jig.RequestOver(conn, ""), func(g Gomega, resp *httpclient.Response) {
					jig.Echo.Served(g, resp)
					g.Expect(resp.CertificateRequested).To(BeTrue(), "Optional asks for a certificate")
					framework.HeaderExpectations{"X-SSL-Client-DER": {""}, "X-SSL-Client-DN": {""}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
				})
				jig.EventuallyServedOver(ctx, conn, "valid")
				f.EventuallyRefused(ctx, jig.RequestOver(conn, "expired"), "expired certificate")
				f.EventuallyRefused(ctx, jig.RequestOver(conn, "untrusted"), "unknown certificate authority")
			},
			Entry("with SNI", framework.ID("client-tls/optional-outcomes"), framework.WithSNI),
			Entry("without SNI", framework.ID("client-tls/optional-outcomes-no-sni"), framework.WithoutSNI),
		)

		// No ssl_c_used guard on the deny: an empty subject fails the pattern.
		// The document has the certificate rejected; upstream answers 403
		// (see subject-patterns), asserted here.
		//
		// Document: the Ingress client TLS enhancement, section "Proposal"
		// (allowedSubjectPatterns: "at least one pattern must match a client
		// certificate's distinguished name")
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (fe_sni and fe_no_sni: `acl cert_cn_matches ssl_c_s_dn -m reg`,
		// `http-request deny unless cert_cn_matches`, without an ssl_c_used
		// condition)
		DescribeTable("Optional with allowedSubjectPatterns: a client without a certificate gets 403",
			func(ctx SpecContext, conn framework.Connection) {
				jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyOptional, caBundle, "/CN=valid$")
				By("positive control: a matching client is served")
				jig.EventuallyServedOver(ctx, conn, "valid")
				f.EventuallyResponds(ctx, jig.RequestOver(conn, ""), func(g Gomega, resp *httpclient.Response) {
					g.Expect(resp.Status).To(Equal(http.StatusForbidden))
					g.Expect(resp.Echo).To(BeNil(), "the backend must not see a refused client")
				})
			},
			Entry("with SNI", framework.ID("client-tls/optional-subject-patterns"), framework.WithSNI),
			Entry("without SNI", framework.ID("client-tls/optional-subject-patterns-no-sni"), framework.WithoutSNI),
		)

		// Document: the Ingress client TLS enhancement, section "Implementing
		// Support for Certificate Revocation Lists" (the CRLs of the
		// distribution points the bundle's certificates specify)
		// Upstream: openshift/router pkg/router/crl/crl.go (downloadMissingCRLs:
		// a certificate without a distribution point is skipped, each other's
		// named CRL downloaded); as cluster-ingress-operator
		// test/e2e/client_tls_test.go (TestMTLSWithCRLs,
		// certificate-distributes-its-signers-crl) arranges it
		It("signer's-CRL layout: the intermediate's own CRL is never fetched, so its clients are refused; the workaround serves them", framework.ID("client-tls/signer-crl-layout"), func(ctx SpecContext) {
			// X.509's usual layout, as TestMTLSWithCRLs'
			// certificate-distributes-its-signers-crl arranges it: each
			// certificate names its issuer's CRL, and the root names none. The
			// router skips a CA certificate without a distribution point and
			// downloads what the others name (pkg/router/crl/crl.go): the
			// root's CRL through the intermediate, never the intermediate's own,
			// and HAProxy needs a CRL for every CA of a chain.
			root := &framework.CRLAuthority{Key: "signer-root.crl.pem"}
			var err error
			root.CA, err = pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Signer-layout Root CA"}})
			Expect(err).NotTo(HaveOccurred())
			inter := &framework.CRLAuthority{Key: "signer-intermediate.crl.pem"}
			inter.CA, err = root.CA.NewIntermediateCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Signer-layout Intermediate CA"}, CRLDistributionPoint: server.URL(root.Key)})
			Expect(err).NotTo(HaveOccurred())
			for name, ca := range map[string]*framework.CRLAuthority{"of-signer-root": root, "of-signer-intermediate": inter} {
				jig.IssueNamingCRL(name, ca.CA, server.URL(ca.Key))
			}
			pub.Add(root)
			pub.Add(inter)
			pub.PublishNow(ctx)
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, jig.ClientCAMap(ctx, "signer-ca-"+jig.Namespace, string(pki.Bundle(root.CA, inter.CA))))

			By("positive control: a client issued by the root is served")
			f.EventuallyRespondsWithin(ctx, f.Opts.Timeouts.CRLRefresh, jig.Request("of-signer-root"), jig.Echo.Served)
			By("a client of the intermediate is refused: no CRL for its issuer")
			f.EventuallyRefused(ctx, jig.Request("of-signer-intermediate"), "unknown certificate authority")
			fetches, err := server.Fetches(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(fetches).To(HaveKeyWithValue("/"+root.Key, BeNumerically(">", 0)), "the intermediate names the root's CRL")
			Expect(fetches).NotTo(HaveKey("/"+inter.Key), "nothing names the intermediate's own CRL in the bundle")

			By("the workaround: the bundle also carries a certificate that names the intermediate's CRL (one it issued)")
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, jig.ClientCAMap(ctx, "signer-ca-workaround-"+jig.Namespace,
				string(pki.Bundle(root.CA, inter.CA))+string(jig.Leaves["of-signer-intermediate"].CertPEM)))
			f.EventuallyRespondsWithin(ctx, f.Opts.Timeouts.CRLRefresh, jig.Request("of-signer-intermediate"), jig.Echo.Served)
			fetches, err = server.Fetches(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(fetches).To(HaveKeyWithValue("/"+inter.Key, BeNumerically(">", 0)))
		})
	})
}

// The staggered scenario's first CRLs are valid this long, and each next
// CA's a step longer: long enough for the set-up (one rollout and the
// first positive controls: about 15 s on the reference router, 40 s on
// upstream's with four processes), short enough not to hold the suite.
// Upstream's TestCRLUpdate uses 3, 4 and 5 minutes.
const (
	staggeredFirstLifetime = 90 * time.Second // not a wait: the first CRLs' lifetime (nextUpdate), data the router is given
	staggeredStep          = 15 * time.Second // not a wait: how much longer each next CA's first CRL lives, data the router is given
)

// staggeredCRL is a CA of the staggered scenario and when its first CRL
// expires.
type staggeredCRL struct {
	*framework.CRLAuthority
	firstExpiry time.Time
}

// cluster-ingress-operator test/e2e/client_tls_test.go, TestCRLUpdate:
// CRLs whose lifetimes are staggered, each replaced by its nextUpdate. A
// container of its own: it waits out real time, during which its router
// must not roll out (a new router pod downloads every CRL afresh, which
// would test the start-up, not the refresh).
func describeCRLRefresh(f *framework.Framework) {
	Describe("CRL refresh", f.OwnIngressControllerDecorator(), Ordered, SpecPriority(100), func() {
		var (
			jig       *framework.ClientTLSJig
			staggered []staggeredCRL
		)

		BeforeAll(func(ctx SpecContext) {
			var server *framework.CRLServer
			jig, server = framework.NewEdgeClientTLSJig(ctx, f, "crl-update")

			// Three root CAs, each with its own CRL; the first generation
			// revokes nothing.
			pub := &framework.Publisher{Server: server}
			var cas []*pki.CA
			for _, name := range []string{"first", "second", "third"} {
				a := &framework.CRLAuthority{Key: "staggered-" + name + ".crl.pem"}
				var err error
				a.CA, err = pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Staggered " + name + " CA"}, CRLDistributionPoint: server.URL(a.Key)})
				Expect(err).NotTo(HaveOccurred())
				jig.Issue("kept-by-"+a.Key, a.CA, pki.Window{})
				jig.Issue("revoked-by-"+a.Key, a.CA, pki.Window{})
				pub.Add(a)
				staggered = append(staggered, staggeredCRL{CRLAuthority: a})
				cas = append(cas, a.CA)
			}
			caMap := jig.ClientCAMap(ctx, "staggered-ca-"+jig.Namespace, string(pki.Bundle(cas...)))
			published := time.Now()
			for i := range staggered {
				staggered[i].NextUpdate = published.Add(staggeredFirstLifetime + time.Duration(i)*staggeredStep)
				staggered[i].firstExpiry = staggered[i].NextUpdate
			}
			pub.PublishNow(ctx)
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caMap)

			By("the first generation is in force: nothing revoked")
			for _, a := range staggered {
				jig.EventuallyServed(ctx, "kept-by-"+a.Key)
				jig.EventuallyServed(ctx, "revoked-by-"+a.Key)
			}
			// Published after the first CRL expired, the next generation
			// would test something else (an expired CRL), not the refresh.
			Expect(time.Now()).To(BeTemporally("<", staggered[0].firstExpiry),
				"the set-up outlasted the first CRL's lifetime (%s): raise staggeredFirstLifetime", staggeredFirstLifetime)
			By("the next generation, valid an hour, revokes one client of each CA")
			for _, a := range staggered {
				a.NextUpdate = time.Now().Add(time.Hour) // not a wait: the next CRL's nextUpdate, data the router is given
				pub.SetRevoked(ctx, a.CRLAuthority, []*pki.Leaf{jig.Leaves["revoked-by-"+a.Key]}, nil)
			}
		})

		// Upstream downloads a CRL again only at its nextUpdate (the earliest
		// one wakes it); the reference router earlier, at three quarters of
		// its validity. So only what both must do is asserted: each CA's new
		// CRL is in force by that CA's own nextUpdate (+ Converge), whatever
		// the others'.
		//
		// Document: the Ingress client TLS enhancement, sections "Implementing
		// Support for Certificate Revocation Lists" (downloaded again once its
		// nextUpdate has elapsed) and "Risks and Mitigations"
		// Upstream: openshift/router pkg/router/crl/crl.go (ManageCRLs: sleeps
		// until the earliest nextUpdate; downloadMissingCRLs); as
		// cluster-ingress-operator test/e2e/client_tls_test.go (TestCRLUpdate)
		// checks it
		It("staggered CRL lifetimes: each CA's new CRL is in force by its own nextUpdate", framework.ID("client-tls/crl-staggered-refresh"), func(ctx SpecContext) {
			for _, a := range staggered {
				By(fmt.Sprintf("%s: revoked by %s at the latest", a.Key, a.firstExpiry.Format(time.TimeOnly)))
				f.EventuallyRefusedWithin(ctx, time.Until(a.firstExpiry)+f.Opts.Timeouts.Converge, jig.Request("revoked-by-"+a.Key), "revoked certificate")
				By("positive control: the same CA's other client is still served")
				jig.EventuallyServed(ctx, "kept-by-"+a.Key)
			}
		})
	})
}

// A container of its own: on upstream its positive control waits out the
// 5-minute retry of a failed download, which must not hold up the other
// client-TLS specs.
func describeCRLFailClosed(f *framework.Framework) {
	Describe("without a CRL", f.OwnIngressControllerDecorator(), Ordered, SpecPriority(100), func() {
		var (
			jig    *framework.ClientTLSJig
			server *framework.CRLServer
		)

		BeforeAll(func(ctx SpecContext) {
			jig, server = framework.NewEdgeClientTLSJig(ctx, f, "crl-pending")
		})

		// Both routers keep mutual TLS closed until the CRL arrives; they
		// refuse differently, and each refusal is exact. Upstream's placeholder
		// CRL is issued by "Placeholder CA", so HAProxy holds no CRL for the
		// client's CA and answers "unknown certificate authority" (seen here
		// on openshift/router 4b401a86d; a bare close was seen once too). The
		// reference router's placeholder is an expired CRL of that CA:
		// "expired certificate". Upstream retries a failed download after 5
		// minutes (pkg/router/crl/crl.go, errorBackoffTime); the reference
		// router within seconds. Once the refusal is seen it must hold, every
		// attempt one of these refusals and never an answer, until the CRL is
		// published: for Converge, which spans several of the reference
		// router's failed retries (a router that fails open after a failed
		// download shows there); the suite does not wait out upstream's
		// 5 minutes closed as well. The positive control allows upstream's
		// retry.
		//
		// Document: the Ingress client TLS enhancement, sections "Risks and
		// Mitigations" (an inaccessible distribution point: the
		// IngressController cannot start, "to avoid potentially allowing
		// revoked client certificates") and "Implementing Support for
		// Certificate Revocation Lists" (no Pod until the CRLs exist). The
		// code that shipped starts and refuses instead: both fail closed.
		// Upstream: openshift/router pkg/router/crl/crl.go (InitMTLSDirectory
		// and writeCRLFile: the dummyCRL placeholder; ManageCRLs: retry after
		// errorBackoffTime)
		It("fails closed while a CA's CRL cannot be fetched", framework.ID("client-tls/crl-fail-closed"), func(ctx SpecContext) {
			pending := &framework.CRLAuthority{Key: "pending.crl.pem"}
			var err error
			pending.CA, err = pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Pending CRL CA"}, CRLDistributionPoint: server.URL(pending.Key)})
			Expect(err).NotTo(HaveOccurred())
			jig.Issue("of-pending", pending.CA, pki.Window{})
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, jig.ClientCAMap(ctx, "pending-ca-"+jig.Namespace, string(pending.CA.CertPEM)))

			By("no CRL at the distribution point yet: the client is refused, never served")
			refusals := []string{"expired certificate", "unknown certificate authority", httpclient.ClosedWithoutAnswer}
			f.EventuallyRefusedWithin(ctx, f.Opts.Timeouts.Converge, jig.Request("of-pending"), refusals...)
			By("and stays refused while the CRL cannot be fetched: every attempt for Converge is one of the refusals")
			f.ConsistentlyRefused(ctx, f.Opts.Timeouts.Converge, jig.Request("of-pending"), refusals...)
			By("positive control: once the CRL is published, the same client is served (within upstream's retry)")
			pub := &framework.Publisher{Server: server}
			pending.NextUpdate = time.Now().Add(time.Hour) // not a wait: the CRL's nextUpdate, data the router is given
			pub.Add(pending)
			pub.PublishNow(ctx)
			f.EventuallyRespondsWithin(ctx, f.Opts.Timeouts.CRLRefresh, jig.Request("of-pending"), jig.Echo.Served)
		})
	})
}

// A CA certificate may name several distribution points: alternatives,
// tried in order until one serves a valid CRL. Each CA of this
// container's bundle names two, and its first fails in one way (or, for
// one CA, serves a valid CRL too); the second serves a valid CRL that
// revokes one of the CA's two clients. Upstream fetches a failed CA
// bundle's CRLs again only after 5 minutes (pkg/router/crl/crl.go,
// errorBackoffTime), and one CA without a valid CRL fails them all, so
// every CA here has a valid CRL on the first try: a router that tries only
// the first distribution point is refused everywhere. The valid CRLs live
// an hour; nothing here waits for a refresh.
func describeCRLDistributionPoints(f *framework.Framework) {
	Describe("with several CRL distribution points per CA", f.OwnIngressControllerDecorator(), Ordered, func() {
		var (
			jig    *framework.ClientTLSJig
			server *framework.CRLServer
		)

		BeforeAll(func(ctx SpecContext) {
			jig, server = framework.NewEdgeClientTLSJig(ctx, f, "crl-points")
			pub := &framework.Publisher{Server: server}
			validUntil := time.Now().Add(time.Hour) // not a wait: the valid CRLs' nextUpdate, data the router is given
			// How each CA's first distribution point fails; "first-good"
			// serves a valid CRL of its own.
			expired := &framework.CRLAuthority{Key: "expired-first.crl.pem",
				ThisUpdate: time.Now().Add(-2 * time.Hour), NextUpdate: time.Now().Add(-time.Hour)} // not a wait: an expired CRL's thisUpdate and nextUpdate, data the router is given
			firstGood := &framework.CRLAuthority{Key: "first-good-first.crl.pem", NextUpdate: validUntil}
			firsts := map[string]struct {
				url string
				crl *framework.CRLAuthority
			}{
				"unreachable":  {url: server.UnreachableURL("unreachable-first.crl.pem")},
				"error-status": {url: server.StatusURL(http.StatusServiceUnavailable)},
				"not-a-crl":    {url: server.NotACRLURL()},
				"expired":      {url: server.URL(expired.Key), crl: expired},
				"first-good":   {url: server.URL(firstGood.Key), crl: firstGood},
			}
			var cas []*pki.CA
			for name, first := range firsts {
				second := &framework.CRLAuthority{Key: name + "-second.crl.pem", NextUpdate: validUntil}
				ca, err := pki.NewRootCA(pki.CAOptions{
					Subject:               pki.Subject{Organization: "Example", CommonName: "Two points (" + name + ") CA"},
					CRLDistributionPoints: []string{first.url, server.URL(second.Key)},
				})
				Expect(err).NotTo(HaveOccurred())
				cas = append(cas, ca)
				jig.Issue("revoked-"+name, ca, pki.Window{})
				jig.Issue("kept-"+name, ca, pki.Window{})
				second.CA = ca
				pub.Add(second)
				if first.crl != nil {
					first.crl.CA = ca
					pub.Add(first.crl)
				}
				if name == "first-good" {
					// The first CRL revokes one client, the second the other:
					// whichever is in force shows which was used.
					pub.SetRevoked(ctx, first.crl, []*pki.Leaf{jig.Leaves["revoked-"+name]}, nil)
					pub.SetRevoked(ctx, second, []*pki.Leaf{jig.Leaves["kept-"+name]}, nil)
				} else {
					pub.SetRevoked(ctx, second, []*pki.Leaf{jig.Leaves["revoked-"+name]}, nil)
				}
			}
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, jig.ClientCAMap(ctx, "points-ca-"+jig.Namespace, string(pki.Bundle(cas...))))
		})

		// Upstream's getCRL tries each http distribution point in turn: a
		// failed download (connection error, status other than 200, a body
		// that does not parse as a CRL) or an expired CRL (nextUpdate
		// passed) moves on to the next; the first valid CRL is the CA's.
		//
		// Document: the Ingress client TLS enhancement, sections "As a
		// cluster administrator, I want to require client certificates using
		// a CA that I control, respecting its certificate revocation list"
		// (one or more CRL distribution points) and "Risks and Mitigations"
		// (a distribution point that is invalid or inaccessible, and a valid
		// and accessible one)
		// Upstream: openshift/router pkg/router/crl/crl.go (getCRL: each
		// distribution point in order, "CRL expired. trying next distribution
		// point"; getHTTPCRL: http.Get, the status, the PEM or DER parse)
		DescribeTable("a CA's CRL comes from its second distribution point when the first",
			func(ctx SpecContext, name string) {
				By("positive control: the CA's other client is served")
				jig.EventuallyServed(ctx, "kept-"+name)
				By("the client the second distribution point's CRL revokes is refused")
				f.EventuallyRefused(ctx, jig.Request("revoked-"+name), "revoked certificate")
			},
			Entry("refuses connections", framework.ID("client-tls/crl-second-distribution-point-after-unreachable"), "unreachable"),
			Entry("answers 503", framework.ID("client-tls/crl-second-distribution-point-after-error-status"), "error-status"),
			Entry("answers 200 with a body that is not a CRL", framework.ID("client-tls/crl-second-distribution-point-after-not-a-crl"), "not-a-crl"),
			Entry("serves an expired CRL", framework.ID("client-tls/crl-second-distribution-point-after-expired-crl"), "expired"),
		)

		// Both distribution points serve a valid CRL, each revoking a
		// different client: the first's is in force, and upstream never
		// downloads the second.
		//
		// Document: the Ingress client TLS enhancement, section "As a cluster
		// administrator, I want to require client certificates using a CA
		// that I control, respecting its certificate revocation list" (one or
		// more CRL distribution points)
		// Upstream: openshift/router pkg/router/crl/crl.go (getCRL: returns
		// the first valid CRL, the later distribution points untried)
		It("uses the first distribution point when its CRL is valid", framework.ID("client-tls/crl-first-distribution-point-used"), func(ctx SpecContext) {
			By("positive control: the client only the second CRL revokes is served")
			jig.EventuallyServed(ctx, "kept-first-good")
			By("the client the first CRL revokes is refused")
			f.EventuallyRefused(ctx, jig.Request("revoked-first-good"), "revoked certificate")
			fetches, err := server.Fetches(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(fetches).To(HaveKeyWithValue("/first-good-first.crl.pem", BeNumerically(">", 0)))
			Expect(fetches).NotTo(HaveKey("/first-good-second.crl.pem"), "the second distribution point is not needed")
		})
	})
}
