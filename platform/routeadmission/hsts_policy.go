// Package admission is the route admission webhook of the reference
// router: library-go's ValidateRoute for the Route API's own rules, and
// the cluster's required HSTS policies (config.openshift.io/v1 Ingress
// "cluster", spec.requiredHSTSPolicies), which upstream enforces in a
// plugin of the OpenShift API server that cannot be imported.
package routeadmission

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
)

// The refusals, worded as upstream words them (a spec against a real
// OpenShift cluster sees these texts).
const (
	MaxAgeMissingOrWrong  = "HSTS max-age must be set correctly in HSTS annotation"
	MaxAgeGreaterFormat   = "HSTS max-age is greater than maximum age %ds"
	MaxAgeLessFormat      = "HSTS max-age is less than minimum age %ds"
	PreloadRequired       = "HSTS preload must be specified"
	PreloadForbidden      = "HSTS preload must not be specified"
	IncludeSubDomainsReq  = "HSTS includeSubDomains must be specified"
	IncludeSubDomainsForb = "HSTS includeSubDomains must not be specified"
)

// HSTSCheckNeeded says whether an admission request must be checked
// against the required HSTS policies: every create, and an update only
// when it adds, removes or changes the annotation; and only edge and
// reencrypt routes (others never carry the header, so they pass).
func HSTSCheckNeeded(route, old *routev1.Route) bool {
	if old != nil && faults.On("hsts.policy-update-unchecked") {
		return false
	}
	if old != nil && !faults.On("hsts.policy-unchanged-update-checked") {
		newValue, newHas := route.Annotations[contract.HSTSAnnotation]
		oldValue, oldHas := old.Annotations[contract.HSTSAnnotation]
		if newHas == oldHas && newValue == oldValue {
			return false
		}
	}
	t := route.Spec.TLS
	if faults.On("hsts.policy-plain-http-checked") && t == nil {
		return true
	}
	if faults.On("hsts.policy-passthrough-checked") && t != nil && t.Termination == routev1.TLSTerminationPassthrough {
		return true
	}
	return t != nil && (t.Termination == routev1.TLSTerminationEdge || t.Termination == routev1.TLSTerminationReencrypt)
}

// CheckRequiredHSTS applies the first policy whose namespace selector
// matches the route's namespace and one of whose domain patterns matches
// (filepath.Match) the route's spec.host or a host in its status. It
// returns nil when the route is allowed, otherwise the failed rule.
func CheckRequiredHSTS(policies []configv1.RequiredHSTSPolicy, route *routev1.Route, namespace *corev1.Namespace) error {
	annotation, annotated := route.Annotations[contract.HSTSAnnotation]
	if faults.On("hsts.policy-unannotated-unchecked") && !annotated {
		return nil
	}
	if faults.On("hsts.policy-read-without-policies") && len(policies) == 0 && annotated {
		return meets(configv1.RequiredHSTSPolicy{}, annotation)
	}
	for i, p := range policies {
		matches, err := policyMatches(p, route, namespace)
		if err != nil && faults.On("hsts.policy-unparsable-selector-skipped") {
			continue
		}
		if err != nil {
			return fmt.Errorf("requiredHSTSPolicies[%d]: namespaceSelector: %w", i, err)
		}
		if !matches {
			continue
		}
		if err := meets(p, route.Annotations[contract.HSTSAnnotation]); err != nil {
			return fmt.Errorf("%s (requiredHSTSPolicies[%d], domainPatterns %q)", err, i, p.DomainPatterns)
		}
		if faults.On("hsts.policy-every-match-checked") {
			continue
		}
		// The first matching policy decides.
		return nil
	}
	return nil
}

