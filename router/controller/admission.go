package controller

import (
	"fmt"

	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
)

// admitWildcardPolicy is upstream's route admission function for the
// wildcard policy (openshift/router pkg/cmd/infra/router/router.go,
// RouterSelection.RouteAdmissionFunc, which HostAdmitter.HandleRoute
// calls before any host is claimed): None is admitted, Subdomain only
// when wildcard routes are allowed (ROUTER_ALLOW_WILDCARD_ROUTES). An
// empty policy counts as None: the Route API defaults it (openshift/api
// route/v1, +kubebuilder:default=None; openshift-apiserver's defaulting).
func admitWildcardPolicy(r *routev1.Route, allowWildcards bool) *Rejection {
	switch r.Spec.WildcardPolicy {
	case routev1.WildcardPolicyNone, "":
		return nil
	case routev1.WildcardPolicySubdomain:
		if allowWildcards {
			if faults.On("hsts.wildcard-include-subdomains-refused") && hstsIncludesSubDomains(r) {
				return &Rejection{contract.ReasonRouteNotAdmitted, "wildcard routes with HSTS includeSubDomains are not allowed"}
			}
			return nil
		}
		return &Rejection{contract.ReasonRouteNotAdmitted, contract.WildcardRoutesNotAllowed}
	}
	return &Rejection{contract.ReasonRouteNotAdmitted, fmt.Sprintf("unknown wildcard policy %v", r.Spec.WildcardPolicy)}
}

// refuse records refusals in verdicts and returns the routes of routes
// it does not refuse, in order: one plugin's refused routes never reach
// the next.
func refuse(routes []*routev1.Route, refusals, verdicts map[*routev1.Route]*Rejection) []*routev1.Route {
	var kept []*routev1.Route
	for _, r := range routes {
		if rej, refused := refusals[r]; refused {
			verdicts[r] = rej
			continue
		}
		kept = append(kept, r)
	}
	return kept
}

// isWildcard: the route asks for its parent's subdomain.
func isWildcard(r *routev1.Route) bool {
	return r.Spec.WildcardPolicy == routev1.WildcardPolicySubdomain
}

// claimWildcards is the host claims upstream's HostAdmitter makes when
// wildcard routes are allowed (openshift/router
// pkg/router/controller/host_admitter.go, addRoute and displacedRoutes),
// for routes taken oldest first (routes must come sorted so), before
// UniqueHost's own (claimHosts). A route (None) claims its host and
// blocks wildcards of its parent; a wildcard route (Subdomain) claims its
// parent. Against an older held route, a newer one is refused when:
//   - both claim one host: unless (same namespace, or the namespace check
//     disabled) the newer is a wildcard or their paths differ;
//   - both are wildcards of one parent: unless (same namespace, or the
//     check disabled) their paths differ; a None route under a wildcard
//     of its own namespace passes;
//   - the newer is a wildcard of a parent that a host of another
//     namespace blocks (never with the check disabled).
//
// Upstream's displacement of a newer held route by an older one seen
// later does not arise for a router that decides afresh on every sync.
func claimWildcards(routes []*routev1.Route, namespaceOwnership bool) map[*routev1.Route]*Rejection {
	claimedHosts := map[string][]*routev1.Route{}
	claimedWildcards := map[string][]*routev1.Route{}
	blockedWildcards := map[string][]*routev1.Route{}
	refused := map[*routev1.Route]*Rejection{}
	if faults.On("hsts.wildcard-namespace-check-kept") {
		namespaceOwnership = true
	}
	shares := func(held, r *routev1.Route) bool {
		return !namespaceOwnership || held.Namespace == r.Namespace
	}
	for _, r := range routes {
		if r.Spec.Host == "" {
			continue
		}
		host, parent := r.Spec.Host, contract.WildcardParent(r.Spec.Host)
		var owner *routev1.Route
		var msg string
		for _, h := range claimedHosts[host] {
			if shares(h, r) && (isWildcard(r) || h.Spec.Path != r.Spec.Path) {
				continue
			}
			owner, msg = h, contract.RouteHasHost(h.Namespace, h.Name, h.Spec.Host)
			break
		}
		if owner == nil {
			for _, h := range claimedWildcards[parent] {
				if faults.On("hsts.wildcard-other-namespace-admitted") && !isWildcard(r) {
					continue
				}
				if faults.On("hsts.wildcard-second-admitted") && isWildcard(r) && h.Namespace == r.Namespace {
					continue
				}
				if shares(h, r) && (!isWildcard(r) || h.Spec.Path != r.Spec.Path) && !(faults.On("hsts.wildcard-sibling-refused") && !isWildcard(r)) {
					continue
				}
				owner, msg = h, contract.WildcardRouteBlocksHost(h.Namespace, h.Name, parent, host)
				break
			}
		}
		if owner == nil && !isWildcard(r) && faults.On("hsts.wildcard-claims-parent") {
			for _, h := range claimedWildcards[host] {
				owner, msg = h, contract.WildcardRouteBlocksHost(h.Namespace, h.Name, host, host)
				break
			}
		}
		if owner == nil && isWildcard(r) {
			for _, h := range blockedWildcards[parent] {
				if shares(h, r) {
					continue
				}
				owner, msg = h, contract.RouteBlocksWildcard(h.Namespace, h.Name, h.Spec.Host, parent)
				break
			}
		}
		if owner != nil {
			// Only a route of the refused route's own namespace is
			// named (HostAdmitter.addRoute).
			if owner.Namespace != r.Namespace {
				msg = contract.WildcardHostHeldByAnotherNamespace(host)
			}
			refused[r] = &Rejection{contract.ReasonHostAlreadyClaimed, msg}
			if faults.On("hsts.wildcard-refusal-reason") {
				refused[r].Reason = contract.ReasonRouteNotAdmitted
			}
			continue
		}
		if isWildcard(r) {
			claimedWildcards[parent] = append(claimedWildcards[parent], r)
		} else {
			claimedHosts[host] = append(claimedHosts[host], r)
			blockedWildcards[parent] = append(blockedWildcards[parent], r)
		}
	}
	return refused
}
