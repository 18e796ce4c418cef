package conformance

import (
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
// CRL specs judge the router.
//
// Each container has an IngressController of its own. A container is
// Ordered so that its PKI and its router's rollouts are shared, and
// ContinueOnFailure where its specs are independent cases (each sets the
// clientTLS it needs), so that one failure skips nothing else; a spec
// whose steps need the ones before is one It. The containers that wait
// out real time (CRL lifetimes, and upstream's retry of a failed
// download) are their own: describeCRLRefresh, describeCRLFailClosed and
// describeCRLUnreachable (client_tls_refresh.go).
//
// Connection kinds: a case of the TLS frontends is a pair of entries
// (framework.BothConnections: with SNI, upstream's fe_sni, and without,
// fe_no_sni, each with its own bind). The CRL download and refresh cases
// go with SNI only: which CRLs the router holds is one state for both
// binds (upstream writes one crl-file, named on both), and that fe_no_sni's
// bind checks it is what the no-SNI entries of the Required table show
// (a revoked leaf, a revoked intermediate, a large CRL).
//
// The files: client_tls.go (the change, the Required cases and the CRL
// chain and rotation), client_tls_headers.go, client_tls_policies.go
// (Optional and allowedSubjectPatterns), client_tls_api.go (the API and
// the ingress operator), client_tls_signer.go (the signer's-CRL layouts),
// client_tls_refresh.go (refresh, fail-closed, unreachable) and
// client_tls_points.go (several distribution points).
func describeClientTLS(f *framework.Framework) {
	framework.DescribeFeature(contract.FeatureClientTLS, func() {
		describeClientTLSChange(f)
		describeClientTLSAPI(f)
		describeClientTLSWithCRLs(f)
		describeSignerCRLLayout(f)
		describeCRLRefresh(f)
		describeCRLFailClosed(f)
		describeCRLUnreachable(f)
		describeCRLDistributionPoints(f)
		describeForgedCRL(f)
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
				jig.IC.Start(ctx) // served before clientTLS is set
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
			framework.BothConnections("none, Required, none", "client-tls/required-change-applied", f.OwnIngressControllerDecorator()),
		)

		// The bundle is edited where the administrator keeps it, nothing
		// else: the IngressController is not touched, and the router takes
		// the edit without a new pod or a restart. Both connection kinds in
		// one body: both binds name the one ca-file, and each entry would
		// wait out the kubelet's sync of the mounted copy twice.
		//
		// Document: the Ingress client TLS enhancement, section "Proposal"
		// (the IngressController verifies client certificates with the
		// bundle of the ConfigMap clientCA names)
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/clientca-configmap/controller.go
		// (ensureClientCAConfigMap: the copy in openshift-ingress follows
		// the source) and pkg/operator/controller/ingress/deployment.go
		// (desiredRouterDeployment: no hash of the bundle, so no rollout);
		// openshift/router pkg/router/template/router.go
		// (watchMutualTLSCert: a watch on the mounted directory, the CRL
		// manager told of the new bundle, a reload)
		It("takes an edit of the client CA ConfigMap in place: a CA added is trusted, one removed is not, with no restart", framework.ID("client-tls/client-ca-edited-in-place"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
			jig := clientTLSEdgeJig(ctx, f, "ctls-ca-edit")
			ns := jig.Namespace
			first, second := framework.NewRootCA("First client CA "+ns), framework.NewRootCA("Second client CA "+ns)
			jig.Issue("of-first", first, pki.Window{})
			jig.Issue("of-second", second, pki.Window{})
			caMap := jig.ClientCAMap(ctx, "edited-ca-"+ns, string(first.CertPEM))
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caMap)
			const unknownCA = "unknown certificate authority"
			for _, conn := range framework.TLSConnections {
				By(fmt.Sprintf("%s: the first CA's client is served; the second's is refused (%s)", conn.Name, unknownCA))
				jig.EventuallyServedOver(ctx, conn, "of-first")
				jig.EventuallyRefusedOver(ctx, conn, "of-second", unknownCA)
			}
			pods := routerPods(ctx, f, jig.IC.Name)
			generation := jig.IC.Generation(ctx)
			edit := func(bundle string) {
				GinkgoHelper()
				_, err := framework.Update(ctx, f.Clientset.CoreV1().ConfigMaps(contract.ConfigNamespace), caMap, func(cm *corev1.ConfigMap) {
					cm.Data[contract.ClientCAKey] = bundle
				})
				Expect(err).NotTo(HaveOccurred())
			}

			By("the second CA added to the ConfigMap in place: its client is served, the first's still is")
			edit(string(pki.Bundle(first, second)))
			for _, conn := range framework.TLSConnections {
				jig.EventuallyServedWithin(ctx, f.Opts.Timeouts.MountedConfigMap, jig.RequestOver(conn, "of-second"))
				jig.EventuallyServedOver(ctx, conn, "of-first")
			}

			By("the first CA removed in place: its client is refused (" + unknownCA + "), the second's still served")
			edit(string(second.CertPEM))
			for _, conn := range framework.TLSConnections {
				jig.EventuallyRefusedWithin(ctx, f.Opts.Timeouts.MountedConfigMap, jig.RequestOver(conn, "of-first"), unknownCA)
				jig.EventuallyServedOver(ctx, conn, "of-second")
			}

			By("no rollout and no restart: the same router pods, the same restart counts, the IngressController unchanged")
			Expect(routerPods(ctx, f, jig.IC.Name)).To(Equal(pods))
			Expect(jig.IC.Generation(ctx)).To(Equal(generation))
		})
	})
}

