package routeadmission

import (
	"encoding/json"
	"fmt"

	routev1 "github.com/openshift/api/route/v1"
	admissionv1 "k8s.io/api/admission/v1"

	"github.com/router-conformance/suite/faults"
)

// weightLimitsAssignFault is, only under a test-only fault (faults.On),
// the answer that admits a new route past the Route API's limits by
// bringing it within them: each weight clamped into 0-256, the alternate
// backends past the third dropped. Neither the CRD's schema nor
// library-go's validation then has anything to refuse. nil otherwise.
func weightLimitsAssignFault(route *routev1.Route) *admissionv1.AdmissionResponse {
	if !faults.On("route-api.weight-limits-admitted") {
		return nil
	}
	var patch []map[string]any
	clamp := func(path string, w *int32) {
		if w != nil && (*w < 0 || *w > 256) {
			patch = append(patch, map[string]any{"op": "replace", "path": path, "value": min(max(*w, 0), 256)})
		}
	}
	clamp("/spec/to/weight", route.Spec.To.Weight)
	for i, b := range route.Spec.AlternateBackends {
		if i < 3 {
			clamp(fmt.Sprintf("/spec/alternateBackends/%d/weight", i), b.Weight)
		}
	}
	for i := len(route.Spec.AlternateBackends) - 1; i >= 3; i-- {
		patch = append(patch, map[string]any{"op": "remove", "path": fmt.Sprintf("/spec/alternateBackends/%d", i)})
	}
	if len(patch) == 0 {
		return nil
	}
	raw, err := json.Marshal(patch)
	if err != nil {
		return nil
	}
	patchType := admissionv1.PatchTypeJSONPatch
	return &admissionv1.AdmissionResponse{Allowed: true, Patch: raw, PatchType: &patchType}
}
