package contract

import operatorv1 "github.com/openshift/api/operator/v1"

// The forwarded headers (X-Forwarded-For, X-Forwarded-Host,
// X-Forwarded-Port, X-Forwarded-Proto, X-Forwarded-Proto-Version and
// Forwarded): the router's policy for them, cluster-wide from the
// IngressController and per route from an annotation.
const (
	// SetForwardedHeadersEnv is the router's default policy, which
	// cluster-ingress-operator renders from the IngressController's
	// spec.httpHeaders.forwardedHeaderPolicy
	// (pkg/operator/controller/ingress/deployment.go,
	// desiredRouterDeployment).
	SetForwardedHeadersEnv = "ROUTER_SET_FORWARDED_HEADERS"
	// SetForwardedHeadersAnnotation overrides it for one route
	// (openshift/router images/router/haproxy/conf/haproxy-config.template,
	// the route backend). A value that is not exactly one of the policies
	// below leaves the router's default.
	SetForwardedHeadersAnnotation = "haproxy.router.openshift.io/set-forwarded-headers"
)

// ForwardedPolicy is one value of SetForwardedHeadersEnv and of the
// annotation.
type ForwardedPolicy string

const (
	// ForwardedAppend adds the router's own values after the client's.
	ForwardedAppend ForwardedPolicy = "append"
	// ForwardedReplace puts the router's own values in place of the
	// client's.
	ForwardedReplace ForwardedPolicy = "replace"
	// ForwardedIfNone sets each header only where the client sent none.
	ForwardedIfNone ForwardedPolicy = "if-none"
	// ForwardedNever leaves the headers as the client sent them.
	ForwardedNever ForwardedPolicy = "never"
)

// ForwardedPolicies are the values the router takes, in the order the
// template lists them.
var ForwardedPolicies = []ForwardedPolicy{ForwardedAppend, ForwardedReplace, ForwardedIfNone, ForwardedNever}

// ForwardedPolicyOf is the router's value for an IngressController's
// forwardedHeaderPolicy, as cluster-ingress-operator maps it (unset and
// Append: append; Replace: replace; IfNone: if-none; Never: never).
func ForwardedPolicyOf(p operatorv1.IngressControllerHTTPHeaderPolicy) ForwardedPolicy {
	switch p {
	case operatorv1.ReplaceHTTPHeaderPolicy:
		return ForwardedReplace
	case operatorv1.IfNoneHTTPHeaderPolicy:
		return ForwardedIfNone
	case operatorv1.NeverHTTPHeaderPolicy:
		return ForwardedNever
	default:
		return ForwardedAppend
	}
}

// ParseForwardedPolicy is value when it is exactly one of the policies
// (case and all: upstream's template matches it whole, case-sensitively);
// ok is false otherwise.
func ParseForwardedPolicy(value string) (p ForwardedPolicy, ok bool) {
	for _, known := range ForwardedPolicies {
		if value == string(known) {
			return known, true
		}
	}
	return "", false
}
