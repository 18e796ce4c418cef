package contract

import (
	"fmt"
	"strconv"
	"strings"
)

// Wording is how one upstream validator words a refusal, and where.
type Wording struct {
	// Text is matched as a substring of the API error: the validator's own
	// message, without the field path the API server puts in front.
	Text string
	// Source is the upstream file that produces Text.
	Source string
}

// Refusal is one rule's refusal in every wording upstream has for it. On
// OpenShift a Route is validated by openshift-apiserver (library-go's
// route validation); where Route is a CRD (MicroShift, the kind profile)
// its CEL rules answer first. A router platform conforms when its refusal
// carries one of them.
type Refusal struct {
	Rule     string
	Wordings []Wording
	// Status is the API status the refusal comes with, when upstream
	// fixes it (reason and HTTP code: an admission plugin's
	// admission.NewForbidden is Forbidden, 403; a schema violation is
	// Invalid, 422); the zero value asserts none.
	Status APIStatus
}

// APIStatus is the reason and code of an API error (metav1.Status).
type APIStatus struct {
	Reason string
	Code   int32
}

// Forbidden is the status of admission.NewForbidden
// (k8s.io/apiserver pkg/admission/errors.go).
var Forbidden = APIStatus{Reason: "Forbidden", Code: 403}

// Invalid is the status of a create or update the object's schema
// refuses (k8s.io/apimachinery pkg/api/errors NewInvalid).
var Invalid = APIStatus{Reason: "Invalid", Code: 422}

// Matches reports whether an API error's text carries one of the wordings.
func (r Refusal) Matches(errText string) bool {
	for _, w := range r.Wordings {
		if strings.Contains(errText, w.Text) {
			return true
		}
	}
	return false
}

func (r Refusal) String() string {
	texts := make([]string, len(r.Wordings))
	for i, w := range r.Wordings {
		texts[i] = fmt.Sprintf("%q (%s)", w.Text, w.Source)
	}
	s := r.Rule + ": one of " + strings.Join(texts, ", ")
	if r.Status != (APIStatus{}) {
		s += fmt.Sprintf(", as %s (%d)", r.Status.Reason, r.Status.Code)
	}
	return s
}

const (
	libraryGoRouteValidation = "openshift/library-go pkg/route/validation/validation.go"
	routeCRD                 = "openshift/api route/v1/types.go (Route CRD, CEL)"
	ingressControllerCRD     = "openshift/api operator/v1/types_ingresscontroller.go (IngressController CRD, CEL)"
	apiextensionsMaxItems    = "k8s.io/apiextensions-apiserver schema validation (maxItems)"
	apiextensionsMaxLength   = "k8s.io/apiextensions-apiserver schema validation (maxLength; k8s.io/apimachinery field.TooLong)"
	apiextensionsMinLength   = "k8s.io/apiextensions-apiserver schema validation (minLength; k8s.io/kube-openapi validation errors)"
	apiextensionsPattern     = "k8s.io/apiextensions-apiserver schema validation (pattern; k8s.io/kube-openapi validation errors)"
	apiextensionsMaximum     = "k8s.io/apiextensions-apiserver schema validation (maximum; k8s.io/kube-openapi validation errors)"
	apiextensionsMinimum     = "k8s.io/apiextensions-apiserver schema validation (minimum; k8s.io/kube-openapi validation errors)"
	requiredRouteAnnotations = "openshift/openshift-apiserver pkg/route/apiserver/admission/requiredrouteannotations/admission.go"
)

// RouteHeaderDenied refuses a Route header action on a denied header
// (strict-transport-security, proxy, cookie or set-cookie).
func RouteHeaderDenied(lowerName string) Refusal {
	return Refusal{Rule: "route header action on " + lowerName, Wordings: []Wording{
		{lowerName + " header may not be modified via header actions", routeCRD},
		{"Forbidden: the following headers may not be modified using this API: strict-transport-security, proxy, cookie, set-cookie", libraryGoRouteValidation},
	}}
}

