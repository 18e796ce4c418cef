// Package headers carries HTTP header actions from the APIs to HAProxy:
// the environment lists the ingress operator hands the router
// (ROUTER_HTTP_REQUEST_HEADERS, ROUTER_HTTP_RESPONSE_HEADERS) and the
// strongly quoted HAProxy directives they become.
package headers

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
)

// Environment variables of the router contract.
const (
	RequestEnv  = contract.RequestHeadersEnv
	ResponseEnv = contract.ResponseHeadersEnv
)

// Kind of an action.
type Kind string

const (
	Set    Kind = "Set"
	Delete Kind = "Delete"
)

// Action is one header action. Value is an HAProxy log-format string:
// literal text and dynamic values such as %[req.hdr(host),lower].
type Action struct {
	Name  string
	Kind  Kind
	Value string
}

// ParseEnv reads a list written as contract.HeaderActionsEnv writes it. An empty string is no action.
func ParseEnv(env string) ([]Action, error) {
	if env == "" {
		return nil, nil
	}
	var out []Action
	for i, item := range strings.Split(env, ",") {
		fields := strings.Split(item, ":")
		unescape := func(s string) (string, error) {
			v, err := url.QueryUnescape(s)
			if err != nil {
				return "", fmt.Errorf("header action %d (%q): %w", i+1, item, err)
			}
			return v, nil
		}
		switch {
		case len(fields) == 3 && fields[2] == string(Set):
			name, err := unescape(fields[0])
			if err != nil {
				return nil, err
			}
			value, err := unescape(fields[1])
			if faults.On("header-actions.env-value-plus-not-decoded") {
				value, err = url.PathUnescape(fields[1])
			}
			if err != nil {
				return nil, err
			}
			out = append(out, Action{Name: name, Kind: Set, Value: value})
		case len(fields) == 2 && fields[1] == string(Delete):
			name, err := unescape(fields[0])
			if err != nil {
				return nil, err
			}
			out = append(out, Action{Name: name, Kind: Delete})
		default:
			return nil, fmt.Errorf("header action %d (%q): want name:value:Set or name:Delete", i+1, item)
		}
		if out[len(out)-1].Name == "" {
			return nil, fmt.Errorf("header action %d (%q) has no header name", i+1, item)
		}
	}
	if faults.On("header-actions.ingresscontroller-list-order-reversed") {
		slices.Reverse(out)
	}
	return out, nil
}

// Quote is HAProxy's strong quoting, as upstream does it: each ' becomes
// '\” and the whole is wrapped in single quotes, so spaces, backslashes,
// semicolons and quotes reach HAProxy's log-format parser literally.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Directive renders an action for "http-request" or "http-response".
func (a Action) Directive(direction string) string {
	if a.Kind == Delete {
		if faults.On("header-actions.delete-ignored") {
			return ""
		}
		return fmt.Sprintf("%s del-header %s", direction, Quote(a.Name))
	}
	value, verb := a.Value, "set-header"
	if faults.On("header-actions.value-apostrophe-dropped") {
		value = strings.ReplaceAll(value, "'", "")
	}
	if faults.On("header-actions.value-condition-cut") {
		value, _, _ = strings.Cut(value, " if ")
	}
	if faults.On("header-actions.set-appends") {
		verb = "add-header"
	}
	return fmt.Sprintf("%s %s %s %s", direction, verb, Quote(a.Name), Quote(value))
}

// FromRoute converts a Route's header actions, in order.
func FromRoute(actions []routev1.RouteHTTPHeader) []Action {
	out := make([]Action, 0, len(actions))
	for _, h := range actions {
		a := Action{Name: h.Name, Kind: Kind(h.Action.Type)}
		if h.Action.Set != nil {
			a.Value = h.Action.Set.Value
		}
		out = append(out, a)
	}
	return out
}
