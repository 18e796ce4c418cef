package contract

import (
	"context"
	"fmt"
	"strings"
	"testing"

	routev1 "github.com/openshift/api/route/v1"
	routecommon "github.com/openshift/library-go/pkg/route"
	"github.com/openshift/library-go/pkg/route/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func set(name, value string) routev1.RouteHTTPHeader {
	return routev1.RouteHTTPHeader{Name: name, Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Set, Set: &routev1.RouteSetHTTPHeader{Value: value}}}
}

func edgeWith(request, response []routev1.RouteHTTPHeader) *routev1.Route {
	return &routev1.Route{
		ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "ns"},
		Spec: routev1.RouteSpec{
			Host:        "r.apps.example.test",
			To:          routev1.RouteTargetReference{Kind: "Service", Name: "svc"},
			TLS:         &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge},
			HTTPHeaders: &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{Request: request, Response: response}},
		},
	}
}

// weighted is a route whose spec.to weighs to and whose alternate
// backends weigh alternates.
func weighted(to int32, alternates ...int32) *routev1.Route {
	r := edgeWith(nil, nil)
	r.Spec.HTTPHeaders = nil
	r.Spec.To.Weight = &to
	for i, w := range alternates {
		r.Spec.AlternateBackends = append(r.Spec.AlternateBackends, routev1.RouteTargetReference{Kind: "Service", Name: fmt.Sprintf("svc-%d", i), Weight: &w})
	}
	return r
}

