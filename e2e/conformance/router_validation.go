package conformance

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
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
				ca := framework.NewRootCA("Route CA " + ns)
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
				f.EventuallyResponds(ctx, f.HTTPS(matching.Spec.Host, "/"), backend.ServedPresenting(leaf.Cert))

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

		// An edge route's own certificate, key or CA certificate that is no
		// PEM passes the Route API but not the router: refused, with the
		// field named as upstream's first error names it, and not served;
		// the well-formed route beside it is served (the positive control).
		// Upstream's message aggregates every field error that follows
		// from the first, so the first is what the spec matches.
		//
		// Document: none (the Route API's spec.tls, openshift/api route/v1
		// types.go)
		// Upstream: openshift/router pkg/router/routeapihelpers/validation.go
		// (ExtendedValidateRoute: cert.ParseCertsPEM of the CA certificate,
		// then validateCertificatePEM of the certificate, then sanitizePEM of
		// the key, which drops what is not PEM, "no key specified") and
		// pkg/router/controller/extended_validator.go (reason
		// ExtendedValidationFailed, the aggregate as the message); unit test
		// pkg/router/template/plugin_test.go TestHandleRouteExtendedValidation
		DescribeTable("refuses an edge route whose certificate, key or CA certificate is no PEM, naming the field; the well-formed route is served",
			func(ctx SpecContext, malform func(*routev1.TLSConfig), firstError string) {
				ns := f.SpecNamespace(ctx, "router-malformed-pem")
				backend := f.DeployEcho(ctx, ns)
				ca := framework.NewRootCA("Route CA " + ns)
				edge := func(name string) *routev1.Route {
					GinkgoHelper()
					r := f.TerminatedRouteTo(backend, name, routev1.TLSTerminationEdge, "")
					leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: []string{r.Spec.Host}})
					Expect(err).NotTo(HaveOccurred())
					r.Spec.TLS.Certificate, r.Spec.TLS.Key, r.Spec.TLS.CACertificate = string(leaf.CertPEM), string(leaf.KeyPEM), string(ca.CertPEM)
					return r
				}
				By("positive control: the well-formed route is admitted and served")
				good := f.CreateRoute(ctx, edge("well-formed"))
				f.EventuallyResponds(ctx, f.HTTPS(good.Spec.Host, "/"), backend.Served)

				By("the malformed one: " + contract.ReasonExtendedValidationFailed + ", its first error " + firstError + ", not served")
				bad := edge("malformed")
				malform(bad.Spec.TLS)
				created := f.CreateRouteNoWait(ctx, bad)
				f.DefaultIngressController().EventuallyRouteNotAdmitted(ctx, created, contract.ReasonExtendedValidationFailed, ContainSubstring(firstError))
				f.EventuallyResponds(ctx, f.HTTPS(bad.Spec.Host, "/"), framework.NotServed)
			},
			Entry("a certificate that is no PEM", framework.ID("router/certificate-not-pem-refused"),
				func(t *routev1.TLSConfig) { t.Certificate = "not a certificate" }, contract.CertificateUnparsableRejection),
			Entry("a CA certificate with its line breaks written as \\n", framework.ID("router/ca-certificate-escaped-newlines-refused"),
				func(t *routev1.TLSConfig) { t.CACertificate = strings.ReplaceAll(t.CACertificate, "\n", `\n`) }, contract.CACertificateUnparsableRejection),
			Entry("a key that is no PEM", framework.ID("router/key-not-pem-refused"),
				func(t *routev1.TLSConfig) { t.Key = "not a key" }, contract.NoKeyRejection),
		)

		// A destinationCACertificate that holds no PEM certificate passes
		// the Route API (it parses no certificate) but not the router:
		// the route is refused with upstream's message and not served,
		// while the same route with the backend's CA is (the positive
		// control). Text that is no PEM at all, and PEM whose line breaks
		// are written as the two characters \ and n (a value pasted
		// through a JSON string by hand), are refused alike.
		//
		// Document: none (the Route API's spec.tls.destinationCACertificate,
		// openshift/api route/v1 types.go)
		// Upstream: openshift/router pkg/router/routeapihelpers/validation.go
		// (ExtendedValidateRoute: client-go cert.ParseCertsPEM of the
		// destination CA, "failed to parse destination CA certificate") and
		// pkg/router/controller/extended_validator.go (reason
		// ExtendedValidationFailed); unit test
		// pkg/router/template/plugin_test.go TestHandleRouteExtendedValidation
		DescribeTable("refuses a reencrypt route whose destinationCACertificate holds no PEM certificate; the backend's CA is served",
			func(ctx SpecContext, malformed func(caPEM string) string) {
				ns := f.SpecNamespace(ctx, "router-destination-ca")
				backend := f.DeployEchoFor(ctx, ns, routev1.TLSTerminationReencrypt)
				By("positive control: the reencrypt route with the backend's CA is admitted and served")
				good := f.CreateRoute(ctx, f.TerminatedRouteTo(backend, "good-ca", routev1.TLSTerminationReencrypt, ""))
				f.EventuallyResponds(ctx, f.HTTPS(good.Spec.Host, "/"), backend.Served)

				By("the same route with a destinationCACertificate that holds no certificate: " + contract.ReasonExtendedValidationFailed + ", not served")
				bad := f.TerminatedRouteTo(backend, "bad-ca", routev1.TLSTerminationReencrypt, "")
				bad.Spec.TLS.DestinationCACertificate = malformed(string(backend.CA.CertPEM))
				created := f.CreateRouteNoWait(ctx, bad)
				f.DefaultIngressController().EventuallyRouteNotAdmitted(ctx, created, contract.ReasonExtendedValidationFailed, contract.DestinationCAUnparsableRejection)
				f.EventuallyResponds(ctx, f.HTTPS(bad.Spec.Host, "/"), framework.NotServed)
			},
			Entry("text that is no PEM", framework.ID("router/destination-ca-not-pem-refused"), func(string) string { return "not a certificate" }),
			Entry(`PEM with its line breaks written as \n`, framework.ID("router/destination-ca-escaped-newlines-refused"), func(caPEM string) string {
				return strings.ReplaceAll(caPEM, "\n", `\n`)
			}),
		)
	})
}
