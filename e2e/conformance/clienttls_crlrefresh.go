package conformance

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/pki"
)

// The staggered scenario's first CRLs are valid this long, and each next
// CA's a step longer: long enough for the set-up (one rollout and the
// first positive controls: about 15 s on the reference router, 40 s on
// upstream's with four processes), short enough not to hold the suite.
// Upstream's TestCRLUpdate uses 3, 4 and 5 minutes.
const (
	staggeredFirstLifetime = 90 * time.Second
	staggeredStep          = 15 * time.Second
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
	Describe("Client TLS CRL refresh", framework.Needs(contract.FeatureClientTLS), f.OwnIngressControllerDecorator(), Ordered, SpecPriority(100), func() {
		var (
			m         *mtlsSetup
			staggered []staggeredCRL
		)

		BeforeAll(func(ctx SpecContext) {
			var server *framework.CRLServer
			m, server = newEdgeMTLSSetup(ctx, f, "crl-update")

			// Three root CAs, each with its own CRL; the first generation
			// revokes nothing.
			pub := &framework.Publisher{Server: server}
			var cas []*pki.CA
			for _, name := range []string{"first", "second", "third"} {
				a := &framework.CRLAuthority{Key: "staggered-" + name + ".crl.pem"}
				var err error
				a.CA, err = pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Staggered " + name + " CA"}, CRLDistributionPoint: server.URL(a.Key)})
				Expect(err).NotTo(HaveOccurred())
				m.issue("kept-by-"+a.Key, a.CA, pki.Window{})
				m.issue("revoked-by-"+a.Key, a.CA, pki.Window{})
				pub.Add(a)
				staggered = append(staggered, staggeredCRL{CRLAuthority: a})
				cas = append(cas, a.CA)
			}
			caMap := m.clientCAMap(ctx, "staggered-ca-"+m.ns, string(pki.Bundle(cas...)))
			published := time.Now()
			for i := range staggered {
				staggered[i].NextUpdate = published.Add(staggeredFirstLifetime + time.Duration(i)*staggeredStep)
				staggered[i].firstExpiry = staggered[i].NextUpdate
			}
			pub.PublishNow(ctx)
			m.requireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caMap)

			By("the first generation is in force: nothing revoked")
			for _, a := range staggered {
				m.eventuallyServed(ctx, "kept-by-"+a.Key)
				m.eventuallyServed(ctx, "revoked-by-"+a.Key)
			}
			// Published after the first CRL expired, the next generation
			// would test something else (an expired CRL), not the refresh.
			Expect(time.Now()).To(BeTemporally("<", staggered[0].firstExpiry),
				"the set-up outlasted the first CRL's lifetime (%s): raise staggeredFirstLifetime", staggeredFirstLifetime)
			By("the next generation, valid an hour, revokes one client of each CA")
			for _, a := range staggered {
				a.NextUpdate = time.Now().Add(time.Hour)
				pub.SetRevoked(ctx, a.CRLAuthority, []*pki.Leaf{m.leaves["revoked-by-"+a.Key]}, nil)
			}
		})

		// Upstream downloads a CRL again only at its nextUpdate (the earliest
		// one wakes it: pkg/router/crl/crl.go, ManageCRLs); the reference
		// router earlier, at three quarters of its validity. So only what
		// both must do is asserted: each CA's new CRL is in force by that
		// CA's own nextUpdate (+ Converge), whatever the others'.
		It("staggered CRL lifetimes: each CA's new CRL is in force by its own nextUpdate", func(ctx SpecContext) {
			for _, a := range staggered {
				By(fmt.Sprintf("%s: revoked by %s at the latest", a.Key, a.firstExpiry.Format(time.TimeOnly)))
				f.EventuallyRefusedWithin(ctx, time.Until(a.firstExpiry)+f.Opts.Timeouts.Converge, m.request("revoked-by-"+a.Key), "revoked certificate")
				By("positive control: the same CA's other client is still served")
				m.eventuallyServed(ctx, "kept-by-"+a.Key)
			}
		})
	})
}