// The library-go wording of every route header refusal is what
// library-go's ValidateRoute (the validation openshift-apiserver serves)
// really says: this module builds against it, so the table is checked
// against the running code, not against a copy of its text.
func TestRouteRefusalsMatchLibraryGo(t *testing.T) {
	twentyOne := make([]routev1.RouteHTTPHeader, 21)
	for i := range twentyOne {
		twentyOne[i] = set(fmt.Sprintf("X-H%d", i), "v")
	}
	passthrough := edgeWith([]routev1.RouteHTTPHeader{set("X-A", "1")}, nil)
	passthrough.Spec.TLS.Termination = routev1.TLSTerminationPassthrough
	cases := []struct {
		route *routev1.Route
		want  Refusal
	}{
		{edgeWith(nil, []routev1.RouteHTTPHeader{set("Strict-Transport-Security", "max-age=1")}), RouteHeaderDenied("strict-transport-security")},
		{edgeWith([]routev1.RouteHTTPHeader{set("Proxy", "x")}, nil), RouteHeaderDenied("proxy")},
		{edgeWith([]routev1.RouteHTTPHeader{{Name: "Cookie", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Delete}}}, nil), RouteHeaderDenied("cookie")},
		{edgeWith(nil, []routev1.RouteHTTPHeader{set("Set-Cookie", "a=b")}), RouteHeaderDenied("set-cookie")},
		{edgeWith(twentyOne, nil), RouteRequestHeaderActionsOverLimit},
		{edgeWith([]routev1.RouteHTTPHeader{set("X-A", "1"), {Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Delete}}}, nil), RouteHeaderDuplicate},
		{edgeWith([]routev1.RouteHTTPHeader{set("X-Src", "%[src]")}, nil), RouteRequestHeaderValueNotAllowed},
		{edgeWith([]routev1.RouteHTTPHeader{{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Set}}}, nil), RouteHeaderSetWithoutValue},
		{passthrough, RouteHeaderActionsOnPassthrough},
		{edgeWith(nil, twentyOne), RouteResponseHeaderActionsOverLimit},
		{edgeWith([]routev1.RouteHTTPHeader{set("X Bad", "v")}, nil), RouteHeaderNameInvalid},
		{edgeWith([]routev1.RouteHTTPHeader{set(strings.Repeat("x", 256), "v")}, nil), RouteHeaderNameTooLong},
		{edgeWith([]routev1.RouteHTTPHeader{set("X-A", "")}, nil), RouteHeaderValueEmpty},
		{edgeWith(nil, []routev1.RouteHTTPHeader{set("X-A", strings.Repeat("v", 16385))}), RouteHeaderValueTooLong},
		{edgeWith([]routev1.RouteHTTPHeader{{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Delete, Set: &routev1.RouteSetHTTPHeader{Value: "v"}}}}, nil), RouteHeaderDeleteWithValue},
		{edgeWith([]routev1.RouteHTTPHeader{set("X-A", "%[res.hdr(X-B)]")}, nil), RouteHeaderValueNotAllowed("req.hdr")},
		{edgeWith([]routev1.RouteHTTPHeader{set("X-A", "%[req.hdr(X-B),upper]")}, nil), RouteHeaderValueNotAllowed("req.hdr")},
		{edgeWith(nil, []routev1.RouteHTTPHeader{set("X-A", "%[req.hdr(X-B)]")}), RouteHeaderValueNotAllowed("res.hdr")},
		{edgeWith([]routev1.RouteHTTPHeader{{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: "Append", Set: &routev1.RouteSetHTTPHeader{Value: "v"}}}}, nil), RouteHeaderActionTypeUnsupported("Append")},
		{edgeWith([]routev1.RouteHTTPHeader{{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: "Replace", Set: &routev1.RouteSetHTTPHeader{Value: "v"}}}}, nil), RouteHeaderActionTypeUnsupported("Replace")},
		{edgeWith([]routev1.RouteHTTPHeader{set("", "v")}, nil), RouteHeaderNameEmpty},
		{edgeWith([]routev1.RouteHTTPHeader{set("X-A", "100%")}, nil), RouteHeaderValueNotAllowed("req.hdr")},
		{edgeWith([]routev1.RouteHTTPHeader{set("X-A", "a\x01b")}, nil), RouteHeaderValueNotAllowed("req.hdr")},
		{edgeWith([]routev1.RouteHTTPHeader{set("X-A", "a\tb")}, nil), RouteHeaderValueNotAllowed("req.hdr")},
		{edgeWith([]routev1.RouteHTTPHeader{set("X-A", "%{+Q}[ssl_c_s_dn]")}, nil), RouteHeaderValueNotAllowed("req.hdr")},
		{weighted(257), RouteWeightOutOfRange("spec.to.weight", 257)},
		{weighted(-1), RouteWeightOutOfRange("spec.to.weight", -1)},
		{weighted(100, 257), RouteWeightOutOfRange("spec.alternateBackends[0].weight", 257)},
		{weighted(100, 1, 1, 1, 1), RouteAlternateBackendsOverLimit},
	}
	for _, c := range cases {
		t.Run(c.want.Rule, func(t *testing.T) {
			errs := validation.ValidateRoute(context.Background(), c.route, nil, nil, routecommon.RouteValidationOptions{})
			if len(errs) == 0 {
				t.Fatal("library-go admitted the route")
			}
			got := errs.ToAggregate().Error()
			var libraryGo []Wording
			for _, w := range c.want.Wordings {
				if w.Source == libraryGoRouteValidation {
					libraryGo = append(libraryGo, w)
				}
			}
			if !(Refusal{Rule: c.want.Rule, Wordings: libraryGo}).Matches(got) {
				t.Errorf("library-go says %q; the table's library-go wording is %v", got, libraryGo)
			}
		})
	}
}

