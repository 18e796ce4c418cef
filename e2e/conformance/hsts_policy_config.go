package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
)

// describeHSTSPolicyConfig: the Ingress config's required HSTS policies
// themselves: read back as written, and what its schema refuses.
func describeHSTSPolicyConfig(f *framework.Framework) {
	// The test plan's "Audit HSTS configurations": the policy as
	// written, every field of it, read back from the API server.
	//
	// Document: the HSTS admission enhancement, sections "Audit HSTS
	// configurations" (Test Plan) and "Audit HSTS configurations on any
	// cluster"
	// Upstream: openshift/api config/v1/types_ingress.go
	// (IngressSpec.RequiredHSTSPolicies) and config/v1/types.go
	// (RequiredHSTSPolicy, MaxAgePolicy)
	It("returns the required HSTS policies as written", framework.ID("hsts-policy/policies-read-back"), framework.JudgesPlatform, func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "hsts-policy-audit")
		base := ns + "." + f.Domain
		policy := configv1.RequiredHSTSPolicy{
			NamespaceSelector: &metav1.LabelSelector{
				MatchLabels:      map[string]string{corev1.LabelMetadataName: ns},
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "hsts-audit", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"off"}}},
			},
			DomainPatterns:          []string{"*." + base, base},
			MaxAge:                  configv1.MaxAgePolicy{SmallestMaxAge: ptr.To[int32](1), LargestMaxAge: ptr.To[int32](31536000)},
			PreloadPolicy:           configv1.RequirePreloadPolicy,
			IncludeSubDomainsPolicy: configv1.RequireIncludeSubDomains,
		}
		f.AddRequiredHSTSPolicies(ctx, []configv1.RequiredHSTSPolicy{policy})
		ing, err := f.ConfigAPI.ConfigV1().Ingresses().Get(ctx, contract.IngressConfig, metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred(), "read Ingress %s", contract.IngressConfig)
		Expect(ing.Spec.RequiredHSTSPolicies).To(ContainElement(Equal(policy)), "the required HSTS policies of Ingress %s", contract.IngressConfig)
	})

	// The Ingress config's own schema refuses a required HSTS policy
	// that breaks it, as the API server words it, beside the same
	// policy with a valid value, which it takes (every write a dry
	// run: nothing is stored).
	//
	// Document: the HSTS admission enhancement, section "Provide HSTS
	// verification per-domain" (RequiredHSTSPolicy: domainPatterns
	// MinItems=1 and required; MaxAgePolicy: Minimum=0,
	// Maximum=2147483647; PreloadPolicy and IncludeSubDomainsPolicy
	// enums)
	// Upstream: openshift/api config/v1/types.go (RequiredHSTSPolicy,
	// MaxAgePolicy, PreloadPolicy, IncludeSubDomainsPolicy markers) and
	// config/v1/zz_generated.crd-manifests (the Ingress CRD), validated
	// by k8s.io/apiextensions-apiserver
	// pkg/apiserver/validation/validation.go
	DescribeTable("the Ingress config's schema", framework.JudgesPlatform,
		func(ctx SpecContext, c schemaCase) {
			By("positive control: the policy with a valid value is accepted")
			Expect(f.DryRunRequiredHSTSPolicy(ctx, c.control)).To(Succeed(), "policy %v", c.control)
			By("the policy with the bad value is refused: " + c.refusal.Rule)
			framework.ExpectRefusal(Default, f.DryRunRequiredHSTSPolicy(ctx, c.broken), c.refusal)
		},
		Entry("domainPatterns empty", framework.ID("hsts-policy/domain-patterns-empty-refused"), schemaCase{
			control: map[string]any{"domainPatterns": []string{"x.example.test"}},
			broken:  map[string]any{"domainPatterns": []string{}},
			refusal: contract.IngressConfigTooFewItems(hstsPolicyField("domainPatterns"), 1),
		}),
		Entry("domainPatterns missing", framework.ID("hsts-policy/domain-patterns-missing-refused"), schemaCase{
			control: map[string]any{"domainPatterns": []string{"x.example.test"}, "preloadPolicy": "RequirePreload"},
			broken:  map[string]any{"preloadPolicy": "RequirePreload"},
			refusal: contract.IngressConfigRequired(hstsPolicyField("domainPatterns")),
		}),
		Entry("largestMaxAge below 0", framework.ID("hsts-policy/largest-max-age-negative-refused"), schemaCase{
			control: map[string]any{"domainPatterns": []string{"x.example.test"}, "maxAge": map[string]any{"largestMaxAge": 0}},
			broken:  map[string]any{"domainPatterns": []string{"x.example.test"}, "maxAge": map[string]any{"largestMaxAge": -1}},
			refusal: contract.IngressConfigBelowMinimum(hstsPolicyField("maxAge.largestMaxAge"), 0),
		}),
		Entry("smallestMaxAge below 0", framework.ID("hsts-policy/smallest-max-age-negative-refused"), schemaCase{
			control: map[string]any{"domainPatterns": []string{"x.example.test"}, "maxAge": map[string]any{"smallestMaxAge": 0}},
			broken:  map[string]any{"domainPatterns": []string{"x.example.test"}, "maxAge": map[string]any{"smallestMaxAge": -1}},
			refusal: contract.IngressConfigBelowMinimum(hstsPolicyField("maxAge.smallestMaxAge"), 0),
		}),
		Entry("largestMaxAge above 2147483647", framework.ID("hsts-policy/largest-max-age-over-int32-refused"), schemaCase{
			control: map[string]any{"domainPatterns": []string{"x.example.test"}, "maxAge": map[string]any{"largestMaxAge": int64(2147483647)}},
			broken:  map[string]any{"domainPatterns": []string{"x.example.test"}, "maxAge": map[string]any{"largestMaxAge": int64(2147483648)}},
			refusal: contract.IngressConfigAboveMaximum(hstsPolicyField("maxAge.largestMaxAge"), 2147483647),
		}),
		Entry("smallestMaxAge above 2147483647", framework.ID("hsts-policy/smallest-max-age-over-int32-refused"), schemaCase{
			control: map[string]any{"domainPatterns": []string{"x.example.test"}, "maxAge": map[string]any{"smallestMaxAge": int64(2147483647)}},
			broken:  map[string]any{"domainPatterns": []string{"x.example.test"}, "maxAge": map[string]any{"smallestMaxAge": int64(2147483648)}},
			refusal: contract.IngressConfigAboveMaximum(hstsPolicyField("maxAge.smallestMaxAge"), 2147483647),
		}),
		Entry("preloadPolicy outside its enum", framework.ID("hsts-policy/preload-policy-enum-refused"), schemaCase{
			control: map[string]any{"domainPatterns": []string{"x.example.test"}, "preloadPolicy": "NoOpinion"},
			broken:  map[string]any{"domainPatterns": []string{"x.example.test"}, "preloadPolicy": "Sometimes"},
			refusal: contract.IngressConfigUnsupported(hstsPolicyField("preloadPolicy"), "Sometimes",
				string(configv1.RequirePreloadPolicy), string(configv1.RequireNoPreloadPolicy), string(configv1.NoOpinionPreloadPolicy)),
		}),
		Entry("includeSubDomainsPolicy outside its enum", framework.ID("hsts-policy/include-subdomains-policy-enum-refused"), schemaCase{
			control: map[string]any{"domainPatterns": []string{"x.example.test"}, "includeSubDomainsPolicy": "NoOpinion"},
			broken:  map[string]any{"domainPatterns": []string{"x.example.test"}, "includeSubDomainsPolicy": "Sometimes"},
			refusal: contract.IngressConfigUnsupported(hstsPolicyField("includeSubDomainsPolicy"), "Sometimes",
				string(configv1.RequireIncludeSubDomains), string(configv1.RequireNoIncludeSubDomains), string(configv1.NoOpinionIncludeSubDomains)),
		}),
	)
}
