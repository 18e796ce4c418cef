package contract

import (
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"
)

// How spec.httpHeaders.headerNameCaseAdjustments reaches the router, and
// the route annotation that applies it to requests (upstream:
// cluster-ingress-operator pkg/operator/controller/ingress/deployment.go,
// RouterHTTPHeaderNameCaseAdjustments; openshift/router
// images/router/haproxy/conf/haproxy-config.template).
const (
	// HeaderNameCaseEnv holds the names, comma-joined as written; unset
	// when there are none.
	HeaderNameCaseEnv = "ROUTER_H1_CASE_ADJUST"
	// AdjustHeaderCaseAnnotation, true by strconv.ParseBool and with
	// adjustments configured, spells the request header names to the
	// route's backend as adjusted.
	AdjustHeaderCaseAnnotation = "haproxy.router.openshift.io/h1-adjust-case"
)

// HeaderNameCaseValue is HeaderNameCaseEnv's value for an
// IngressController; "" means the variable is not set.
func HeaderNameCaseValue(ic *operatorv1.IngressController) string {
	if ic.Spec.HTTPHeaders == nil {
		return ""
	}
	names := make([]string, 0, len(ic.Spec.HTTPHeaders.HeaderNameCaseAdjustments))
	for _, n := range ic.Spec.HTTPHeaders.HeaderNameCaseAdjustments {
		names = append(names, string(n))
	}
	return strings.Join(names, ",")
}