// RouteHeaderActionsOverLimit refuses more than 20 request actions.
var RouteRequestHeaderActionsOverLimit = Refusal{Rule: "more than 20 request header actions", Wordings: []Wording{
	{"must have at most 20 items", apiextensionsMaxItems},
	{"request headers list can't exceed 20 items", libraryGoRouteValidation},
}}

// RouteHeaderDuplicate refuses two actions on one header name.
var RouteHeaderDuplicate = Refusal{Rule: "two actions on one header", Wordings: []Wording{
	{"Duplicate value", routeCRD},
	{"Duplicate value", libraryGoRouteValidation},
}}

// RouteRequestHeaderValueNotAllowed refuses a request action value with a
// fetcher or converter outside the allowed ones.
var RouteRequestHeaderValueNotAllowed = Refusal{Rule: "request header value with a fetcher that is not allowed", Wordings: []Wording{
	{"Either the header value provided is not in correct format or the sample fetcher/converter specified is not allowed.", routeCRD},
	// library-go's message has a double space in "value  may"; only its
	// first sentence is matched.
	{"Either header value provided is not in correct format or the converter specified is not allowed.", libraryGoRouteValidation},
}}

// RouteHeaderSetWithoutValue refuses a Set action without set.
var RouteHeaderSetWithoutValue = Refusal{Rule: "Set without a value", Wordings: []Wording{
	{"set is required when type is Set, and forbidden otherwise", routeCRD},
	{"set is required when type is Set, and forbidden otherwise", libraryGoRouteValidation},
}}

// RouteHeaderActionsOnPassthrough refuses header actions on a passthrough route.
var RouteHeaderActionsOnPassthrough = Refusal{Rule: "header actions on a passthrough route", Wordings: []Wording{
	{"header actions are not permitted when tls termination is passthrough.", routeCRD},
	{"only edge and re-encrypt routes are supported for providing customized headers.", libraryGoRouteValidation},
}}

// RouteWeightOutOfRange refuses a backend weight outside 0-256 at path
// (spec.to.weight, spec.alternateBackends[i].weight): the CRD's Minimum
// and Maximum (openshift/api RouteTargetReference's markers), or
// library-go's range check.
func RouteWeightOutOfRange(path string, value int32) Refusal {
	bound := fmt.Sprintf("%s in body should be less than or equal to 256", path)
	source := apiextensionsMaximum
	if value < 0 {
		bound, source = fmt.Sprintf("%s in body should be greater than or equal to 0", path), apiextensionsMinimum
	}
	return Refusal{Rule: fmt.Sprintf("%s %d, outside 0-256", path, value), Wordings: []Wording{
		{bound, source},
		// field.Invalid: the path and the value, then this.
		{fmt.Sprintf("%s: Invalid value: %d: weight must be an integer between 0 and 256", path, value), libraryGoRouteValidation},
	}, Status: Invalid}
}

// RouteAlternateBackendsOverLimit refuses more than three alternate
// backends: the CRD's MaxItems, or library-go's count (a field.Required).
var RouteAlternateBackendsOverLimit = Refusal{Rule: "more than 3 alternate backends", Wordings: []Wording{
	{"spec.alternateBackends: Too many: 4: must have at most 3 items", apiextensionsMaxItems},
	{"spec.alternateBackends: Required value: cannot specify more than 3 alternate backends", libraryGoRouteValidation},
}, Status: Invalid}

// RouteResponseHeaderActionsOverLimit refuses more than 20 response
// actions.
var RouteResponseHeaderActionsOverLimit = Refusal{Rule: "more than 20 response header actions", Wordings: []Wording{
	{"must have at most 20 items", apiextensionsMaxItems},
	{"response headers list can't exceed 20 items", libraryGoRouteValidation},
}}

// headerNamePattern is the header-name pattern of both CRDs (and of
// library-go's permittedHeaderNameRE), as the API server quotes it.
const headerNamePattern = "in body should match '^[-!#$%&'*+.0-9A-Z^_`a-z|~]+$'"

