package conformance

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
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

// routeHeaders are n route actions setting X-H0... to value.
func routeHeaders(n int, value string) []routev1.RouteHTTPHeader {
	out := make([]routev1.RouteHTTPHeader, n)
	for i := range out {
		out[i] = framework.RouteSetHeader(fmt.Sprintf("X-H%d", i), value)
	}
	return out
}

// ingressControllerHeaders are n IngressController actions setting
// X-H0... to value.
func ingressControllerHeaders(n int, value string) []operatorv1.IngressControllerHTTPHeader {
	out := make([]operatorv1.IngressControllerHTTPHeader, n)
	for i := range out {
		out[i] = framework.IngressControllerSetHeader(fmt.Sprintf("X-H%d", i), value)
	}
	return out
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
		Entry("21 response actions", framework.ID("header-actions/refuse-over-twenty-response-actions"),
			routev1.RouteHTTPHeaderActions{Response: routeHeaders(20, "v")},
			routev1.RouteHTTPHeaderActions{Response: routeHeaders(21, "v")},
			contract.RouteResponseHeaderActionsOverLimit),
		Entry("a header name with a space", framework.ID("header-actions/refuse-invalid-header-name"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-Token!#$%&'*+.^_`|~", "v")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X Bad", "v")}},
			contract.RouteHeaderNameInvalid),
		Entry("a header name of 256 characters", framework.ID("header-actions/refuse-header-name-over-255"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader(strings.Repeat("x", 255), "v")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader(strings.Repeat("x", 256), "v")}},
			contract.RouteHeaderNameTooLong),
		Entry("an empty value", framework.ID("header-actions/refuse-empty-value"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "v")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "")}},
			contract.RouteHeaderValueEmpty),
		Entry("a value of 16385 characters", framework.ID("header-actions/refuse-value-over-16384"),
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", strings.Repeat("v", 16384))}},
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", strings.Repeat("v", 16385))}},
			contract.RouteHeaderValueTooLong),
		Entry("a Delete that carries a value", framework.ID("header-actions/refuse-delete-with-value"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteDeleteHeader("X-A")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Delete, Set: &routev1.RouteSetHTTPHeader{Value: "v"}}}}},
			contract.RouteHeaderDeleteWithValue),
		Entry("a response fetcher (res.hdr) in the request list", framework.ID("header-actions/refuse-response-fetcher-in-request"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[req.hdr(X-B)]")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[res.hdr(X-B)]")}},
			contract.RouteHeaderValueNotAllowed("req.hdr")),
		Entry("a request fetcher (req.hdr) in the response list", framework.ID("header-actions/refuse-request-fetcher-in-response"),
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[res.hdr(X-B)]")}},
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[req.hdr(X-B)]")}},
			contract.RouteHeaderValueNotAllowed("res.hdr")),
		Entry("a converter outside lower and base64", framework.ID("header-actions/refuse-unlisted-converter"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[req.hdr(X-B),lower,base64]")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%[req.hdr(X-B),upper]")}},
			contract.RouteHeaderValueNotAllowed("req.hdr")),
		Entry("an action type Append (there is none)", framework.ID("header-actions/refuse-action-type-append"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "v")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: "Append", Set: &routev1.RouteSetHTTPHeader{Value: "v"}}}}},
			contract.RouteHeaderActionTypeUnsupported("Append")),
		Entry("an action type Replace (there is none)", framework.ID("header-actions/refuse-action-type-replace"),
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "v")}},
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: "Replace", Set: &routev1.RouteSetHTTPHeader{Value: "v"}}}}},
			contract.RouteHeaderActionTypeUnsupported("Replace")),
		Entry("an empty header name", framework.ID("header-actions/refuse-empty-header-name"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X", "v")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("", "v")}},
			contract.RouteHeaderNameEmpty),
		Entry("a lone percent sign (a literal one is %%)", framework.ID("header-actions/refuse-lone-percent"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "100%%")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "100%")}},
			contract.RouteHeaderValueNotAllowed("req.hdr")),
		Entry("a control character (U+0001) in a value", framework.ID("header-actions/refuse-control-character"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "a b")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "a\x01b")}},
			contract.RouteHeaderValueNotAllowed("req.hdr")),
		Entry("a tab in a value (a control character)", framework.ID("header-actions/refuse-tab"),
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "a b")}},
			routev1.RouteHTTPHeaderActions{Response: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "a\tb")}},
			contract.RouteHeaderValueNotAllowed("res.hdr")),
		Entry("an ssl_ fetcher other than ssl_c_der (ssl_c_s_dn)", framework.ID("header-actions/refuse-ssl-fetcher-other-than-der"),
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%{+Q}[ssl_c_der,base64]")}},
			routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{framework.RouteSetHeader("X-A", "%{+Q}[ssl_c_s_dn]")}},
			contract.RouteHeaderValueNotAllowed("req.hdr")),
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
		func(ctx SpecContext, valid, invalid operatorv1.IngressControllerHTTPHeaderActions, want contract.Refusal) {
			ics := framework.DryRun[*operatorv1.IngressController]{Client: f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace)}
			withActions := func(actions operatorv1.IngressControllerHTTPHeaderActions) func(*operatorv1.IngressController) {
				return func(ic *operatorv1.IngressController) {
					ic.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: actions}
				}
			}
			By("positive control: the action just inside the limit is admitted (a dry run)")
			_, err := framework.Update(ctx, ics, contract.DefaultIngressController, withActions(valid))
			Expect(err).NotTo(HaveOccurred())
			_, err = framework.Update(ctx, ics, contract.DefaultIngressController, withActions(invalid))
			framework.ExpectRefusal(Default, err, want)
		},
		Entry("Strict-Transport-Security is denied", framework.ID("header-actions/ingresscontroller-refuse-strict-transport-security"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Strict-Transport-Security", "max-age=1")}},
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("Strict-Transport-Security", "max-age=1")}},
			contract.IngressControllerHeaderDenied("strict-transport-security")),
		Entry("Proxy is denied", framework.ID("header-actions/ingresscontroller-refuse-proxy"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerDeleteHeader("Proxy-Authorization")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerDeleteHeader("Proxy")}},
			contract.IngressControllerHeaderDenied("proxy")),
		Entry("Cookie is denied", framework.ID("header-actions/ingresscontroller-refuse-cookie"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Cookie", "a=b")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("Cookie", "a=b")}},
			contract.IngressControllerHeaderDenied("cookie")),
		Entry("Set-Cookie is denied", framework.ID("header-actions/ingresscontroller-refuse-set-cookie"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerDeleteHeader("X-Set-Cookie")}},
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerDeleteHeader("Set-Cookie")}},
			contract.IngressControllerHeaderDenied("set-cookie")),
		Entry("21 request actions", framework.ID("header-actions/ingresscontroller-refuse-over-twenty-request-actions"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: ingressControllerHeaders(20, "v")},
			operatorv1.IngressControllerHTTPHeaderActions{Request: ingressControllerHeaders(21, "v")},
			contract.IngressControllerHeaderActionsOverLimit),
		Entry("21 response actions", framework.ID("header-actions/ingresscontroller-refuse-over-twenty-response-actions"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: ingressControllerHeaders(20, "v")},
			operatorv1.IngressControllerHTTPHeaderActions{Response: ingressControllerHeaders(21, "v")},
			contract.IngressControllerHeaderActionsOverLimit),
		Entry("a header name with a space", framework.ID("header-actions/ingresscontroller-refuse-invalid-header-name"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Token!#$%&'*+.^_`|~", "v")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X Bad", "v")}},
			contract.IngressControllerHeaderNameInvalid),
		Entry("a header name of 256 characters", framework.ID("header-actions/ingresscontroller-refuse-header-name-over-255"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader(strings.Repeat("x", 255), "v")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader(strings.Repeat("x", 256), "v")}},
			contract.IngressControllerHeaderNameTooLong),
		Entry("an empty value", framework.ID("header-actions/ingresscontroller-refuse-empty-value"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "v")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "")}},
			contract.IngressControllerHeaderValueEmpty),
		Entry("a value of 16385 characters", framework.ID("header-actions/ingresscontroller-refuse-value-over-16384"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", strings.Repeat("v", 16384))}},
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", strings.Repeat("v", 16385))}},
			contract.IngressControllerHeaderValueTooLong),
		Entry("a Delete that carries a value", framework.ID("header-actions/ingresscontroller-refuse-delete-with-value"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerDeleteHeader("X-A")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{{Name: "X-A", Action: operatorv1.IngressControllerHTTPHeaderActionUnion{
				Type: operatorv1.Delete, Set: &operatorv1.IngressControllerSetHTTPHeader{Value: "v"}}}}},
			contract.IngressControllerHeaderDeleteWithValue),
		Entry("a response fetcher (res.hdr) in the request list", framework.ID("header-actions/ingresscontroller-refuse-response-fetcher-in-request"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%[req.hdr(X-B)]")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%[res.hdr(X-B)]")}},
			contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
		Entry("a request fetcher (req.hdr) in the response list", framework.ID("header-actions/ingresscontroller-refuse-request-fetcher-in-response"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%[res.hdr(X-B)]")}},
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%[req.hdr(X-B)]")}},
			contract.IngressControllerHeaderValueNotAllowed("res.hdr")),
		Entry("a converter outside lower and base64", framework.ID("header-actions/ingresscontroller-refuse-unlisted-converter"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%{+Q}[ssl_c_der,base64,lower]")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%{+Q}[ssl_c_der,hex]")}},
			contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
		Entry("an action type Append (there is none)", framework.ID("header-actions/ingresscontroller-refuse-action-type-append"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "v")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{{Name: "X-A", Action: operatorv1.IngressControllerHTTPHeaderActionUnion{
				Type: "Append", Set: &operatorv1.IngressControllerSetHTTPHeader{Value: "v"}}}}},
			contract.IngressControllerHeaderActionTypeUnsupported("Append")),
		Entry("an action type Replace (there is none)", framework.ID("header-actions/ingresscontroller-refuse-action-type-replace"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "v")}},
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{{Name: "X-A", Action: operatorv1.IngressControllerHTTPHeaderActionUnion{
				Type: "Replace", Set: &operatorv1.IngressControllerSetHTTPHeader{Value: "v"}}}}},
			contract.IngressControllerHeaderActionTypeUnsupported("Replace")),
		Entry("the same header twice in a list", framework.ID("header-actions/ingresscontroller-refuse-duplicate-header"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "1"), framework.IngressControllerDeleteHeader("X-B")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "1"), framework.IngressControllerDeleteHeader("X-A")}},
			contract.IngressControllerHeaderDuplicate),
		Entry("an empty header name", framework.ID("header-actions/ingresscontroller-refuse-empty-header-name"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X", "v")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("", "v")}},
			contract.IngressControllerHeaderNameEmpty),
		Entry("Set without a value", framework.ID("header-actions/ingresscontroller-refuse-set-without-value"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "v")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{{Name: "X-A", Action: operatorv1.IngressControllerHTTPHeaderActionUnion{Type: operatorv1.Set}}}},
			contract.IngressControllerHeaderSetWithoutValue),
		Entry("a fetcher neither list allows (src)", framework.ID("header-actions/ingresscontroller-refuse-disallowed-fetcher"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Src", "%[req.hdr(X-B)]")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-Src", "%[src]")}},
			contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
		Entry("a lone percent sign (a literal one is %%)", framework.ID("header-actions/ingresscontroller-refuse-lone-percent"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "100%%")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "100%")}},
			contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
		Entry("a control character (U+0001) in a value", framework.ID("header-actions/ingresscontroller-refuse-control-character"),
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "a b")}},
			operatorv1.IngressControllerHTTPHeaderActions{Response: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "a\x01b")}},
			contract.IngressControllerHeaderValueNotAllowed("res.hdr")),
		Entry("an ssl_ fetcher other than ssl_c_der (ssl_c_s_dn)", framework.ID("header-actions/ingresscontroller-refuse-ssl-fetcher-other-than-der"),
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%{+Q}[ssl_c_der,base64]")}},
			operatorv1.IngressControllerHTTPHeaderActions{Request: []operatorv1.IngressControllerHTTPHeader{framework.IngressControllerSetHeader("X-A", "%{+Q}[ssl_c_s_dn]")}},
			contract.IngressControllerHeaderValueNotAllowed("req.hdr")),
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
