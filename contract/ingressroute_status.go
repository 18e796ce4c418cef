package contract

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// IngressRoute status descriptions. An IngressRoute's status is a
// currentStatus ("valid", "invalid", "orphaned") and a free-text
// description. The design document (section "Reporting status") names no
// wording; shipped Contour v1.0.1 words each condition its own way
// (internal/dag/builder.go, status.go) and the reference router words it
// another. A router conforms when its description carries one of the
// accepted wordings of the condition; a spec requires no text beyond
// what Contour's wording says. Where v1.0.1 accepts an object the design
// document makes invalid (it reports it valid), there is no Contour
// wording, and a router conforms with "invalid" and any description.

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
	// AnyWording: no upstream wording binds a router. Contour v1.0.1
	// accepts the object (reports it valid) where the design document makes
	// it invalid, and the document words no status; any description that
	// names the offending part (Names, in any case) is accepted, so an
	// invalid status for another reason is not, and Wordings holds the
	// reference router's for the record.
	AnyWording bool
	Names      string
}

// Matches reports whether a status description carries one of the
// wordings (with AnyWording, any description that names Names).
func (d StatusDescription) Matches(description string) bool {
	if d.AnyWording {
		return strings.Contains(strings.ToLower(description), strings.ToLower(d.Names))
	}
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
	if d.AnyWording {
		return d.CurrentStatus + ", " + d.Condition + ": any description that names " + strconv.Quote(d.Names) + " (Contour v1.0.1 has none; the reference router's is " + strings.Join(texts, ", ") + ")"
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
	referenceTLSNoName    = StatusFormat{"spec.virtualhost.tls.secretName is required", referenceRouterDAG}

	contourCertDelegation      = StatusFormat{"%s: certificate delegation not permitted", ContourV101Builder}
	referenceTLSOtherNamespace = StatusFormat{"TLS secret %s/%s is not in the root's namespace %s", referenceRouterDAG}

	contourServicesAndDelegate   = StatusFormat{"route %q: cannot specify services and delegate in the same route", ContourV101Builder}
	referenceServiceAndDelegate  = StatusFormat{"route %q has both service and delegate: a route must have exactly one of them", referenceRouterDAG}
	referenceNoServiceOrDelegate = StatusFormat{"route %q has neither service nor delegate: a route must have exactly one of them", referenceRouterDAG}

	referenceRoutesMissing = StatusFormat{"spec.routes must be present and not empty", referenceRouterDAG}
)

// IngressRouteStatusFormats is the table: every condition and its
// accepted formats. The constructors below fill them in for a case.
var IngressRouteStatusFormats = []struct {
	Condition string
	Formats   []StatusFormat
	// ContourAccepts says why Formats lacks Contour's wording: v1.0.1
	// accepts the object the design document makes invalid (the
	// condition's descriptions are then AnyWording).
	ContourAccepts string
}{
	{condOutsidePrefix, []StatusFormat{contourOutsidePrefix, referenceOutsidePrefix}, ""},
	{condServiceNotFound, []StatusFormat{contourServiceMissing, referenceServiceNotFound}, ""},
	{condServicePortAbsent, []StatusFormat{contourServiceMissing, referenceServicePortAbsent}, ""},
	{condCycle, []StatusFormat{contourCycle, referenceCycle}, ""},
	{condDelegatesToRoot, []StatusFormat{contourDelegatesToRoot, referenceDelegatesToRoot}, ""},
	{condFqdnConflict, []StatusFormat{contourFqdnConflict, referenceHostConflict}, ""},
	{condTLSSecretNotFound, []StatusFormat{contourTLSSecret, referenceTLSNotFound}, ""},
	{condTLSSecretWrongType, []StatusFormat{contourTLSSecret, referenceTLSWrongType}, ""},
	{condTLSSecretNameMissing, []StatusFormat{contourTLSSecret, referenceTLSNoName}, ""},
	{condTLSSecretOtherNamespace, []StatusFormat{contourCertDelegation, referenceTLSOtherNamespace}, ""},
	{condServiceAndDelegate, []StatusFormat{contourServicesAndDelegate, referenceServiceAndDelegate}, ""},
	{condNoServiceOrDelegate, []StatusFormat{referenceNoServiceOrDelegate}, contourAcceptsNoAction},
	{condRoutesMissing, []StatusFormat{referenceRoutesMissing}, contourAcceptsNoRoutes},
}

// Why v1.0.1 has no wording for two conditions of the design document.
const (
	contourAcceptsNoAction = "v1.0.1 internal/dag/builder.go (processIngressRoutes) skips a route with neither services nor delegate (\"not a delegate route\") and marks the object valid"
	contourAcceptsNoRoutes = "v1.0.1 internal/dag/builder.go (processIngressRoutes) marks an object without routes valid (its virtual host, routeless, is not served: internal/dag/dag.go VirtualHost.Valid)"
)

const (
	condOutsidePrefix           = "a route outside the prefix delegated to its object"
	condServiceNotFound         = "a route to a service its object's namespace does not have"
	condServicePortAbsent       = "a route to a port its service does not have"
	condCycle                   = "a delegation cycle"
	condDelegatesToRoot         = "a delegation to a root"
	condFqdnConflict            = "an fqdn several roots claim"
	condTLSSecretNotFound       = "a root's TLS secret that does not exist"
	condTLSSecretWrongType      = "a root's TLS secret that is not of type kubernetes.io/tls"
	condTLSSecretNameMissing    = "a root's tls without a secretName"
	condTLSSecretOtherNamespace = "a root's TLS secret named in another namespace (namespace/name)"
	condServiceAndDelegate      = "a route with both service and delegate"
	condNoServiceOrDelegate     = "a route with neither service nor delegate"
	condRoutesMissing           = "an object whose routes are missing or empty"
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

// IngressRouteTLSSecretNameMissing: the root's spec.virtualhost.tls has no
// secretName (the design document: "required"). Contour v1.0.1 looks the
// empty name up (computeIngressRoute; no passthrough in this API) and
// words it as any secret not found, "TLS Secret [] not found or is
// malformed".
func IngressRouteTLSSecretNameMissing() StatusDescription {
	return invalid(condTLSSecretNameMissing, contourTLSSecret.with(""), referenceTLSNoName.with())
}

// IngressRouteTLSSecretOtherNamespace: the root names its TLS secret
// "namespace/name" with another namespace than its own, and that secret
// exists there (a kubernetes.io/tls secret). Contour v1.0.1
// (computeIngressRoute, splitSecret and delegationPermitted: no
// TLSCertificateDelegation in this API) names it as spec.virtualhost.tls
// does.
func IngressRouteTLSSecretOtherNamespace(rootNamespace, secretNamespace, secret string) StatusDescription {
	return invalid(condTLSSecretOtherNamespace, contourCertDelegation.with(secretNamespace+"/"+secret), referenceTLSOtherNamespace.with(secretNamespace, secret, rootNamespace))
}

// IngressRouteServiceAndDelegate: the route matching match has both a
// service list and a delegate.
func IngressRouteServiceAndDelegate(match string) StatusDescription {
	return invalid(condServiceAndDelegate, contourServicesAndDelegate.with(match), referenceServiceAndDelegate.with(match))
}

// IngressRouteNoServiceOrDelegate: the route matching match has neither a
// service list nor a delegate. The design document makes it invalid ("one
// of service or delegate"); Contour v1.0.1 skips the route and reports the
// object valid, so any description that names the route's match is
// accepted.
func IngressRouteNoServiceOrDelegate(match string) StatusDescription {
	d := invalid(condNoServiceOrDelegate, referenceNoServiceOrDelegate.with(match))
	d.AnyWording, d.Names = true, match
	return d
}

// IngressRouteRoutesMissing: spec.routes is missing or empty. The design
// document: "routes must _always_ be present and non empty"; Contour
// v1.0.1 reports such an object valid, so any description that names
// routes is accepted.
func IngressRouteRoutesMissing() StatusDescription {
	d := invalid(condRoutesMissing, referenceRoutesMissing.with())
	d.AnyWording, d.Names = true, "routes"
	return d
}
