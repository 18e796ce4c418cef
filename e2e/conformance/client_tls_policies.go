package conformance

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// describeClientTLSPolicies: Optional and allowedSubjectPatterns, in the
// main container (describeClientTLSWithCRLs); each spec sets its own
// clientTLS.
func describeClientTLSPolicies(f *framework.Framework, c *crlContainer) {
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
	//
	// A pattern never vouches for a CA: the client of a CA outside the
	// bundle whose subject matches a pattern is still refused in the
	// handshake (upstream: the bind's verify with the CA file comes
	// before the http-request deny on the pattern; cluster-ingress-operator
	// test/e2e client_tls_test.go TestClientTLS, up-006).
	DescribeTable("enforces allowedSubjectPatterns: a matching subject is served, others get 403, an untrusted CA's matching subject is refused",
		func(ctx SpecContext, conn framework.Connection) {
			c.jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, c.caBundle, "/CN=valid$", "/CN=of-other-root$", "OU=Eng/CN=signed-by-chain-root", "/CN=untrusted$")
			for _, client := range []string{"valid", "of-other-root", "signed-by-chain-root.crl.pem"} {
				c.jig.EventuallyServedOver(ctx, conn, client)
			}
			f.EventuallyResponds(ctx, c.jig.RequestOver(conn, "someone-else"), func(g Gomega, resp *httpclient.Response) {
				g.Expect(resp.Status).To(Equal(http.StatusForbidden))
				g.Expect(resp.Echo).To(BeNil(), "the backend must not see a refused client")
			})
			c.jig.EventuallyRefusedOver(ctx, conn, "untrusted", "unknown certificate authority")
		},
		framework.BothConnections("three patterns", "client-tls/subject-patterns"),
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
			c.jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyOptional, c.caBundle)
			f.EventuallyResponds(ctx, c.jig.RequestOver(conn, ""), func(g Gomega, resp *httpclient.Response) {
				c.jig.Echo.Served(g, resp)
				g.Expect(resp.CertificateRequested).To(BeTrue(), "Optional asks for a certificate")
				framework.HeaderExpectations{"X-SSL-Client-DER": {""}, "X-SSL-Client-DN": {""}}.Check(g, http.Header(resp.Echo.Headers), "the backend")
			})
			c.jig.EventuallyServedOver(ctx, conn, "valid")
			c.jig.EventuallyRefusedOver(ctx, conn, "expired", "expired certificate")
			c.jig.EventuallyRefusedOver(ctx, conn, "untrusted", "unknown certificate authority")
		},
		framework.BothConnections("Optional", "client-tls/optional-outcomes"),
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
			c.jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyOptional, c.caBundle, "/CN=valid$")
			By("positive control: a matching client is served")
			c.jig.EventuallyServedOver(ctx, conn, "valid")
			f.EventuallyResponds(ctx, c.jig.RequestOver(conn, ""), func(g Gomega, resp *httpclient.Response) {
				g.Expect(resp.Status).To(Equal(http.StatusForbidden))
				g.Expect(resp.Echo).To(BeNil(), "the backend must not see a refused client")
			})
		},
		framework.BothConnections("Optional, one pattern", "client-tls/optional-subject-patterns"),
	)
}
