package framework

import (
	"net/http"

	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
)

// RouteSetHeader is a Route header action that sets name to value.
func RouteSetHeader(name, value string) routev1.RouteHTTPHeader {
	return routev1.RouteHTTPHeader{Name: name, Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Set, Set: &routev1.RouteSetHTTPHeader{Value: value}}}
}

// RouteDeleteHeader is a Route header action that deletes name.
func RouteDeleteHeader(name string) routev1.RouteHTTPHeader {
	return routev1.RouteHTTPHeader{Name: name, Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Delete}}
}

// IngressControllerSetHeader is an IngressController header action that
// sets name to value.
func IngressControllerSetHeader(name, value string) operatorv1.IngressControllerHTTPHeader {
	return operatorv1.IngressControllerHTTPHeader{Name: name, Action: operatorv1.IngressControllerHTTPHeaderActionUnion{Type: operatorv1.Set, Set: &operatorv1.IngressControllerSetHTTPHeader{Value: value}}}
}

// IngressControllerDeleteHeader is an IngressController header action that
// deletes name.
func IngressControllerDeleteHeader(name string) operatorv1.IngressControllerHTTPHeader {
	return operatorv1.IngressControllerHTTPHeader{Name: name, Action: operatorv1.IngressControllerHTTPHeaderActionUnion{Type: operatorv1.Delete}}
}

// HeaderExpectations: name -> the exact values, nil for "absent"; the
// positive control of an absence is a value the same answer carries.
type HeaderExpectations map[string][]string

// Check asserts every expectation on the headers who saw (the backend, or
// the client).
func (want HeaderExpectations) Check(g Gomega, got http.Header, who string) {
	for name, values := range want {
		if values == nil {
			g.Expect(got.Values(name)).To(BeEmpty(), "%s saw %s", who, name)
		} else {
			g.Expect(got.Values(name)).To(Equal(values), "%s saw %s", who, name)
		}
	}
}
