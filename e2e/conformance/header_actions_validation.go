package conformance

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
)

// describeRouteRefusals: the route's header actions the API refuses,
// each beside its positive control.
func describeRouteRefusals(f *framework.Framework) {
	// The refusal is matched against every upstream wording of its rule:
	// the Route CRD's CEL (kind, MicroShift) and library-go's route
	// validation (openshift-apiserver), contract/refusals.go.
	//
	// Document: the HTTP header actions enhancement, sections "API
	// Extensions" (the Route's MaxItems=20, unique names, the allowed
	// values, set required with Set, no actions on passthrough) and
	// "Risks and Mitigations" (strict-transport-security, proxy, cookie and
	// set-cookie denied)
	// Upstream: openshift/library-go pkg/route/validation/validation.go
	// (validateRoute: passthrough and the 20-item limit; validateHeaders:
	// duplicates, notAllowedHTTPHeaders, set with Set,
	// permittedRequestHeaderValueRE) and openshift/api route/v1/types.go
	// (the Route CRD's maxItems and CEL rules)
	DescribeTable("refuses invalid route header actions with the API's message", framework.JudgesPlatform,
		func(ctx SpecContext, mutate func(*routev1.Route), want contract.Refusal) {
			ns := f.SpecNamespace(ctx, "headers-invalid")
			backend := &framework.Echo{Namespace: ns, Service: "echo"}
			By("positive control: twenty valid actions are admitted")
			valid := f.RouteTo(backend, "valid", framework.EchoHTTPPort)
			valid.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
			valid.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{}
			for i := 0; i < 20; i++ {
				valid.Spec.HTTPHeaders.Actions.Request = append(valid.Spec.HTTPHeaders.Actions.Request, framework.RouteSetHeader(fmt.Sprintf("X-H%d", i), "v"))
			}
			_, err := f.Routes.RouteV1().Routes(ns).Create(ctx, valid, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())

			bad := f.RouteTo(backend, "invalid", framework.EchoHTTPPort)
			bad.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
			bad.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{}
			mutate(bad)
			_, err = f.Routes.RouteV1().Routes(ns).Create(ctx, bad, metav1.CreateOptions{})
			framework.ExpectRefusal(Default, err, want)
		},
		Entry("Strict-Transport-Security is denied", framework.ID("header-actions/refuse-strict-transport-security"), func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Response = []routev1.RouteHTTPHeader{framework.RouteSetHeader("Strict-Transport-Security", "max-age=1")}
		}, contract.RouteHeaderDenied("strict-transport-security")),
		Entry("Proxy is denied", framework.ID("header-actions/refuse-proxy"), func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{framework.RouteSetHeader("Proxy", "x")}
		}, contract.RouteHeaderDenied("proxy")),
		Entry("Cookie is denied", framework.ID("header-actions/refuse-cookie"), func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{framework.RouteDeleteHeader("Cookie")}
		}, contract.RouteHeaderDenied("cookie")),
		Entry("Set-Cookie is denied", framework.ID("header-actions/refuse-set-cookie"), func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Response = []routev1.RouteHTTPHeader{framework.RouteSetHeader("Set-Cookie", "a=b")}
		}, contract.RouteHeaderDenied("set-cookie")),
		Entry("21 actions", framework.ID("header-actions/refuse-over-twenty-actions"), func(r *routev1.Route) {
			for i := 0; i < 21; i++ {
				r.Spec.HTTPHeaders.Actions.Request = append(r.Spec.HTTPHeaders.Actions.Request, framework.RouteSetHeader(fmt.Sprintf("X-H%d", i), "v"))
			}
		}, contract.RouteRequestHeaderActionsOverLimit),
		Entry("the same header twice", framework.ID("header-actions/refuse-duplicate-header"), func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "1"), framework.RouteDeleteHeader("X-A")}
		}, contract.RouteHeaderDuplicate),
		Entry("a fetcher that is not allowed", framework.ID("header-actions/refuse-disallowed-fetcher"), func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-Src", "%[src]")}
		}, contract.RouteRequestHeaderValueNotAllowed),
		Entry("Set without a value", framework.ID("header-actions/refuse-set-without-value"), func(r *routev1.Route) {
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Set}}}
		}, contract.RouteHeaderSetWithoutValue),
		Entry("actions on a passthrough route", framework.ID("header-actions/refuse-passthrough-actions"), func(r *routev1.Route) {
			r.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationPassthrough}
			r.Spec.HTTPHeaders.Actions.Request = []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "1")}
		}, contract.RouteHeaderActionsOnPassthrough),
	)
}