// icDERHeader is the request header the main container's
// IngressController sets to the client certificate.
const icDERHeader = "X-Client-Der"

// crlContainer is what the main container's specs share: one
// IngressController under Required (the Optional and subject-pattern
// specs change it, and each spec sets the clientTLS it needs), the CAs of
// the own-CRL layout, a five-CA chain, and routes of every TLS
// termination.
type crlContainer struct {
	jig *framework.ClientTLSJig
	// Routes of the other terminations under the same clientTLS, and a
	// plain route (plain HTTP, which mutual TLS never reaches).
	passthroughHost, reencryptHost, plainHost string
	// chain is root, foo, bar, baz, quux: each CA issued by the one
	// before, each with its own CRL (TestMTLSWithCRLs'
	// multiple-intermediate-ca).
	chain    []*framework.CRLAuthority
	server   *framework.CRLServer
	pub      *framework.Publisher
	inter    *framework.CRLAuthority
	caBundle string
}

// required puts the container's clientTLS back to Required with the
// whole bundle and no pattern (nothing rolls out when it already is).
func (c *crlContainer) required(ctx SpecContext) {
	GinkgoHelper()
	c.jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, c.caBundle)
}

// The main client-TLS container.
func describeClientTLSWithCRLs(f *framework.Framework) {
	// Slow containers are scheduled first, so the parallel run is not
	// left waiting on them at the end.
	Describe("with CRLs from distribution points", f.OwnIngressControllerDecorator(), Ordered, ContinueOnFailure, SpecPriority(100), func() {
		const crlLifetime = 40 * time.Second // not a wait: the lifetime (nextUpdate) of the CRLs the crlserver publishes, data the router is given
		c := &crlContainer{}
		BeforeAll(func(ctx SpecContext) {
			c.jig = framework.NewClientTLSJig(ctx, f, "client-tls")
			jig := c.jig
			ns := jig.Namespace
			c.server = f.DeployCRLServer(ctx, ns)
			server := c.server
			// Own-CRL layout: each CA certificate names the URL of its own CRL.
			root := framework.NewCRLAuthority(server, nil, "Client Root CA", "root.crl.pem")
			c.inter = framework.NewCRLAuthority(server, root.CA, "Client Intermediate CA", "intermediate.crl.pem")
			revokedInter := framework.NewCRLAuthority(server, root.CA, "Revoked Intermediate CA", "revoked-intermediate.crl.pem")
			other := framework.NewCRLAuthority(server, nil, "Other Root CA", "other-root.crl.pem")
			// A CA whose CRL revokes 30 000 serials: over 1 MB of DER.
			large := framework.NewCRLAuthority(server, nil, "Large CRL CA", "large.crl")
			large.Filler = 30000
			foreign, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Foreign CA"}})
			Expect(err).NotTo(HaveOccurred())

			jig.Issue("valid", c.inter.CA, pki.Window{})
			jig.Issue("revoked", c.inter.CA, pki.Window{})
			jig.Issue("expired", c.inter.CA, pki.Expired())
			jig.Issue("not-yet-valid", c.inter.CA, pki.NotYetValid())
			jig.Issue("someone-else", c.inter.CA, pki.Window{})
			jig.Issue("of-revoked-intermediate", revokedInter.CA, pki.Window{})
			jig.Issue("of-other-root", other.CA, pki.Window{})
			jig.Issue("untrusted", foreign, pki.Window{})
			jig.Issue("of-large-crl-ca", large.CA, pki.Window{})
			jig.Issue("revoked-in-large-crl", large.CA, pki.Window{})

			c.chain = []*framework.CRLAuthority{framework.NewCRLAuthority(server, nil, "Chain Root CA", "chain-root.crl.pem")}
			for _, name := range []string{"foo", "bar", "baz", "quux"} {
				c.chain = append(c.chain, framework.NewCRLAuthority(server, c.chain[len(c.chain)-1].CA, "Chain "+name+" CA", "chain-"+name+".crl.pem"))
			}
			for _, a := range c.chain {
				jig.Issue("signed-by-"+a.Key, a.CA, pki.Window{})
				jig.Issue("revoked-by-"+a.Key, a.CA, pki.Window{})
			}

			c.pub = &framework.Publisher{Server: server, Lifetime: crlLifetime}
			jig.CRLs = c.pub
			for _, a := range append([]*framework.CRLAuthority{root, c.inter, revokedInter, other, large}, c.chain...) {
				c.pub.Add(a)
			}
			for _, a := range c.chain {
				c.pub.SetRevoked(ctx, a, []*pki.Leaf{jig.Leaves["revoked-by-"+a.Key]}, nil)
			}
			c.pub.SetRevoked(ctx, root, nil, []*pki.CA{revokedInter.CA})
			c.pub.SetRevoked(ctx, c.inter, []*pki.Leaf{jig.Leaves["revoked"]}, nil)
			c.pub.SetRevoked(ctx, large, []*pki.Leaf{jig.Leaves["revoked-in-large-crl"]}, nil)
			c.pub.Start(ctx)

			// The passthrough route's host is on the backend's own certificate.
			backend := f.DeployTLSEcho(ctx, ns, f.Host(ns, "passthrough"))
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
			c.passthroughHost = f.CreateRoute(ctx, passthrough).Spec.Host
			reencrypt := f.RouteTo(backend, "reencrypt", framework.EchoHTTPSPort)
			reencrypt.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationReencrypt, DestinationCACertificate: string(backend.CA.CertPEM)}
			c.reencryptHost = f.CreateRoute(ctx, reencrypt).Spec.Host
			c.plainHost = f.CreateRoute(ctx, f.RouteTo(backend, "plain", framework.EchoHTTPPort)).Spec.Host

			cas := []*pki.CA{root.CA, c.inter.CA, revokedInter.CA, other.CA, large.CA}
			for _, a := range c.chain {
				cas = append(cas, a.CA)
			}
			c.caBundle = jig.ClientCAMap(ctx, "client-ca-"+ns, string(pki.Bundle(cas...)))
			// The IngressController is created with both: Required, and its
			// own dynamic action with the client certificate (the specs after
			// change only clientTLS, so the action stays for the container).
			jig.Configure(ctx, func(ic *operatorv1.IngressController) {
				ic.Spec.ClientTLS = framework.ClientTLS(operatorv1.ClientCertificatePolicyRequired, c.caBundle)
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
				fetches, err := c.server.Fetches(ctx)
				g.Expect(err).NotTo(HaveOccurred())
				for _, key := range []string{"root.crl.pem", "intermediate.crl.pem", "revoked-intermediate.crl.pem", "other-root.crl.pem", "large.crl"} {
					g.Expect(fetches).To(HaveKeyWithValue("/"+key, BeNumerically(">", 0)), "fetches of %s", key)
				}
			}).Should(Succeed(), c.pub.State)
		})

		// Without SNI: upstream's fe_no_sni, with its own bind (verify,
		// ca-file, crl-file); the default certificate, the route by the Host
		// header.
		//
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
				c.required(ctx)
				if alert != "" {
					By("positive control: a valid client is served")
					c.jig.EventuallyServedOver(ctx, conn, "valid")
					c.jig.EventuallyRefusedOver(ctx, conn, client, alert)
					return
				}
				c.jig.EventuallyServedOver(ctx, conn, client)
			},
			framework.BothConnections("a valid client", "client-tls/required-valid", "valid", ""),
			framework.BothConnections("a client of a second root in the bundle", "client-tls/required-second-root", "of-other-root", ""),
			framework.BothConnections("no certificate", "client-tls/required-no-certificate", "", "certificate required"),
			framework.BothConnections("a certificate of a CA outside the bundle", "client-tls/required-untrusted-ca", "untrusted", "unknown certificate authority"),
			framework.BothConnections("an expired certificate", "client-tls/required-expired", "expired", "expired certificate"),
			framework.BothConnections("a certificate not yet valid", "client-tls/required-not-yet-valid", "not-yet-valid", "bad certificate"),
			framework.BothConnections("a revoked certificate", "client-tls/required-revoked-leaf", "revoked", "revoked certificate"),
			framework.BothConnections("a client of a revoked intermediate", "client-tls/required-revoked-intermediate", "of-revoked-intermediate", "revoked certificate"),
			framework.BothConnections("a client of the CA with a large CRL", "client-tls/required-large-crl", "of-large-crl-ca", ""),
			framework.BothConnections("a certificate revoked in a large CRL", "client-tls/required-revoked-in-large-crl", "revoked-in-large-crl", "revoked certificate"),
		)

		describeClientTLSHeaders(f, c)

		// Upstream: mTLS is configured on fe_sni and fe_no_sni only; a
		// passthrough route leaves public_ssl for its backend before them.
		// The passthrough route with SNI only: public_ssl picks a
		// passthrough route by SNI, so without SNI no passthrough route is
		// reached at all; the reencrypt route over both TLS frontends.
		//
		// Document: the Ingress client TLS enhancement, section "Implementing
		// Basic Support for Client Certificate Verification" (the verify option
		// on the bind stanzas of the TLS frontends)
		// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
		// (frontend public_ssl: os_sni_passthrough.map and os_tcp_be.map before
		// be_sni/be_no_sni; `verify` on the fe_sni and fe_no_sni binds only) and
		// openshift/api operator/v1 types_ingresscontroller.go (ClientTLS)
		It("Required: applies to reencrypt routes, not to passthrough routes", framework.ID("client-tls/required-reencrypt-not-passthrough"), func(ctx SpecContext) {
			c.required(ctx)
			jig := c.jig
			By("positive control: the edge route refuses a client without a certificate")
			jig.EventuallyRefused(ctx, "", "certificate required")
			By("a passthrough route serves the same client: the backend terminates TLS")
			pass := jig.IC.HTTPS(c.passthroughHost, "/")
			pass.RootCAs = pki.Pool(jig.Echo.CA)
			f.EventuallyResponds(ctx, pass, func(g Gomega, resp *httpclient.Response) {
				jig.Echo.Served(g, resp)
				g.Expect(resp.Echo.Listener).To(Equal("https"))
			})
			for _, conn := range framework.TLSConnections {
				By("a reencrypt route refuses it, and serves a valid client: " + conn.Name)
				reencrypt := conn.Over(jig.IC.HTTPS(c.reencryptHost, "/"))
				jig.EventuallyRefusedWithin(ctx, f.Opts.Timeouts.Converge, reencrypt, "certificate required")
				f.EventuallyResponds(ctx, framework.WithCert(reencrypt, jig.Certs["valid"]), func(g Gomega, resp *httpclient.Response) {
					jig.Echo.Served(g, resp)
					g.Expect(http.Header(resp.Echo.Headers).Values("X-SSL-Client-CN")).To(Equal([]string{"valid"}))
				})
			}
		})

		// cluster-ingress-operator test/e2e/client_tls_test.go, TestMTLSWithCRLs
		// multiple-intermediate-ca: root→foo→bar→baz→quux, each CA's own CRL.
		// Each CA is an entry of its own, so that one CA's failure does not
		// hide the others'.
		//
		// Document: the Ingress client TLS enhancement, section "Implementing
		// Support for Certificate Revocation Lists" (a CRL for each certificate
		// of the bundle that names a distribution point)
		// Upstream: openshift/router pkg/router/crl/crl.go (downloadMissingCRLs:
		// every CA certificate of the bundle) and
		// images/router/haproxy/conf/haproxy-config.template (crl-file on the
		// fe_sni and fe_no_sni binds)
		It("a chain of five CAs with a CRL each: every signed-by-X client served, every revoked-by-X refused", framework.ID("client-tls/crl-chain-of-five"), func(ctx SpecContext) {
			c.required(ctx)
			for _, a := range c.chain {
				c.jig.EventuallyServed(ctx, "signed-by-"+a.Key)
				c.jig.EventuallyRefused(ctx, "revoked-by-"+a.Key, "revoked certificate")
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
			c.required(ctx)
			jig := c.jig
			By("positive control: the certificate is revoked now")
			jig.EventuallyRefused(ctx, "revoked", "revoked certificate")
			start := time.Now()
			c.pub.SetRevoked(ctx, c.inter, nil, nil)
			// Whatever happens next, the container's CRL revokes it again.
			DeferCleanup(func(ctx SpecContext) { c.pub.SetRevoked(ctx, c.inter, []*pki.Leaf{jig.Leaves["revoked"]}, nil) })
			jig.EventuallyServedWithin(ctx, f.Opts.Timeouts.CRLRefresh, jig.Request("revoked"))
			AddReportEntry("CRL rotation latency (un-revoke)", time.Since(start).Round(time.Second).String())

			c.pub.SetRevoked(ctx, c.inter, []*pki.Leaf{jig.Leaves["revoked"]}, nil)
			jig.EventuallyRefusedWithin(ctx, f.Opts.Timeouts.CRLRefresh, jig.Request("revoked"), "revoked certificate")
		})

		describeClientTLSPolicies(f, c)
	})
}

// routerPods are the IngressController's router pods, each with the
// restarts of its containers: what a rollout or a restart changes.
func routerPods(ctx SpecContext, f *framework.Framework, ic string) map[string]int32 {
	GinkgoHelper()
	d, err := f.Clientset.AppsV1().Deployments(contract.RouterNamespace).Get(ctx, contract.RouterDeploymentName(ic), metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	selector, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	Expect(err).NotTo(HaveOccurred())
	list, err := f.Clientset.CoreV1().Pods(contract.RouterNamespace).List(ctx, metav1.ListOptions{LabelSelector: selector.String()})
	Expect(err).NotTo(HaveOccurred())
	pods := map[string]int32{}
	for _, p := range list.Items {
		var restarts int32
		for _, c := range p.Status.ContainerStatuses {
			restarts += c.RestartCount
		}
		pods[p.Name] = restarts
	}
	Expect(pods).NotTo(BeEmpty(), "no router pod of %s", d.Name)
	return pods
}
