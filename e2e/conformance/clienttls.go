package conformance

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
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
// distribution points of the CA certificates, served by a crlserver pod. Each container has an IngressController of its own and
// is Ordered, so that its PKI and its router's rollouts are shared; the
// staggered-CRL scenario (describeCRLRefresh) and the fail-closed one
// (describeCRLFailClosed) are containers of their own, because they wait
// out real time: CRL lifetimes, and upstream's retry of a failed download.
func describeClientTLS(f *framework.Framework) {
	// Slow containers are scheduled first, so the parallel run is not
	// left waiting on them at the end.
	Describe("Client TLS", framework.Needs(contract.FeatureClientTLS), f.OwnIngressControllerDecorator(), Ordered, SpecPriority(100), func() {
		const crlLifetime = 40 * time.Second
		var (
			m *mtlsSetup
			// Routes of the other terminations under the same clientTLS.
			passthroughHost, reencryptHost string
			// chain is root, foo, bar, baz, quux: each CA issued by the one
			// before, each with its own CRL (TestMTLSWithCRLs' multiple-intermediate-ca).
			chain    []*framework.CRLAuthority
			server   *framework.CRLServer
			pub      *framework.Publisher
			inter    *framework.CRLAuthority
			caBundle string
		)
		BeforeAll(func(ctx SpecContext) {
			m = newMTLSSetup(ctx, f, "client-tls")
			ns := m.ns
			server = f.DeployCRLServer(ctx, ns)
			newCA := func(parent *pki.CA, cn, key string) *framework.CRLAuthority {
				opts := pki.CAOptions{Subject: pki.Subject{Organization: "Example", CommonName: cn}, CRLDistributionPoint: server.URL(key)}
				var ca *pki.CA
				var err error
				if parent == nil {
					ca, err = pki.NewRootCA(opts)
				} else {
					ca, err = parent.NewIntermediateCA(opts)
				}
				Expect(err).NotTo(HaveOccurred())
				return &framework.CRLAuthority{Key: key, CA: ca}
			}
			// Own-CRL layout: each CA certificate names the URL of its own CRL.
			root := newCA(nil, "Client Root CA", "root.crl.pem")
			inter = newCA(root.CA, "Client Intermediate CA", "intermediate.crl.pem")
			revokedInter := newCA(root.CA, "Revoked Intermediate CA", "revoked-intermediate.crl.pem")
			other := newCA(nil, "Other Root CA", "other-root.crl.pem")
			// A CA whose CRL revokes 30 000 serials: over 1 MB of DER.
			large := newCA(nil, "Large CRL CA", "large.crl")
			large.Filler = 30000
			foreign, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Foreign CA"}})
			Expect(err).NotTo(HaveOccurred())

			m.issue("valid", inter.CA, pki.Window{})
			m.issue("revoked", inter.CA, pki.Window{})
			m.issue("expired", inter.CA, pki.Expired())
			m.issue("not-yet-valid", inter.CA, pki.NotYetValid())
			m.issue("someone-else", inter.CA, pki.Window{})
			m.issue("of-revoked-intermediate", revokedInter.CA, pki.Window{})
			m.issue("of-other-root", other.CA, pki.Window{})
			m.issue("untrusted", foreign, pki.Window{})
			m.issue("of-large-crl-ca", large.CA, pki.Window{})
			m.issue("revoked-in-large-crl", large.CA, pki.Window{})

			chain = []*framework.CRLAuthority{newCA(nil, "Chain Root CA", "chain-root.crl.pem")}
			for _, name := range []string{"foo", "bar", "baz", "quux"} {
				chain = append(chain, newCA(chain[len(chain)-1].CA, "Chain "+name+" CA", "chain-"+name+".crl.pem"))
			}
			for _, a := range chain {
				m.issue("signed-by-"+a.Key, a.CA, pki.Window{})
				m.issue("revoked-by-"+a.Key, a.CA, pki.Window{})
			}

			pub = &framework.Publisher{Server: server, Lifetime: crlLifetime}
			for _, a := range append([]*framework.CRLAuthority{root, inter, revokedInter, other, large}, chain...) {
				pub.Add(a)
			}
			for _, a := range chain {
				pub.SetRevoked(ctx, a, []*pki.Leaf{m.leaves["revoked-by-"+a.Key]}, nil)
			}
			pub.SetRevoked(ctx, root, nil, []*pki.CA{revokedInter.CA})
			pub.SetRevoked(ctx, inter, []*pki.Leaf{m.leaves["revoked"]}, nil)
			pub.SetRevoked(ctx, large, []*pki.Leaf{m.leaves["revoked-in-large-crl"]}, nil)
			pub.Start(ctx)

			// The passthrough route's host is on the backend's own certificate.
			backend := f.DeployEcho(ctx, ns, f.Host(ns, "passthrough"))
			route := f.RouteTo(backend, "mtls", framework.EchoHTTPPort)
			route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
			// The HTTP header actions enhancement's dynamic value (section "Should
			// this enhancement allow setting dynamic header values?"): the client
			// certificate, by a route action.
			route.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{
				Request: []routev1.RouteHTTPHeader{routeSet("X-Client-Cert", "%{+Q}[ssl_c_der,base64]")},
			}}
			f.CreateRoute(ctx, route)
			m.host, m.echo = route.Spec.Host, backend
			passthrough := f.RouteTo(backend, "passthrough", framework.EchoHTTPSPort)
			passthrough.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationPassthrough}
			passthroughHost = f.CreateRoute(ctx, passthrough).Spec.Host
			reencrypt := f.RouteTo(backend, "reencrypt", framework.EchoHTTPSPort)
			reencrypt.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationReencrypt, DestinationCACertificate: string(backend.CA.CertPEM)}
			reencryptHost = f.CreateRoute(ctx, reencrypt).Spec.Host

			cas := []*pki.CA{root.CA, inter.CA, revokedInter.CA, other.CA, large.CA}
			for _, a := range chain {
				cas = append(cas, a.CA)
			}
			caBundle = m.clientCAMap(ctx, "client-ca-"+ns, string(pki.Bundle(cas...)))
			m.requireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caBundle)
		})

		It("downloads every CA's CRL from its distribution point", func(ctx SpecContext) {
			f.Eventually(ctx, func(g Gomega) {
				fetches, err := server.Fetches(ctx)
				g.Expect(err).NotTo(HaveOccurred())
				for _, key := range []string{"root.crl.pem", "intermediate.crl.pem", "revoked-intermediate.crl.pem", "other-root.crl.pem", "large.crl"} {
					g.Expect(fetches).To(HaveKeyWithValue("/"+key, BeNumerically(">", 0)), "fetches of %s", key)
				}
			}).Should(Succeed())
		})

		DescribeTable("Required: each client gets its exact outcome",
			func(ctx SpecContext, client string, alert string) {
				req := m.ic.HTTPS(m.host, "/")
				if client != "" {
					req = m.request(client)
				}
				if alert != "" {
					By("positive control: a valid client is served")
					m.eventuallyServed(ctx, "valid")
					f.EventuallyRefused(ctx, req, alert)
					return
				}
				f.EventuallyResponds(ctx, req, m.echo.Served)
			},
			Entry("a valid client", "valid", ""),
			Entry("a client of a second root in the bundle", "of-other-root", ""),
			Entry("no certificate", "", "certificate required"),
			Entry("a certificate of a CA outside the bundle", "untrusted", "unknown certificate authority"),
			Entry("an expired certificate", "expired", "expired certificate"),
			Entry("a certificate not yet valid", "not-yet-valid", "bad certificate"),
			Entry("a revoked certificate", "revoked", "revoked certificate"),
			Entry("a client of a revoked intermediate", "of-revoked-intermediate", "revoked certificate"),
			Entry("a client of the CA with a large CRL", "of-large-crl-ca", ""),
			Entry("a certificate revoked in a large CRL", "revoked-in-large-crl", "revoked certificate"),
		)

		// Upstream sets eleven X-SSL* headers in fe_sni and fe_no_sni after
		// deleting what the client sent (haproxy-config.template).
		It("forwards the client certificate to the backend in the upstream headers and a route's dynamic value, whatever the client claims", func(ctx SpecContext) {
			cert := m.leaves["valid"].Cert
			der := base64.StdEncoding.EncodeToString(cert.Raw)
			sha := sha1.Sum(cert.Raw)
			req := m.request("valid")
			for _, h := range []string{"X-SSL-Client-DN", "X-SSL-Client-Verify", "X-SSL-Client-DER", "X-SSL-Client-Serial", "X-SSL-Issuer"} {
				req = framework.WithHeader(req, h, "spoofed")
			}
			f.EventuallyResponds(ctx, req, func(g Gomega, resp *httpclient.Response) {
				m.echo.Served(g, resp)
				headerExpectations{
					"X-SSL":                  {"1"},
					"X-SSL-Client-Verify":    {"0"},
					"X-SSL-Client-DN":        {"/C=US/O=Example/OU=Eng/CN=valid"},
					"X-SSL-Client-CN":        {"valid"},
					"X-SSL-Issuer":           {"/O=Example/CN=Client Intermediate CA"},
					"X-SSL-Client-Serial":    {strings.ToUpper(hex.EncodeToString(cert.SerialNumber.Bytes()))},
					"X-SSL-Client-Version":   {"3"},
					"X-SSL-Client-SHA1":      {strings.ToUpper(hex.EncodeToString(sha[:]))},
					"X-SSL-Client-NotBefore": {cert.NotBefore.UTC().Format("060102150405Z")},
					"X-SSL-Client-NotAfter":  {cert.NotAfter.UTC().Format("060102150405Z")},
					"X-SSL-Client-DER":       {der},
					// The route's own action with %{+Q}[ssl_c_der,base64].
					"X-Client-Cert": {der},
				}.check(g, http.Header(resp.Echo.Headers), "the backend")
			})
		})

		// Upstream: mTLS is configured on fe_sni and fe_no_sni only; a
		// passthrough route leaves public_ssl for its backend before them
		// (haproxy-config.template; openshift/api operator/v1
		// types_ingresscontroller.go, ClientTLS).
		It("Required: applies to reencrypt routes, not to passthrough routes", func(ctx SpecContext) {
			By("positive control: the edge route refuses a client without a certificate")
			f.EventuallyRefused(ctx, m.ic.HTTPS(m.host, "/"), "certificate required")
			By("a passthrough route serves the same client: the backend terminates TLS")
			pass := m.ic.HTTPS(passthroughHost, "/")
			pass.RootCAs = pki.Pool(m.echo.CA)
			f.EventuallyResponds(ctx, pass, func(g Gomega, resp *httpclient.Response) {
				m.echo.Served(g, resp)
				g.Expect(resp.Echo.Listener).To(Equal("https"))
			})
			By("a reencrypt route refuses it, and serves a valid client")
			f.EventuallyRefused(ctx, m.ic.HTTPS(reencryptHost, "/"), "certificate required")
			f.EventuallyResponds(ctx, framework.WithCert(m.ic.HTTPS(reencryptHost, "/"), m.certs["valid"]), func(g Gomega, resp *httpclient.Response) {
				m.echo.Served(g, resp)
				g.Expect(http.Header(resp.Echo.Headers).Values("X-SSL-Client-CN")).To(Equal([]string{"valid"}))
			})
		})

		// cluster-ingress-operator test/e2e/client_tls_test.go, TestMTLSWithCRLs
		// multiple-intermediate-ca: root→foo→bar→baz→quux, each CA's own CRL.
		It("a chain of five CAs with a CRL each: every signed-by-X client served, every revoked-by-X refused", func(ctx SpecContext) {
			for _, a := range chain {
				m.eventuallyServed(ctx, "signed-by-"+a.Key)
				f.EventuallyRefused(ctx, m.request("revoked-by-"+a.Key), "revoked certificate")
			}
		})

		It("takes a CRL rotation: un-revoked, then revoked again", func(ctx SpecContext) {
			By("positive control: the certificate is revoked now")
			f.EventuallyRefused(ctx, m.request("revoked"), "revoked certificate")
			start := time.Now()
			pub.SetRevoked(ctx, inter, nil, nil)
			f.EventuallyRespondsWithin(ctx, f.Opts.Timeouts.CRLRefresh, m.request("revoked"), m.echo.Served)
			AddReportEntry("CRL rotation latency (un-revoke)", time.Since(start).Round(time.Second).String())

			pub.SetRevoked(ctx, inter, []*pki.Leaf{m.leaves["revoked"]}, nil)
			f.EventuallyRefusedWithin(ctx, f.Opts.Timeouts.CRLRefresh, m.request("revoked"), "revoked certificate")
		})

		// The operator joins the patterns as (?:p1|p2); HAProxy matches the
		// subject DN with it, unanchored, and denies with 403
		// (cluster-ingress-operator deployment.go; haproxy-config.template).
		It("enforces allowedSubjectPatterns: a matching subject is served, others get 403", func(ctx SpecContext) {
			m.requireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caBundle, "/CN=valid$", "/CN=of-other-root$", "OU=Eng/CN=signed-by-chain-root")
			for _, c := range []string{"valid", "of-other-root", "signed-by-chain-root.crl.pem"} {
				m.eventuallyServed(ctx, c)
			}
			f.EventuallyResponds(ctx, m.request("someone-else"), func(g Gomega, resp *httpclient.Response) {
				g.Expect(resp.Status).To(Equal(http.StatusForbidden))
				g.Expect(resp.Echo).To(BeNil(), "the backend must not see a refused client")
			})
		})

		// Upstream sets the X-SSL* headers unconditionally, so without a
		// certificate they arrive present and empty (haproxy-config.template).
		It("Optional: no certificate and a valid one are served, an invalid or untrusted one refused", func(ctx SpecContext) {
			m.requireClientTLS(ctx, operatorv1.ClientCertificatePolicyOptional, caBundle)
			f.EventuallyResponds(ctx, m.ic.HTTPS(m.host, "/"), func(g Gomega, resp *httpclient.Response) {
				m.echo.Served(g, resp)
				headerExpectations{"X-SSL-Client-DER": {""}, "X-SSL-Client-DN": {""}}.check(g, http.Header(resp.Echo.Headers), "the backend")
			})
			m.eventuallyServed(ctx, "valid")
			f.EventuallyRefused(ctx, m.request("expired"), "expired certificate")
			f.EventuallyRefused(ctx, m.request("untrusted"), "unknown certificate authority")
		})

		// No ssl_c_used guard on the deny: an empty subject fails the pattern
		// (haproxy-config.template, cert_cn_matches).
		It("Optional with allowedSubjectPatterns: a client without a certificate gets 403", func(ctx SpecContext) {
			m.requireClientTLS(ctx, operatorv1.ClientCertificatePolicyOptional, caBundle, "/CN=valid$")
			By("positive control: a matching client is served")
			m.eventuallyServed(ctx, "valid")
			f.EventuallyResponds(ctx, m.ic.HTTPS(m.host, "/"), func(g Gomega, resp *httpclient.Response) {
				g.Expect(resp.Status).To(Equal(http.StatusForbidden))
				g.Expect(resp.Echo).To(BeNil(), "the backend must not see a refused client")
			})
		})

		It("signer's-CRL layout: the intermediate's own CRL is never fetched, so its clients are refused; the workaround serves them", func(ctx SpecContext) {
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
				leaf, err := ca.CA.IssueClient(pki.ClientOptions{Subject: clientSubject(name), CRLDistributionPoint: server.URL(ca.Key)})
				Expect(err).NotTo(HaveOccurred())
				cert, err := leaf.TLSCertificate()
				Expect(err).NotTo(HaveOccurred())
				m.leaves[name], m.certs[name] = leaf, &cert
			}
			pub.Add(root)
			pub.Add(inter)
			pub.PublishNow(ctx)
			m.requireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, m.clientCAMap(ctx, "signer-ca-"+m.ns, string(pki.Bundle(root.CA, inter.CA))))

			By("positive control: a client issued by the root is served")
			f.EventuallyRespondsWithin(ctx, f.Opts.Timeouts.CRLRefresh, m.request("of-signer-root"), m.echo.Served)
			By("a client of the intermediate is refused: no CRL for its issuer")
			f.EventuallyRefused(ctx, m.request("of-signer-intermediate"), "unknown certificate authority")
			fetches, err := server.Fetches(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(fetches).To(HaveKeyWithValue("/"+root.Key, BeNumerically(">", 0)), "the intermediate names the root's CRL")
			Expect(fetches).NotTo(HaveKey("/"+inter.Key), "nothing names the intermediate's own CRL in the bundle")

			By("the workaround: the bundle also carries a certificate that names the intermediate's CRL (one it issued)")
			m.requireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, m.clientCAMap(ctx, "signer-ca-workaround-"+m.ns,
				string(pki.Bundle(root.CA, inter.CA))+string(m.leaves["of-signer-intermediate"].CertPEM)))
			f.EventuallyRespondsWithin(ctx, f.Opts.Timeouts.CRLRefresh, m.request("of-signer-intermediate"), m.echo.Served)
			fetches, err = server.Fetches(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(fetches).To(HaveKeyWithValue("/"+inter.Key, BeNumerically(">", 0)))
		})
	})
}
