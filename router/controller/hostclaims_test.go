package controller

import (
	"maps"
	"testing"
	"time"

	routev1 "github.com/openshift/api/route/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/router-conformance/suite/contract"
)

var claimEpoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// claimant is a route created at second age of claimEpoch, with UID uid.
func claimant(ns, name string, age int, uid, host, path string, termination routev1.TLSTerminationType) *routev1.Route {
	r := &routev1.Route{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(uid),
			CreationTimestamp: metav1.NewTime(claimEpoch.Add(time.Duration(age) * time.Second))},
		Spec: routev1.RouteSpec{Host: host, Path: path, To: routev1.RouteTargetReference{Kind: "Service", Name: "s"}},
	}
	if termination != "" {
		r.Spec.TLS = &routev1.TLSConfig{Termination: termination}
	}
	return r
}

// The routes of a host, as upstream's UniqueHost with its host index
// admits them when it sees them oldest first (openshift/router
// pkg/router/controller/unique_host.go, hostindex/activation.go and its
// tests): the refused ones by name with upstream's message.
func TestClaimHosts(t *testing.T) {
	const h = "www.example.test"
	inNS := func(owner string) string { return contract.HostClaimedInNamespace(owner, h) }
	otherNS := func(route string) string { return contract.HostClaimedByAnotherNamespace(h, route) }
	for _, tc := range []struct {
		name         string
		routes       []*routev1.Route
		noOwnership  bool
		wantRefusals map[string]string // ns/name -> message
	}{
		{
			name: "the oldest route's namespace owns the host, whatever the path",
			routes: []*routev1.Route{
				claimant("b", "newer", 2, "1", h, "", ""),
				claimant("a", "older", 1, "2", h, "", ""),
				claimant("b", "elsewhere", 3, "3", h, "/other", ""),
				claimant("a", "sub", 4, "4", h, "/sub", ""),
			},
			wantRefusals: map[string]string{"b/newer": otherNS("newer"), "b/elsewhere": otherNS("elsewhere")},
		},
		{
			name: "once the older route is gone the newer holds the host",
			routes: []*routev1.Route{
				claimant("b", "newer", 2, "1", h, "", ""),
				claimant("b", "elsewhere", 3, "3", h, "/other", ""),
			},
			wantRefusals: map[string]string{},
		},
		{
			name: "same namespace, same path: the older route is named",
			routes: []*routev1.Route{
				claimant("a", "first", 1, "1", h, "/p", ""),
				claimant("a", "root", 2, "2", h, "", ""),
				claimant("a", "second", 3, "3", h, "/p", ""),
				claimant("a", "third", 4, "4", h, "", ""),
			},
			wantRefusals: map[string]string{"a/second": inNS("first"), "a/third": inNS("root")},
		},
		{
			name: "equal creation timestamps: the lower UID is older",
			routes: []*routev1.Route{
				claimant("a", "x", 1, "bbb", h, "", ""),
				claimant("a", "y", 1, "aaa", h, "", ""),
			},
			wantRefusals: map[string]string{"a/x": inNS("y")},
		},
		{
			name: "passthrough, then an edge route at a path (openshift/router#57)",
			routes: []*routev1.Route{
				claimant("a", "pt", 1, "1", h, "", routev1.TLSTerminationPassthrough),
				claimant("a", "edge", 2, "2", h, "/p", routev1.TLSTerminationEdge),
				claimant("a", "reencrypt", 3, "3", h, "/r", routev1.TLSTerminationReencrypt),
			},
			wantRefusals: map[string]string{"a/edge": inNS("pt"), "a/reencrypt": inNS("pt")},
		},
		{
			name: "an edge route at a path, then passthrough: the newest held route is named",
			routes: []*routev1.Route{
				claimant("a", "edge", 1, "1", h, "/p", routev1.TLSTerminationEdge),
				claimant("a", "edge2", 2, "2", h, "/q", routev1.TLSTerminationEdge),
				claimant("a", "pt", 3, "3", h, "", routev1.TLSTerminationPassthrough),
			},
			wantRefusals: map[string]string{"a/pt": inNS("edge2")},
		},
		{
			name: "passthrough beside a plain route at a path: both held",
			routes: []*routev1.Route{
				claimant("a", "pt", 1, "1", h, "", routev1.TLSTerminationPassthrough),
				claimant("a", "plain", 2, "2", h, "/p", ""),
			},
			wantRefusals: map[string]string{},
		},
		{
			name: "hosts are claimed one by one; a route without a host claims none",
			routes: []*routev1.Route{
				claimant("a", "one", 1, "1", "one.example.test", "", ""),
				claimant("b", "two", 2, "2", "two.example.test", "", ""),
				claimant("a", "nohost", 3, "3", "", "", ""),
				claimant("b", "nohost", 4, "4", "", "", ""),
			},
			wantRefusals: map[string]string{},
		},
		{
			name:        "namespace ownership disabled: one route per path, from any namespace",
			noOwnership: true,
			routes: []*routev1.Route{
				claimant("a", "older", 1, "1", h, "", ""),
				claimant("b", "elsewhere", 2, "2", h, "/other", ""),
				claimant("b", "newer", 3, "3", h, "", ""),
				claimant("a", "again", 4, "4", h, "/other", ""),
			},
			wantRefusals: map[string]string{"b/newer": otherNS("newer"), "a/again": otherNS("again")},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkHostRefusals(t, claimHosts(tc.routes, !tc.noOwnership), tc.wantRefusals)
		})
	}
}

// checkHostRefusals wants exactly the refusals want (ns/name -> message),
// each with reason HostAlreadyClaimed.
func checkHostRefusals(t *testing.T, refusals map[*routev1.Route]*Rejection, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for r, rej := range refusals {
		if rej.Reason != contract.ReasonHostAlreadyClaimed {
			t.Errorf("%s/%s: reason %q", r.Namespace, r.Name, rej.Reason)
		}
		got[r.Namespace+"/"+r.Name] = rej.Message
	}
	if !maps.Equal(got, want) {
		t.Errorf("refusals %q, want %q", got, want)
	}
}
