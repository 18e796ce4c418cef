package v1alpha1_test

import (
	"strings"
	"testing"

	. "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/apis/contour/v1alpha1/irtest"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"
)

// structural converts the CRD's schema as the API server does and checks it
// is structural, which the API server requires of v1 CRDs.
func structural(t *testing.T) *schema.Structural {
	t.Helper()
	crd := CRD()
	if n := len(crd.Spec.Versions); n != 1 {
		t.Fatalf("%d versions", n)
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(
		crd.Spec.Versions[0].Schema.OpenAPIV3Schema, &internal, nil); err != nil {
		t.Fatal(err)
	}
	s, err := schema.NewStructural(&internal)
	if err != nil {
		t.Fatal(err)
	}
	if errs := schema.ValidateStructural(field.NewPath("openAPIV3Schema"), s); len(errs) > 0 {
		t.Fatalf("not structural: %v", errs.ToAggregate())
	}
	return s
}

func TestCRDShape(t *testing.T) {
	structural(t)
	crd := CRD()
	if crd.Name != "ingressroutes.contour.heptio.com" || crd.Spec.Group != "contour.heptio.com" ||
		crd.Spec.Scope != apiextensionsv1.NamespaceScoped || crd.Spec.Names.Kind != "IngressRoute" {
		t.Errorf("names: %+v", crd.Spec)
	}
	v := crd.Spec.Versions[0]
	if v.Name != "v1alpha1" || !v.Served || !v.Storage {
		t.Errorf("version %+v", v)
	}
	if v.Subresources == nil || v.Subresources.Status == nil {
		t.Error("no status subresource")
	}
	var cols []string
	for _, c := range v.AdditionalPrinterColumns {
		cols = append(cols, c.JSONPath)
	}
	if got := strings.Join(cols, " "); !strings.Contains(got, ".spec.virtualhost.fqdn") ||
		!strings.Contains(got, ".status.currentStatus") || !strings.Contains(got, ".status.description") {
		t.Errorf("printer columns %s", got)
	}
	// No CEL rule: a route with both service and delegate, or neither, is
	// admitted as by Contour v1.0.1's CRD, and the router reports it.
	route := v.Schema.OpenAPIV3Schema.Properties["spec"].Properties["routes"].Items.Schema
	if len(route.XValidations) != 0 {
		t.Errorf("route rules %+v: the router judges service and delegate, not the CRD", route.XValidations)
	}
}

// TestCRDValidation runs the schema's OpenAPI validation (everything but the
// CEL rule) over good and bad objects.
func TestCRDValidation(t *testing.T) {
	validator := validate.NewSchemaValidator(structural(t).ToKubeOpenAPI(), nil, "", strfmt.Default)
	good := func() *IngressRoute {
		ir := irtest.WithTLS(irtest.WithAliases(irtest.Root("prod", "google", "www.google.com",
			irtest.Svc("/static", "google-static:9000"),
			irtest.Del("/finance", "finance", "google-finance"),
			irtest.Svc("/ads", "ads-red:9090", "ads-blue:9090")), "www.google.com.au", "google.com"), "google-tls")
		ir.APIVersion, ir.Kind = GroupVersion.String(), Kind
		ir.Status = Status{CurrentStatus: StatusOrphaned, DelegationStatuses: []DelegationStatus{
			{State: DelegationState{Orphaned: &Orphaned{LastParent: &ObjectRef{Name: "a", Namespace: "b"}}}},
			{State: DelegationState{Connected: &Connected{Parent: Parent{Name: "a", Namespace: "b", Prefix: "/"}, ConnectedAt: now}}},
		}}
		return &ir
	}
	cases := []struct {
		name   string
		mutate func(*IngressRoute)
		want   string // "" for valid, else text of the error
	}{
		{"the design document's example", func(*IngressRoute) {}, ""},
		{"a vertex", func(ir *IngressRoute) { ir.Spec.VirtualHost = nil }, ""},
		{"match without /", func(ir *IngressRoute) { ir.Spec.Routes[0].Match = "static" }, "spec.routes[0].match"},
		{"port 0", func(ir *IngressRoute) { ir.Spec.Routes[0].Services[0].Port = 0 }, "spec.routes[0].service[0].port"},
		{"port 65536", func(ir *IngressRoute) { ir.Spec.Routes[0].Services[0].Port = 65536 }, "spec.routes[0].service[0].port"},
		{"service name not a label", func(ir *IngressRoute) { ir.Spec.Routes[0].Services[0].Name = "Bad_Name" }, "spec.routes[0].service[0].name"},
		{"delegate namespace not a label", func(ir *IngressRoute) { ir.Spec.Routes[1].Delegate.Namespace = "a.b" }, "spec.routes[1].delegate.namespace"},
		{"delegate without name", func(ir *IngressRoute) { ir.Spec.Routes[1].Delegate.Name = "" }, "spec.routes[1].delegate.name"},
		{"wildcard fqdn", func(ir *IngressRoute) { ir.Spec.VirtualHost.Fqdn = "*.google.com" }, "spec.virtualhost.fqdn"},
		{"alias not a host name", func(ir *IngressRoute) { ir.Spec.VirtualHost.Aliases[0] = "http://x" }, "spec.virtualhost.aliases"},
		// What the design document requires and Contour v1.0.1's CRD
		// (examples/contour/01-crds.yaml) admits: the router reports these
		// invalid, the API server takes them.
		{"no routes", func(ir *IngressRoute) { ir.Spec.Routes = nil }, ""},
		{"empty routes", func(ir *IngressRoute) { ir.Spec.Routes = nil }, ""},
		{"empty service list", func(ir *IngressRoute) { ir.Spec.Routes[0].Services = []Service{} }, ""},
		{"service and delegate", func(ir *IngressRoute) { ir.Spec.Routes[0].Delegate = &Delegate{Name: "child"} }, ""},
		{"neither service nor delegate", func(ir *IngressRoute) { ir.Spec.Routes[0].Services = nil }, ""},
		{"tls without secretName", func(ir *IngressRoute) { ir.Spec.VirtualHost.TLS.SecretName = "" }, ""},
		{"secretName namespace/name", func(ir *IngressRoute) { ir.Spec.VirtualHost.TLS.SecretName = "certs/google-tls" }, ""},
		{"bad currentStatus", func(ir *IngressRoute) { ir.Status.CurrentStatus = "fine" }, "status.currentStatus"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ir := good()
			c.mutate(ir)
			obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(ir)
			if err != nil {
				t.Fatal(err)
			}
			if c.name == "empty service list" {
				// omitempty drops an empty list; write one as a client could.
				obj["spec"].(map[string]any)["routes"].([]any)[0].(map[string]any)["service"] = []any{}
			}
			if c.name == "no routes" {
				if _, ok := obj["spec"].(map[string]any)["routes"]; ok {
					t.Fatal("routes: nil is written")
				}
			}
			if c.name == "empty routes" {
				obj["spec"].(map[string]any)["routes"] = []any{}
			}
			if c.name == "tls without secretName" {
				if tls := obj["spec"].(map[string]any)["virtualhost"].(map[string]any)["tls"].(map[string]any); len(tls) != 0 {
					t.Fatalf("tls %v: an empty secretName is written", tls)
				}
			}
			res := validator.Validate(obj)
			var msgs []string
			for _, e := range res.Errors {
				msgs = append(msgs, e.Error())
			}
			got := strings.Join(msgs, "; ")
			switch {
			case c.want == "" && got != "":
				t.Errorf("invalid: %s", got)
			case c.want != "" && !strings.Contains(got, c.want):
				t.Errorf("errors %q, want one about %s", got, c.want)
			}
		})
	}
}
