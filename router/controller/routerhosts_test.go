package controller

import (
	"testing"

	routev1 "github.com/openshift/api/route/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// upstream: openshift/router pkg/cmd/infra/router/router.go
// (RouterSelection.RouteUpdate: spec.subdomain under ROUTER_DOMAIN only
// when spec.host is empty).
func TestRouterHostsFromSubdomain(t *testing.T) {
	route := func(name, host, subdomain string) *routev1.Route {
		return &routev1.Route{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}, Spec: routev1.RouteSpec{Host: host, Subdomain: subdomain}}
	}
	in := []*routev1.Route{route("host", "h.test", ""), route("sub", "", "foo"), route("both", "h.test", "foo"), route("none", "", "")}
	got := routerHosts(in, "apps.test")
	for i, want := range []string{"h.test", "foo.apps.test", "h.test", ""} {
		if got[i].Spec.Host != want {
			t.Errorf("route %s: host %q, want %q", got[i].Name, got[i].Spec.Host, want)
		}
	}
	if in[1].Spec.Host != "" {
		t.Error("the cached route itself was changed")
	}
	if got := routerHosts(in, ""); got[1].Spec.Host != "" {
		t.Errorf("without a router domain: host %q, want none", got[1].Spec.Host)
	}
}
