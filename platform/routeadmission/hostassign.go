package routeadmission

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"strings"

	routev1 "github.com/openshift/api/route/v1"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
)

// GenerateHost is the host a route without one gets: its name with every
// dot as a dash, its namespace and the domain (library-go
// pkg/route/hostassignment, SimpleAllocationPlugin.GenerateHostname);
// "" without a name or a namespace.
func GenerateHost(name, namespace, domain string) string {
	if name == "" || namespace == "" {
		return ""
	}
	return fmt.Sprintf("%s-%s.%s", strings.ReplaceAll(name, ".", "-"), namespace, domain)
}

// HostAssigner is the mutating webhook that gives a new route without
// spec.host and spec.subdomain (and not a Subdomain wildcard route) the
// host <name>-<namespace>.<Domain>, with the annotation
// openshift.io/host.generated "true", as openshift-apiserver does on
// create (pkg/route/apiserver/registry/route/strategy.go,
// PrepareForCreate and allocateHost, through library-go
// pkg/route/hostassignment: AllocateHost and
// SimpleAllocationPlugin.GenerateHostname, the suffix being the cluster's
// ingress domain). A route with spec.subdomain keeps an empty host: each
// router serves it under its own domain.
type HostAssigner struct {
	// Domain is the cluster's ingress domain (the Ingress config's
	// spec.domain).
	Domain string
	Log    *log.Logger
}

func (h *HostAssigner) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	serveReview(w, r, h.Assign)
}

// Assign answers one request: allowed, with a JSON patch when the host
// is generated.
func (h *HostAssigner) Assign(req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	allow := &admissionv1.AdmissionResponse{Allowed: true}
	if req.Kind.Group != routev1.GroupName || req.Kind.Kind != "Route" || req.Operation != admissionv1.Create {
		return allow
	}
	var route routev1.Route
	if err := json.Unmarshal(req.Object.Raw, &route); err != nil {
		return &admissionv1.AdmissionResponse{Allowed: false, Result: &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusBadRequest, Reason: metav1.StatusReasonBadRequest, Message: "cannot decode the route: " + err.Error()}}
	}
	if route.Namespace == "" {
		route.Namespace = req.Namespace
	}
	if resp := headerActionsAssignFault(&route); resp != nil {
		return resp
	}
	if resp := weightLimitsAssignFault(&route); resp != nil {
		return resp
	}
	if route.Spec.Host != "" || route.Spec.Subdomain != "" || route.Spec.WildcardPolicy == routev1.WildcardPolicySubdomain || h.Domain == "" {
		return allow
	}
	host := GenerateHost(route.Name, route.Namespace, h.Domain)
	if host == "" {
		return allow
	}
	patch := []map[string]any{{"op": "add", "path": "/spec/host", "value": host}}
	if route.Annotations == nil {
		patch = append(patch, map[string]any{"op": "add", "path": "/metadata/annotations", "value": map[string]string{contract.HostGeneratedAnnotation: "true"}})
	} else {
		patch = append(patch, map[string]any{"op": "add", "path": "/metadata/annotations/" + jsonPointerEscape(contract.HostGeneratedAnnotation), "value": "true"})
	}
	raw, err := json.Marshal(patch)
	if err != nil {
		return allow
	}
	if h.Log != nil {
		h.Log.Printf("route %s/%s: host %s generated", route.Namespace, route.Name, host)
	}
	patchType := admissionv1.PatchTypeJSONPatch
	return &admissionv1.AdmissionResponse{Allowed: true, Patch: raw, PatchType: &patchType}
}

// jsonPointerEscape escapes a key for a JSON pointer (RFC 6901).
func jsonPointerEscape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			out = append(out, '~', '0')
		case '/':
			out = append(out, '~', '1')
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}
