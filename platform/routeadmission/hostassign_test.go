package routeadmission

import (
	"encoding/json"
	"testing"

	routev1 "github.com/openshift/api/route/v1"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// upstream: library-go pkg/route/hostassignment (AllocateHost: no host
// for a Subdomain wildcard route, nor for one with spec.host or
// spec.subdomain; GenerateHostname: <name with dots as dashes>-<namespace>.<suffix>).
func TestHostAssignerGeneratesOnlyWithoutHostAndSubdomain(t *testing.T) {
	h := &HostAssigner{Domain: "apps.test"}
	for _, tc := range []struct {
		name  string
		route routev1.Route
		op    admissionv1.Operation
		want  string // the generated host; "" for no patch
	}{
		{"neither", routev1.Route{ObjectMeta: metav1.ObjectMeta{Name: "a.b"}}, admissionv1.Create, "a-b-ns.apps.test"},
		{"annotated", routev1.Route{ObjectMeta: metav1.ObjectMeta{Name: "r", Annotations: map[string]string{"x": "y"}}}, admissionv1.Create, "r-ns.apps.test"},
		{"host", routev1.Route{ObjectMeta: metav1.ObjectMeta{Name: "r"}, Spec: routev1.RouteSpec{Host: "h.test"}}, admissionv1.Create, ""},
		{"subdomain", routev1.Route{ObjectMeta: metav1.ObjectMeta{Name: "r"}, Spec: routev1.RouteSpec{Subdomain: "s"}}, admissionv1.Create, ""},
		{"wildcard", routev1.Route{ObjectMeta: metav1.ObjectMeta{Name: "r"}, Spec: routev1.RouteSpec{WildcardPolicy: routev1.WildcardPolicySubdomain}}, admissionv1.Create, ""},
		{"update", routev1.Route{ObjectMeta: metav1.ObjectMeta{Name: "r"}}, admissionv1.Update, ""},
	} {
		raw, _ := json.Marshal(tc.route)
		resp := h.Assign(&admissionv1.AdmissionRequest{Operation: tc.op, Namespace: "ns",
			Kind: metav1.GroupVersionKind{Group: "route.openshift.io", Version: "v1", Kind: "Route"}, Object: runtime.RawExtension{Raw: raw}})
		if !resp.Allowed {
			t.Errorf("%s: refused: %+v", tc.name, resp.Result)
			continue
		}
		var patch []struct {
			Op, Path string
			Value    any
		}
		if len(resp.Patch) > 0 {
			if err := json.Unmarshal(resp.Patch, &patch); err != nil {
				t.Fatalf("%s: patch %s: %v", tc.name, resp.Patch, err)
			}
		}
		host := ""
		generated := false
		for _, p := range patch {
			switch p.Path {
			case "/spec/host":
				host, _ = p.Value.(string)
			case "/metadata/annotations":
				generated = p.Value.(map[string]any)["openshift.io/host.generated"] == "true"
			case "/metadata/annotations/openshift.io~1host.generated":
				generated = p.Value == "true"
			}
		}
		if host != tc.want || (tc.want != "") != generated {
			t.Errorf("%s: host %q (annotated %v), want %q", tc.name, host, generated, tc.want)
		}
	}
}
