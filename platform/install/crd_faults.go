package install

import (
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/router-conformance/suite/faults"
)

// The CRDs the faults of crdFaults alter.
const (
	ingressConfigCRDName     = "ingresses.config.openshift.io"
	ingressControllerCRDName = "ingresscontrollers.operator.openshift.io"
	routeCRDName             = "routes.route.openshift.io"
)

// crdFaults alters the openshift/api CRDs in memory, before Install
// applies them, for the fault the run was given (Options.Fault): their
// refusals and pruning are the API server's, which no fault build's
// environment reaches (faults.Chosen). Each fault drops one part of one
// schema, so that one refusal is no longer made or one field is pruned
// (client-tls.crd-subject-patterns-checked adds one refusal instead).
// Every install applies the CRDs anew (kubeapply.Apply creates or
// replaces them), so the next install without the fault puts the schema
// back as openshift/api ships it. The error says a schema no longer has
// the part its fault alters (openshift/api changed).
func crdFaults(crds []*apiextensionsv1.CustomResourceDefinition, fault string) error {
	e := &schemaEditor{crds: crds}
	// The Ingress config's required HSTS policies.
	const policy = "spec.requiredHSTSPolicies[]"
	if faults.Chosen(fault, "hsts.crd-domain-patterns-min-items-dropped") {
		e.edit(ingressConfigCRDName, policy+".domainPatterns", func(s *apiextensionsv1.JSONSchemaProps) bool {
			found := s.MinItems != nil
			s.MinItems = nil
			return found
		})
	}
	if faults.Chosen(fault, "hsts.crd-domain-patterns-not-required") {
		e.edit(ingressConfigCRDName, policy, dropRequired("domainPatterns"))
	}
	if faults.Chosen(fault, "hsts.crd-largest-max-age-minimum-dropped") {
		e.edit(ingressConfigCRDName, policy+".maxAge.largestMaxAge", func(s *apiextensionsv1.JSONSchemaProps) bool {
			found := s.Minimum != nil
			s.Minimum = nil
			return found
		})
	}
	if faults.Chosen(fault, "hsts.crd-preload-policy-enum-dropped") {
		e.edit(ingressConfigCRDName, policy+".preloadPolicy", dropEnum)
	}
	if faults.Chosen(fault, "hsts.crd-largest-max-age-pruned") {
		e.edit(ingressConfigCRDName, policy+".maxAge", dropProperty("largestMaxAge"))
	}
	// The Ingress config's spec.componentRoutes and status.componentRoutes.
	if faults.Chosen(fault, "component-routes.crd-spec-entries-not-keyed") {
		e.edit(ingressConfigCRDName, "spec.componentRoutes", func(s *apiextensionsv1.JSONSchemaProps) bool {
			found := s.XListType != nil && *s.XListType == "map"
			atomic := "atomic"
			s.XListType, s.XListMapKeys = &atomic, nil
			return found
		})
	}
	if faults.Chosen(fault, "component-routes.crd-spec-namespace-pattern-dropped") {
		e.edit(ingressConfigCRDName, "spec.componentRoutes[].namespace", func(s *apiextensionsv1.JSONSchemaProps) bool {
			found := s.Pattern != ""
			s.Pattern = ""
			return found
		})
	}
	if faults.Chosen(fault, "component-routes.crd-consuming-users-max-items-dropped") {
		e.edit(ingressConfigCRDName, "status.componentRoutes[].consumingUsers", func(s *apiextensionsv1.JSONSchemaProps) bool {
			found := s.MaxItems != nil
			s.MaxItems = nil
			return found
		})
	}
	if faults.Chosen(fault, "component-routes.crd-spec-name-min-length-dropped") {
		e.edit(ingressConfigCRDName, "spec.componentRoutes[].name", func(s *apiextensionsv1.JSONSchemaProps) bool {
			found := s.MinLength != nil
			s.MinLength = nil
			return found
		})
	}
	// The Route's spec.to.
	if faults.Chosen(fault, "route-api.crd-weight-default-dropped") {
		e.edit(routeCRDName, "spec.to.weight", func(s *apiextensionsv1.JSONSchemaProps) bool {
			found := s.Default != nil
			s.Default = nil
			return found
		})
	}
	// The IngressController's spec.httpHeaders.actions.
	const request, response = "spec.httpHeaders.actions.request", "spec.httpHeaders.actions.response"
	allow := func(header string) { // drops the rule denying header, in both lists
		rule := "self.lowerAscii() != '" + header + "'"
		e.edit(ingressControllerCRDName, request+"[].name", dropRule(rule))
		e.edit(ingressControllerCRDName, response+"[].name", dropRule(rule))
	}
	if faults.Chosen(fault, "header-actions.crd-proxy-rule-dropped") {
		allow("proxy")
	}
	if faults.Chosen(fault, "header-actions.crd-strict-transport-security-rule-dropped") {
		allow("strict-transport-security")
	}
	if faults.Chosen(fault, "header-actions.crd-cookie-rule-dropped") {
		allow("cookie")
	}
	if faults.Chosen(fault, "header-actions.crd-host-rule-dropped") {
		allow("host")
	}
	if faults.Chosen(fault, "header-actions.crd-request-max-items-raised") {
		e.edit(ingressControllerCRDName, request, func(s *apiextensionsv1.JSONSchemaProps) bool {
			found := s.MaxItems != nil
			if found {
				raised := *s.MaxItems + 1
				s.MaxItems = &raised
			}
			return found
		})
	}
	if faults.Chosen(fault, "header-actions.crd-request-value-rule-dropped") {
		e.edit(ingressControllerCRDName, request, dropRule("key.action.set.value.matches("))
	}
	if faults.Chosen(fault, "header-actions.crd-request-list-not-keyed") {
		e.edit(ingressControllerCRDName, request, func(s *apiextensionsv1.JSONSchemaProps) bool {
			found := s.XListType != nil && *s.XListType == "map"
			atomic := "atomic"
			s.XListType, s.XListMapKeys = &atomic, nil
			return found
		})
	}
	if faults.Chosen(fault, "header-actions.crd-request-set-rule-dropped") {
		e.edit(ingressControllerCRDName, request+"[].action", dropRule("has(self.set)"))
	}
	// The IngressController's spec.clientTLS.
	if faults.Chosen(fault, "client-tls.crd-policy-not-required") {
		e.edit(ingressControllerCRDName, "spec.clientTLS", dropRequired("clientCertificatePolicy"))
	}
	if faults.Chosen(fault, "client-tls.crd-client-ca-not-required") {
		e.edit(ingressControllerCRDName, "spec.clientTLS", dropRequired("clientCA"))
	}
	if faults.Chosen(fault, "client-tls.crd-policy-enum-dropped") {
		e.edit(ingressControllerCRDName, "spec.clientTLS.clientCertificatePolicy", dropEnum)
	}
	if faults.Chosen(fault, "client-tls.crd-subject-patterns-checked") {
		e.edit(ingressControllerCRDName, "spec.clientTLS.allowedSubjectPatterns[]", func(s *apiextensionsv1.JSONSchemaProps) bool {
			free := s.Pattern == ""
			s.Pattern = `^[^()]*(\([^()]*\)[^()]*)*$` // parentheses paired, one level deep
			return free
		})
	}
	return e.err
}

