package contract

import (
	"fmt"
	"regexp/syntax"
)

// ClientCAConfigMapName is the ingress operator's copy, in the router
// namespace, of the client CA bundle an IngressController's
// spec.clientTLS.clientCA names (cluster-ingress-operator
// pkg/operator/controller/names.go, ClientCAConfigMapName), made by its
// clientca-configmap controller and removed when the IngressController
// goes.
func ClientCAConfigMapName(ingressController string) string {
	return "router-client-ca-" + ingressController
}

// The ingress operator's verdict on an IngressController's spec: the
// Admitted condition, True with reason Valid or False with reason Invalid
// and the validation errors as its message (cluster-ingress-operator
// pkg/operator/controller/ingress/controller.go, admit). An
// IngressController not admitted is not reconciled further: its router
// keeps what it ran.
const (
	IngressControllerAdmittedCondition = "Admitted"
	ReasonIngressControllerValid       = "Valid"
	ReasonIngressControllerInvalid     = "Invalid"
)

// AllowedSubjectPatternRejection is the Admitted=False message for
// spec.clientTLS.allowedSubjectPatterns[index] holding pattern, a regular
// expression that does not parse with Perl syntax: the operator's
// wording wrapped around Go's own parse error (validateClientTLS, with
// regexp/syntax.Parse(pattern, syntax.Perl)). Empty when the pattern
// parses.
func AllowedSubjectPatternRejection(index int, pattern string) string {
	if _, err := syntax.Parse(pattern, syntax.Perl); err != nil {
		return fmt.Sprintf("failed to parse spec.clientTLS.allowedSubjectPatterns[%d]: %v", index, err)
	}
	return ""
}
