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
	if old != nil {
		newValue, newHas := route.Annotations[contract.HSTSAnnotation]
		oldValue, oldHas := old.Annotations[contract.HSTSAnnotation]
		if newHas == oldHas && newValue == oldValue {
			return false
		}
	}
	t := route.Spec.TLS
	return t != nil && (t.Termination == routev1.TLSTerminationEdge || t.Termination == routev1.TLSTerminationReencrypt)
}

// CheckRequiredHSTS applies the first policy whose namespace selector
// matches the route's namespace and one of whose domain patterns matches
// (filepath.Match) the route's spec.host or a host in its status. It
// returns nil when the route is allowed, otherwise the failed rule.
func CheckRequiredHSTS(policies []configv1.RequiredHSTSPolicy, route *routev1.Route, namespace *corev1.Namespace) error {
	for i, p := range policies {
		matches, err := policyMatches(p, route, namespace)
		if err != nil {
			return fmt.Errorf("requiredHSTSPolicies[%d]: namespaceSelector: %w", i, err)
		}
		if !matches {
			continue
		}
		if err := meets(p, route.Annotations[contract.HSTSAnnotation]); err != nil {
			return fmt.Errorf("%s (requiredHSTSPolicies[%d], domainPatterns %q)", err, i, p.DomainPatterns)
		}
		// The first matching policy decides.
		return nil
	}
	return nil
}

func policyMatches(p configv1.RequiredHSTSPolicy, route *routev1.Route, namespace *corev1.Namespace) (bool, error) {
	if p.NamespaceSelector != nil {
		selector, err := metav1.LabelSelectorAsSelector(p.NamespaceSelector)
		if err != nil {
			return false, err
		}
		if !selector.Matches(labels.Set(namespace.Labels)) {
			return false, nil
		}
	}
	hosts := []string{route.Spec.Host}
	for _, in := range route.Status.Ingress {
		hosts = append(hosts, in.Host)
	}
	for _, pattern := range p.DomainPatterns {
		for _, h := range hosts {
			// A malformed pattern matches nothing, as upstream.
			if ok, err := filepath.Match(pattern, h); err == nil && ok {
				return true, nil
			}
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
	value := strings.ToLower(strings.ReplaceAll(annotation, " ", ""))
	m := maxAge.FindStringSubmatch(value)
	if m == nil {
		return fmt.Errorf("%s", MaxAgeMissingOrWrong)
	}
	age, err := strconv.ParseInt(m[1], 10, 32)
	if err != nil {
		// Upstream answers with the parser's own error.
		return err
	}
	var preload, includeSubDomains bool
	for _, token := range strings.Split(value, ";") {
		preload = preload || token == "preload"
		includeSubDomains = includeSubDomains || token == "includesubdomains"
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
