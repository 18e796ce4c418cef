package contract_test

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	openapierrors "k8s.io/kube-openapi/pkg/validation/errors"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/platform/install"
)

// The component route refusals are the API server's own field errors
// (k8s.io/apimachinery field, kube-openapi validation errors, as
// apiextensions-apiserver builds them), checked against that code rather
// than against a copy of its text (the module's apimachinery: the
// Duplicate wording of Kubernetes 1.34 and later; the kind profile's
// 1.33 prints the keys with %#v, the other wording).
func TestComponentRouteSchemaWordings(t *testing.T) {
	spec := field.NewPath("spec", "componentRoutes")
	// A write of the status subresource is validated against the status
	// schema: kube-openapi names the field from there.
	status := field.NewPath("status", "componentRoutes")
	for _, c := range []struct {
		r    contract.Refusal
		text string
	}{
		{contract.ComponentRouteDuplicate("spec.componentRoutes[1]", "ns", "console"),
			field.Duplicate(spec.Index(1), map[string]interface{}{"namespace": "ns", "name": "console"}).Error()},
		{contract.ComponentRoutePatternMismatch("spec.componentRoutes[0].namespace", "Bad_NS", contract.ComponentRouteNamespacePattern),
			field.Invalid(spec.Index(0).Child("namespace"), "Bad_NS",
				openapierrors.FailedPattern("spec.componentRoutes[0].namespace", "body", contract.ComponentRouteNamespacePattern, "Bad_NS").Error()).Error()},
		{contract.ComponentRoutePatternMismatch("status.componentRoutes[0].namespace", "Bad_NS", contract.ComponentRouteNamespacePattern),
			field.Invalid(status.Index(0).Child("namespace"), "Bad_NS",
				openapierrors.FailedPattern("componentRoutes[0].namespace", "body", contract.ComponentRouteNamespacePattern, "Bad_NS").Error()).Error()},
		{contract.ComponentRouteTooShort("spec.componentRoutes[0].name", "", 1),
			field.Invalid(spec.Index(0).Child("name"), "", openapierrors.TooShort("spec.componentRoutes[0].name", "body", 1, "").Error()).Error()},
		{contract.ComponentRouteTooShort("status.componentRoutes[0].name", "", 1),
			field.Invalid(status.Index(0).Child("name"), "", openapierrors.TooShort("componentRoutes[0].name", "body", 1, "").Error()).Error()},
		{contract.ComponentRouteTooLong("spec.componentRoutes[0].name", contract.ComponentRouteNameMaxLength),
			field.TooLong(spec.Index(0).Child("name"), "", contract.ComponentRouteNameMaxLength).Error()},
	} {
		if !c.r.Matches(c.text) {
			t.Errorf("%s: %+v, want a wording within %q", c.r.Rule, c.r.Wordings, c.text)
		}
		if c.r.Status != contract.Invalid {
			t.Errorf("%s: status %+v, want %+v", c.r.Rule, c.r.Status, contract.Invalid)
		}
	}
}

// The patterns are the pinned Ingress config CRD's, in spec and status.
func TestComponentRoutePatternsAreTheCRDs(t *testing.T) {
	crds, err := install.LoadCRDs("..")
	if err != nil {
		t.Fatal(err)
	}
	var ingress *apiextensionsv1.CustomResourceDefinition
	for _, crd := range crds {
		if crd.Name == "ingresses.config.openshift.io" {
			ingress = crd
		}
	}
	if ingress == nil {
		t.Fatal("no ingresses.config.openshift.io CRD")
	}
	root := ingress.Spec.Versions[0].Schema.OpenAPIV3Schema
	for _, c := range []struct {
		path []string
		want string
	}{
		{[]string{"spec", "componentRoutes", "[]", "namespace"}, contract.ComponentRouteNamespacePattern},
		{[]string{"status", "componentRoutes", "[]", "namespace"}, contract.ComponentRouteNamespacePattern},
		{[]string{"spec", "componentRoutes", "[]", "hostname"}, contract.ComponentRouteHostnamePattern},
		{[]string{"status", "componentRoutes", "[]", "defaultHostname"}, contract.ComponentRouteHostnamePattern},
	} {
		s := root
		for _, step := range c.path {
			if step == "[]" {
				s = s.Items.Schema
			} else {
				next := s.Properties[step]
				s = &next
			}
		}
		if s.Pattern != c.want {
			t.Errorf("%v: the CRD's pattern is %q, the contract's %q", c.path, s.Pattern, c.want)
		}
	}
	for _, list := range []string{"spec", "status"} {
		cr := root.Properties[list].Properties["componentRoutes"]
		if cr.XListType == nil || *cr.XListType != "map" || strings.Join(cr.XListMapKeys, ",") != "namespace,name" {
			t.Errorf("%s.componentRoutes: list type %v keys %v, want a map keyed by namespace and name", list, cr.XListType, cr.XListMapKeys)
		}
		if name := cr.Items.Schema.Properties["name"]; name.MaxLength == nil || *name.MaxLength != contract.ComponentRouteNameMaxLength {
			t.Errorf("%s.componentRoutes name maxLength %v, want %d", list, name.MaxLength, contract.ComponentRouteNameMaxLength)
		}
	}
}
