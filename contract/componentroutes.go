package contract

import (
	"fmt"
	"hash/fnv"
	"strings"

	"k8s.io/apimachinery/pkg/util/rand"
)

// ComponentRouteHashLabel marks the Roles and RoleBindings the ingress
// operator makes for a component route (cluster-ingress-operator
// pkg/operator/controller/configurable-route/controller.go).
const ComponentRouteHashLabel = "ingress.operator.openshift.io/component-route-hash"

// ComponentRouteHash is the label's value for the component route
// namespace/name: upstream's pkg/util/hash.go Hash of "namespace/name",
// the 32-bit FNV-1a printed in decimal, each digit then mapped by
// rand.SafeEncodeString.
func ComponentRouteHash(namespace, name string) string {
	h := fnv.New32a()
	h.Write([]byte(namespace + "/" + name))
	return rand.SafeEncodeString(fmt.Sprint(h.Sum32()))
}

// The conditions and messages a component writes in its status entry, as
// cluster-authentication-operator's custom route controller words them
// (pkg/controllers/customroute/custom_route_conditions.go and
// custom_route_controller.go): the consumer the suite's fixture component
// follows.
const (
	// ComponentRouteReasonAsExpected and ComponentRouteMessageAsExpected:
	// Degraded and Progressing False when nothing is wrong
	// (ensureDefaultConditions).
	ComponentRouteReasonAsExpected  = "AsExpected"
	ComponentRouteMessageAsExpected = "All is well"
	// ComponentRouteReasonError: Degraded True and Progressing False when
	// the spec entry cannot be honoured (checkErrorsConfiguringCustomRoute).
	ComponentRouteReasonError = "CustomRouteError"
	// ComponentRouteReasonNotAdmitted: Progressing True while no router
	// has admitted the route under its host (checkIngressURI).
	ComponentRouteReasonNotAdmitted = "RouteNotAdmitted"
)

// ComponentRouteErrorMessage is the message that goes with
// ComponentRouteReasonError: checkErrorsConfiguringCustomRoute's
// fmt.Sprintf("Error Configuring custom route: %v", errors) of the errors
// that getOAuthRouteAndSecretName collected.
func ComponentRouteErrorMessage(errs ...error) string {
	return fmt.Sprintf("Error Configuring custom route: %v", errs)
}

// ComponentRouteSecretNotFound is the error for a Secret the spec entry
// names that does not exist: the core/v1 Secret lister's NotFound, which
// validateCustomTLSSecret returns as it is (the lister names the resource
// "secret", singular).
func ComponentRouteSecretNotFound(name string) error {
	return fmt.Errorf("secret %q not found", name)
}

// ComponentRouteSecretInvalid is validateCustomTLSSecret's error for a
// Secret it cannot use, listing why.
func ComponentRouteSecretInvalid(name string, errs ...error) error {
	return fmt.Errorf("error validating secret %s/%s: %v", ConfigNamespace, name, errs)
}

// ComponentRouteSecretMissingKey is validateCustomTLSSecret's error for a
// Secret without tls.key or tls.crt.
func ComponentRouteSecretMissingKey(key string) error {
	return fmt.Errorf("custom route secret must include key %s", key)
}

// ComponentRouteSecretNotAPair is the fixture component's error for a
// Secret whose tls.key is not the key of its tls.crt, carrying what
// crypto/tls (X509KeyPair) says. Upstream's validateCustomTLSSecret does
// not compare them; the fixture does, so that a pair the router would
// refuse is reported in the status entry, worded as upstream's other
// errors are (fixtures/componentoperator CheckServingSecret).
func ComponentRouteSecretNotAPair(err error) error {
	return fmt.Errorf("tls.crt and tls.key are not a pair: %v", err)
}

// ComponentRouteMessageNotAdmitted is the Progressing message, reason
// ComponentRouteReasonNotAdmitted, while the router that holds the route's
// host has not admitted it there: checkIngressURI's "Route not admitted:
// %v" of library-go routeapihelpers.IngressURI's error for a status entry
// of that host without Admitted True.
func ComponentRouteMessageNotAdmitted(host, route, namespace string) string {
	return fmt.Sprintf("Route not admitted: ingress for host %s in route %s in namespace %s is not admitted", host, route, namespace)
}

