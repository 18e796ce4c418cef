package conformance

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// The staggered scenarios' first CRLs are valid this long, and each next
// CA's a step longer: long enough for the set-up (one rollout and the
// first positive controls: about 15 s on the reference router, 40 s on
// upstream's with four processes), short enough not to hold the suite.
// Upstream's TestCRLUpdate uses 3, 4, 5 and 6 minutes. The unreachable
// scenario's CRL lives as long as a first staggered one.
const (
	staggeredFirstLifetime = 90 * time.Second // not a wait: the first CRLs' lifetime (nextUpdate), data the router is given
	staggeredStep          = 15 * time.Second // not a wait: how much longer each next CA's first CRL lives, data the router is given
)

// staggeredCRL is a CA of a staggered scenario and when its first CRL
// expires.
type staggeredCRL struct {
	*framework.CRLAuthority
	firstExpiry time.Time
}

// startStaggered publishes the first generation of each CA's CRL,
// revoking nothing, with lifetimes staggered in the order given; requires
// clientTLS with caMap; checks that each CA's two clients are served; and
// publishes the next generation, valid an hour, revoking each CA's
// revoked-by-<key> client. The router must take each new CRL by that CA's
// first nextUpdate (expectStaggered).
func startStaggered(ctx SpecContext, jig *framework.ClientTLSJig, pub *framework.Publisher, staggered []staggeredCRL, caMap string) {
	GinkgoHelper()
	published := time.Now()
	for i := range staggered {
		staggered[i].NextUpdate = published.Add(staggeredFirstLifetime + time.Duration(i)*staggeredStep)
		staggered[i].firstExpiry = staggered[i].NextUpdate
		pub.Add(staggered[i].CRLAuthority)
	}
	pub.PublishNow(ctx)
	jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caMap)

	By("the first generation is in force: nothing revoked")
	for _, a := range staggered {
		jig.EventuallyServed(ctx, "kept-by-"+a.Key)
		jig.EventuallyServed(ctx, "revoked-by-"+a.Key)
	}
	// Published after the first CRL expired, the next generation would
	// test something else (an expired CRL), not the refresh.
	Expect(time.Now()).To(BeTemporally("<", staggered[0].firstExpiry),
		"the set-up outlasted the first CRL's lifetime (%s): raise staggeredFirstLifetime", staggeredFirstLifetime)
	By("the next generation, valid an hour, revokes one client of each CA")
	for _, a := range staggered {
		a.NextUpdate = time.Now().Add(time.Hour) // not a wait: the next CRL's nextUpdate, data the router is given
		pub.SetRevoked(ctx, a.CRLAuthority, []*pki.Leaf{jig.Leaves["revoked-by-"+a.Key]}, nil)
	}
}

// expectStaggered: each CA's new CRL is in force by that CA's first
// nextUpdate (+ Converge), whatever the others'.
func expectStaggered(ctx SpecContext, f *framework.Framework, jig *framework.ClientTLSJig, staggered []staggeredCRL) {
	GinkgoHelper()
	for _, a := range staggered {
		By(fmt.Sprintf("%s: revoked by %s at the latest", a.Key, a.firstExpiry.UTC().Format(time.TimeOnly)))
		jig.EventuallyRefusedWithin(ctx, time.Until(a.firstExpiry)+f.Opts.Timeouts.Converge, jig.Request("revoked-by-"+a.Key), "revoked certificate")
		By("positive control: the same CA's other client is still served")
		jig.EventuallyServed(ctx, "kept-by-"+a.Key)
	}
}

