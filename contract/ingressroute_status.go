package contract

import (
	"fmt"
	"slices"
	"strings"
)

// IngressRoute status descriptions. An IngressRoute's status is a
// currentStatus ("valid", "invalid", "orphaned") and a free-text
// description. The design document (section "Reporting status") names no
// wording; shipped Contour v1.0.1 words each condition its own way
// (internal/dag/builder.go, status.go) and the reference router words it
// another. A router conforms when its description carries one of the
// accepted wordings of the condition; a spec requires no text beyond
// what Contour's wording says.

// StatusFormat is one implementation's description of a condition: the
// printf format exactly as its source writes it.
type StatusFormat struct {
	Format string
	// Source is the file that writes Format.
	Source string
}

func (f StatusFormat) with(args ...any) Wording {
	return Wording{Text: fmt.Sprintf(f.Format, args...), Source: f.Source}
}

// StatusDescription is one condition, for one case, in every accepted
// wording.
type StatusDescription struct {
	Condition string
	// CurrentStatus is the status.currentStatus that goes with it.
	CurrentStatus string
	Wordings      []Wording
}

// Matches reports whether a status description carries one of the
// wordings.
func (d StatusDescription) Matches(description string) bool {
	for _, w := range d.Wordings {
		if strings.Contains(description, w.Text) {
			return true
		}
	}
	return false
}

func (d StatusDescription) String() string {
	texts := make([]string, len(d.Wordings))
	for i, w := range d.Wordings {
		texts[i] = fmt.Sprintf("%q (%s)", w.Text, w.Source)
	}
	return d.CurrentStatus + ", " + d.Condition + ": one of " + strings.Join(texts, ", ")
}

const (
	// ContourV101Builder is the file of shipped Contour that writes every
	// Contour wording below.
	ContourV101Builder = "projectcontour/contour v1.0.1 internal/dag/builder.go"
	referenceRouterDAG = "router/ingressroute/dag.go (the reference router)"

	statusInvalid = "invalid"
)

// The wordings, condition by condition: Contour's first, then the
// reference router's.
var (
	contourOutsidePrefix   = StatusFormat{"the path prefix %q does not match the parent's path prefix %q", ContourV101Builder}
	referenceOutsidePrefix = StatusFormat{"route %q is outside the prefix %q delegated by %s", referenceRouterDAG}

	contourServiceMissing      = StatusFormat{"Service [%s:%d] is invalid or missing", ContourV101Builder}
	referenceServiceNotFound   = StatusFormat{"service %s/%s not found", referenceRouterDAG}
	referenceServicePortAbsent = StatusFormat{"service %s/%s has no port %d", referenceRouterDAG}

	contourCycle   = StatusFormat{"route creates a delegation cycle: %s", ContourV101Builder}
	referenceCycle = StatusFormat{"delegation cycle: %s", referenceRouterDAG}

	contourDelegatesToRoot   = StatusFormat{"root ingressroute cannot delegate to another root ingressroute", ContourV101Builder}
	referenceDelegatesToRoot = StatusFormat{"delegation to root IngressRoute %s is not permitted", referenceRouterDAG}

	contourFqdnConflict   = StatusFormat{"fqdn %q is used in multiple IngressRoutes: %s", ContourV101Builder}
	referenceHostConflict = StatusFormat{"host %q is claimed by several IngressRoutes: %s", referenceRouterDAG}

	contourTLSSecret      = StatusFormat{"TLS Secret [%s] not found or is malformed", ContourV101Builder}
	referenceTLSNotFound  = StatusFormat{"TLS secret %s/%s not found", referenceRouterDAG}
	referenceTLSWrongType = StatusFormat{"TLS secret %s/%s is of type %q, not %q", referenceRouterDAG}
)

// IngressRouteStatusFormats is the table: every condition and its
// accepted formats. The constructors below fill them in for a case.
var IngressRouteStatusFormats = []struct {
	Condition string
	Formats   []StatusFormat
}{
	{condOutsidePrefix, []StatusFormat{contourOutsidePrefix, referenceOutsidePrefix}},
	{condServiceNotFound, []StatusFormat{contourServiceMissing, referenceServiceNotFound}},
	{condServicePortAbsent, []StatusFormat{contourServiceMissing, referenceServicePortAbsent}},
	{condCycle, []StatusFormat{contourCycle, referenceCycle}},
	{condDelegatesToRoot, []StatusFormat{contourDelegatesToRoot, referenceDelegatesToRoot}},
	{condFqdnConflict, []StatusFormat{contourFqdnConflict, referenceHostConflict}},
	{condTLSSecretNotFound, []StatusFormat{contourTLSSecret, referenceTLSNotFound}},
	{condTLSSecretWrongType, []StatusFormat{contourTLSSecret, referenceTLSWrongType}},
}

