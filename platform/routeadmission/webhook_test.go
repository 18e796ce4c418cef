package routeadmission

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
)

type fakeCluster struct {
	policies []configv1.RequiredHSTSPolicy
	err      error // reading the policies fails so
}

func (f fakeCluster) RequiredHSTSPolicies(context.Context) ([]configv1.RequiredHSTSPolicy, error) {
	return f.policies, f.err
}

func (f fakeCluster) Namespace(_ context.Context, name string) (*corev1.Namespace, error) {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, nil
}

func review(t *testing.T, srv *httptest.Server, op admissionv1.Operation, route, old *routev1.Route) *admissionv1.AdmissionResponse {
	t.Helper()
	raw := func(r *routev1.Route) runtime.RawExtension {
		if r == nil {
			return runtime.RawExtension{}
		}
		b, _ := json.Marshal(r)
		return runtime.RawExtension{Raw: b}
	}
	in := admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{
			UID: "u-1", Operation: op, Namespace: route.Namespace, Name: route.Name,
			Kind:   metav1.GroupVersionKind{Group: "route.openshift.io", Version: "v1", Kind: "Route"},
			Object: raw(route), OldObject: raw(old),
		},
	}
	body, _ := json.Marshal(in)
	resp, err := http.Post(srv.URL, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out admissionv1.AdmissionReview
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Response == nil || out.Response.UID != "u-1" {
		t.Fatalf("response does not answer the request: %+v", out.Response)
	}
	return out.Response
}

func TestWebhookAppliesRouteValidationAndHSTSPolicies(t *testing.T) {
	policy := configv1.RequiredHSTSPolicy{DomainPatterns: []string{"*.apps.test"}, MaxAge: configv1.MaxAgePolicy{LargestMaxAge: ptr.To[int32](100)}}
	srv := httptest.NewServer(&Webhook{Cluster: fakeCluster{policies: []configv1.RequiredHSTSPolicy{policy}}})
	defer srv.Close()

	ok := hstsRoute("a.apps.test", "max-age=100", "edge")
	ok.ResourceVersion = "1" // updates need one, as from the API server
	ok.Spec.To = routev1.RouteTargetReference{Kind: "Service", Name: "echo"}
	if r := review(t, srv, admissionv1.Create, ok, nil); !r.Allowed {
		t.Fatalf("positive control refused: %+v", r.Result)
	}
	tooLong := ok.DeepCopy()
	tooLong.Annotations["haproxy.router.openshift.io/hsts_header"] = "max-age=101"
	r := review(t, srv, admissionv1.Create, tooLong, nil)
	if r.Allowed || !strings.HasPrefix(r.Result.Message, "HSTS max-age is greater than maximum age 100s") {
		t.Errorf("max-age above the policy: %+v", r.Result)
	}
	// An update that leaves the annotation alone is not checked.
	relabelled := tooLong.DeepCopy()
	relabelled.Labels = map[string]string{"x": "y"}
	if r := review(t, srv, admissionv1.Update, relabelled, tooLong); !r.Allowed {
		t.Errorf("update without an HSTS change was checked: %+v", r.Result)
	}
	// One that changes it is.
	if r := review(t, srv, admissionv1.Update, tooLong, ok); r.Allowed {
		t.Errorf("update raising max-age above the policy was allowed")
	}
	// library-go's rules: a denied header name.
	proxy := ok.DeepCopy()
	proxy.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{
		{Name: "Proxy", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Set, Set: &routev1.RouteSetHTTPHeader{Value: "x"}}},
	}}}
	r = review(t, srv, admissionv1.Create, proxy, nil)
	if r.Allowed || !strings.Contains(r.Result.Message, "the following headers may not be modified using this API: strict-transport-security, proxy, cookie, set-cookie") {
		t.Errorf("Proxy header action: %+v", r.Result)
	}
}

// Upstream's plugin refuses, as Forbidden with the lister's error, every
// edge or reencrypt route it checks while Ingress "cluster" cannot be read
// (a missing one included); routes it does not check pass.
func TestWebhookRefusesTLSRoutesWithoutTheIngressConfig(t *testing.T) {
	notFound := apierrors.NewNotFound(schema.GroupResource{Group: "config.openshift.io", Resource: "ingresses"}, "cluster")
	srv := httptest.NewServer(&Webhook{Cluster: fakeCluster{err: notFound}})
	defer srv.Close()
	for _, termination := range []routev1.TLSTerminationType{routev1.TLSTerminationEdge, routev1.TLSTerminationReencrypt} {
		route := hstsRoute("a.apps.test", "max-age=1", termination)
		route.Spec.To = routev1.RouteTargetReference{Kind: "Service", Name: "echo"}
		r := review(t, srv, admissionv1.Create, route, nil)
		if r.Allowed || r.Result.Code != http.StatusForbidden || r.Result.Reason != metav1.StatusReasonForbidden || r.Result.Message != notFound.Error() {
			t.Errorf("%s route without Ingress cluster: %+v; want Forbidden (403) %q", termination, r.Result, notFound.Error())
		}
	}
	for _, termination := range []routev1.TLSTerminationType{routev1.TLSTerminationPassthrough, ""} {
		route := hstsRoute("a.apps.test", "max-age=1", termination)
		route.Spec.To = routev1.RouteTargetReference{Kind: "Service", Name: "echo"}
		if r := review(t, srv, admissionv1.Create, route, nil); !r.Allowed {
			t.Errorf("%q route, which the plugin does not check, refused: %+v", termination, r.Result)
		}
	}
}