// cluster-ingress-operator test/e2e/client_tls_test.go, TestCRLUpdate:
// CRLs whose lifetimes are staggered, each replaced by its nextUpdate.
// Containers of their own: they wait out real time, during which their
// router must not roll out (a new router pod downloads every CRL afresh,
// which would test the start-up, not the refresh).
func describeCRLRefresh(f *framework.Framework) {
	Describe("CRL refresh", f.OwnIngressControllerDecorator(), Ordered, SpecPriority(100), func() {
		var (
			jig       *framework.ClientTLSJig
			staggered []staggeredCRL
		)

		BeforeAll(func(ctx SpecContext) {
			var server *framework.CRLServer
			jig, server = framework.NewEdgeClientTLSJig(ctx, f, "crl-update")
			pub := &framework.Publisher{Server: server}
			jig.CRLs = pub
			// Three root CAs, each with its own CRL.
			var cas []*pki.CA
			for _, name := range []string{"first", "second", "third"} {
				a := &framework.CRLAuthority{Key: "staggered-" + name + ".crl.pem"}
				var err error
				a.CA, err = pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Staggered " + name + " CA"}, CRLDistributionPoint: server.URL(a.Key)})
				Expect(err).NotTo(HaveOccurred())
				jig.Issue("kept-by-"+a.Key, a.CA, pki.Window{})
				jig.Issue("revoked-by-"+a.Key, a.CA, pki.Window{})
				staggered = append(staggered, staggeredCRL{CRLAuthority: a})
				cas = append(cas, a.CA)
			}
			startStaggered(ctx, jig, pub, staggered, jig.ClientCAMap(ctx, "staggered-ca-"+jig.Namespace, string(pki.Bundle(cas...))))
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
			expectStaggered(ctx, f, jig, staggered)
		})
	})

	// TestCRLUpdate's many-CAs-with-signers-crl-workaround: root →
	// intermediate → foo → bar in the signer's-CRL layout (each names its
	// issuer's CRL, the root none), and a client certificate of bar's in
	// the bundle naming bar's CRL, so that all four CRLs are named.
	Describe("CRL refresh in a signer's-CRL chain", f.OwnIngressControllerDecorator(), Ordered, SpecPriority(100), func() {
		var (
			jig       *framework.ClientTLSJig
			server    *framework.CRLServer
			staggered []staggeredCRL
		)

		BeforeAll(func(ctx SpecContext) {
			jig, server = framework.NewEdgeClientTLSJig(ctx, f, "crl-chain-update")
			pub := &framework.Publisher{Server: server}
			jig.CRLs = pub
			var cas []*pki.CA
			var parent *framework.CRLAuthority
			for _, name := range []string{"root", "intermediate", "foo", "bar"} {
				a := &framework.CRLAuthority{Key: "signer-chain-" + name + ".crl.pem"}
				opts := pki.CAOptions{Subject: pki.Subject{CommonName: "Signer chain " + name + " CA"}}
				var err error
				if parent == nil {
					a.CA, err = pki.NewRootCA(opts)
				} else {
					opts.CRLDistributionPoint = server.URL(parent.Key)
					a.CA, err = parent.CA.NewIntermediateCA(opts)
				}
				Expect(err).NotTo(HaveOccurred())
				jig.Issue("kept-by-"+a.Key, a.CA, pki.Window{})
				jig.Issue("revoked-by-"+a.Key, a.CA, pki.Window{})
				staggered = append(staggered, staggeredCRL{CRLAuthority: a})
				cas = append(cas, a.CA)
				parent = a
			}
			jig.IssueNamingCRL("workaround", parent.CA, server.URL(parent.Key))
			bundle := string(pki.Bundle(cas...)) + string(jig.Leaves["workaround"].CertPEM)
			startStaggered(ctx, jig, pub, staggered, jig.ClientCAMap(ctx, "signer-chain-ca-"+jig.Namespace, bundle))
		})

		// Document: the Ingress client TLS enhancement, sections "Implementing
		// Support for Certificate Revocation Lists" (the CRLs the bundle's
		// certificates name, downloaded again once their nextUpdate has
		// elapsed) and "Risks and Mitigations"
		// Upstream: openshift/router pkg/router/crl/crl.go (downloadMissingCRLs:
		// the CRL each certificate names, whoever issued it; ManageCRLs: the
		// earliest nextUpdate); as cluster-ingress-operator
		// test/e2e/client_tls_test.go (TestCRLUpdate,
		// many-CAs-with-signers-crl-workaround) checks it
		It("a signer's-CRL chain of four CAs with the workaround: every CRL fetched, each CA's new CRL in force by its own nextUpdate", framework.ID("client-tls/crl-staggered-refresh-signer-chain"), func(ctx SpecContext) {
			fetches, err := server.Fetches(ctx)
			Expect(err).NotTo(HaveOccurred())
			for _, a := range staggered {
				Expect(fetches).To(HaveKeyWithValue("/"+a.Key, BeNumerically(">", 0)), "fetches of %s", a.Key)
			}
			expectStaggered(ctx, f, jig, staggered)
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

		// The router keeps mutual TLS closed until the CRL arrives.
		// Upstream's placeholder CRL is issued by "Placeholder CA", so
		// HAProxy holds no CRL for the client's CA and answers "unknown
		// certificate authority" (seen here on openshift/router 4b401a86d),
		// the exact refusal asserted first; while it holds, a bare close
		// (seen once on upstream, httpclient.ClosedWithoutAnswer) is a
		// refusal too. Upstream retries a failed download after 5
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
			pub := &framework.Publisher{Server: server}
			jig.CRLs = pub
			pub.Add(pending)
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, jig.ClientCAMap(ctx, "pending-ca-"+jig.Namespace, string(pending.CA.CertPEM)))

			By("no CRL at the distribution point yet: the client is refused, never served")
			jig.EventuallyRefusedWithin(ctx, f.Opts.Timeouts.Converge, jig.Request("of-pending"), "unknown certificate authority")
			By("and stays refused while the CRL cannot be fetched: every attempt for Converge is refused")
			jig.ConsistentlyRefused(ctx, f.Opts.Timeouts.Converge, jig.Request("of-pending"), "unknown certificate authority", httpclient.ClosedWithoutAnswer)
			By("positive control: once the CRL is published, the same client is served (within upstream's retry)")
			pending.NextUpdate = time.Now().Add(time.Hour) // not a wait: the CRL's nextUpdate, data the router is given
			pub.PublishNow(ctx)
			jig.EventuallyServedWithin(ctx, f.Opts.Timeouts.CRLRefresh, jig.Request("of-pending"))
		})
	})
}

