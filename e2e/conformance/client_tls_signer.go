package conformance

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/pki"
)

// The signer's-CRL layout, X.509's usual one, as cluster-ingress-operator
// test/e2e/client_tls_test.go (TestMTLSWithCRLs,
// certificate-distributes-its-signers-crl and its -with-workaround)
// arranges it: each certificate names its issuer's CRL, and the root
// names none. The router skips a CA certificate without a distribution
// point and downloads what the others name (pkg/router/crl/crl.go): the
// root's CRL through the intermediate, never the intermediate's own, and
// HAProxy needs a CRL for every CA of a chain. The workaround puts in the
// bundle a certificate the intermediate issued that names the
// intermediate's CRL.
//
// A container of its own (its bundles are not the main container's), with
// two bundles: the layout alone and with the workaround. Each spec sets
// the one it needs; the CRLs live an hour, so nothing here waits for a
// refresh. With SNI only, as every CRL case (client_tls.go).
func describeSignerCRLLayout(f *framework.Framework) {
	Describe("with the signer's-CRL layout", f.OwnIngressControllerDecorator(), Ordered, ContinueOnFailure, func() {
		var (
			jig                      *framework.ClientTLSJig
			server                   *framework.CRLServer
			root, inter              *framework.CRLAuthority
			layoutMap, workaround    string
			useLayout, useWorkaround func(ctx SpecContext)
		)

		BeforeAll(func(ctx SpecContext) {
			jig, server = framework.NewEdgeClientTLSJig(ctx, f, "crl-signer")
			root = &framework.CRLAuthority{Key: "signer-root.crl.pem"}
			var err error
			root.CA, err = pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Signer-layout Root CA"}})
			Expect(err).NotTo(HaveOccurred())
			inter = &framework.CRLAuthority{Key: "signer-intermediate.crl.pem"}
			inter.CA, err = root.CA.NewIntermediateCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Signer-layout Intermediate CA"}, CRLDistributionPoint: server.URL(root.Key)})
			Expect(err).NotTo(HaveOccurred())
			// Every client names its issuer's CRL; the intermediate's
			// first client is the workaround certificate.
			for _, a := range []*framework.CRLAuthority{root, inter} {
				name := map[*framework.CRLAuthority]string{root: "signer-root", inter: "signer-intermediate"}[a]
				jig.IssueNamingCRL("of-"+name, a.CA, server.URL(a.Key))
				jig.IssueNamingCRL("revoked-of-"+name, a.CA, server.URL(a.Key))
			}
			pub := &framework.Publisher{Server: server}
			jig.CRLs = pub
			validUntil := time.Now().Add(time.Hour) // not a wait: the CRLs' nextUpdate, data the router is given
			root.NextUpdate, inter.NextUpdate = validUntil, validUntil
			pub.Add(root)
			pub.Add(inter)
			pub.SetRevoked(ctx, root, []*pki.Leaf{jig.Leaves["revoked-of-signer-root"]}, nil)
			pub.SetRevoked(ctx, inter, []*pki.Leaf{jig.Leaves["revoked-of-signer-intermediate"]}, nil)
			cas := string(pki.Bundle(root.CA, inter.CA))
			layoutMap = jig.ClientCAMap(ctx, "signer-ca-"+jig.Namespace, cas)
			workaround = jig.ClientCAMap(ctx, "signer-ca-workaround-"+jig.Namespace, cas+string(jig.Leaves["of-signer-intermediate"].CertPEM))
			// A new bundle rolls the router out, and the new router
			// downloads the CRLs afresh: the first answer may wait for
			// them (on upstream, for its retry of a failed download).
			use := func(caMap string) func(ctx SpecContext) {
				GinkgoHelper()
				return func(ctx SpecContext) {
					jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caMap)
					By("positive control: a client of the root is served")
					jig.EventuallyServedWithin(ctx, f.Opts.Timeouts.CRLRefresh, jig.Request("of-signer-root"))
				}
			}
			useLayout, useWorkaround = use(layoutMap), use(workaround)
		})

		// Document: the Ingress client TLS enhancement, section "Implementing
		// Support for Certificate Revocation Lists" (the CRLs of the
		// distribution points the bundle's certificates specify)
		// Upstream: openshift/router pkg/router/crl/crl.go (downloadMissingCRLs:
		// a certificate without a distribution point is skipped, each other's
		// named CRL downloaded); as cluster-ingress-operator
		// test/e2e/client_tls_test.go (TestMTLSWithCRLs,
		// certificate-distributes-its-signers-crl) arranges it
		It("signer's-CRL layout: the intermediate's own CRL is never fetched, so its clients are refused; the workaround serves them", framework.ID("client-tls/signer-crl-layout"), func(ctx SpecContext) {
			useLayout(ctx)
			By("a client of the intermediate is refused: no CRL for its issuer")
			jig.EventuallyRefused(ctx, "of-signer-intermediate", "unknown certificate authority")
			fetches, err := server.Fetches(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(fetches).To(HaveKeyWithValue("/"+root.Key, BeNumerically(">", 0)), "the intermediate names the root's CRL")
			Expect(fetches).NotTo(HaveKey("/"+inter.Key), "nothing names the intermediate's own CRL in the bundle")

			By("the workaround: the bundle also carries a certificate that names the intermediate's CRL (one it issued)")
			useWorkaround(ctx)
			jig.EventuallyServedWithin(ctx, f.Opts.Timeouts.CRLRefresh, jig.Request("of-signer-intermediate"))
			fetches, err = server.Fetches(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(fetches).To(HaveKeyWithValue("/"+inter.Key, BeNumerically(">", 0)))
		})

		// The root's CRL is in force although only the intermediate names
		// it: a client it revokes is refused, the root's other client served.
		//
		// Document: the Ingress client TLS enhancement, section "Implementing
		// Support for Certificate Revocation Lists" (the CRLs of the
		// distribution points the bundle's certificates specify)
		// Upstream: openshift/router pkg/router/crl/crl.go (downloadMissingCRLs:
		// the CRL a certificate names, whoever issued it; writeCRLFile: all
		// of them in crls.pem); as cluster-ingress-operator
		// test/e2e/client_tls_test.go (TestMTLSWithCRLs,
		// certificate-distributes-its-signers-crl) revokes a client of the root
		It("signer's-CRL layout: a client the root's CRL revokes is refused", framework.ID("client-tls/signer-crl-root-revocation"), func(ctx SpecContext) {
			useLayout(ctx)
			jig.EventuallyRefused(ctx, "revoked-of-signer-root", "revoked certificate")
		})

		// With the workaround the intermediate's CRL is in force: a client
		// it revokes is refused, the intermediate's other client served.
		//
		// Document: the Ingress client TLS enhancement, section "Implementing
		// Support for Certificate Revocation Lists" (the CRLs of the
		// distribution points the bundle's certificates specify)
		// Upstream: openshift/router pkg/router/crl/crl.go (downloadMissingCRLs:
		// a leaf certificate of the bundle names the intermediate's CRL); as
		// cluster-ingress-operator test/e2e/client_tls_test.go
		// (TestMTLSWithCRLs, certificate-distributes-its-signers-crl-with-workaround)
		// revokes a client of the intermediate
		It("signer's-CRL layout with the workaround: a client the intermediate's CRL revokes is refused", framework.ID("client-tls/signer-crl-workaround-revocation"), func(ctx SpecContext) {
			useWorkaround(ctx)
			By("positive control: the intermediate's other client is served")
			jig.EventuallyServed(ctx, "of-signer-intermediate")
			jig.EventuallyRefused(ctx, "revoked-of-signer-intermediate", "revoked certificate")
		})
	})
}
