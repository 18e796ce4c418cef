package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// describeClientTLSAPI: what the IngressController API and the ingress
// operator do with spec.clientTLS (judges:platform). The API cases are
// dry runs on the default IngressController: nothing is stored. The
// operator cases need an IngressController of their own, one connection
// kind: what they judge is the operator's rollout, not a frontend.
func describeClientTLSAPI(f *framework.Framework) {
	Describe("the IngressController API and the ingress operator", framework.JudgesPlatform, func() {
		// The Go type always writes both fields, so each case is raw JSON
		// (a merge patch: null removes a field).
		//
		// Document: the Ingress client TLS enhancement, sections "Proposal"
		// (clientCertificatePolicy and clientCA required within clientTLS)
		// and "Validation" (the API checks the enumerated values)
		// Upstream: openshift/api operator/v1/types_ingresscontroller.go
		// (ClientTLS: clientCertificatePolicy and clientCA +required, the
		// ConfigMap reference's name required; ClientCertificatePolicy:
		// +kubebuilder:validation:Enum "", Required, Optional: the
		// IngressController CRD's schema)
		DescribeTable("refuses a clientTLS the CRD does not allow; a complete one is accepted",
			func(ctx SpecContext, clientTLS map[string]any, want contract.Refusal) {
				By("positive control: a complete clientTLS is accepted (a dry run)")
				Expect(f.DryRunClientTLS(ctx, map[string]any{"clientCertificatePolicy": "Required", "clientCA": map[string]any{"name": "client-ca"}})).To(Succeed())
				framework.ExpectRefusal(Default, f.DryRunClientTLS(ctx, clientTLS), want)
			},
			Entry("without clientCertificatePolicy", framework.ID("client-tls/refuse-missing-policy"),
				map[string]any{"clientCertificatePolicy": nil, "clientCA": map[string]any{"name": "client-ca"}},
				contract.IngressControllerRequired("spec.clientTLS.clientCertificatePolicy")),
			Entry("without clientCA", framework.ID("client-tls/refuse-missing-client-ca"),
				map[string]any{"clientCertificatePolicy": "Required", "clientCA": nil},
				contract.IngressControllerRequired("spec.clientTLS.clientCA")),
			Entry("with an unlisted clientCertificatePolicy", framework.ID("client-tls/refuse-unlisted-policy"),
				map[string]any{"clientCertificatePolicy": "Sometimes", "clientCA": map[string]any{"name": "client-ca"}},
				contract.IngressControllerUnsupported("spec.clientTLS.clientCertificatePolicy", "Sometimes", "", "Required", "Optional")),
		)

		// The schema checks neither: the ConfigMap is the operator's to read
		// (and wait for), the patterns its to parse (bug-024). The refusals
		// above are the negative controls.
		//
		// Document: the Ingress client TLS enhancement, section "Validation"
		// (the API does not check that the ConfigMap exists, nor the
		// patterns)
		// Upstream: openshift/api operator/v1/types_ingresscontroller.go
		// (ClientTLS.ClientCA a ConfigMapNameReference, AllowedSubjectPatterns
		// a list of strings: no validation marker on either)
		DescribeTable("accepts a clientTLS whose content the CRD does not check",
			func(ctx SpecContext, clientTLS map[string]any) {
				Expect(f.DryRunClientTLS(ctx, clientTLS)).To(Succeed())
			},
			Entry("a clientCA naming no ConfigMap", framework.ID("client-tls/accept-missing-client-ca-configmap"),
				map[string]any{"clientCertificatePolicy": "Required", "clientCA": map[string]any{"name": "no-such-configmap"}}),
			Entry("allowedSubjectPatterns with a regular expression that does not parse", framework.ID("client-tls/accept-invalid-subject-pattern"),
				map[string]any{"clientCertificatePolicy": "Required", "clientCA": map[string]any{"name": "client-ca"}, "allowedSubjectPatterns": []string{"("}}),
		)

		// The ConfigMap is read from openshift-config alone: one of the
		// same name beside the IngressController (openshift-ingress-operator,
		// where the document puts it) is missing as far as the operator
		// knows.
		//
		// Document: the Ingress client TLS enhancement, sections "Validation"
		// (a missing ConfigMap: the router is not rolled out with the new
		// settings until it exists) and "Proposal" (the ConfigMap in the
		// IngressController's namespace; upstream does otherwise)
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/ingress/controller.go (ensureIngressController:
		// returns "failed to get client CA configmap" before
		// ensureRouterDeployment) and pkg/operator/controller/clientca-configmap
		// (controller.go: the source ConfigMaps watched and read in
		// SourceNamespace, openshift-config; the copy is made only once the
		// source exists)
		It("rolls nothing out while the client CA ConfigMap is missing, and Required once it is created", framework.ID("client-tls/missing-client-ca-not-rolled-out"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
			jig := clientTLSEdgeJig(ctx, f, "ctls-missing-ca")
			jig.IC.Start(ctx) // served before clientTLS is set
			noCert := jig.Request("")
			servedUnasked := func(g Gomega, resp *httpclient.Response) {
				jig.Echo.Served(g, resp)
				g.Expect(resp.CertificateRequested).To(BeFalse(), "the router asks for a certificate: it was rolled out with the new clientTLS")
			}
			By("positive control: without clientTLS a client without a certificate is served, not asked")
			f.EventuallyResponds(ctx, noCert, servedUnasked)

			ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Late client CA " + jig.Namespace}})
			Expect(err).NotTo(HaveOccurred())
			jig.Issue("valid", ca, pki.Window{})
			missing := "late-client-ca-" + jig.Namespace
			jig.ClientCAMapIn(ctx, contract.OperatorNamespace, missing, string(ca.CertPEM))
			By("clientTLS Required naming ConfigMap " + missing + ", which does not exist in " + contract.ConfigNamespace + " (only beside the IngressController): accepted, and nothing rolls out")
			_, err = framework.Update(ctx, f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace), jig.IC.Name, func(ic *operatorv1.IngressController) {
				ic.Spec.ClientTLS = framework.ClientTLS(operatorv1.ClientCertificatePolicyRequired, missing)
			})
			Expect(err).NotTo(HaveOccurred())
			f.Consistently(ctx, f.Opts.Timeouts.Converge, func(g Gomega) {
				resp, err := framework.Do(ctx, noCert)
				g.Expect(err).NotTo(HaveOccurred())
				servedUnasked(g, resp)
			}).Should(Succeed())

			By("the ConfigMap created: Required is rolled out")
			jig.ClientCAMap(ctx, missing, string(ca.CertPEM))
			jig.EventuallyRefusedWithin(ctx, f.Opts.Timeouts.PodReady, noCert, "certificate required")
			jig.EventuallyServed(ctx, "valid")
		})

		// Document: the Ingress client TLS enhancement, section "Upgrade /
		// Downgrade Strategy" (the operator's copies cleaned up with the
		// IngressController; an owner reference there, a finalizer in the
		// code that shipped)
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/clientca-configmap/controller.go (Reconcile:
		// the finalizer-clientca-configmap finalizer; ensureClientCAConfigMap
		// deletes the copy of a deleted IngressController) and
		// pkg/operator/controller/names.go (ClientCAConfigMapName)
		It("removes its copy of the client CA bundle when the IngressController is deleted", framework.ID("client-tls/client-ca-copy-removed-with-ingresscontroller"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
			jig := framework.NewClientTLSJig(ctx, f, "ctls-ca-copy")
			if jig.IC.Name == contract.DefaultIngressController {
				Skip("needs an IngressController of its own to delete: the profile gives shards no ports")
			}
			ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Copied client CA " + jig.Namespace}})
			Expect(err).NotTo(HaveOccurred())
			bundle := string(ca.CertPEM)
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, jig.ClientCAMap(ctx, "copied-ca-"+jig.Namespace, bundle))
			copies := f.Clientset.CoreV1().ConfigMaps(contract.RouterNamespace)
			copyName := contract.ClientCAConfigMapName(jig.IC.Name)
			By("positive control: the operator's copy " + contract.RouterNamespace + "/" + copyName + " holds the bundle")
			f.Eventually(ctx, func(g Gomega) {
				cm, err := copies.Get(ctx, copyName, metav1.GetOptions{})
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(cm.Data).To(HaveKeyWithValue(contract.ClientCAKey, bundle))
			}).Should(Succeed())

			By("the IngressController deleted: it goes, and its copy with it")
			ics := f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace)
			Expect(ics.Delete(ctx, jig.IC.Name, metav1.DeleteOptions{})).To(Succeed())
			f.Eventually(ctx, func(g Gomega) {
				_, err := ics.Get(ctx, jig.IC.Name, metav1.GetOptions{})
				g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "IngressController %s still there (err %v)", jig.IC.Name, err)
				_, err = copies.Get(ctx, copyName, metav1.GetOptions{})
				g.Expect(apierrors.IsNotFound(err)).To(BeTrue(), "copy %s still there (err %v)", copyName, err)
			}).WithTimeout(f.Opts.Timeouts.PodReady).Should(Succeed())
		})

		// rhbz#1989005: a pattern that does not parse is the operator's to
		// refuse (Admitted False, reason Invalid, the parse error), not the
		// router's to choke on; its router keeps the previous clientTLS.
		// The document has no such check (the API accepts the pattern):
		// the code that shipped decides.
		//
		// Document: the Ingress client TLS enhancement, sections "Proposal"
		// (allowedSubjectPatterns: regular expressions matched against the
		// subject) and "Validation"
		// Upstream: cluster-ingress-operator
		// pkg/operator/controller/ingress/controller.go (validateClientTLS:
		// regexp/syntax.Parse with syntax.Perl, "failed to parse
		// spec.clientTLS.allowedSubjectPatterns[%d]"; admit: Admitted False,
		// reason Invalid; Reconcile: nothing ensured until admitted)
		It("does not admit allowedSubjectPatterns that do not parse, and its router keeps the previous clientTLS", framework.ID("client-tls/invalid-subject-pattern-not-admitted"), f.OwnIngressControllerDecorator(), func(ctx SpecContext) {
			jig := clientTLSEdgeJig(ctx, f, "ctls-bad-pattern")
			ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Pattern client CA " + jig.Namespace}})
			Expect(err).NotTo(HaveOccurred())
			jig.Issue("valid", ca, pki.Window{})
			jig.Issue("someone-else", ca, pki.Window{})
			caMap := jig.ClientCAMap(ctx, "pattern-ca-"+jig.Namespace, string(ca.CertPEM))
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caMap)
			By("positive control: Required without patterns serves both clients")
			jig.EventuallyServed(ctx, "valid")
			jig.EventuallyServed(ctx, "someone-else")

			admitted := func(g Gomega, status operatorv1.ConditionStatus, reason, message string) {
				live, err := f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace).Get(ctx, jig.IC.Name, metav1.GetOptions{})
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(live.Status.ObservedGeneration).To(Equal(live.Generation), "the operator has not observed the change")
				var got *operatorv1.OperatorCondition
				for i := range live.Status.Conditions {
					if live.Status.Conditions[i].Type == contract.IngressControllerAdmittedCondition {
						got = &live.Status.Conditions[i]
					}
				}
				g.Expect(got).NotTo(BeNil(), "no %s condition: %+v", contract.IngressControllerAdmittedCondition, live.Status.Conditions)
				g.Expect(*got).To(And(
					HaveField("Status", status), HaveField("Reason", reason), HaveField("Message", message)))
			}
			By("allowedSubjectPatterns [\"(\"]: not admitted, with the parse error")
			_, err = framework.Update(ctx, f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace), jig.IC.Name, func(ic *operatorv1.IngressController) {
				ic.Spec.ClientTLS = framework.ClientTLS(operatorv1.ClientCertificatePolicyRequired, caMap, "(")
			})
			Expect(err).NotTo(HaveOccurred(), "the API accepts the pattern (client-tls/accept-invalid-subject-pattern)")
			f.Eventually(ctx, func(g Gomega) {
				admitted(g, operatorv1.ConditionFalse, contract.ReasonIngressControllerInvalid, contract.AllowedSubjectPatternRejection(0, "("))
			}).Should(Succeed())
			By("the router keeps the previous clientTLS: both clients served, no certificate refused")
			f.Consistently(ctx, f.Opts.Timeouts.Converge, func(g Gomega) {
				for _, client := range []string{"valid", "someone-else"} {
					resp, err := framework.Do(ctx, jig.Request(client))
					g.Expect(err).NotTo(HaveOccurred(), "client %s", client)
					jig.Echo.Served(g, resp)
				}
			}).Should(Succeed())
			jig.EventuallyRefused(ctx, "", "certificate required")

			By("positive control: a pattern that parses is admitted and enforced")
			jig.RequireClientTLS(ctx, operatorv1.ClientCertificatePolicyRequired, caMap, "/CN=valid$")
			f.Eventually(ctx, func(g Gomega) {
				admitted(g, operatorv1.ConditionTrue, contract.ReasonIngressControllerValid, "")
			}).Should(Succeed())
			jig.EventuallyServed(ctx, "valid")
			f.EventuallyResponds(ctx, jig.Request("someone-else"), func(g Gomega, resp *httpclient.Response) {
				g.Expect(resp.Status).To(Equal(403), "a subject outside the pattern")
				g.Expect(resp.Echo).To(BeNil(), "the backend must not see a refused client")
			})
		})
	})
}

// clientTLSEdgeJig is a ClientTLSJig (an IngressController of the spec's
// own; skipped where the profile gives shards no ports, since these specs
// leave it in states the default must never be in) with an echo backend
// behind an edge route and no crlserver.
func clientTLSEdgeJig(ctx SpecContext, f *framework.Framework, prefix string) *framework.ClientTLSJig {
	GinkgoHelper()
	jig := framework.NewClientTLSJig(ctx, f, prefix)
	if jig.IC.Name == contract.DefaultIngressController {
		Skip("needs an IngressController of its own: the profile gives shards no ports")
	}
	jig.Echo = f.DeployEcho(ctx, jig.Namespace)
	route := f.RouteTo(jig.Echo, "mtls", framework.EchoHTTPPort)
	route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
	jig.Host = f.CreateRoute(ctx, route).Spec.Host
	return jig
}