// A container of its own: it waits out a CRL's lifetime. Two root CAs,
// each naming its own CRL on the container's crlserver: "expiring"'s CRL
// lives staggeredFirstLifetime and revokes one of its clients,
// "lasting"'s lives an hour. Once both are in force the crlserver is
// stopped, and "expiring"'s nextUpdate passes with no distribution point
// left.
func describeCRLUnreachable(f *framework.Framework) {
	Describe("when every distribution point becomes unreachable", f.OwnIngressControllerDecorator(), Ordered, SpecPriority(100), func() {
		var (
			jig               *framework.ClientTLSJig
			server            *framework.CRLServer
			expiring, lasting *framework.CRLAuthority
		)

		BeforeAll(func(ctx SpecContext) {
			jig, server = framework.NewEdgeClientTLSJig(ctx, f, "crl-unreachable")
			expiring = framework.NewCRLAuthority(server, nil, "Expiring CRL CA", "expiring.crl.pem")
			lasting = framework.NewCRLAuthority(server, nil, "Lasting CRL CA", "lasting.crl.pem")
			jig.Issue("kept-of-expiring", expiring.CA, pki.Window{})
			jig.Issue("revoked-of-expiring", expiring.CA, pki.Window{})
			jig.Issue("of-lasting", lasting.CA, pki.Window{})
			pub := &framework.Publisher{Server: server}
			jig.CRLs = pub
			pub.Add(expiring)
			pub.Add(lasting)
			lasting.NextUpdate = time.Now().Add(time.Hour) // not a wait: the lasting CRL's nextUpdate, data the router is given
			caMap := jig.ClientCAMap(ctx, "unreachable-ca-"+jig.Namespace, string(pki.Bundle(expiring.CA, lasting.CA)))
			expiring.NextUpdate = time.Now().Add(staggeredFirstLifetime)
			pub.SetRevoked(ctx, expiring, []*pki.Leaf{jig.Leaves["revoked-of-expiring"]}, nil)
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caMap)
		})

		// The document expects the router to run on with the outdated CRL.
		// Upstream does run on, and keeps the CRL it has: at its nextUpdate
		// the download fails, downloadMissingCRLs returns the error (an
		// incomplete set is never written), crls.pem stays as it was, and the
		// next try comes errorBackoffTime (5 minutes) later. HAProxy then
		// holds a CRL whose nextUpdate has passed, and OpenSSL refuses every
		// client of that CA as "expired certificate" (a revoked one may be
		// refused as "revoked certificate" first): the router fails closed
		// for that CA, and serves the others. The reference router keeps its
		// last complete set in the same way. What is asserted is upstream's
		// outcome; each failure message says which CRLs the router was given
		// and their nextUpdate.
		//
		// Document: the Ingress client TLS enhancement, section "Risks and
		// Mitigations" ("If all CRL distribution points for a certificate
		// become inaccessible, the router may continue running with an
		// outdated CRL list")
		// Upstream: openshift/router pkg/router/crl/crl.go (ManageCRLs: wakes
		// at the earliest nextUpdate, retries after errorBackoffTime on an
		// error; downloadMissingCRLs: an expired CRL downloaded again, a
		// failure returned; updateCRLFile: nothing committed on an error)
		It("runs on with the CRL it holds past its nextUpdate: that CA's clients refused as expired, the others served", framework.ID("client-tls/crl-unreachable-past-next-update"), func(ctx SpecContext) {
			By("positive control: both CRLs are in force")
			jig.EventuallyServed(ctx, "kept-of-expiring")
			jig.EventuallyRefused(ctx, "revoked-of-expiring", "revoked certificate")
			jig.EventuallyServed(ctx, "of-lasting")
			Expect(time.Now()).To(BeTemporally("<", expiring.NextUpdate),
				"the set-up outlasted the expiring CRL's lifetime (%s): raise staggeredFirstLifetime", staggeredFirstLifetime)

			By("every distribution point unreachable: the crlserver is stopped")
			server.Stop(ctx)

			By(fmt.Sprintf("past the expiring CRL's nextUpdate (%s): its CA's clients are refused, as expired", expiring.NextUpdate.UTC().Format(time.TimeOnly)))
			jig.EventuallyRefusedWithin(ctx, time.Until(expiring.NextUpdate)+f.Opts.Timeouts.Converge, jig.Request("kept-of-expiring"), "expired certificate")
			jig.EventuallyRefusedWithin(ctx, f.Opts.Timeouts.Converge, jig.Request("revoked-of-expiring"), "expired certificate", "revoked certificate")
			By("the router runs on: the other CA's client is served, its CRL still valid")
			jig.EventuallyServed(ctx, "of-lasting")
			// Every attempt refused, never served. The upstream image
			// (4b401a86d, one run of three) once closed a connection
			// without an alert instead: HAProxy does so when it finds no
			// usable CRL for the chain (httpclient.ClosedWithoutAnswer),
			// a refusal too; the exact reason was asserted above.
			By("and the expired CRL's CA stays closed: every attempt for Converge is refused")
			jig.ConsistentlyRefused(ctx, f.Opts.Timeouts.Converge, jig.Request("kept-of-expiring"), "expired certificate", httpclient.ClosedWithoutAnswer)
		})
	})
}