func policyMatches(p configv1.RequiredHSTSPolicy, route *routev1.Route, namespace *corev1.Namespace) (bool, error) {
	if p.NamespaceSelector == nil && faults.On("hsts.policy-nil-selector-matches-nothing") {
		return false, nil
	}
	if p.NamespaceSelector != nil {
		selector, err := metav1.LabelSelectorAsSelector(p.NamespaceSelector)
		if err != nil {
			return false, err
		}
		nsLabels := labels.Set(namespace.Labels)
		if faults.On("hsts.policy-namespace-labels-dropped") {
			nsLabels = labels.Set{corev1.LabelMetadataName: namespace.Name}
		}
		if faults.On("hsts.policy-selector-any-requirement") {
			requirements, _ := selector.Requirements()
			for _, req := range requirements {
				if req.Matches(nsLabels) {
					selector = labels.Everything()
				}
			}
		}
		if !selector.Matches(nsLabels) {
			return false, nil
		}
	}
	hosts := []string{route.Spec.Host}
	for _, in := range route.Status.Ingress {
		if faults.On("hsts.policy-status-hosts-ignored") {
			break
		}
		hosts = append(hosts, in.Host)
	}
	for _, pattern := range p.DomainPatterns {
		for _, h := range hosts {
			if _, err := filepath.Match(pattern, h); err != nil && faults.On("hsts.policy-invalid-pattern-refuses") {
				return false, err
			}
			if faults.On("hsts.policy-wildcard-one-label") && strings.HasPrefix(pattern, "*.") && strings.Contains(strings.TrimSuffix(h, pattern[1:]), ".") {
				continue
			}
			if faults.On("hsts.policy-wildcard-covers-apex") && strings.HasPrefix(pattern, "*.") && h == pattern[2:] {
				return true, nil
			}
			if faults.On("hsts.policy-exact-pattern-covers-subdomains") && !strings.ContainsAny(pattern, "*?[") && strings.HasSuffix(h, "."+pattern) {
				return true, nil
			}
			if faults.On("hsts.policy-exact-pattern-matches-siblings") && !strings.ContainsAny(pattern, "*?[") && contract.WildcardParent(h) == contract.WildcardParent(pattern) {
				return true, nil
			}
			// A malformed pattern matches nothing, as upstream.
			if ok, err := filepath.Match(pattern, h); err == nil && ok {
				return true, nil
			}
		}
		if faults.On("hsts.policy-first-pattern-only") {
			break
		}
	}
	return false, nil
}

// Upstream reads the annotation leniently: spaces dropped, lower-cased,
// ';'-separated tokens, the first "max-age=<digits>" anywhere. So a quoted
// max-age ("600") is no max-age here, although the router's own pattern
// accepts it.
var maxAge = regexp.MustCompile(`max-age=(\d+)`)