const (
	condOutsidePrefix      = "a route outside the prefix delegated to its object"
	condServiceNotFound    = "a route to a service its object's namespace does not have"
	condServicePortAbsent  = "a route to a port its service does not have"
	condCycle              = "a delegation cycle"
	condDelegatesToRoot    = "a delegation to a root"
	condFqdnConflict       = "an fqdn several roots claim"
	condTLSSecretNotFound  = "a root's TLS secret that does not exist"
	condTLSSecretWrongType = "a root's TLS secret that is not of type kubernetes.io/tls"
)

func invalid(condition string, wordings ...Wording) StatusDescription {
	return StatusDescription{Condition: condition, CurrentStatus: statusInvalid, Wordings: wordings}
}

// IngressRouteOutsidePrefix: route, a route of the object (service or
// delegate), does not lie within prefix, the match of the route of parent
// ("namespace/name") that delegates to the object. Contour's wording
// (processIngressRoutes) names the two prefixes only.
func IngressRouteOutsidePrefix(route, prefix, parent string) StatusDescription {
	return invalid(condOutsidePrefix, contourOutsidePrefix.with(route, prefix), referenceOutsidePrefix.with(route, prefix, parent))
}

// IngressRouteServiceNotFound: a route names a service its object's
// namespace does not have. Contour's wording (processIngressRoutes) names
// the service and port, not the namespace.
func IngressRouteServiceNotFound(namespace, name string, port int) StatusDescription {
	return invalid(condServiceNotFound, contourServiceMissing.with(name, port), referenceServiceNotFound.with(namespace, name))
}

// IngressRouteServicePortAbsent: the service exists without the port.
func IngressRouteServicePortAbsent(namespace, name string, port int) StatusDescription {
	return invalid(condServicePortAbsent, contourServiceMissing.with(name, port), referenceServicePortAbsent.with(namespace, name, port))
}

// IngressRouteCycle: a delegation closes a cycle. chain is every object
// ("namespace/name") from the root to the one whose delegation closes it,
// then the object it delegates to again, as Contour joins it.
func IngressRouteCycle(chain ...string) StatusDescription {
	path := strings.Join(chain, " -> ")
	return invalid(condCycle, contourCycle.with(path), referenceCycle.with(path))
}

// IngressRouteDelegatesToRoot: a route delegates to target, a root
// ("namespace/name"). Contour's wording names nothing.
func IngressRouteDelegatesToRoot(target string) StatusDescription {
	return invalid(condDelegatesToRoot, contourDelegatesToRoot.with(), referenceDelegatesToRoot.with(target))
}

// IngressRouteFqdnConflict: several roots ("namespace/name") have fqdn;
// every one of them carries it. Both wordings list them sorted.
func IngressRouteFqdnConflict(fqdn string, claimants ...string) StatusDescription {
	sorted := slices.Sorted(slices.Values(claimants))
	list := strings.Join(sorted, ", ")
	return invalid(condFqdnConflict, contourFqdnConflict.with(fqdn, list), referenceHostConflict.with(strings.ToLower(fqdn), list))
}

// IngressRouteTLSSecretNotFound: the root names a TLS secret its namespace
// does not have. Contour's wording names the secret as spec.virtualhost.tls
// does, without the namespace.
func IngressRouteTLSSecretNotFound(namespace, secret string) StatusDescription {
	return invalid(condTLSSecretNotFound, contourTLSSecret.with(secret), referenceTLSNotFound.with(namespace, secret))
}

// IngressRouteTLSSecretWrongType: the root's TLS secret has type typ, not
// kubernetes.io/tls.
func IngressRouteTLSSecretWrongType(namespace, secret, typ string) StatusDescription {
	return invalid(condTLSSecretWrongType, contourTLSSecret.with(secret), referenceTLSWrongType.with(namespace, secret, typ, "kubernetes.io/tls"))
}
