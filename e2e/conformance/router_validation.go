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

// Extended route validation: what the router checks of a route's TLS
// material that the Route API lets through, and how it says so in the
// route's status.
func describeExtendedValidation(f *framework.Framework) {
	Describe("extended route validation", func() {
		// The certificate's own key is what makes it servable: a key of
		// another certificate is refused by the router, whether the
		// certificate is current or expired, and the route is not served;
		// expiry alone is the client's to judge, so an expired certificate
		// with its own key is admitted and presented as it is (the
		// positive control, and upstream's scenario of its own).
		//
		// Document: none (the Route API's spec.tls, openshift/api route/v1
		// types.go; no seed design document covers it)
		// Upstream: openshift/router
		// pkg/router/controller/extended_validator.go (HandleRoute:
		// reason ExtendedValidationFailed, the aggregate of
		// ExtendedValidateRoute's errors as the message) and
		// pkg/router/routeapihelpers/validation.go (ExtendedValidateRoute:
		// tls.X509KeyPair of the certificate and the key, field.Invalid on
		// spec.tls.key with "redacted key data"; validateCertificatePEM
		// lets an error that is only expiry through); unit test
		// pkg/router/template/plugin_test.go TestHandleRouteExtendedValidation
		DescribeTable("refuses a route whose key is not its certificate's, and serves a certificate with its own key even when expired",
			func(ctx SpecContext, window pki.Window) {
				ns := f.SpecNamespace(ctx, "router-extended")
				backend := f.DeployEcho(ctx, ns)
				ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Route CA " + ns}})
				Expect(err).NotTo(HaveOccurred())
				edge := func(name string, key []byte) (*routev1.Route, *pki.Leaf) {
					GinkgoHelper()
					r := f.TerminatedRouteTo(backend, name, routev1.TLSTerminationEdge, "")
					leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: []string{r.Spec.Host}, Window: window})
					Expect(err).NotTo(HaveOccurred())
					if key == nil {
						key = leaf.KeyPEM
					}
					r.Spec.TLS.Certificate, r.Spec.TLS.Key, r.Spec.TLS.CACertificate = string(leaf.CertPEM), string(key), string(ca.CertPEM)
					return r, leaf
				}

				By("positive control: the certificate with its own key is admitted and presented as it is")
				matching, leaf := edge("own-key", nil)
				f.CreateRoute(ctx, matching)
				f.EventuallyResponds(ctx, f.HTTPS(matching.Spec.Host, "/"), func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
					g.Expect(resp.TLS.PeerCertificates[0].Equal(leaf.Cert)).To(BeTrue(), "want the route's certificate (serial %s), got %s serial %s",
						leaf.Cert.SerialNumber, resp.TLS.PeerCertificates[0].Subject, resp.TLS.PeerCertificates[0].SerialNumber)
				})

				By("the same kind of certificate with another's key: not admitted (" + contract.ReasonExtendedValidationFailed + "), not served")
				other, err := ca.IssueServer(pki.ServerOptions{Hosts: []string{"other." + matching.Spec.Host}})
				Expect(err).NotTo(HaveOccurred())
				foreign, _ := edge("foreign-key", other.KeyPEM)
				created := f.CreateRouteNoWait(ctx, foreign)
				f.DefaultIngressController().EventuallyRouteNotAdmitted(ctx, created, contract.ReasonExtendedValidationFailed, contract.KeyPairMismatchRejection)
				f.EventuallyResponds(ctx, f.HTTPS(foreign.Spec.Host, "/"), framework.NotServed)
			},
			Entry("a current certificate", framework.ID("router/foreign-key-refused"), pki.Window{}),
			Entry("an expired certificate", framework.ID("router/foreign-key-refused-expired"), pki.Expired()),
		)
	})
}