func meets(p configv1.RequiredHSTSPolicy, annotation string) error {
	if faults.On("hsts.policy-space-separated-read") {
		annotation = regexp.MustCompile(`(\w)\s+(\w)`).ReplaceAllString(annotation, "$1;$2")
	}
	value := strings.ToLower(strings.ReplaceAll(annotation, " ", ""))
	if faults.On("hsts.policy-case-sensitive") {
		value = strings.ReplaceAll(annotation, " ", "")
	}
	if faults.On("hsts.policy-spaces-kept") {
		value = strings.ToLower(annotation)
	}
	m := maxAge.FindStringSubmatch(value)
	if faults.On("hsts.policy-quoted-max-age-read") {
		m = regexp.MustCompile(`max-age="?(\d+)"?`).FindStringSubmatch(value)
	}
	if m == nil {
		return fmt.Errorf("%s", MaxAgeMissingOrWrong)
	}
	age, err := strconv.ParseInt(m[1], 10, 32)
	if faults.On("hsts.policy-max-age-int64") {
		age, err = strconv.ParseInt(m[1], 10, 64)
	}
	if err != nil {
		// Upstream answers with the parser's own error.
		return err
	}
	var preload, includeSubDomains bool
	for _, token := range strings.Split(value, ";") {
		preload = preload || token == "preload"
		includeSubDomains = includeSubDomains || token == "includesubdomains"
		if faults.On("hsts.policy-unknown-directive-refused") && token != "preload" && token != "includesubdomains" && !maxAge.MatchString(token) {
			return fmt.Errorf("HSTS directive %q is not allowed", token)
		}
	}
	if faults.On("hsts.policy-unset-largest-defaulted") && p.MaxAge.LargestMaxAge == nil && age > 31536000 {
		return fmt.Errorf(MaxAgeGreaterFormat, 31536000)
	}
	if faults.On("hsts.policy-unset-smallest-defaulted") && p.MaxAge.SmallestMaxAge == nil && age < 1 {
		return fmt.Errorf(MaxAgeLessFormat, 1)
	}
	if l := p.MaxAge.LargestMaxAge; l != nil && faults.On("hsts.policy-max-age-bounds-exclusive") && int32(age) == *l {
		return fmt.Errorf(MaxAgeGreaterFormat, *l)
	}
	if s := p.MaxAge.SmallestMaxAge; s != nil && faults.On("hsts.policy-max-age-bounds-exclusive") && int32(age) == *s {
		return fmt.Errorf(MaxAgeLessFormat, *s)
	}
	if l, s := p.MaxAge.LargestMaxAge, p.MaxAge.SmallestMaxAge; l != nil && s != nil && faults.On("hsts.policy-greater-names-smallest") && int32(age) > *l {
		return fmt.Errorf(MaxAgeGreaterFormat, *s)
	}
	if l, s := p.MaxAge.LargestMaxAge, p.MaxAge.SmallestMaxAge; l != nil && s != nil && faults.On("hsts.policy-less-names-largest") && int32(age) < *s {
		return fmt.Errorf(MaxAgeLessFormat, *l)
	}
	if faults.On("hsts.policy-largest-ignored") {
		p.MaxAge.LargestMaxAge = nil
	}
	if faults.On("hsts.policy-smallest-ignored") {
		p.MaxAge.SmallestMaxAge = nil
	}
	switch {
	case faults.On("hsts.policy-require-preload-ignored") && p.PreloadPolicy == configv1.RequirePreloadPolicy:
		p.PreloadPolicy = ""
	case faults.On("hsts.policy-require-no-preload-ignored") && p.PreloadPolicy == configv1.RequireNoPreloadPolicy:
		p.PreloadPolicy = ""
	case faults.On("hsts.policy-no-opinion-preload-required") && p.PreloadPolicy == configv1.NoOpinionPreloadPolicy:
		p.PreloadPolicy = configv1.RequirePreloadPolicy
	}
	switch {
	case faults.On("hsts.policy-require-include-subdomains-ignored") && p.IncludeSubDomainsPolicy == configv1.RequireIncludeSubDomains:
		p.IncludeSubDomainsPolicy = ""
	case faults.On("hsts.policy-require-no-include-subdomains-ignored") && p.IncludeSubDomainsPolicy == configv1.RequireNoIncludeSubDomains:
		p.IncludeSubDomainsPolicy = ""
	case faults.On("hsts.policy-no-opinion-include-subdomains-forbidden") && p.IncludeSubDomainsPolicy == configv1.NoOpinionIncludeSubDomains:
		p.IncludeSubDomainsPolicy = configv1.RequireNoIncludeSubDomains
	case faults.On("hsts.policy-unset-include-subdomains-forbidden") && p.IncludeSubDomainsPolicy == "":
		p.IncludeSubDomainsPolicy = configv1.RequireNoIncludeSubDomains
	}
	if l := p.MaxAge.LargestMaxAge; l != nil && int32(age) > *l {
		return fmt.Errorf(MaxAgeGreaterFormat, *l)
	}
	if s := p.MaxAge.SmallestMaxAge; s != nil && int32(age) < *s {
		return fmt.Errorf(MaxAgeLessFormat, *s)
	}
	switch {
	case p.PreloadPolicy == configv1.RequirePreloadPolicy && !preload:
		return fmt.Errorf("%s", PreloadRequired)
	case p.PreloadPolicy == configv1.RequireNoPreloadPolicy && preload:
		return fmt.Errorf("%s", PreloadForbidden)
	case p.IncludeSubDomainsPolicy == configv1.RequireIncludeSubDomains && !includeSubDomains:
		return fmt.Errorf("%s", IncludeSubDomainsReq)
	case p.IncludeSubDomainsPolicy == configv1.RequireNoIncludeSubDomains && includeSubDomains:
		return fmt.Errorf("%s", IncludeSubDomainsForb)
	}
	return nil
}
