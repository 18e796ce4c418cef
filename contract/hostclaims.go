package contract

import "fmt"

// Who owns a host. A router admits, of the routes that claim one host,
// those of the namespace of the oldest route (creation timestamp, then
// UID: openshift/router pkg/router/routeapihelpers/helper.go,
// RouteLessThan), one per path; a passthrough route and a TLS route at a
// path never share a host (openshift/router#57). A refused route's status
// entry for the router carries condition Admitted, status False, reason
// HostAlreadyClaimed and one of the messages below (openshift/router
// pkg/router/controller/status.go, StatusAdmitter.RecordRouteRejection).
//
// Upstream: openshift/router pkg/router/controller/unique_host.go
// (UniqueHost.HandleRoute) with pkg/router/controller/hostindex
// (activation.go: SameNamespace, the default, namespaceOwnership Strict;
// OldestFirst when ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK is true;
// hasExistingMatch), wired in pkg/cmd/infra/router/template.go
// (NewUniqueHost, then NewHostAdmitter, whose own host claims act only
// when wildcard routes are allowed).

// HostClaimSource is the upstream file and function that word every host
// claim below.
const HostClaimSource = "openshift/router pkg/router/controller/unique_host.go (UniqueHost.HandleRoute)"

// ReasonHostAlreadyClaimed is the Admitted=False reason of a route whose
// host (and path) an older route holds.
const ReasonHostAlreadyClaimed = "HostAlreadyClaimed"

// HostClaimedInNamespace is the message of a route refused because an
// older route of its own namespace holds the host: owner is that route's
// name (the newest held route at the same path, or else the newest held
// route of the host), host the refused route's spec.host.
func HostClaimedInNamespace(owner, host string) string {
	return fmt.Sprintf("route %s already exposes %s and is older", owner, host)
}

// HostClaimedByAnotherNamespace is the message of a route refused because
// an older route of another namespace holds the host: host is its
// spec.host, route its own name.
func HostClaimedByAnotherNamespace(host, route string) string {
	return fmt.Sprintf("a route in another namespace holds %s and is older than %s", host, route)
}
