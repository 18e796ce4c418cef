package conformance

import (
	"crypto/x509"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// describeDelegationTLS: a TLS root: its secret presented, plain HTTP
// redirected, the secret namespace, and TLS across re-delegation.
func describeDelegationTLS(f *framework.Framework) {
	// IngressRoute design document, section "TLS": the root names a
	// kubernetes.io/tls Secret of its own namespace, presented for the
	// fqdn and the aliases by SNI. Contour v1.0.1 internal/dag/builder.go
	// (computeIngressRoute, validSecret) refuses a root whose secret is
	// missing or not a kubernetes.io/tls secret with a certificate and a
	// key ("TLS Secret [%s] not found or is malformed", naming the secret
	// as spec.virtualhost.tls does) and serves none of it.
	//
	// Document: the IngressRoute design document (Contour), section "TLS"
	// (and section "IngressRoute CRD": the certificate is matched on the
	// fqdn and the aliases)
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (computeIngressRoute: lookupSecret with validSecret, "TLS Secret
	// [%s] not found or is malformed"; the secure virtual host's Secret).
	// v1.0.1 has no aliases: for them the document decides
	It("TLS: the root's secret is presented for its fqdn and aliases; a missing or malformed secret leaves the root unserved", framework.ID("delegation/tls-secret-presented"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "ir-tls")
		r := createTLSRootWithAlias(ctx, f, ns)
		backend, fqdn, alias, ca, secret, cert := r.backend, r.fqdn, r.alias, r.ca, r.secret, r.cert

		f.EventuallyIngressRouteStatus(ctx, ns, "root", expectValid)
		for _, host := range []string{fqdn, alias} {
			req := f.HTTPS(host, "/")
			req.RootCAs = pki.Pool(ca)
			f.EventuallyResponds(ctx, req, backend.ServedPresenting(cert))
		}

		for _, c := range []struct {
			what   string
			secret string
			why    contract.StatusDescription
		}{
			{"a secret that does not exist", "missing-tls", contract.IngressRouteTLSSecretNotFound(ns, "missing-tls")},
			{"a secret that is not of type kubernetes.io/tls", "opaque", contract.IngressRouteTLSSecretWrongType(ns, "opaque", string(corev1.SecretTypeOpaque))},
		} {
			By(c.what + ": the root is invalid and served neither over HTTPS nor HTTP")
			if c.secret == "opaque" {
				_, err := f.Clientset.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{
					ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "opaque"}, Type: corev1.SecretTypeOpaque, Data: secret.Data,
				}, metav1.CreateOptions{})
				Expect(err).NotTo(HaveOccurred())
			}
			f.UpdateIngressRoute(ctx, ns, "root", func(ir *irv1.IngressRoute) { ir.Spec.VirtualHost.TLS.SecretName = c.secret })
			f.EventuallyIngressRouteStatus(ctx, ns, "root", framework.IngressRouteStatusIs(c.why))
			f.EventuallyResponds(ctx, f.HTTP(fqdn, "/"), framework.NotServed)
			f.EventuallyResponds(ctx, f.HTTPS(fqdn, "/"), framework.NotServed)
		}
	})

	// Contour v1.0.1 site/_docs_1_0/ingressroute.md, "TLS": "When TLS is
	// enabled for a virtual host, any request to the insecure port is
	// redirected to the secure interface with a 301 redirect" (the
	// design document, section "TLS", says nothing of plain HTTP). The
	// redirect is Envoy's https_redirect (internal/envoy/route.go,
	// UpgradeHTTPS): the scheme becomes https, host, path and query
	// stay. The design document's API has no permitInsecure, so every
	// route redirects.
	//
	// Document: the IngressRoute design document (Contour), section "TLS"
	// (silent on plain HTTP, so shipped Contour decides)
	// Upstream: projectcontour/contour v1.0.1
	// site/_docs_1_0/ingressroute.md ("TLS": a 301 to the secure
	// interface), internal/dag/builder.go (processIngressRoutes:
	// HTTPSUpgrade from routeEnforceTLS) and internal/envoy/route.go
	// (UpgradeHTTPS: Envoy's https_redirect)
	It("TLS: plain HTTP to a TLS root gets a 301 to https for its fqdn and aliases, path and query kept", framework.ID("delegation/tls-http-redirect"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "ir-https-redirect")
		r := createTLSRootWithAlias(ctx, f, ns)
		backend, fqdn, alias, ca := r.backend, r.fqdn, r.alias, r.ca
		f.EventuallyIngressRouteStatus(ctx, ns, "root", expectValid)

		const path = "/p/q?x=1&y=2"
		for _, host := range []string{fqdn, alias} {
			By("positive control: " + host + " is served over HTTPS")
			req := f.HTTPS(host, path)
			req.RootCAs = pki.Pool(ca)
			f.EventuallyResponds(ctx, req, backend.Served)
			By("plain HTTP to " + host + ": the router's own 301 to https")
			f.EventuallyResponds(ctx, f.HTTP(host, path), func(g Gomega, resp *httpclient.Response) {
				// httpclient never follows a redirect: this is the
				// router's own answer, which no backend saw.
				g.Expect(resp.Status).To(Equal(http.StatusMovedPermanently), "body: %s", resp.Body)
				g.Expect(resp.Echo).To(BeNil(), "a backend answered: %+v", resp.Echo)
				g.Expect(resp.Header.Values("Location")).To(Equal([]string{"https://" + host + path}))
			})
		}
	})

	// IngressRoute design document, section "TLS": "the IngressRoute root
	// and the TLS Secret must live in the same namespace. However ...
	// the entire routespace (/ onwards) can be delegated to another
	// namespace, which allows operators to define virtual hosts and
	// their TLS configuration in one namespace, and delegate the
	// operation of those virtual hosts to another namespace". So a
	// secret only the operating namespace holds is not the root's: the
	// root is invalid, served neither over HTTPS nor HTTP, and its
	// vertex is orphaned; with the secret in the root's namespace the
	// whole host is served over HTTPS by the other namespace's vertex,
	// with the root's certificate.
	//
	// Where the document is silent Contour v1.0.1 decides: a secretName
	// "namespace/name" names another namespace's secret (splitSecret),
	// which is refused unless a TLSCertificateDelegation permits it
	// ("%s: certificate delegation not permitted"); this API has none. A
	// plain name is looked up in the root's namespace ("TLS Secret [%s]
	// not found or is malformed").
	//
	// Document: the IngressRoute design document (Contour), section "TLS"
	// (the root and its TLS secret in one namespace; / delegated to the
	// namespace that operates the host)
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (computeIngressRoute: splitSecret, lookupSecret, "TLS Secret [%s]
	// not found or is malformed", delegationPermitted and "%s:
	// certificate delegation not permitted")
	DescribeTable("TLS: the root's secret must be in the root's namespace, and with it there the whole host, / delegated to another namespace, is served; a secret only that other namespace holds,",
		func(ctx SpecContext, secretName func(appNS string) string, why func(hostsNS, appNS string) contract.StatusDescription) {
			hostsNS := f.SpecNamespace(ctx, "ir-tlsns-hosts")
			appNS := f.SpecNamespace(ctx, "ir-tlsns-app")
			app := f.DeployEcho(ctx, appNS)
			host := f.Host(hostsNS, "www")
			ca := framework.NewRootCA("IngressRoute CA " + hostsNS)
			secret, cert := framework.TLSSecret(ca, appNS, "www-tls", host)
			createSecret(ctx, f, secret)
			f.CreateIngressRoute(ctx, vertexRoute(appNS, "site", toService("/", app.Service)))
			root := rootRoute(hostsNS, "root", host, delegateTo("/", "site", appNS))
			root.Spec.VirtualHost.TLS = &irv1.TLS{SecretName: secretName(appNS)}
			f.CreateIngressRoute(ctx, root)

			f.EventuallyIngressRouteStatus(ctx, hostsNS, "root", framework.IngressRouteStatusIs(why(hostsNS, appNS)))
			f.EventuallyIngressRouteStatus(ctx, appNS, "site", expectOrphaned)
			f.EventuallyResponds(ctx, f.HTTPS(host, "/"), framework.NotServed)
			f.EventuallyResponds(ctx, f.HTTP(host, "/"), framework.NotServed)

			By("positive control: the secret in the root's namespace, the host is served over HTTPS by the vertex / is delegated to")
			own := secret.DeepCopy()
			own.Namespace = hostsNS
			createSecret(ctx, f, own)
			f.UpdateIngressRoute(ctx, hostsNS, "root", func(ir *irv1.IngressRoute) { ir.Spec.VirtualHost.TLS.SecretName = "www-tls" })
			f.EventuallyIngressRouteStatus(ctx, hostsNS, "root", expectValid)
			f.EventuallyIngressRouteStatus(ctx, appNS, "site", expectConnected("root", hostsNS, "/"))
			for _, path := range []string{"/", "/any/depth"} {
				f.EventuallyResponds(ctx, httpsWith(f.HTTPS(host, path), ca), app.ServedPresenting(cert))
			}
		},
		Entry("named plainly, is looked up in the root's namespace and not found", framework.ID("delegation/tls-secret-other-namespace"),
			func(string) string { return "www-tls" },
			func(hostsNS, _ string) contract.StatusDescription {
				return contract.IngressRouteTLSSecretNotFound(hostsNS, "www-tls")
			}),
		Entry("named namespace/name, is refused: certificate delegation is not permitted", framework.ID("delegation/tls-secret-namespace-qualified"),
			func(appNS string) string { return appNS + "/www-tls" },
			func(hostsNS, appNS string) contract.StatusDescription {
				return contract.IngressRouteTLSSecretOtherNamespace(hostsNS, appNS, "www-tls")
			}),
	)

	// IngressRoute design document, section "No ability to prevent route
	// delegation", its worked example: www.google.com's TLS root (in
	// virtualhost-namespace) delegates /mail to the gmail vertex;
	// dave.cheney.net's root, without TLS, delegates / to customer-dave's
	// webapp, which delegates /mail to gmail; "And all of a sudden,
	// http://dave.cheney.net/mail is serving up the full gmail
	// application, sans TLS". The document names this the design's
	// weakness and adopts no mitigation (section "Mitigations"), and
	// Contour v1.0.1 follows every delegation from each root, with TLS
	// per virtual host: the vertex is served over HTTPS (plain HTTP
	// redirected) on the first host and over plain HTTP on the second,
	// and its status names both parents (section "Reporting status":
	// "an IngressRoute may be a part of several delegation chains").
	//
	// Document: the IngressRoute design document (Contour), sections "No
	// ability to prevent route delegation" (the dave.cheney.net example)
	// and "Reporting status" (delegationStatuses is a list)
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (computeIngressRoute: enforceTLS per root; processIngressRoutes
	// follows each delegation, a delegate route's prefix unchecked, and
	// adds a route to the secure virtual host only under a TLS root).
	// v1.0.1 writes no delegationStatuses (internal/k8s/status.go,
	// CRDStatus.SetStatus): the document decides
	It("a vertex of a TLS root, re-delegated from a host without TLS, is served there over plain HTTP and names both parents", framework.ID("delegation/tls-downgrade-by-redelegation"), func(ctx SpecContext) {
		vhNS := f.SpecNamespace(ctx, "ir-downgrade-vh")
		gmailNS := f.SpecNamespace(ctx, "ir-downgrade-gmail")
		daveNS := f.SpecNamespace(ctx, "ir-downgrade-dave")
		gmail := f.DeployEcho(ctx, gmailNS)
		google, dave := f.Host(vhNS, "www"), f.Host(vhNS, "dave")
		ca := framework.NewRootCA("IngressRoute CA " + vhNS)
		secret, cert := framework.TLSSecret(ca, vhNS, "google-tls", google)
		createSecret(ctx, f, secret)
		f.CreateIngressRoute(ctx, vertexRoute(gmailNS, "gmail", toService("/mail", gmail.Service)))
		root := rootRoute(vhNS, "google", google, delegateTo("/mail", "gmail", gmailNS))
		root.Spec.VirtualHost.TLS = &irv1.TLS{SecretName: "google-tls"}
		f.CreateIngressRoute(ctx, root)

		By("positive control: gmail is served on the TLS root's host over HTTPS, and plain HTTP is redirected")
		f.EventuallyIngressRouteStatus(ctx, gmailNS, "gmail", expectConnected("google", vhNS, "/mail"))
		f.EventuallyResponds(ctx, httpsWith(f.HTTPS(google, "/mail"), ca), gmail.ServedPresenting(cert))
		f.EventuallyResponds(ctx, f.HTTP(google, "/mail"), redirectedToHTTPS(google, "/mail"))

		By("dave's cheap webhosting: a root without TLS delegates / to customer-dave, whose vertex delegates /mail to gmail")
		f.CreateIngressRoute(ctx, rootRoute(vhNS, "dave", dave, delegateTo("/", "webapp", daveNS)))
		f.CreateIngressRoute(ctx, vertexRoute(daveNS, "webapp", delegateTo("/mail", "gmail", gmailNS)))
		f.EventuallyResponds(ctx, f.HTTP(dave, "/mail"), gmail.Served)
		f.EventuallyIngressRouteStatus(ctx, daveNS, "webapp", expectConnected("dave", vhNS, "/"))
		f.EventuallyIngressRouteStatus(ctx, gmailNS, "gmail", func(g Gomega, st irv1.Status) {
			expectConnected("google", vhNS, "/mail")(g, st)
			expectConnected("webapp", daveNS, "/mail")(g, st)
		})
		By("the TLS root's host is unchanged: HTTPS with its certificate, plain HTTP redirected")
		f.EventuallyResponds(ctx, httpsWith(f.HTTPS(google, "/mail"), ca), gmail.ServedPresenting(cert))
		f.EventuallyResponds(ctx, f.HTTP(google, "/mail"), redirectedToHTTPS(google, "/mail"))
	})
}

// tlsRoot is a root with TLS for an fqdn and an alias, as
// createTLSRootWithAlias makes it.
type tlsRoot struct {
	backend     *framework.Echo
	fqdn, alias string
	ca          *pki.CA
	secret      *corev1.Secret
	cert        *x509.Certificate
}

// createTLSRootWithAlias creates root "root" in ns serving an echo
// backend at / for an fqdn and an alias, with spec.virtualhost.tls naming
// Secret www-tls: a certificate of a new CA for both names.
func createTLSRootWithAlias(ctx SpecContext, f *framework.Framework, ns string) tlsRoot {
	GinkgoHelper()
	r := tlsRoot{backend: f.DeployEcho(ctx, ns), fqdn: f.Host(ns, "secure"), alias: f.Host(ns, "secure-alias")}
	r.ca = framework.NewRootCA("IngressRoute CA " + ns)
	r.secret, r.cert = framework.TLSSecret(r.ca, ns, "www-tls", r.fqdn, r.alias)
	_, err := f.Clientset.CoreV1().Secrets(ns).Create(ctx, r.secret, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	root := rootRoute(ns, "root", r.fqdn, toService("/", r.backend.Service))
	root.Spec.VirtualHost.Aliases = []string{r.alias}
	root.Spec.VirtualHost.TLS = &irv1.TLS{SecretName: "www-tls"}
	f.CreateIngressRoute(ctx, root)
	return r
}
