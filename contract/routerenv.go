package contract

import (
	"net/url"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"
)

// The environment through which the ingress operator hands an
// IngressController's header actions to its router.
const (
	RequestHeadersEnv  = "ROUTER_HTTP_REQUEST_HEADERS"
	ResponseHeadersEnv = "ROUTER_HTTP_RESPONSE_HEADERS"
)

// HeaderActionsEnv renders actions as cluster-ingress-operator does
// (pkg/operator/controller/ingress/deployment.go): comma-joined
// "name:value:Set" or "name:Delete", each part query-escaped so that
// commas and colons survive.
func HeaderActionsEnv(actions []operatorv1.IngressControllerHTTPHeader) string {
	parts := make([]string, 0, len(actions))
	for _, a := range actions {
		if a.Action.Type == operatorv1.Delete || a.Action.Set == nil {
			parts = append(parts, url.QueryEscape(a.Name)+":"+url.QueryEscape(string(a.Action.Type)))
		} else {
			parts = append(parts, url.QueryEscape(a.Name)+":"+url.QueryEscape(a.Action.Set.Value)+":"+url.QueryEscape(string(a.Action.Type)))
		}
	}
	return strings.Join(parts, ",")
}
