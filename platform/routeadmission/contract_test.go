package routeadmission

import (
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
)

// Every required-HSTS refusal the suite sends carries the wording of
// openshift-apiserver's RequiredRouteAnnotations plugin (contract/refusals.go).
func TestHSTSRefusalsCarryUpstreamsWording(t *testing.T) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}}
	policy := func(mod func(*configv1.RequiredHSTSPolicy)) []configv1.RequiredHSTSPolicy {
		p := configv1.RequiredHSTSPolicy{DomainPatterns: []string{"*.apps.test"}}
		mod(&p)
		return []configv1.RequiredHSTSPolicy{p}
	}
	none := func(*configv1.RequiredHSTSPolicy) {}
	for _, c := range []struct {
		policies   []configv1.RequiredHSTSPolicy
		annotation string
		want       contract.Refusal
	}{
		{policy(none), "-", contract.HSTSMaxAgeMissingOrWrong},
		{policy(none), `max-age="5"`, contract.HSTSMaxAgeMissingOrWrong},
		{policy(none), "max-age=2147483648", contract.HSTSMaxAgeOutOfRange("2147483648")},
		{policy(func(p *configv1.RequiredHSTSPolicy) { p.MaxAge.LargestMaxAge = ptr.To[int32](99999) }), "max-age=99999999", contract.HSTSMaxAgeGreater(99999)},
		{policy(func(p *configv1.RequiredHSTSPolicy) { p.MaxAge.SmallestMaxAge = ptr.To[int32](100) }), "max-age=99", contract.HSTSMaxAgeLess(100)},
		{policy(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequirePreloadPolicy }), "max-age=1", contract.HSTSPreloadRequired},
		{policy(func(p *configv1.RequiredHSTSPolicy) { p.PreloadPolicy = configv1.RequireNoPreloadPolicy }), "max-age=1;preload", contract.HSTSPreloadForbidden},
		{policy(func(p *configv1.RequiredHSTSPolicy) { p.IncludeSubDomainsPolicy = configv1.RequireIncludeSubDomains }), "max-age=1", contract.HSTSIncludeSubDomainsReq},
		{policy(func(p *configv1.RequiredHSTSPolicy) { p.IncludeSubDomainsPolicy = configv1.RequireNoIncludeSubDomains }), "max-age=1;includeSubDomains", contract.HSTSIncludeSubDomainsFor},
		{[]configv1.RequiredHSTSPolicy{{DomainPatterns: []string{"*.apps.test"}, NamespaceSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "k", Operator: "Bogus"}}}}}, "max-age=1", contract.HSTSNamespaceSelectorUnparsable("Bogus")},
	} {
		err := CheckRequiredHSTS(c.policies, hstsRoute("r.apps.test", c.annotation, routev1.TLSTerminationEdge), ns)
		if err == nil || !c.want.Matches(err.Error()) {
			t.Errorf("%s: the webhook says %v; want %s", c.want.Rule, err, c.want)
		}
	}
}