// Validation at the API's limits, each refusal beside its positive
// control: the same action just inside the limit (or on an allowed
// header, with an allowed fetcher) is admitted. Nothing is stored: the
// controls are dry runs, the refusals are refused. The refusal is matched
// against every upstream wording of its rule (contract/refusals.go): for a
// Route the CRD's (kind, MicroShift) and library-go's (openshift-apiserver);
// the IngressController is a CRD everywhere.
func describeHeaderLimits(f *framework.Framework) {
	// The document gives a header name MaxLength=1024; the CRD and
	// library-go shipped 255, which the spec asserts.
	//
	// Document: the HTTP header actions enhancement, sections "API
	// Extensions" (RouteHTTPHeaderActions: response MaxItems=20;
	// RouteHTTPHeader name: MinLength=1, MaxLength (1024 there), the token pattern;
	// RouteSetHTTPHeader value: MinLength=1, MaxLength=16384, the request
	// list's req.hdr and the response list's res.hdr, ssl_c_der, the
	// converters lower and base64, %% for a literal percent sign, no
	// control character; set required with Set, "and forbidden
	// otherwise"), "Non-Goals" (no Append or Replace: the type is Set or
	// Delete; 6: no other fetcher or converter), "X-SSL" (of the ssl_
	// fetchers only ssl_c_der), "Why do we limit to max 20 items each for
	// custom response and request headers ?" and "Why did we select max
	// value size of 16384 for header value ?"
	// Upstream: openshift/library-go pkg/route/validation/validation.go
	// (validateRoute: maxResponseHeaderList; validateHeaders: the name
	// required, maxHeaderNameSize, permittedHeaderNameRE, the type Set or
	// Delete, maxHeaderValueSize, set with Set only,
	// permittedHeaderValueTemplate: %% or %[...] of the allowed fetchers,
	// else no % and no control character) and openshift/api
	// route/v1/types.go (the Route CRD's maxItems, maxLength, minLength,
	// pattern, the type's enum and CEL rules)
	DescribeTable("refuses a route header action past the API's limits with the API's message; the action just inside is admitted", framework.JudgesPlatform,
		func(ctx SpecContext, valid, invalid routev1.RouteHTTPHeaderActions, want contract.Refusal) {
			ns := f.SpecNamespace(ctx, "headers-limits")
			backend := &framework.Echo{Namespace: ns, Service: "echo"}
			routes := f.Routes.RouteV1().Routes(ns)
			edge := func(name string, actions routev1.RouteHTTPHeaderActions) *routev1.Route {
				GinkgoHelper()
				r := f.TerminatedRouteTo(backend, name, routev1.TLSTerminationEdge, "")
				r.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: actions}
				return r
			}
			By("positive control: the action just inside the limit is admitted (a dry run)")
			_, err := routes.Create(ctx, edge("valid", valid), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			Expect(err).NotTo(HaveOccurred())
			_, err = routes.Create(ctx, edge("invalid", invalid), metav1.CreateOptions{})
			framework.ExpectRefusal(Default, err, want)
		},
		limitEntries(sharedHeaderLimits(), limitCase.routeEntry),
		Entry("a converter outside lower and base64", framework.ID("header-actions/refuse-unlisted-converter"),
			requestActions(framework.RouteSetHeader("X-A", "%[req.hdr(X-B),lower,base64]")),
			requestActions(framework.RouteSetHeader("X-A", "%[req.hdr(X-B),upper]")),
			contract.RouteHeaderValueNotAllowed("req.hdr")),
		Entry("a control character (U+0001) in a value", framework.ID("header-actions/refuse-control-character"),
			requestActions(framework.RouteSetHeader("X-A", "a b")),
			requestActions(framework.RouteSetHeader("X-A", "a\x01b")),
			contract.RouteHeaderValueNotAllowed("req.hdr")),
		Entry("a tab in a value (a control character)", framework.ID("header-actions/refuse-tab"),
			responseActions(framework.RouteSetHeader("X-A", "a b")),
			responseActions(framework.RouteSetHeader("X-A", "a\tb")),
			contract.RouteHeaderValueNotAllowed("res.hdr")),
	)

	// Dry runs of the default IngressController: nothing of it changes,
	// the positive control included (as header-actions/ingresscontroller-refuse-host).
	// The document gives a header name MaxLength=1024 and denies
	// strict-transport-security, proxy and host in the API's rules, cookie
	// and set-cookie under "Risks and Mitigations"; the CRD shipped 255
	// and denies all five, which the spec asserts.
	//
	// Document: the HTTP header actions enhancement, sections "API
	// Extensions" (IngressControllerHTTPHeaderActions: MaxItems=20 each;
	// IngressControllerHTTPHeader name: MaxLength (1024 there), the token
	// pattern, strict-transport-security, proxy and host may not be set or
	// deleted; IngressControllerSetHTTPHeader value:
	// MinLength=1, MaxLength=16384, req.hdr in requests and res.hdr in
	// responses, ssl_c_der, lower and base64), "Risks and Mitigations"
	// ("Proxy header", "Strict-Transport-Security", "Cookie and Set-Cookie",
	// "Header Configuration Options": none of these configurable with the
	// IngressController's actions), "Non-Goals" (no Append or Replace: the
	// type is Set or Delete; 6: no other fetcher or converter) and "X-SSL"
	// (of the ssl_ fetchers only ssl_c_der)
	// Upstream: openshift/api operator/v1/types_ingresscontroller.go
	// (IngressControllerHTTPHeaderActions: listType map keyed by name, the
	// value rule's %% or %[...] of the allowed fetchers, else no % and no
	// control character; IngressControllerHTTPHeader,
	// IngressControllerHTTPHeaderActionUnion: the type's enum Set;Delete,
	// set with Set only; IngressControllerSetHTTPHeader: the CRD's
	// maxItems, maxLength, minLength, pattern and CEL rules)
	DescribeTable("refuses an IngressController header action past the API's limits with the CRD's message; the action just inside is admitted", framework.JudgesPlatform,
		func(ctx SpecContext, valid, invalid routev1.RouteHTTPHeaderActions, want contract.Refusal) {
			ics := framework.DryRun[*operatorv1.IngressController]{Client: f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace)}
			withActions := func(actions routev1.RouteHTTPHeaderActions) func(*operatorv1.IngressController) {
				return func(ic *operatorv1.IngressController) {
					ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: ingressControllerActions(actions)}
				}
			}
			By("positive control: the action just inside the limit is admitted (a dry run)")
			_, err := framework.Update(ctx, ics, contract.DefaultIngressController, withActions(valid))
			Expect(err).NotTo(HaveOccurred())
			_, err = framework.Update(ctx, ics, contract.DefaultIngressController, withActions(invalid))
			framework.ExpectRefusal(Default, err, want)
		},
		limitEntries(sharedHeaderLimits(), limitCase.ingressControllerEntry),
		Entry("Strict-Transport-Security is denied", framework.ID("header-actions/ingresscontroller-refuse-strict-transport-security"),
			responseActions(framework.RouteSetHeader("X-Strict-Transport-Security", "max-age=1")),
			responseActions(framework.RouteSetHeader("Strict-Transport-Security", "max-age=1")),
			contract.IngressControllerHeaderDenied("strict-transport-security")),
		Entry("Proxy is denied", framework.ID("header-actions/ingresscontroller-refuse-proxy"),
			requestActions(framework.RouteDeleteHeader("Proxy-Authorization")),
			requestActions(framework.RouteDeleteHeader("Proxy")),
			contract.IngressControllerHeaderDenied("proxy")),
		Entry("Cookie is denied", framework.ID("header-actions/ingresscontroller-refuse-cookie"),
			requestActions(framework.RouteSetHeader("X-Cookie", "a=b")),
			requestActions(framework.RouteSetHeader("Cookie", "a=b")),
			contract.IngressControllerHeaderDenied("cookie")),
		Entry("Set-Cookie is denied", framework.ID("header-actions/ingresscontroller-refuse-set-cookie"),
			responseActions(framework.RouteDeleteHeader("X-Set-Cookie")),
			responseActions(framework.RouteDeleteHeader("Set-Cookie")),
			contract.IngressControllerHeaderDenied("set-cookie")),
		Entry("21 request actions", framework.ID("header-actions/ingresscontroller-refuse-over-twenty-request-actions"),
			requestActions(setHeaders(20, "v")...),
			requestActions(setHeaders(21, "v")...),
			contract.IngressControllerHeaderActionsOverLimit),
		Entry("a converter outside lower and base64", framework.ID("header-actions/ingresscontroller-refuse-unlisted-converter"),
			requestActions(framework.RouteSetHeader("X-A", "%{+Q}[ssl_c_der,base64,lower]")),
			requestActions(framework.RouteSetHeader("X-A", "%{+Q}[ssl_c_der,hex]")),
			contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
		Entry("the same header twice in a list", framework.ID("header-actions/ingresscontroller-refuse-duplicate-header"),
			requestActions(framework.RouteSetHeader("X-A", "1"), framework.RouteDeleteHeader("X-B")),
			requestActions(framework.RouteSetHeader("X-A", "1"), framework.RouteDeleteHeader("X-A")),
			contract.IngressControllerHeaderDuplicate),
		Entry("Set without a value", framework.ID("header-actions/ingresscontroller-refuse-set-without-value"),
			requestActions(framework.RouteSetHeader("X-A", "v")),
			requestActions(routev1.RouteHTTPHeader{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Set}}),
			contract.IngressControllerHeaderSetWithoutValue),
		Entry("a fetcher neither list allows (src)", framework.ID("header-actions/ingresscontroller-refuse-disallowed-fetcher"),
			requestActions(framework.RouteSetHeader("X-Src", "%[req.hdr(X-B)]")),
			requestActions(framework.RouteSetHeader("X-Src", "%[src]")),
			contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
		Entry("a control character (U+0001) in a value", framework.ID("header-actions/ingresscontroller-refuse-control-character"),
			responseActions(framework.RouteSetHeader("X-A", "a b")),
			responseActions(framework.RouteSetHeader("X-A", "a\x01b")),
			contract.IngressControllerHeaderValueNotAllowed("res.hdr")),
	)
	// The IngressController's Delete of X-Forwarded-For is admitted (a
	// dry run); the same Delete of Proxy is refused, so the dry run does
	// validate. A route's Set and Delete and the IngressController's Set
	// of it are admitted and applied by the forwarded-policy specs.
	//
	// Document: the HTTP header actions enhancement, section
	// "X-Forwarded-For" (under "Risks and Mitigations": x-forwarded-for is
	// not deny-listed; the method to delete it)
	// Upstream: openshift/api operator/v1/types_ingresscontroller.go
	// (IngressControllerHTTPHeader: the CEL rules deny
	// strict-transport-security, proxy, host, cookie and set-cookie only)
	It("admits an IngressController Delete of X-Forwarded-For, while a Delete of Proxy is refused", framework.ID("header-actions/ingresscontroller-may-delete-x-forwarded-for"), framework.JudgesPlatform, func(ctx SpecContext) {
		ics := framework.DryRun[*operatorv1.IngressController]{Client: f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace)}
		deleteRequestHeader := func(name string) func(*operatorv1.IngressController) {
			return func(ic *operatorv1.IngressController) {
				ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
					Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerDeleteHeader(name)},
				}}
			}
		}
		_, err := framework.Update(ctx, ics, contract.DefaultIngressController, deleteRequestHeader("X-Forwarded-For"))
		Expect(err).NotTo(HaveOccurred())
		By("negative control: a Delete of Proxy is refused")
		_, err = framework.Update(ctx, ics, contract.DefaultIngressController, deleteRequestHeader("Proxy"))
		framework.ExpectRefusal(Default, err, contract.IngressControllerHeaderDenied("proxy"))
	})
}

