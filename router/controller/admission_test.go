package controller

import (
	"sort"
	"testing"

	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
)

// wild is claimant with wildcardPolicy Subdomain.
func wild(ns, name string, age int, uid, host, path string) *routev1.Route {
	r := claimant(ns, name, age, uid, host, path, routev1.TLSTerminationEdge)
	r.Spec.WildcardPolicy = routev1.WildcardPolicySubdomain
	return r
}

// upstream: openshift/router pkg/cmd/infra/router/router.go
// (RouteAdmissionFunc): None always, Subdomain only when allowed, any
// other policy refused.
func TestAdmitWildcardPolicy(t *testing.T) {
	none := claimant("a", "none", 1, "1", "www.example.test", "", "")
	none.Spec.WildcardPolicy = routev1.WildcardPolicyNone
	sub := wild("a", "sub", 1, "2", "www.example.test", "")
	odd := claimant("a", "odd", 1, "3", "www.example.test", "", "")
	odd.Spec.WildcardPolicy = "Everything"
	for _, tc := range []struct {
		route *routev1.Route
		allow bool
		want  string // "" admitted
	}{
		{none, false, ""}, {none, true, ""},
		{claimant("a", "defaulted", 1, "4", "www.example.test", "", ""), false, ""},
		{sub, false, contract.WildcardRoutesNotAllowed}, {sub, true, ""},
		{odd, true, "unknown wildcard policy Everything"},
	} {
		rej := admitWildcardPolicy(tc.route, tc.allow)
		switch {
		case tc.want == "" && rej != nil:
			t.Errorf("%s (allow %v): refused %v", tc.route.Name, tc.allow, rej)
		case tc.want != "" && (rej == nil || rej.Reason != contract.ReasonRouteNotAdmitted || rej.Message != tc.want):
			t.Errorf("%s (allow %v): %v, want RouteNotAdmitted %q", tc.route.Name, tc.allow, rej, tc.want)
		}
	}
}

// The claims of upstream's HostAdmitter with wildcard routes allowed
// (openshift/router pkg/router/controller/host_admitter.go and its
// tests), for routes seen oldest first.
func TestClaimWildcards(t *testing.T) {
	const p = "example.test"
	other := contract.WildcardHostHeldByAnotherNamespace
	for _, tc := range []struct {
		name         string
		routes       []*routev1.Route
		noOwnership  bool
		wantRefusals map[string]string
	}{
		{
			name: "a wildcard and exact hosts of its own namespace coexist",
			routes: []*routev1.Route{
				wild("a", "wild", 1, "1", "www."+p, ""),
				claimant("a", "exact", 2, "2", "www."+p, "", ""),
				claimant("a", "other", 3, "3", "other."+p, "", ""),
			},
			wantRefusals: map[string]string{},
		},
		{
			name: "a wildcard keeps hosts of other namespaces out of its parent",
			routes: []*routev1.Route{
				wild("a", "wild", 1, "1", "www."+p, ""),
				claimant("b", "exact", 2, "2", "x."+p, "", ""),
				claimant("b", "deeper", 3, "3", "x.y."+p, "", ""),
			},
			wantRefusals: map[string]string{"b/exact": other("x." + p)},
		},
		{
			name: "an exact host of another namespace keeps a newer wildcard out",
			routes: []*routev1.Route{
				claimant("b", "exact", 1, "1", "x."+p, "", ""),
				wild("a", "wild", 2, "2", "www."+p, ""),
				wild("b", "own", 3, "3", "y."+p, ""),
			},
			wantRefusals: map[string]string{"a/wild": other("www." + p)},
		},
		{
			name: "two wildcards of one parent and namespace: one per path, the older named",
			routes: []*routev1.Route{
				wild("a", "first", 1, "1", "www."+p, ""),
				wild("a", "second", 2, "2", "w2."+p, ""),
				wild("a", "sub", 3, "3", "w3."+p, "/sub"),
			},
			wantRefusals: map[string]string{"a/second": contract.WildcardRouteBlocksHost("a", "first", p, "w2."+p)},
		},
		{
			name: "one host and path in one namespace: the older named",
			routes: []*routev1.Route{
				claimant("a", "first", 1, "1", "www."+p, "", ""),
				claimant("a", "second", 2, "2", "www."+p, "", ""),
				claimant("a", "path", 3, "3", "www."+p, "/p", ""),
			},
			wantRefusals: map[string]string{"a/second": contract.RouteHasHost("a", "first", "www."+p)},
		},
		{
			name:        "namespace check disabled: any namespace shares, one per path",
			noOwnership: true,
			routes: []*routev1.Route{
				wild("a", "wild", 1, "1", "www."+p, ""),
				claimant("b", "exact", 2, "2", "x."+p, "", ""),
				wild("b", "wild", 3, "3", "w2."+p, ""),
			},
			wantRefusals: map[string]string{"b/wild": other("w2." + p)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sort.Slice(tc.routes, func(i, j int) bool { return routeOlder(tc.routes[i], tc.routes[j]) })
			checkHostRefusals(t, claimWildcards(tc.routes, !tc.noOwnership), tc.wantRefusals)
		})
	}
}
