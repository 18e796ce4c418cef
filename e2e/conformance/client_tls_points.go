package conformance

import (
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/pki"
)

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
	Describe("with several CRL distribution points per CA", f.OwnIngressControllerDecorator(), Ordered, ContinueOnFailure, func() {
		var (
			jig    *framework.ClientTLSJig
			server *framework.CRLServer
		)

		BeforeAll(func(ctx SpecContext) {
			jig, server = framework.NewEdgeClientTLSJig(ctx, f, "crl-points")
			pub := &framework.Publisher{Server: server}
			jig.CRLs = pub
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
				// Active Directory Certificate Services lists its LDAP
				// point first; it names no host, so nothing is ever
				// contacted.
				"ldap-first": {url: "ldap:///CN=Two%20points,O=Example?certificateRevocationList"},
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
				jig.EventuallyRefused(ctx, "revoked-"+name, "revoked certificate")
			},
			Entry("refuses connections", framework.ID("client-tls/crl-second-distribution-point-after-unreachable"), "unreachable"),
			Entry("answers 503", framework.ID("client-tls/crl-second-distribution-point-after-error-status"), "error-status"),
			Entry("answers 200 with a body that is not a CRL", framework.ID("client-tls/crl-second-distribution-point-after-not-a-crl"), "not-a-crl"),
			Entry("serves an expired CRL", framework.ID("client-tls/crl-second-distribution-point-after-expired-crl"), "expired"),
			// Upstream's getCRL takes only http: points; any other
			// scheme is "unsupported distribution point type" and the
			// next point is tried.
			Entry("is an LDAP point (unsupported)", framework.ID("client-tls/crl-second-distribution-point-after-ldap"), "ldap-first"),
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
			jig.EventuallyRefused(ctx, "revoked-first-good", "revoked certificate")
			fetches, err := server.Fetches(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(fetches).To(HaveKeyWithValue("/first-good-first.crl.pem", BeNumerically(">", 0)))
			Expect(fetches).NotTo(HaveKey("/first-good-second.crl.pem"), "the second distribution point is not needed")
		})

		// A CRL the router holds is reused until its nextUpdate: the CRLs
		// here live an hour, so once they are in force none is downloaded
		// again, not even when the router reloads for a new route
		// (upstream's ManageCRLs keeps its CRLs in memory across reloads,
		// and wakes only at the earliest nextUpdate or on a CA bundle
		// change; the reference router refreshes a quarter of the validity
		// early, at most 5 minutes: 55 minutes here). The window is
		// Converge after the reload.
		//
		// Document: the Ingress client TLS enhancement, section "Implementing
		// Support for Certificate Revocation Lists" (a CRL is downloaded
		// again once its nextUpdate has elapsed)
		// Upstream: openshift/router pkg/router/crl/crl.go
		// (downloadMissingCRLs: a CRL of existingCRLs whose nextUpdate has
		// not passed is kept, not downloaded; ManageCRLs: sleeps until the
		// earliest nextUpdate)
		It("reuses the CRLs it holds until their nextUpdate, across a reload", framework.ID("client-tls/crl-reused-until-next-update"), func(ctx SpecContext) {
			By("positive control: the CRLs are in force")
			jig.EventuallyServed(ctx, "kept-error-status")
			jig.EventuallyRefused(ctx, "revoked-error-status", "revoked certificate")
			crlFetches := func(g Gomega) map[string]int64 {
				all, err := server.Fetches(ctx)
				g.Expect(err).NotTo(HaveOccurred())
				crls := map[string]int64{}
				for path, n := range all {
					if strings.HasSuffix(path, ".crl.pem") {
						crls[path] = n
					}
				}
				return crls
			}
			held := crlFetches(Default)
			Expect(held).To(HaveKeyWithValue("/error-status-second.crl.pem", BeNumerically(">", 0)))

			By("a reload: a new route is served")
			route := f.RouteTo(jig.Echo, "reload", framework.EchoHTTPPort)
			host := f.CreateRoute(ctx, route).Spec.Host
			f.EventuallyResponds(ctx, jig.IC.HTTP(host, "/"), jig.Echo.Served)

			By("no CRL is downloaded again for Converge")
			f.Consistently(ctx, f.Opts.Timeouts.Converge, func(g Gomega) {
				g.Expect(crlFetches(g)).To(Equal(held), "downloads of each CRL (before: %v)", held)
			}).Should(Succeed(), jig.CRLs.State)
		})
	})
}

// describeForgedCRL: a CRL that names its CA but is signed by another key.
func describeForgedCRL(f *framework.Framework) {
	// A CRL at a CA's distribution point that names the
	// CA but is signed by another key is no CRL of that CA: the CA's clients
	// are refused, while another CA of the bundle, whose CRL is its own, has
	// its client served (the positive control). The forged CRL revokes
	// nothing, so only its signature can refuse them. Its own container: the
	// refusal is the router's whole CRL state.
	//
	// Document: the Ingress client TLS enhancement, sections "Goals"
	// (respect the client CAs' CRLs) and "Risks and Mitigations" (a CA
	// without a valid and accessible CRL fails closed)
	// Upstream: openshift/router pkg/router/crl/crl.go (getHTTPCRL parses and
	// keeps any CRL whose nextUpdate is to come; no signature check) and
	// images/router/haproxy/conf/haproxy-config.template (the bind's
	// crl-file: OpenSSL checks the CRL's signature against the CA)
	Describe("with a CRL that does not verify against its CA", f.OwnIngressControllerDecorator(), func() {
		It("refuses the CA's clients; another CA's client, its CRL genuine, is served", framework.ID("client-tls/crl-not-verifying-refused"), func(ctx SpecContext) {
			jig, server := framework.NewEdgeClientTLSJig(ctx, f, "crl-forged")
			pub := &framework.Publisher{Server: server}
			jig.CRLs = pub
			validUntil := time.Now().Add(time.Hour) // not a wait: the CRLs' nextUpdate, data the router is given
			signer := framework.NewRootCA("Forger " + jig.Namespace)
			genuine := framework.NewCRLAuthority(server, nil, "Genuine CRL CA "+jig.Namespace, "genuine.crl.pem")
			genuine.NextUpdate = validUntil
			forged := framework.NewCRLAuthority(server, nil, "Forged CRL CA "+jig.Namespace, "forged.crl.pem")
			forged.NextUpdate, forged.SignedBy = validUntil, signer.Key
			jig.Issue("of-genuine", genuine.CA, pki.Window{})
			jig.Issue("of-forged", forged.CA, pki.Window{})
			pub.Add(genuine)
			pub.Add(forged)
			pub.PublishNow(ctx)
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, jig.ClientCAMap(ctx, "forged-ca-"+jig.Namespace, string(pki.Bundle(genuine.CA, forged.CA))))

			By("positive control: the client of the CA whose CRL is its own is served")
			jig.EventuallyServed(ctx, "of-genuine")
			By("the client of the CA whose CRL does not verify is refused")
			jig.EventuallyRefused(ctx, "of-forged", "error decrypting message")
		})
	})
}