// limitCase is one rule of the API's limits that the Route's and the
// IngressController's header actions share: their lists have one shape
// and one validation, so a case is written once, in the Route's type
// (ingressControllerActions converts it), and runs as a spec against each
// API with that API's wording.
type limitCase struct {
	text                            string
	routeID, ingressControllerID    string
	valid, invalid                  routev1.RouteHTTPHeaderActions
	routeRefusal, ingressController contract.Refusal
	at                              types.CodeLocation // where the case is written: its specs' location in reports and the catalogue
}

func (c limitCase) routeEntry() TableEntry {
	return Entry(c.text, framework.ID(c.routeID), c.at, c.valid, c.invalid, c.routeRefusal)
}

func (c limitCase) ingressControllerEntry() TableEntry {
	return Entry(c.text, framework.ID(c.ingressControllerID), c.at, c.valid, c.invalid, c.ingressController)
}

func limitEntries(cases []limitCase, entry func(limitCase) TableEntry) []TableEntry {
	out := make([]TableEntry, len(cases))
	for i, c := range cases {
		out[i] = entry(c)
	}
	return out
}

// sharedHeaderLimits: each case's valid actions sit just inside the limit
// its invalid ones pass.
func sharedHeaderLimits() []limitCase {
	limit := func(text, routeID, ingressControllerID string, valid, invalid routev1.RouteHTTPHeaderActions, route, ingressController contract.Refusal) limitCase {
		return limitCase{text, routeID, ingressControllerID, valid, invalid, route, ingressController, types.NewCodeLocation(1)}
	}
	return []limitCase{
		limit("21 response actions", "header-actions/refuse-over-twenty-response-actions", "header-actions/ingresscontroller-refuse-over-twenty-response-actions",
			responseActions(setHeaders(20, "v")...), responseActions(setHeaders(21, "v")...),
			contract.RouteResponseHeaderActionsOverLimit, contract.IngressControllerHeaderActionsOverLimit),
		limit("a header name with a space", "header-actions/refuse-invalid-header-name", "header-actions/ingresscontroller-refuse-invalid-header-name",
			requestActions(framework.RouteSetHeader("X-Token!#$%&'*+.^_`|~", "v")), requestActions(framework.RouteSetHeader("X Bad", "v")),
			contract.RouteHeaderNameInvalid, contract.IngressControllerHeaderNameInvalid),
		limit("a header name of 256 characters", "header-actions/refuse-header-name-over-255", "header-actions/ingresscontroller-refuse-header-name-over-255",
			requestActions(framework.RouteSetHeader(strings.Repeat("x", 255), "v")), requestActions(framework.RouteSetHeader(strings.Repeat("x", 256), "v")),
			contract.RouteHeaderNameTooLong, contract.IngressControllerHeaderNameTooLong),
		limit("an empty header name", "header-actions/refuse-empty-header-name", "header-actions/ingresscontroller-refuse-empty-header-name",
			requestActions(framework.RouteSetHeader("X", "v")), requestActions(framework.RouteSetHeader("", "v")),
			contract.RouteHeaderNameEmpty, contract.IngressControllerHeaderNameEmpty),
		limit("an empty value", "header-actions/refuse-empty-value", "header-actions/ingresscontroller-refuse-empty-value",
			requestActions(framework.RouteSetHeader("X-A", "v")), requestActions(framework.RouteSetHeader("X-A", "")),
			contract.RouteHeaderValueEmpty, contract.IngressControllerHeaderValueEmpty),
		limit("a value of 16385 characters", "header-actions/refuse-value-over-16384", "header-actions/ingresscontroller-refuse-value-over-16384",
			responseActions(framework.RouteSetHeader("X-A", strings.Repeat("v", 16384))), responseActions(framework.RouteSetHeader("X-A", strings.Repeat("v", 16385))),
			contract.RouteHeaderValueTooLong, contract.IngressControllerHeaderValueTooLong),
		limit("a Delete that carries a value", "header-actions/refuse-delete-with-value", "header-actions/ingresscontroller-refuse-delete-with-value",
			requestActions(framework.RouteDeleteHeader("X-A")), requestActions(headerAction("X-A", routev1.Delete, "v")),
			contract.RouteHeaderDeleteWithValue, contract.IngressControllerHeaderDeleteWithValue),
		limit("a response fetcher (res.hdr) in the request list", "header-actions/refuse-response-fetcher-in-request", "header-actions/ingresscontroller-refuse-response-fetcher-in-request",
			requestActions(framework.RouteSetHeader("X-A", "%[req.hdr(X-B)]")), requestActions(framework.RouteSetHeader("X-A", "%[res.hdr(X-B)]")),
			contract.RouteHeaderValueNotAllowed("req.hdr"), contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
		limit("a request fetcher (req.hdr) in the response list", "header-actions/refuse-request-fetcher-in-response", "header-actions/ingresscontroller-refuse-request-fetcher-in-response",
			responseActions(framework.RouteSetHeader("X-A", "%[res.hdr(X-B)]")), responseActions(framework.RouteSetHeader("X-A", "%[req.hdr(X-B)]")),
			contract.RouteHeaderValueNotAllowed("res.hdr"), contract.IngressControllerHeaderValueNotAllowed("res.hdr")),
		limit("an action type Append (there is none)", "header-actions/refuse-action-type-append", "header-actions/ingresscontroller-refuse-action-type-append",
			requestActions(framework.RouteSetHeader("X-A", "v")), requestActions(headerAction("X-A", "Append", "v")),
			contract.RouteHeaderActionTypeUnsupported("Append"), contract.IngressControllerHeaderActionTypeUnsupported("Append")),
		limit("an action type Replace (there is none)", "header-actions/refuse-action-type-replace", "header-actions/ingresscontroller-refuse-action-type-replace",
			responseActions(framework.RouteSetHeader("X-A", "v")), responseActions(headerAction("X-A", "Replace", "v")),
			contract.RouteHeaderActionTypeUnsupported("Replace"), contract.IngressControllerHeaderActionTypeUnsupported("Replace")),
		limit("a lone percent sign (a literal one is %%)", "header-actions/refuse-lone-percent", "header-actions/ingresscontroller-refuse-lone-percent",
			requestActions(framework.RouteSetHeader("X-A", "100%%")), requestActions(framework.RouteSetHeader("X-A", "100%")),
			contract.RouteHeaderValueNotAllowed("req.hdr"), contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
		// The value rule's format flags: %{...} holds [-+]?[QXE] flags,
		// comma-separated (library-go permittedHeaderValueTemplate, the
		// CRDs' CEL), and a fetcher's argument letters, digits and
		// hyphens only.
		limit("a format flag outside Q, X and E (%{+Z})", "header-actions/refuse-unlisted-format-flag", "header-actions/ingresscontroller-refuse-unlisted-format-flag",
			requestActions(framework.RouteSetHeader("X-A", "%{+Q,-X,E}[req.hdr(X-B)]")), requestActions(framework.RouteSetHeader("X-A", "%{+Z}[req.hdr(X-B)]")),
			contract.RouteHeaderValueNotAllowed("req.hdr"), contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
		limit("format flags not separated by commas (%{+Q+X})", "header-actions/refuse-format-flags-without-comma", "header-actions/ingresscontroller-refuse-format-flags-without-comma",
			responseActions(framework.RouteSetHeader("X-A", "%{+Q,+X}[res.hdr(X-B)]")), responseActions(framework.RouteSetHeader("X-A", "%{+Q+X}[res.hdr(X-B)]")),
			contract.RouteHeaderValueNotAllowed("res.hdr"), contract.IngressControllerHeaderValueNotAllowed("res.hdr")),
		limit("a fetcher argument with an underscore (req.hdr(X_B))", "header-actions/refuse-fetcher-argument-underscore", "header-actions/ingresscontroller-refuse-fetcher-argument-underscore",
			requestActions(framework.RouteSetHeader("X-A", "%[req.hdr(X-B9)]")), requestActions(framework.RouteSetHeader("X-A", "%[req.hdr(X_B)]")),
			contract.RouteHeaderValueNotAllowed("req.hdr"), contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
		limit("an action without a type", "header-actions/refuse-action-without-type", "header-actions/ingresscontroller-refuse-action-without-type",
			requestActions(framework.RouteDeleteHeader("X-A")), requestActions(headerAction("X-A", "", "")),
			contract.RouteHeaderActionTypeUnsupported(""), contract.IngressControllerHeaderActionTypeUnsupported("")),
		limit("an ssl_ fetcher other than ssl_c_der (ssl_c_s_dn)", "header-actions/refuse-ssl-fetcher-other-than-der", "header-actions/ingresscontroller-refuse-ssl-fetcher-other-than-der",
			requestActions(framework.RouteSetHeader("X-A", "%{+Q}[ssl_c_der,base64]")), requestActions(framework.RouteSetHeader("X-A", "%{+Q}[ssl_c_s_dn]")),
			contract.RouteHeaderValueNotAllowed("req.hdr"), contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
	}
}

func requestActions(h ...routev1.RouteHTTPHeader) routev1.RouteHTTPHeaderActions {
	return routev1.RouteHTTPHeaderActions{Request: h}
}

func responseActions(h ...routev1.RouteHTTPHeader) routev1.RouteHTTPHeaderActions {
	return routev1.RouteHTTPHeaderActions{Response: h}
}

// setHeaders are n actions setting X-H0... to value.
func setHeaders(n int, value string) []routev1.RouteHTTPHeader {
	out := make([]routev1.RouteHTTPHeader, n)
	for i := range out {
		out[i] = framework.RouteSetHeader(fmt.Sprintf("X-H%d", i), value)
	}
	return out
}

// headerAction is an action as written, valid or not: any type, with a
// value when value is not empty.
func headerAction(name string, actionType routev1.RouteHTTPHeaderActionType, value string) routev1.RouteHTTPHeader {
	h := routev1.RouteHTTPHeader{Name: name, Action: routev1.RouteHTTPHeaderActionUnion{Type: actionType}}
	if value != "" {
		h.Action.Set = &routev1.RouteSetHTTPHeader{Value: value}
	}
	return h
}

// ingressControllerActions is the same list in the IngressController's
// type, field for field.
func ingressControllerActions(a routev1.RouteHTTPHeaderActions) operatorv1.IngressControllerHTTPHeaderActions {
	convert := func(hs []routev1.RouteHTTPHeader) []operatorv1.IngressControllerHTTPHeader {
		var out []operatorv1.IngressControllerHTTPHeader
		for _, h := range hs {
			ic := operatorv1.IngressControllerHTTPHeader{Name: h.Name, Action: operatorv1.IngressControllerHTTPHeaderActionUnion{Type: operatorv1.IngressControllerHTTPHeaderActionType(h.Action.Type)}}
			if h.Action.Set != nil {
				ic.Action.Set = &operatorv1.IngressControllerSetHTTPHeader{Value: h.Action.Set.Value}
			}
			out = append(out, ic)
		}
		return out
	}
	return operatorv1.IngressControllerHTTPHeaderActions{Request: convert(a.Request), Response: convert(a.Response)}
}