func TestEveryRefusalNamesItsSource(t *testing.T) {
	for _, r := range []Refusal{
		RouteHeaderDenied("proxy"), RouteRequestHeaderActionsOverLimit, RouteHeaderDuplicate, RouteRequestHeaderValueNotAllowed,
		RouteHeaderSetWithoutValue, RouteHeaderActionsOnPassthrough, IngressControllerHostHeaderDenied,
		RouteResponseHeaderActionsOverLimit, RouteHeaderNameInvalid, RouteHeaderNameTooLong, RouteHeaderValueEmpty, RouteHeaderValueTooLong,
		RouteHeaderDeleteWithValue, RouteHeaderValueNotAllowed("req.hdr"), RouteHeaderValueNotAllowed("res.hdr"),
		IngressControllerHeaderDenied("proxy"), IngressControllerHeaderActionsOverLimit, IngressControllerHeaderNameInvalid,
		IngressControllerHeaderNameTooLong, IngressControllerHeaderValueEmpty, IngressControllerHeaderValueTooLong,
		IngressControllerHeaderDeleteWithValue, IngressControllerHeaderValueNotAllowed("req.hdr"),
		HSTSMaxAgeMissingOrWrong, HSTSPreloadRequired, HSTSPreloadForbidden, HSTSIncludeSubDomainsReq, HSTSIncludeSubDomainsFor,
		HSTSMaxAgeGreater(1), HSTSMaxAgeLess(1), HSTSMaxAgeOutOfRange("1"),
		ComponentRouteConsumingUserPattern, ComponentRouteConsumingUsersOverLimit, ComponentRouteDuplicate("spec.x[1]", "ns", "n"),
		ComponentRoutePatternMismatch("spec.x", "b", "^a$"), ComponentRouteTooShort("spec.x", "", 1), ComponentRouteTooLong("spec.x", 1),
		HSTSNamespaceSelectorUnparsable("Bogus"),
		IngressConfigTooFewItems("spec.x", 1), IngressConfigRequired("spec.x"), IngressConfigBelowMinimum("spec.x", 0),
		IngressConfigAboveMaximum("spec.x", 1), IngressConfigUnsupported("spec.x", "b", "a"),
		RouteHeaderActionTypeUnsupported("Append"), RouteHeaderNameEmpty, IngressControllerHeaderActionTypeUnsupported("Append"),
		IngressControllerHeaderNameEmpty, IngressControllerHeaderDuplicate, IngressControllerHeaderSetWithoutValue,
		RouteWeightOutOfRange("spec.to.weight", 257), RouteWeightOutOfRange("spec.to.weight", -1), RouteAlternateBackendsOverLimit,
	} {
		if len(r.Wordings) == 0 {
			t.Errorf("%s: no wording", r.Rule)
		}
		for _, w := range r.Wordings {
			if w.Text == "" || w.Source == "" {
				t.Errorf("%s: wording %+v lacks its text or source", r.Rule, w)
			}
		}
	}
	if RouteHeaderDenied("proxy").Matches("something else") {
		t.Error("a refusal matched an unrelated error")
	}
}

// The schema wordings are apiextensions-apiserver's formats for the
// field errors of k8s.io/apimachinery (field.Required, field.NotSupported)
// and kube-openapi's (minItems, minimum, maximum).
func TestIngressConfigSchemaWordings(t *testing.T) {
	const path = "spec.requiredHSTSPolicies[0].preloadPolicy"
	for _, c := range []struct {
		r    Refusal
		text string
	}{
		{IngressConfigTooFewItems("spec.a", 1), "spec.a in body should have at least 1 items"},
		{IngressConfigRequired("spec.a"), "spec.a: Required value"},
		{IngressConfigBelowMinimum("spec.a", 0), "spec.a in body should be greater than or equal to 0"},
		{IngressConfigAboveMaximum("spec.a", 2147483647), "spec.a in body should be less than or equal to 2147483647"},
		{IngressConfigUnsupported(path, "Sometimes", "RequirePreload", "NoOpinion"), path + `: Unsupported value: "Sometimes": supported values: "RequirePreload", "NoOpinion"`},
		{IngressControllerRequired("spec.clientTLS.clientCA"), "spec.clientTLS.clientCA: Required value"},
		{IngressControllerUnsupported("spec.clientTLS.clientCertificatePolicy", "Sometimes", "", "Required", "Optional"), `spec.clientTLS.clientCertificatePolicy: Unsupported value: "Sometimes": supported values: "", "Required", "Optional"`},
	} {
		if len(c.r.Wordings) != 1 || c.r.Wordings[0].Text != c.text {
			t.Errorf("%s: %+v, want the text %q", c.r.Rule, c.r.Wordings, c.text)
		}
		if c.r.Status != Invalid {
			t.Errorf("%s: status %+v, want %+v", c.r.Rule, c.r.Status, Invalid)
		}
	}
	if HSTSPreloadRequired.Status != Forbidden || HSTSMaxAgeOutOfRange("1").Status != Forbidden || HSTSNamespaceSelectorUnparsable("x").Status != Forbidden {
		t.Error("a required-HSTS refusal is not Forbidden (upstream: admission.NewForbidden)")
	}
}

// The Admitted=False message for a pattern that does not parse wraps Go's
// own parse error; a pattern that parses has none.
func TestAllowedSubjectPatternRejection(t *testing.T) {
	if got, want := AllowedSubjectPatternRejection(1, "("), "failed to parse spec.clientTLS.allowedSubjectPatterns[1]: error parsing regexp: missing closing ): `(`"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := AllowedSubjectPatternRejection(0, "/CN=valid$"); got != "" {
		t.Errorf("a valid pattern is rejected: %q", got)
	}
}
