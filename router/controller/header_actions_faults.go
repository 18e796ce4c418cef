package controller

import (
	"fmt"

	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/router/haproxy"
	"github.com/router-conformance/suite/router/headers"
)

// headerActionsTranslateFaults changes what Translate made of route's
// header actions, forwarded-headers annotation, session cookie and
// passthrough termination only under a test-only fault (faults.On); a
// rejection only under one too.
func headerActionsTranslateFaults(route *routev1.Route, out *haproxy.Route) *Rejection {
	if faults.On("header-actions.route-request-actions-dropped") {
		out.RequestHeaders = nil
	}
	if faults.On("header-actions.route-response-actions-dropped") {
		out.ResponseHeaders = nil
	}
	if faults.On("header-actions.route-list-order-reversed") {
		out.RequestHeaders = reversedActions(out.RequestHeaders)
		out.ResponseHeaders = reversedActions(out.ResponseHeaders)
	}
	if faults.On("header-actions.route-value-at-limit-rejected") {
		for _, a := range append(append([]headers.Action(nil), out.RequestHeaders...), out.ResponseHeaders...) {
			if a.Kind == headers.Set && len(a.Value) >= 16384 {
				return &Rejection{contract.ReasonExtendedValidationFailed, fmt.Sprintf("header %s: value of %d characters is too long", a.Name, len(a.Value))}
			}
		}
	}
	if faults.On("header-actions.forwarded-annotation-ignored") {
		out.ForwardedHeaders = ""
	}
	if faults.On("header-actions.cookies-disabled-ignored") && out.Cookie == nil {
		r := route.DeepCopy()
		delete(r.Annotations, contract.DisableCookiesAnnotation)
		out.Cookie = sessionCookie(r, out.Termination, out.InsecurePolicy)
	}
	if faults.On("header-actions.cookie-name-ignored") && out.Cookie != nil {
		out.Cookie.Name = contract.DefaultCookieName(route.Namespace, route.Name)
	}
	if faults.On("header-actions.passthrough-terminated") && out.Termination == haproxy.Passthrough {
		out.Termination = haproxy.Reencrypt
		out.ServiceHostname = fmt.Sprintf("%s.%s.svc", route.Spec.To.Name, route.Namespace)
	}
	return nil
}

// reversedActions is a copy of actions in reverse order.
func reversedActions(actions []headers.Action) []headers.Action {
	out := make([]headers.Action, 0, len(actions))
	for i := len(actions) - 1; i >= 0; i-- {
		out = append(out, actions[i])
	}
	return out
}