// RouteHeaderNameInvalid refuses a header name outside RFC 2616's token
// characters.
var RouteHeaderNameInvalid = Refusal{Rule: "header name with a character outside the token set", Wordings: []Wording{
	{headerNamePattern, apiextensionsPattern},
	{"name must be a valid HTTP header name as defined in RFC 2616 section 4.2", libraryGoRouteValidation},
}}

// RouteHeaderNameTooLong refuses a header name of more than 255 characters.
var RouteHeaderNameTooLong = Refusal{Rule: "header name over 255 characters", Wordings: []Wording{
	{"Too long: may not be more than 255 bytes", apiextensionsMaxLength},
	{"name exceeds the maximum length, which is 255", libraryGoRouteValidation},
}}

// RouteHeaderValueEmpty refuses a Set action with an empty value.
var RouteHeaderValueEmpty = Refusal{Rule: "empty header value", Wordings: []Wording{
	{"should be at least 1 chars long", apiextensionsMinLength},
	// field.Required with no detail: the path, then this.
	{"Required value", libraryGoRouteValidation},
}}

// RouteHeaderValueTooLong refuses a value of more than 16384 characters.
var RouteHeaderValueTooLong = Refusal{Rule: "header value over 16384 characters", Wordings: []Wording{
	{"Too long: may not be more than 16384 bytes", apiextensionsMaxLength},
	{"value exceeds the maximum length, which is 16384", libraryGoRouteValidation},
}}

// RouteHeaderDeleteWithValue refuses a Delete action that carries set:
// the rule of RouteHeaderSetWithoutValue, from the other side.
var RouteHeaderDeleteWithValue = Refusal{Rule: "Delete with a value", Wordings: []Wording{
	{"set is required when type is Set, and forbidden otherwise", routeCRD},
	{"set is required when type is Set, and forbidden otherwise", libraryGoRouteValidation},
}}

// allowedFetchers is the part of the value refusal that names what a
// list allows: req.hdr in a request list, res.hdr in a response list,
// both with ssl_c_der and the converters lower and base64. The CRDs and
// library-go say it alike.
func allowedFetchers(fetcher string) string {
	return "Sample fetchers allowed are " + fetcher + ", ssl_c_der. Converters allowed are lower, base64."
}

// RouteHeaderValueNotAllowed refuses a value with a fetcher or converter
// its list does not allow; fetcher is "req.hdr" for the request list,
// "res.hdr" for the response list.
func RouteHeaderValueNotAllowed(fetcher string) Refusal {
	return Refusal{Rule: "header value outside " + fetcher + ", ssl_c_der, lower and base64", Wordings: []Wording{
		{allowedFetchers(fetcher), routeCRD},
		{allowedFetchers(fetcher), libraryGoRouteValidation},
	}}
}

// apiextensionsEnum is the API server's wording of a value outside a
// CRD field's enum (k8s.io/apimachinery field.NotSupported).
const apiextensionsEnum = "k8s.io/apiextensions-apiserver schema validation (enum; k8s.io/apimachinery field.NotSupported)"

// headerActionTypeUnsupported is the CRDs' enum refusal of an action
// type other than Set and Delete.
func headerActionTypeUnsupported(value string) string {
	return "Unsupported value: " + strconv.Quote(value) + `: supported values: "Set", "Delete"`
}

// RouteHeaderActionTypeUnsupported refuses an action type other than Set
// and Delete (there is no Append or Replace).
func RouteHeaderActionTypeUnsupported(value string) Refusal {
	return Refusal{Rule: "header action type " + strconv.Quote(value), Wordings: []Wording{
		{headerActionTypeUnsupported(value), apiextensionsEnum},
		// field.Invalid: the path, then this.
		{"Invalid value: " + strconv.Quote(value) + `: type must be "Set" or "Delete"`, libraryGoRouteValidation},
	}}
}

