package v1alpha1

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Patterns the schema enforces. They mirror k8s.io/apimachinery's
// validation.IsDNS1123Label and IsDNS1123Subdomain, which the builder uses.
const (
	dns1123Label     = `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
	labelPattern     = `^` + dns1123Label + `$`
	subdomainPattern = `^` + dns1123Label + `(\.` + dns1123Label + `)*$`
	// A route's match is a path prefix: it starts with "/" (design document:
	// "each route entry starts with a prefix match").
	matchPattern = `^/`
)

// CRD returns the CustomResourceDefinition of ingressroutes.contour.heptio.com
// v1alpha1, with a structural schema, the validation the design document
// implies, the status subresource and Contour's printer columns.
//
// What the design document requires of a route list (routes present and
// non empty, each route one of service or delegate) and of tls (a
// secretName, of the root's namespace) the schema leaves to the router, as
// Contour v1.0.1's CRD does (examples/contour/01-crds.yaml: no required
// routes, no minItems, no rule joining services and delegate, tls.secretName
// an optional plain string): the object is admitted and the router reports
// it invalid, so a spec of those rules judges the router, not this schema.
func CRD() *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta: metav1.TypeMeta{
			APIVersion: apiextensionsv1.SchemeGroupVersion.String(),
			Kind:       "CustomResourceDefinition",
		},
		ObjectMeta: metav1.ObjectMeta{Name: Plural + "." + GroupName},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: GroupName,
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural:   Plural,
				Singular: Singular,
				Kind:     Kind,
				ListKind: ListKind,
			},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name:    GroupVersion.Version,
				Served:  true,
				Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{
					OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
						Type:     "object",
						Required: []string{"spec"},
						Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"apiVersion": {Type: "string"},
							"kind":       {Type: "string"},
							"metadata":   {Type: "object"},
							"spec":       specSchema(),
							"status":     statusSchema(),
						},
					},
				},
				Subresources: &apiextensionsv1.CustomResourceSubresources{
					Status: &apiextensionsv1.CustomResourceSubresourceStatus{},
				},
				// The columns of Contour v0.15's IngressRoute CRD
				// (examples/contour/01-common.yaml).
				AdditionalPrinterColumns: []apiextensionsv1.CustomResourceColumnDefinition{
					{Name: "FQDN", Type: "string", JSONPath: ".spec.virtualhost.fqdn", Description: "Fully qualified domain name"},
					{Name: "TLS Secret", Type: "string", JSONPath: ".spec.virtualhost.tls.secretName", Description: "Secret with the TLS credentials"},
					{Name: "Status", Type: "string", JSONPath: ".status.currentStatus", Description: "The current status of the IngressRoute"},
					{Name: "Status Description", Type: "string", JSONPath: ".status.description", Description: "Description of the current status"},
				},
			}},
		},
	}
}

func str(pattern string, maxLength int64) apiextensionsv1.JSONSchemaProps {
	return apiextensionsv1.JSONSchemaProps{Type: "string", Pattern: pattern, MaxLength: &maxLength}
}

// label is a DNS-1123 label: service names and namespaces.
func label() apiextensionsv1.JSONSchemaProps { return str(labelPattern, 63) }

// subdomain is a DNS-1123 subdomain: host names, and the names of objects
// (IngressRoutes, Secrets) that Kubernetes lets carry dots.
func subdomain() apiextensionsv1.JSONSchemaProps { return str(subdomainPattern, 253) }

func specSchema() apiextensionsv1.JSONSchemaProps {
	minPort, maxPort := float64(1), float64(65535)
	service := apiextensionsv1.JSONSchemaProps{
		Type:     "object",
		Required: []string{"name", "port"},
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"name": label(),
			"port": {Type: "integer", Minimum: &minPort, Maximum: &maxPort},
		},
	}
	route := apiextensionsv1.JSONSchemaProps{
		Type:     "object",
		Required: []string{"match"},
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"match": {Type: "string", Pattern: matchPattern},
			// An empty list is no service (as v1.0.1's builder reads it):
			// the router decides, see CRD.
			"service": {
				Type:  "array",
				Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &service},
			},
			"delegate": {
				Type:     "object",
				Required: []string{"name"},
				Properties: map[string]apiextensionsv1.JSONSchemaProps{
					"name":      subdomain(),
					"namespace": label(),
				},
			},
		},
		// "each route entry starts with a prefix match and one of service or
		// delegate" (design document): the router checks it, see CRD.
	}
	return apiextensionsv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"virtualhost": {
				Type:     "object",
				Required: []string{"fqdn"},
				Properties: map[string]apiextensionsv1.JSONSchemaProps{
					"fqdn": subdomain(),
					"aliases": {
						Type: "array",
						// a set: the same alias twice is a mistake.
						XListType: ptr("set"),
						Items:     &apiextensionsv1.JSONSchemaPropsOrArray{Schema: ptr(subdomain())},
					},
					// secretName: optional, and a plain string that may
					// read "namespace/name" (v1.0.1); the router checks
					// it, see CRD.
					"tls": {
						Type: "object",
						Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"secretName": {Type: "string"},
						},
					},
				},
			},
			// "routes must always be present and non empty": the router
			// checks it, see CRD.
			"routes": {
				Type:  "array",
				Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &route},
			},
		},
	}
}

func statusSchema() apiextensionsv1.JSONSchemaProps {
	ref := map[string]apiextensionsv1.JSONSchemaProps{
		"name":      {Type: "string"},
		"namespace": {Type: "string"},
	}
	parent := map[string]apiextensionsv1.JSONSchemaProps{
		"name":      {Type: "string"},
		"namespace": {Type: "string"},
		"prefix":    {Type: "string"},
	}
	return apiextensionsv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"currentStatus": {Type: "string", Enum: []apiextensionsv1.JSON{
				{Raw: []byte(`"` + StatusValid + `"`)},
				{Raw: []byte(`"` + StatusInvalid + `"`)},
				{Raw: []byte(`"` + StatusOrphaned + `"`)},
			}},
			"description": {Type: "string"},
			"delegationStatuses": {
				Type: "array",
				Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"state": {
							Type: "object",
							Properties: map[string]apiextensionsv1.JSONSchemaProps{
								"connected": {
									Type: "object",
									Properties: map[string]apiextensionsv1.JSONSchemaProps{
										"parent":      {Type: "object", Properties: parent},
										"connectedAt": {Type: "string", Format: "date-time"},
									},
								},
								"orphaned": {
									Type: "object",
									Properties: map[string]apiextensionsv1.JSONSchemaProps{
										"lastParent": {Type: "object", Properties: ref},
									},
								},
							},
						},
					},
				}},
			},
		},
	}
}

func ptr[T any](v T) *T { return &v }
