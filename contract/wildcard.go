package contract

import (
	"fmt"
	"strings"
)

// Wildcard (Subdomain) routes. A route with spec.wildcardPolicy Subdomain
// and host www.<parent> asks to serve every host one label under <parent>
// (upstream's regexp `^[^\.]*\.<parent>`), with its certificate presented
// for `*.<parent>`. A router admits it only when wildcard routes are
// allowed: ROUTER_ALLOW_WILDCARD_ROUTES, which cluster-ingress-operator
// sets to "true" for an IngressController whose
// spec.routeAdmission.wildcardPolicy is WildcardsAllowed and to "false"
// otherwise (WildcardsDisallowed is the default). A refused route's
// status entry for the router carries condition Admitted, status False,
// reason RouteNotAdmitted and the message below; every entry, admitted or
// not, carries the route's spec.wildcardPolicy (openshift/router
// pkg/router/controller/status.go, recordIngressCondition).
//
// Upstream: openshift/router pkg/cmd/infra/router/router.go
// (RouterSelection.RouteAdmissionFunc) called first by
// pkg/router/controller/host_admitter.go (HostAdmitter.HandleRoute, which
// records the refusal), and cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go (desiredRouterDeployment:
// routeAdmission.wildcardPolicy to ROUTER_ALLOW_WILDCARD_ROUTES).

// WildcardAdmissionSource is the upstream file and function that word the
// wildcard refusal.
const WildcardAdmissionSource = "openshift/router pkg/cmd/infra/router/router.go (RouterSelection.RouteAdmissionFunc), recorded by pkg/router/controller/host_admitter.go (HostAdmitter.HandleRoute)"

// ReasonRouteNotAdmitted is the Admitted=False reason of a route the
// router's admission function refuses.
const ReasonRouteNotAdmitted = "RouteNotAdmitted"

// WildcardRoutesNotAllowed is the message of a Subdomain route refused
// by a router that does not allow wildcard routes.
const WildcardRoutesNotAllowed = "wildcard routes are not allowed"

// AllowWildcardRoutesEnv is the router's switch for wildcard routes.
const AllowWildcardRoutesEnv = "ROUTER_ALLOW_WILDCARD_ROUTES"

// The host claims of a router that allows wildcard routes, as
// HostAdmitter words them (openshift/router
// pkg/router/controller/host_admitter.go, displacedRoutes and addRoute),
// before UniqueHost's own (hostclaims.go): a route of another namespace
// is told only WildcardHostHeldByAnotherNamespace.

// WildcardHostHeldByAnotherNamespace: an older route of another
// namespace holds host (the refused route's spec.host).
func WildcardHostHeldByAnotherNamespace(host string) string {
	return fmt.Sprintf("a route in another namespace holds host %s", host)
}

// RouteHasHost: an older route ns/name of the refused route's namespace
// has the same host (and path).
func RouteHasHost(ns, name, host string) string {
	return fmt.Sprintf("route %s/%s has host %s", ns, name, host)
}

// WildcardRouteBlocksHost: an older wildcard route ns/name for *.parent
// keeps host (the refused route's spec.host) off.
func WildcardRouteBlocksHost(ns, name, parent, host string) string {
	return fmt.Sprintf("wildcard route %s/%s has host *.%s, blocking %s", ns, name, parent, host)
}

// RouteBlocksWildcard: an older route ns/name with host under parent
// keeps a wildcard route for *.parent off.
func RouteBlocksWildcard(ns, name, host, parent string) string {
	return fmt.Sprintf("route %s/%s has host %s, blocking *.%s", ns, name, host, parent)
}

// WildcardParent is the subdomain a wildcard route of host serves: host
// after its first dot, "" without one (openshift/router
// pkg/router/routeapihelpers/helper.go, GetDomainForHost).
func WildcardParent(host string) string {
	_, parent, _ := strings.Cut(host, ".")
	return parent
}
