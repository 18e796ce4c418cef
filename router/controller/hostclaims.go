package controller

import (
	"sort"
	"strings"

	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
)

// routeOlder orders routes as upstream does (openshift/router
// pkg/router/routeapihelpers/helper.go, RouteLessThan): by creation
// timestamp, then by UID; namespace and name only break the ties of
// objects without a UID (tests).
func routeOlder(a, b *routev1.Route) bool {
	if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
		return a.CreationTimestamp.Before(&b.CreationTimestamp)
	}
	if a.UID != b.UID {
		return a.UID < b.UID
	}
	return a.Namespace+"/"+a.Name < b.Namespace+"/"+b.Name
}

// claimHosts decides which routes hold their host, and why the others are
// refused, as upstream's UniqueHost does for routes it sees oldest first
// (openshift/router pkg/router/controller/unique_host.go, HandleRoute;
// pkg/router/controller/hostindex/activation.go). Of the routes of one
// host, taken oldest first: with namespace ownership (upstream's default,
// SameNamespace; the IngressController's routeAdmission.namespaceOwnership
// Strict) only routes of the oldest route's namespace may hold it; without
// (OldestFirst) any namespace may. A route is held unless an older held
// route has its path, or one of the two is passthrough and the other has
// TLS of any termination (hasExistingMatch, openshift/router#57:
// passthrough cannot share a host with path-based TLS routes). Routes
// without a host are left to Translate. Deleting a holder frees its host
// at the next sync: the routes it hid are held again.
//
// The refusal names, as upstream does, the newest held route at the same
// path or else the newest held route of the host. Upstream's history
// dependent wordings (a route displaced by an older one seen later,
// "replaced by older route"; by a deletion, "namespace %s owns hostname
// %s") never arise for a router that decides afresh on every sync.
func claimHosts(routes []*routev1.Route, namespaceOwnership bool) map[*routev1.Route]*Rejection {
	byHost := map[string][]*routev1.Route{}
	for _, r := range routes {
		if r.Spec.Host == "" {
			continue
		}
		h := strings.ToLower(r.Spec.Host)
		byHost[h] = append(byHost[h], r)
	}
	refused := map[*routev1.Route]*Rejection{}
	for _, claimants := range byHost {
		claimants = append([]*routev1.Route(nil), claimants...)
		sort.Slice(claimants, func(i, j int) bool { return routeOlder(claimants[i], claimants[j]) })
		var held []*routev1.Route // oldest first
		for _, r := range claimants {
			if (!namespaceOwnership || len(held) == 0 || held[0].Namespace == r.Namespace) && !conflicts(held, r) {
				held = append(held, r)
				continue
			}
			refused[r] = hostClaimed(held, r)
		}
	}
	return refused
}

// conflicts says whether a held route keeps r off its host: the same
// path, or passthrough beside another TLS route (upstream: hostindex
// activation.go, hasExistingMatch).
func conflicts(held []*routev1.Route, r *routev1.Route) bool {
	for _, h := range held {
		if h.Spec.Path == r.Spec.Path {
			return true
		}
		if h.Spec.TLS != nil && r.Spec.TLS != nil &&
			(h.Spec.TLS.Termination == routev1.TLSTerminationPassthrough || r.Spec.TLS.Termination == routev1.TLSTerminationPassthrough) {
			return true
		}
	}
	return false
}

// hostClaimed is r's refusal: the owner is the newest held route at r's
// path, or else the newest held route (held is oldest first, never empty
// for a refused route).
func hostClaimed(held []*routev1.Route, r *routev1.Route) *Rejection {
	owner := held[len(held)-1]
	for i := len(held) - 1; i >= 0; i-- {
		if held[i].Spec.Path == r.Spec.Path {
			owner = held[i]
			break
		}
	}
	msg := contract.HostClaimedByAnotherNamespace(r.Spec.Host, r.Name)
	if owner.Namespace == r.Namespace {
		msg = contract.HostClaimedInNamespace(owner.Name, r.Spec.Host)
	}
	return &Rejection{contract.ReasonHostAlreadyClaimed, msg}
}
