package routeadmission

import (
	"context"
	"encoding/json"
	"strings"

	routev1 "github.com/openshift/api/route/v1"
	routecommon "github.com/openshift/library-go/pkg/route"
	"github.com/openshift/library-go/pkg/route/validation"
	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/router-conformance/suite/faults"
)

// headerActionsReviewFault is a refusal of route's header actions that
// Review makes only under a test-only fault (faults.On); "" otherwise.
func headerActionsReviewFault(route *routev1.Route) string {
	h := route.Spec.HTTPHeaders
	if h == nil {
		return ""
	}
	lists := map[string][]routev1.RouteHTTPHeader{"request": h.Actions.Request, "response": h.Actions.Response}
	for _, list := range []string{"request", "response"} {
		for i, a := range lists[list] {
			path := field.NewPath("spec", "httpHeaders", "actions", list).Index(i)
			if faults.On("header-actions.route-host-action-refused") && strings.EqualFold(a.Name, "host") {
				return field.Forbidden(path.Child("name"), "the following headers may not be modified using this API: strict-transport-security, proxy, cookie, set-cookie, host").Error()
			}
			if faults.On("header-actions.route-header-value-meaning-checked") && strings.EqualFold(a.Name, "X-Frame-Options") && a.Action.Set != nil {
				if v := strings.ToUpper(a.Action.Set.Value); v != "DENY" && v != "SAMEORIGIN" {
					return field.NotSupported(path.Child("action", "set", "value"), a.Action.Set.Value, []string{"DENY", "SAMEORIGIN"}).Error()
				}
			}
			if faults.On("header-actions.route-delete-without-set-refused") && a.Action.Type == routev1.Delete && a.Action.Set == nil {
				return field.Required(path.Child("action", "set"), "set is required").Error()
			}
		}
	}
	return ""
}

// headerActionsAssignFault is, only under a test-only fault (faults.On),
// the answer that admits route with its header actions removed when
// library-go's validation finds them invalid; nil otherwise.
func headerActionsAssignFault(route *routev1.Route) *admissionv1.AdmissionResponse {
	if !faults.On("header-actions.route-invalid-actions-admitted") || route.Spec.HTTPHeaders == nil {
		return nil
	}
	invalid := false
	for _, err := range validation.ValidateRoute(context.Background(), route, nil, nil, routecommon.RouteValidationOptions{}) {
		invalid = invalid || strings.HasPrefix(err.Field, "spec.httpHeaders") || strings.Contains(err.Detail, "customized headers")
	}
	if !invalid {
		return nil
	}
	raw, err := json.Marshal([]map[string]any{{"op": "remove", "path": "/spec/httpHeaders"}})
	if err != nil {
		return nil
	}
	patchType := admissionv1.PatchTypeJSONPatch
	return &admissionv1.AdmissionResponse{Allowed: true, Patch: raw, PatchType: &patchType}
}
