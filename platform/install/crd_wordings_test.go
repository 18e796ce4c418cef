package install

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/router-conformance/suite/contract"
)

// Every CRD wording of a header-action refusal (contract/refusals.go) is
// a message of a CEL rule of the CRD the platform installs, and the
// header-name pattern the API server quotes is the CRDs' pattern: the
// table is checked against the CRDs themselves, as the library-go
// wordings are checked against library-go.
func TestHeaderRefusalCRDWordingsAreTheCRDs(t *testing.T) {
	crds, err := LoadCRDs("../..")
	if err != nil {
		t.Fatal(err)
	}
	messages := map[string][]string{} // CRD kind → its CEL messages
	patterns := map[string][]string{}
	for _, crd := range crds {
		kind := crd.Spec.Names.Kind
		for _, v := range crd.Spec.Versions {
			if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
				walkSchema(*v.Schema.OpenAPIV3Schema, func(s apiextensionsv1.JSONSchemaProps) {
					for _, r := range s.XValidations {
						messages[kind] = append(messages[kind], r.Message)
					}
					if s.Pattern != "" {
						patterns[kind] = append(patterns[kind], s.Pattern)
					}
				})
			}
		}
	}
	for _, r := range []contract.Refusal{
		contract.RouteHeaderDenied("proxy"), contract.RouteHeaderDuplicate, contract.RouteHeaderSetWithoutValue, contract.RouteHeaderDeleteWithValue,
		contract.RouteHeaderActionsOnPassthrough, contract.RouteRequestHeaderValueNotAllowed,
		contract.RouteHeaderValueNotAllowed("req.hdr"), contract.RouteHeaderValueNotAllowed("res.hdr"),
		contract.IngressControllerHeaderDenied("strict-transport-security"), contract.IngressControllerHeaderDenied("proxy"),
		contract.IngressControllerHeaderDenied("cookie"), contract.IngressControllerHeaderDenied("set-cookie"), contract.IngressControllerHostHeaderDenied,
		contract.IngressControllerHeaderDeleteWithValue,
		contract.IngressControllerHeaderValueNotAllowed("req.hdr"), contract.IngressControllerHeaderValueNotAllowed("res.hdr"),
	} {
		for _, w := range r.Wordings {
			kind := ""
			switch {
			case strings.HasPrefix(w.Source, "openshift/api route/v1"):
				kind = "Route"
			case strings.HasPrefix(w.Source, "openshift/api operator/v1"):
				kind = "IngressController"
			default:
				continue
			}
			found := false
			for _, m := range messages[kind] {
				// Duplicates are the API server's own list-map wording.
				found = found || strings.Contains(m, w.Text) || w.Text == "Duplicate value"
			}
			if !found {
				t.Errorf("%s: %q is no CEL message of the %s CRD", r.Rule, w.Text, kind)
			}
		}
	}
	for _, kind := range []string{"Route", "IngressController"} {
		found := false
		for _, p := range patterns[kind] {
			found = found || contract.RouteHeaderNameInvalid.Matches("in body should match '"+p+"'")
		}
		if !found {
			t.Errorf("the %s CRD has no pattern the header-name refusal quotes", kind)
		}
	}
}

func walkSchema(s apiextensionsv1.JSONSchemaProps, visit func(apiextensionsv1.JSONSchemaProps)) {
	visit(s)
	for _, p := range s.Properties {
		walkSchema(p, visit)
	}
	if s.Items != nil && s.Items.Schema != nil {
		walkSchema(*s.Items.Schema, visit)
	}
}