// The Ingress config's componentRoutes schema (openshift/api config/v1
// types_ingress.go: listType=map keyed by namespace and name, in spec and
// status; namespace a DNS label, name 1 to 256 characters, Hostname's
// pattern), in the API server's words: k8s.io/apiextensions-apiserver
// pkg/apiserver/schema/listtype/validation.go (validateListMap, a
// field.Duplicate of the keys) and pkg/apiserver/validation/validation.go
// (kubeOpenAPIResultToFieldErrors: kube-openapi's pattern and minLength
// messages, field.TooLong). path is the field path the API server names,
// e.g. spec.componentRoutes[0].namespace.
const componentRouteSchema = "openshift/api config/v1/types_ingress.go (ComponentRouteSpec, ComponentRouteStatus, Hostname: the Ingress CRD's schema), worded by k8s.io/apiextensions-apiserver (listtype validation, schema validation)"

// ComponentRouteNamespacePattern is the pattern of an entry's namespace,
// and ComponentRouteHostnamePattern that of a Hostname (spec's hostname,
// status's defaultHostname and currentHostnames), as the CRD schema holds
// them (contract/componentroutes_test.go compares them with the pinned
// CRD).
const (
	ComponentRouteNamespacePattern = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	ComponentRouteHostnamePattern  = `^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$|^(([a-z0-9][-a-z0-9]{0,61}[a-z0-9]|[a-z0-9]{1,63})[\.]){0,}([a-z0-9][-a-z0-9]{0,61}[a-z0-9]|[a-z0-9]{1,63})$`
)

// ComponentRouteNameMaxLength is the longest name of an entry.
const ComponentRouteNameMaxLength = 256

func componentRouteRefusal(rule, text string) Refusal {
	return Refusal{Rule: "component route: " + rule, Wordings: []Wording{{text, componentRouteSchema}}, Status: Invalid}
}

// ComponentRouteDuplicate refuses the entry at path (e.g.
// spec.componentRoutes[1]) whose namespace and name an earlier entry of
// the same list has.
// The keys are printed as apimachinery's field.Error prints the value:
// with %#v up to Kubernetes 1.33, as JSON since 1.34.
func ComponentRouteDuplicate(path, namespace, name string) Refusal {
	r := componentRouteRefusal(path+" duplicating an earlier entry's namespace and name",
		fmt.Sprintf(`%s: Duplicate value: map[string]interface {}{"name":%q, "namespace":%q}`, path, name, namespace))
	r.Wordings = append(r.Wordings, Wording{fmt.Sprintf(`%s: Duplicate value: {"name":%q,"namespace":%q}`, path, name, namespace),
		componentRouteSchema + ", Kubernetes 1.34 and later"})
	r.Wordings[0].Source += ", Kubernetes 1.33 and earlier"
	return r
}

// ComponentRoutePatternMismatch refuses value at path that does not
// match pattern: field.Invalid of the path, carrying kube-openapi's
// pattern message (componentRouteSchemaName).
func ComponentRoutePatternMismatch(path, value, pattern string) Refusal {
	return componentRouteRefusal(path+" not matching its pattern",
		fmt.Sprintf("%s: Invalid value: %q: %s in body should match '%s'", path, value, componentRouteSchemaName(path), pattern))
}

// ComponentRouteTooShort refuses value at path, shorter than min
// (minLength): field.Invalid of the path, carrying kube-openapi's
// minLength message.
func ComponentRouteTooShort(path, value string, min int) Refusal {
	return componentRouteRefusal(fmt.Sprintf("%s shorter than %d", path, min),
		fmt.Sprintf("%s: Invalid value: %q: %s in body should be at least %d chars long", path, value, componentRouteSchemaName(path), min))
}

// componentRouteSchemaName is how kube-openapi names the field at path
// in its own message: from the object's root for a write of the object,
// from status for a write of the status subresource, which
// apiextensions-apiserver validates against the status schema alone
// (pkg/registry/customresource/validator.go ValidateStatusUpdate), the
// field path in front being the whole one.
func componentRouteSchemaName(path string) string {
	return strings.TrimPrefix(path, "status.")
}

// ComponentRouteTooLong refuses a string at path longer than max
// (maxLength).
func ComponentRouteTooLong(path string, max int) Refusal {
	return componentRouteRefusal(fmt.Sprintf("%s longer than %d", path, max), fmt.Sprintf("%s: Too long: may not be more than %d bytes", path, max))
}
