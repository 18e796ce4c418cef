package contract

import (
	"fmt"
	"hash/fnv"

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
