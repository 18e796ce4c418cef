package routeadmission

import (
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func hstsRoute(host, annotation string, termination routev1.TLSTerminationType, statusHosts ...string) *routev1.Route {
	r := &routev1.Route{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r"}, Spec: routev1.RouteSpec{Host: host}}
	if annotation != "-" {
		r.Annotations = map[string]string{"haproxy.router.openshift.io/hsts_header": annotation}
	}
	if termination != "" {
		r.Spec.TLS = &routev1.TLSConfig{Termination: termination}
	}
	for _, h := range statusHosts {
		r.Status.Ingress = append(r.Status.Ingress, routev1.RouteIngress{Host: h})
	}
	return r
}

func TestRequiredHSTSPolicies(t *testing.T) {
	strict := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns", Labels: map[string]string{"policy": "strict"}}}
	plain := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}}
	rangePolicy := configv1.RequiredHSTSPolicy{
		DomainPatterns: []string{"*.apps.test"},
		MaxAge:         configv1.MaxAgePolicy{SmallestMaxAge: ptr.To[int32](100), LargestMaxAge: ptr.To[int32](1000)},
	}
	withPreload := func(p configv1.PreloadPolicy) configv1.RequiredHSTSPolicy {
		return configv1.RequiredHSTSPolicy{DomainPatterns: []string{"*.apps.test"}, PreloadPolicy: p}
	}
	withSubDomains := func(p configv1.IncludeSubDomainsPolicy) configv1.RequiredHSTSPolicy {
		return configv1.RequiredHSTSPolicy{DomainPatterns: []string{"*.apps.test"}, IncludeSubDomainsPolicy: p}
	}
	selector := configv1.RequiredHSTSPolicy{
		DomainPatterns:    []string{"*.apps.test"},
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"policy": "strict"}},
		PreloadPolicy:     configv1.RequirePreloadPolicy,
	}
	badSelector := configv1.RequiredHSTSPolicy{
		DomainPatterns:    []string{"*.apps.test"},
		NamespaceSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "hsts", Operator: "Bogus"}}},
	}
	for _, tc := range []struct {
		name     string
		policies []configv1.RequiredHSTSPolicy
		route    *routev1.Route
		ns       *corev1.Namespace
		want     string // "" = allowed
	}{
		{"in range", []configv1.RequiredHSTSPolicy{rangePolicy}, hstsRoute("a.apps.test", "max-age=500", "edge"), plain, ""},
		{"above the range", []configv1.RequiredHSTSPolicy{rangePolicy}, hstsRoute("a.apps.test", "max-age=1001", "edge"), plain, "HSTS max-age is greater than maximum age 1000s"},
		{"below the range", []configv1.RequiredHSTSPolicy{rangePolicy}, hstsRoute("a.apps.test", "max-age=99", "edge"), plain, "HSTS max-age is less than minimum age 100s"},
		{"range edges are inclusive", []configv1.RequiredHSTSPolicy{rangePolicy}, hstsRoute("a.apps.test", "max-age=1000", "edge"), plain, ""},
		{"no annotation in a required domain", []configv1.RequiredHSTSPolicy{rangePolicy}, hstsRoute("a.apps.test", "-", "edge"), plain, MaxAgeMissingOrWrong},
		{"annotation without max-age", []configv1.RequiredHSTSPolicy{rangePolicy}, hstsRoute("a.apps.test", "includeSubDomains", "edge"), plain, MaxAgeMissingOrWrong},
		{"quoted max-age is no max-age to the policy", []configv1.RequiredHSTSPolicy{rangePolicy}, hstsRoute("a.apps.test", `max-age="500"`, "edge"), plain, MaxAgeMissingOrWrong},
		{"spaces and case are ignored", []configv1.RequiredHSTSPolicy{withPreload(configv1.RequirePreloadPolicy)}, hstsRoute("a.apps.test", "MAX-AGE = 5 ; PRELOAD", "edge"), plain, ""},
		{"domain outside the patterns", []configv1.RequiredHSTSPolicy{rangePolicy}, hstsRoute("a.other.test", "-", "edge"), plain, ""},
		{"exact pattern", []configv1.RequiredHSTSPolicy{{DomainPatterns: []string{"exact.test"}, PreloadPolicy: configv1.RequirePreloadPolicy}}, hstsRoute("exact.test", "max-age=1", "edge"), plain, PreloadRequired},
		{"exact pattern, other host", []configv1.RequiredHSTSPolicy{{DomainPatterns: []string{"exact.test"}, PreloadPolicy: configv1.RequirePreloadPolicy}}, hstsRoute("sub.exact.test", "max-age=1", "edge"), plain, ""},
		{"wildcard matches across dots (filepath.Match)", []configv1.RequiredHSTSPolicy{withPreload(configv1.RequirePreloadPolicy)}, hstsRoute("a.b.apps.test", "max-age=1", "edge"), plain, PreloadRequired},
		{"status host matches", []configv1.RequiredHSTSPolicy{withPreload(configv1.RequirePreloadPolicy)}, hstsRoute("other.test", "max-age=1", "edge", "a.apps.test"), plain, PreloadRequired},
		{"RequirePreload met", []configv1.RequiredHSTSPolicy{withPreload(configv1.RequirePreloadPolicy)}, hstsRoute("a.apps.test", "max-age=1;preload", "edge"), plain, ""},
		{"RequireNoPreload", []configv1.RequiredHSTSPolicy{withPreload(configv1.RequireNoPreloadPolicy)}, hstsRoute("a.apps.test", "max-age=1;preload", "edge"), plain, PreloadForbidden},
		{"RequireIncludeSubDomains", []configv1.RequiredHSTSPolicy{withSubDomains(configv1.RequireIncludeSubDomains)}, hstsRoute("a.apps.test", "max-age=1", "reencrypt"), plain, IncludeSubDomainsReq},
		{"RequireNoIncludeSubDomains", []configv1.RequiredHSTSPolicy{withSubDomains(configv1.RequireNoIncludeSubDomains)}, hstsRoute("a.apps.test", "max-age=1;includeSubDomains", "edge"), plain, IncludeSubDomainsForb},
		{"NoOpinion", []configv1.RequiredHSTSPolicy{withSubDomains(configv1.NoOpinionIncludeSubDomains)}, hstsRoute("a.apps.test", "max-age=1;includeSubDomains;preload", "edge"), plain, ""},
		{"namespace selector matches", []configv1.RequiredHSTSPolicy{selector}, hstsRoute("a.apps.test", "max-age=1", "edge"), strict, PreloadRequired},
		{"namespace selector does not match", []configv1.RequiredHSTSPolicy{selector}, hstsRoute("a.apps.test", "max-age=1", "edge"), plain, ""},
		{"first matching policy decides", []configv1.RequiredHSTSPolicy{withPreload(configv1.NoOpinionPreloadPolicy), withPreload(configv1.RequirePreloadPolicy)}, hstsRoute("a.apps.test", "max-age=1", "edge"), plain, ""},
		{"a non-matching policy does not decide", []configv1.RequiredHSTSPolicy{selector, withPreload(configv1.RequireNoPreloadPolicy)}, hstsRoute("a.apps.test", "max-age=1;preload", "edge"), plain, PreloadForbidden},
		{"no policies at all", nil, hstsRoute("a.apps.test", "max-age=99999999999", "edge"), plain, ""},
		{"a pattern that does not parse is skipped", []configv1.RequiredHSTSPolicy{{DomainPatterns: []string{"[bad", "*.apps.test"}, PreloadPolicy: configv1.RequirePreloadPolicy}}, hstsRoute("a.apps.test", "max-age=1", "edge"), plain, PreloadRequired},
		{"spaces ignored, a number above the range", []configv1.RequiredHSTSPolicy{rangePolicy}, hstsRoute("a.apps.test", "max-age = 5000 ; preload", "edge"), plain, "HSTS max-age is greater than maximum age 1000s"},
		{"unknown directives ignored", []configv1.RequiredHSTSPolicy{withPreload(configv1.RequirePreloadPolicy)}, hstsRoute("a.apps.test", "max-age=1;preload;always", "edge"), plain, ""},
		{"a namespaceSelector that does not parse refuses", []configv1.RequiredHSTSPolicy{badSelector}, hstsRoute("a.apps.test", "max-age=1", "edge"), plain, "requiredHSTSPolicies[0]: namespaceSelector: \"Bogus\" is not a valid label selector operator"},
		{"an earlier policy decides before a namespaceSelector that does not parse", []configv1.RequiredHSTSPolicy{withPreload(configv1.NoOpinionPreloadPolicy), badSelector}, hstsRoute("a.apps.test", "max-age=1", "edge"), plain, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckRequiredHSTS(tc.policies, tc.route, tc.ns)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
				t.Errorf("got %v, want a refusal starting %q", err, tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), "requiredHSTSPolicies["):
				t.Errorf("refusal %q does not name the rule", err)
			}
		})
	}
}

func TestHSTSCheckNeeded(t *testing.T) {
	edge := hstsRoute("a.apps.test", "max-age=1", "edge")
	for _, tc := range []struct {
		name       string
		route, old *routev1.Route
		want       bool
	}{
		{"create edge", edge, nil, true},
		{"create reencrypt", hstsRoute("a", "max-age=1", "reencrypt"), nil, true},
		{"create passthrough", hstsRoute("a", "max-age=1", "passthrough"), nil, false},
		{"create plain HTTP", hstsRoute("a", "max-age=1", ""), nil, false},
		{"update without touching the annotation", edge, hstsRoute("b.apps.test", "max-age=1", "edge"), false},
		{"update changing the annotation", edge, hstsRoute("a.apps.test", "max-age=2", "edge"), true},
		{"update adding the annotation", edge, hstsRoute("a.apps.test", "-", "edge"), true},
		{"update removing the annotation", hstsRoute("a.apps.test", "-", "edge"), edge, true},
	} {
		if got := HSTSCheckNeeded(tc.route, tc.old); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