// RouteHeaderNameEmpty refuses an action with an empty header name.
var RouteHeaderNameEmpty = Refusal{Rule: "empty header name", Wordings: []Wording{
	{"name in body should be at least 1 chars long", apiextensionsMinLength},
	// field.Required with no detail on the name's path.
	{"name: Required value", libraryGoRouteValidation},
}}

// The IngressController is a CRD everywhere: each of its refusals has the
// CRD's wording only.

// IngressControllerHeaderDenied refuses an IngressController action on a
// denied header (strict-transport-security, proxy, host, cookie or
// set-cookie).
func IngressControllerHeaderDenied(lowerName string) Refusal {
	return Refusal{Rule: "IngressController header action on " + lowerName, Wordings: []Wording{
		{lowerName + " header may not be modified via header actions", ingressControllerCRD},
	}}
}

// IngressControllerHostHeaderDenied refuses an IngressController action on
// Host.
var IngressControllerHostHeaderDenied = IngressControllerHeaderDenied("host")

// IngressControllerHeaderActionsOverLimit refuses more than 20 actions in
// either of the IngressController's lists.
var IngressControllerHeaderActionsOverLimit = Refusal{Rule: "more than 20 IngressController header actions in a list", Wordings: []Wording{
	{"must have at most 20 items", apiextensionsMaxItems},
}}

// IngressControllerHeaderNameInvalid refuses a header name outside RFC
// 2616's token characters.
var IngressControllerHeaderNameInvalid = Refusal{Rule: "IngressController header name with a character outside the token set", Wordings: []Wording{
	{headerNamePattern, apiextensionsPattern},
}}

// IngressControllerHeaderNameTooLong refuses a header name of more than
// 255 characters.
var IngressControllerHeaderNameTooLong = Refusal{Rule: "IngressController header name over 255 characters", Wordings: []Wording{
	{"Too long: may not be more than 255 bytes", apiextensionsMaxLength},
}}

// IngressControllerHeaderValueEmpty refuses a Set action with an empty
// value.
var IngressControllerHeaderValueEmpty = Refusal{Rule: "empty IngressController header value", Wordings: []Wording{
	{"should be at least 1 chars long", apiextensionsMinLength},
}}

// IngressControllerHeaderValueTooLong refuses a value of more than 16384
// characters.
var IngressControllerHeaderValueTooLong = Refusal{Rule: "IngressController header value over 16384 characters", Wordings: []Wording{
	{"Too long: may not be more than 16384 bytes", apiextensionsMaxLength},
}}

// IngressControllerHeaderDeleteWithValue refuses a Delete action that
// carries set.
var IngressControllerHeaderDeleteWithValue = Refusal{Rule: "IngressController Delete with a value", Wordings: []Wording{
	{"set is required when type is Set, and forbidden otherwise", ingressControllerCRD},
}}

// IngressControllerHeaderValueNotAllowed refuses a value with a fetcher
// or converter its list does not allow (fetcher as for
// RouteHeaderValueNotAllowed).
func IngressControllerHeaderValueNotAllowed(fetcher string) Refusal {
	return Refusal{Rule: "IngressController header value outside " + fetcher + ", ssl_c_der, lower and base64", Wordings: []Wording{
		{allowedFetchers(fetcher), ingressControllerCRD},
	}}
}

// The required-HSTS refusals (openshift-apiserver's
// route.openshift.io/RequiredRouteAnnotations admission plugin).
var (
	HSTSMaxAgeMissingOrWrong = hstsRefusal("max-age missing or malformed", "HSTS max-age must be set correctly in HSTS annotation")
	HSTSPreloadRequired      = hstsRefusal("preload required", "HSTS preload must be specified")
	HSTSPreloadForbidden     = hstsRefusal("preload forbidden", "HSTS preload must not be specified")
	HSTSIncludeSubDomainsReq = hstsRefusal("includeSubDomains required", "HSTS includeSubDomains must be specified")
	HSTSIncludeSubDomainsFor = hstsRefusal("includeSubDomains forbidden", "HSTS includeSubDomains must not be specified")
)

