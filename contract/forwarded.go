package contract

import (
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"
)

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

// The forwarded headers a router sets, in canonical form.
var ForwardedHeaderNames = []string{
	"X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Port", "X-Forwarded-Proto", "X-Forwarded-Proto-Version", "Forwarded",
}

// XFFAction is a header action on X-Forwarded-For (IngressController or
// Route): Set Value, or Delete.
type XFFAction struct {
	Delete bool
	Value  string
}

// ForwardedRequest is what decides the forwarded headers a backend sees.
type ForwardedRequest struct {
	// Client holds the forwarded headers the client sent (canonical
	// names, each value a header line of its own; no commas).
	Client map[string][]string
	// IngressController and Route are the actions on X-Forwarded-For of
	// the IngressController's request list and of the route's; nil for
	// none.
	IngressController, Route *XFFAction
	// Source is the client's address as the router sees it, Host the
	// request's Host (lowercased by the frontend), Port the port the
	// router accepted the connection on, TLS whether it terminated TLS.
	Source, Host, Port string
	TLS                bool
}

// Seen is what the backend sees of each forwarded header (absent names
// are none) when policy p is the route's: its
// set-forwarded-headers annotation, else the router's
// ROUTER_SET_FORWARDED_HEADERS (the IngressController's
// forwardedHeaderPolicy). It is upstream's order (openshift/router
// images/router/haproxy/conf/haproxy-config.template): the
// IngressController's actions in the frontend; the policy's rules first in
// the route backend (append adds each header after the client's, replace
// sets it, if-none sets it only where the client sent none, never leaves
// them); then the route's actions; last, for append and if-none, HAProxy's
// forwardfor adds X-Forwarded-For (append: always; if-none: when the
// request has none by then), after every http-request rule. So for
// X-Forwarded-For a route's Set wins under every policy (with append, the
// source is added after it); an IngressController's Set wins under
// if-none and never, is followed by the source under append, and is
// replaced by the source under replace; a Delete leaves the source under
// append and if-none. No ALPN h2 is negotiated (ROUTER_DISABLE_HTTP2), so
// the router never sets X-Forwarded-Proto-Version.
func (p ForwardedPolicy) Seen(r ForwardedRequest) map[string][]string {
	h := map[string][]string{}
	for name, values := range r.Client {
		h[name] = append([]string(nil), values...)
	}
	apply := func(a *XFFAction) {
		switch {
		case a == nil:
		case a.Delete:
			delete(h, "X-Forwarded-For")
		default:
			h["X-Forwarded-For"] = []string{a.Value}
		}
	}
	apply(r.IngressController)
	proto := "http"
	if r.TLS {
		proto = "https"
	}
	source := r.Source
	if strings.Contains(source, ":") {
		source = `"[` + source + `]"`
	}
	// The router's own value of each header; Forwarded carries the
	// X-Forwarded-Proto the request has when its rule runs.
	own := func(name string) string {
		switch name {
		case "X-Forwarded-Host":
			return r.Host
		case "X-Forwarded-Port":
			return r.Port
		case "X-Forwarded-Proto":
			return proto
		}
		last := ""
		if v := h["X-Forwarded-Proto"]; len(v) > 0 {
			last = v[len(v)-1]
		}
		return "for=" + source + ";host=" + r.Host + ";proto=" + last
	}
	for _, name := range []string{"X-Forwarded-Host", "X-Forwarded-Port", "X-Forwarded-Proto", "Forwarded"} {
		switch p {
		case ForwardedAppend:
			h[name] = append(h[name], own(name))
		case ForwardedReplace:
			h[name] = []string{own(name)}
		case ForwardedIfNone:
			if len(h[name]) == 0 {
				h[name] = []string{own(name)}
			}
		}
	}
	if p == ForwardedReplace {
		h["X-Forwarded-For"] = []string{r.Source}
	}
	apply(r.Route)
	switch p {
	case ForwardedAppend:
		h["X-Forwarded-For"] = append(h["X-Forwarded-For"], r.Source)
	case ForwardedIfNone:
		if len(h["X-Forwarded-For"]) == 0 {
			h["X-Forwarded-For"] = []string{r.Source}
		}
	}
	return h
}