// schemaEditor applies edits to the schemas of crds, keeping the first
// error.
type schemaEditor struct {
	crds []*apiextensionsv1.CustomResourceDefinition
	err  error
}

// edit applies change to the schema at path in every version of the CRD
// named crd. path is the property names from the root, dot-separated,
// "[]" after a name for the items of its list. change reports whether
// the schema had what it alters; an edit that finds no such schema, or
// a change that finds nothing to alter, is an error.
func (e *schemaEditor) edit(crd, path string, change func(*apiextensionsv1.JSONSchemaProps) bool) {
	if e.err != nil {
		return
	}
	edited := false
	for _, c := range e.crds {
		if c.Name != crd {
			continue
		}
		for i := range c.Spec.Versions {
			v := &c.Spec.Versions[i]
			if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			if !editAt(v.Schema.OpenAPIV3Schema, strings.Split(path, "."), change) {
				e.err = fmt.Errorf("CRD %s version %s: the schema at %s is not there or not as the fault expects", crd, v.Name, path)
				return
			}
			edited = true
		}
	}
	if !edited {
		e.err = fmt.Errorf("CRD %s: not installed, or without a schema at %s", crd, path)
	}
}

// editAt applies change at path under s (the properties of Properties
// are values: each one on the way is written back).
func editAt(s *apiextensionsv1.JSONSchemaProps, path []string, change func(*apiextensionsv1.JSONSchemaProps) bool) bool {
	if len(path) == 0 {
		return change(s)
	}
	name, items := strings.CutSuffix(path[0], "[]")
	p, ok := s.Properties[name]
	if !ok {
		return false
	}
	at := &p
	if items {
		if p.Items == nil || p.Items.Schema == nil {
			return false
		}
		at = p.Items.Schema
	}
	found := editAt(at, path[1:], change)
	s.Properties[name] = p
	return found
}

func dropRequired(field string) func(*apiextensionsv1.JSONSchemaProps) bool {
	return func(s *apiextensionsv1.JSONSchemaProps) bool {
		n := len(s.Required)
		s.Required = slices.DeleteFunc(slices.Clone(s.Required), func(r string) bool { return r == field })
		return len(s.Required) < n
	}
}

func dropProperty(field string) func(*apiextensionsv1.JSONSchemaProps) bool {
	return func(s *apiextensionsv1.JSONSchemaProps) bool {
		if _, ok := s.Properties[field]; !ok {
			return false
		}
		delete(s.Properties, field)
		return true
	}
}

func dropEnum(s *apiextensionsv1.JSONSchemaProps) bool {
	found := len(s.Enum) > 0
	s.Enum = nil
	return found
}

// dropRule drops the one CEL rule whose text contains rule.
func dropRule(rule string) func(*apiextensionsv1.JSONSchemaProps) bool {
	return func(s *apiextensionsv1.JSONSchemaProps) bool {
		n := len(s.XValidations)
		s.XValidations = slices.DeleteFunc(slices.Clone(s.XValidations), func(r apiextensionsv1.ValidationRule) bool {
			return strings.Contains(r.Rule, rule)
		})
		return len(s.XValidations) == n-1
	}
}