// HSTSMaxAgeGreater refuses a max-age above the policy's largestMaxAge.
func HSTSMaxAgeGreater(largest int32) Refusal {
	return hstsRefusal("max-age above the largest", fmt.Sprintf("HSTS max-age is greater than maximum age %ds", largest))
}

// HSTSMaxAgeLess refuses a max-age below the policy's smallestMaxAge.
func HSTSMaxAgeLess(smallest int32) Refusal {
	return hstsRefusal("max-age below the smallest", fmt.Sprintf("HSTS max-age is less than minimum age %ds", smallest))
}

// hstsRefusal is a refusal of the plugin: upstream's Validate returns
// every one as admission.NewForbidden.
func hstsRefusal(rule, text string) Refusal {
	return Refusal{Rule: "required HSTS policy: " + rule, Wordings: []Wording{{text, requiredRouteAnnotations}}, Status: Forbidden}
}

// HSTSMaxAgeOutOfRange refuses a max-age that is no 32-bit integer:
// upstream answers with strconv.ParseInt's own error.
func HSTSMaxAgeOutOfRange(value string) Refusal {
	return hstsRefusal("max-age beyond int32", fmt.Sprintf("strconv.ParseInt: parsing %q: value out of range", value))
}

// HSTSNamespaceSelectorUnparsable refuses a route that reaches a policy
// whose namespaceSelector has an operator the label selector parser
// does not know: upstream returns the parser's own error
// (matchesNamespaceSelector) rather than skipping the policy.
func HSTSNamespaceSelectorUnparsable(operator string) Refusal {
	return Refusal{Rule: "required HSTS policy: namespaceSelector cannot be parsed", Wordings: []Wording{
		{fmt.Sprintf("%q is not a valid label selector operator", operator), requiredRouteAnnotations + " (matchesNamespaceSelector), from k8s.io/apimachinery pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector)"},
	}, Status: Forbidden}
}

const ingressConfigCRD = "openshift/api config/v1/types_ingress.go (Ingress CRD schema)"

// The Ingress config's own schema (openshift/api config/v1 types.go,
// RequiredHSTSPolicy and MaxAgePolicy markers: MinItems, required,
// Minimum, Maximum, Enum), in the words of the API server's schema
// validation (k8s.io/apiextensions-apiserver
// pkg/apiserver/validation/validation.go, kubeOpenAPIResultToFieldErrors,
// with k8s.io/kube-openapi pkg/validation/errors): path is the field
// path the API server names, e.g. spec.requiredHSTSPolicies[0].maxAge.
const ingressConfigSchema = "openshift/api config/v1/types.go (RequiredHSTSPolicy, MaxAgePolicy: the Ingress CRD's schema), worded by k8s.io/apiextensions-apiserver pkg/apiserver/validation/validation.go"

func ingressConfigRefusal(rule, text string) Refusal {
	return Refusal{Rule: "Ingress config: " + rule, Wordings: []Wording{{text, ingressConfigSchema}}, Status: Invalid}
}

// IngressConfigTooFewItems refuses a list at path shorter than min (MinItems).
func IngressConfigTooFewItems(path string, min int) Refusal {
	return ingressConfigRefusal(path+" with fewer than "+strconv.Itoa(min)+" items", fmt.Sprintf("%s in body should have at least %d items", path, min))
}

// IngressConfigRequired refuses an object without its required field at path.
func IngressConfigRequired(path string) Refusal {
	return ingressConfigRefusal(path+" missing", path+": Required value")
}

// IngressConfigBelowMinimum refuses a number at path below min (Minimum).
func IngressConfigBelowMinimum(path string, min int64) Refusal {
	return ingressConfigRefusal(fmt.Sprintf("%s below %d", path, min), fmt.Sprintf("%s in body should be greater than or equal to %d", path, min))
}

// IngressConfigAboveMaximum refuses a number at path above max (Maximum).
func IngressConfigAboveMaximum(path string, max int64) Refusal {
	return ingressConfigRefusal(fmt.Sprintf("%s above %d", path, max), fmt.Sprintf("%s in body should be less than or equal to %d", path, max))
}

// IngressConfigUnsupported refuses a value at path outside its enum,
// listed in the schema's order (k8s.io/apimachinery field.NotSupported).
func IngressConfigUnsupported(path, value string, supported ...string) Refusal {
	quoted := make([]string, len(supported))
	for i, v := range supported {
		quoted[i] = strconv.Quote(v)
	}
	return ingressConfigRefusal(path+" "+strconv.Quote(value), fmt.Sprintf("%s: Unsupported value: %s: supported values: %s", path, strconv.Quote(value), strings.Join(quoted, ", ")))
}

// ComponentRouteConsumingUserPattern refuses a consuming user that is no
// service account.
var ComponentRouteConsumingUserPattern = Refusal{Rule: "a consuming user that is no service account", Wordings: []Wording{
	{"in body should match '^system:serviceaccount:", ingressConfigCRD},
}}

// ComponentRouteConsumingUsersOverLimit refuses more than five consuming users.
var ComponentRouteConsumingUsersOverLimit = Refusal{Rule: "more than five consuming users", Wordings: []Wording{
	{"must have at most 5 items", ingressConfigCRD},
}}

// IngressControllerHeaderActionTypeUnsupported refuses an action type
// other than Set and Delete.
func IngressControllerHeaderActionTypeUnsupported(value string) Refusal {
	return Refusal{Rule: "IngressController header action type " + strconv.Quote(value), Wordings: []Wording{
		{headerActionTypeUnsupported(value), apiextensionsEnum},
	}}
}

// IngressControllerHeaderNameEmpty refuses an action with an empty header
// name.
var IngressControllerHeaderNameEmpty = Refusal{Rule: "empty IngressController header name", Wordings: []Wording{
	{"name in body should be at least 1 chars long", apiextensionsMinLength},
}}

// IngressControllerHeaderDuplicate refuses two actions on one header name
// in a list: the CRD keys each list by name (listType map).
var IngressControllerHeaderDuplicate = Refusal{Rule: "two IngressController actions on one header", Wordings: []Wording{
	{"Duplicate value", "k8s.io/apiextensions-apiserver schema validation (x-kubernetes-list-type map; k8s.io/apimachinery field.Duplicate)"},
}}

// IngressControllerHeaderSetWithoutValue refuses a Set action without
// set.
var IngressControllerHeaderSetWithoutValue = Refusal{Rule: "IngressController Set without a value", Wordings: []Wording{
	{"set is required when type is Set, and forbidden otherwise", ingressControllerCRD},
}}

// The IngressController's own schema (openshift/api operator/v1
// types_ingresscontroller.go, ClientTLS and ClientCertificatePolicy
// markers: +required, Enum), in the words of the API server's schema
// validation, as for the Ingress config above.
const ingressControllerSchema = "openshift/api operator/v1/types_ingresscontroller.go (ClientTLS, ClientCertificatePolicy: the IngressController CRD's schema), worded by k8s.io/apiextensions-apiserver pkg/apiserver/validation/validation.go"

func ingressControllerSchemaRefusal(rule, text string) Refusal {
	return Refusal{Rule: "IngressController: " + rule, Wordings: []Wording{{text, ingressControllerSchema}}, Status: Invalid}
}

// IngressControllerRequired refuses an IngressController without its
// required field at path.
func IngressControllerRequired(path string) Refusal {
	return ingressControllerSchemaRefusal(path+" missing", path+": Required value")
}

// IngressControllerUnsupported refuses a value at path outside its enum,
// listed in the schema's order.
func IngressControllerUnsupported(path, value string, supported ...string) Refusal {
	quoted := make([]string, len(supported))
	for i, v := range supported {
		quoted[i] = strconv.Quote(v)
	}
	return ingressControllerSchemaRefusal(path+" "+strconv.Quote(value), fmt.Sprintf("%s: Unsupported value: %s: supported values: %s", path, strconv.Quote(value), strings.Join(quoted, ", ")))
}
