package ingressroute

import (
	"crypto/tls"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/router-conformance/suite/faults"
)

// ServiceLookup returns the named Service, or nil if it does not exist.
type ServiceLookup func(namespace, name string) *corev1.Service

// SecretLookup returns the named Secret, or nil if it does not exist.
type SecretLookup func(namespace, name string) *corev1.Secret

// Backend is one service of a route.
type Backend struct {
	Namespace string
	Name      string
	Port      int
}

// HostRoute is a served prefix and its backends; all backends serve it.
type HostRoute struct {
	// Prefix is the route's match with any trailing "/" dropped ("/" stays
	// "/"): Match treats "/foo" and "/foo/" alike, so one spelling is kept.
	Prefix   string
	Backends []Backend
	// Owner is the IngressRoute that declared the route.
	Owner types.NamespacedName

	// delegated is the prefix the owner was given ("" for a root), which
	// decides between two objects claiming the same Prefix (see add).
	delegated string
}

// Host is a served virtual host: one valid root and what it reaches.
type Host struct {
	Root types.NamespacedName
	// Names is the fqdn followed by the aliases.
	Names []string
	// TLSSecret is the validated kubernetes.io/tls secret, nil for HTTP only.
	TLSSecret *types.NamespacedName
	// Routes are in the order the renderer must try them (SortRoutes): the
	// first whose Prefix matches the path wins.
	Routes []HostRoute
}

// Route returns the route that serves path, or nil.
func (h *Host) Route(path string) *HostRoute {
	for i := range h.Routes {
		if Match(h.Routes[i].Prefix, path) {
			return &h.Routes[i]
		}
	}
	return nil
}

// Result is what Build computes.
type Result struct {
	// Hosts are the served virtual hosts, ordered by Root.
	Hosts []Host
	// Statuses holds the status every given IngressRoute must have.
	Statuses map[types.NamespacedName]Status
}

// Match reports whether a route with the given prefix serves path. Prefixes
// match whole path segments: "/foo" serves "/foo", "/foo/" and "/foo/bar" but
// not "/foobar"; a trailing "/" on the prefix changes nothing, and "/" serves
// every path. This is how Contour v1.0.1 internal/dag/builder.go
// (matchesPathPrefix) holds a child's routes to the prefix delegated to it
// (the design document's "Security Concerns": "the /foo prefix and
// everything under it"). Serving, Contour hands Envoy the match as a plain
// string prefix (internal/envoy/route.go, RouteMatch), where "/foobar" goes
// to "/foo"; the router serves by segment, and the conformance suite
// asserts neither.
func Match(prefix, path string) bool {
	p := strings.TrimSuffix(prefix, "/")
	if !strings.HasPrefix(path, p) {
		return false
	}
	rest := path[len(p):]
	return rest == "" || rest[0] == '/'
}

// SortRoutes orders routes most specific first. Two prefixes that both match
// a path are segment prefixes of one another, so the longer is the more
// specific whatever the order the objects listed them in; equal lengths are
// ordered by name only to make the output stable.
func SortRoutes(routes []HostRoute) {
	sort.SliceStable(routes, func(i, j int) bool {
		a, b := routes[i].Prefix, routes[j].Prefix
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return a < b
	})
}

func normalize(prefix string) string {
	if p := strings.TrimSuffix(prefix, "/"); p != "" {
		return p
	}
	return "/"
}

const (
	descValid    = "valid IngressRoute"
	descOrphaned = "this IngressRoute is not part of a delegation chain from a root IngressRoute" // Contour v1.0.1's wording (internal/dag/builder.go)
)

// Build computes, from every IngressRoute of the cluster, the virtual hosts
// to serve and the status of each object. It is pure: it reads the objects'
// current Status only to keep lastParent and connectedAt stable, and stamps
// new connections with now. A nil lookup finds nothing.
func Build(routes []IngressRoute, services ServiceLookup, secrets SecretLookup, now metav1.Time) Result {
	b := &builder{
		objs:     map[types.NamespacedName]*IngressRoute{},
		services: services,
		secrets:  secrets,
		invalid:  map[types.NamespacedName]string{},
		parents:  map[types.NamespacedName][]Parent{},
	}
	if b.services == nil {
		b.services = func(string, string) *corev1.Service { return nil }
	}
	if b.secrets == nil {
		b.secrets = func(string, string) *corev1.Secret { return nil }
	}
	var keys []types.NamespacedName
	for i := range routes {
		k := keyOf(&routes[i])
		b.objs[k] = &routes[i]
		keys = append(keys, k)
	}
	// Sorted keys make the walk, hence first-found descriptions, stable.
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })

	b.hostConflicts(keys)
	var res Result
	for _, k := range keys {
		if ir := b.objs[k]; ir.Spec.VirtualHost != nil {
			if h := b.root(ir); h != nil {
				res.Hosts = append(res.Hosts, *h)
			}
		}
	}

	if faults.On("delegation.orphan-served-under-last-parent") {
		b.keepOrphans(keys, res.Hosts)
	}

	res.Statuses = map[types.NamespacedName]Status{}
	for _, k := range keys {
		res.Statuses[k] = b.status(b.objs[k], now)
	}
	return res
}

type builder struct {
	objs     map[types.NamespacedName]*IngressRoute
	services ServiceLookup
	secrets  SecretLookup
	// invalid holds the first reason found against an object.
	invalid map[types.NamespacedName]string
	// parents holds the live delegations to each vertex.
	parents map[types.NamespacedName][]Parent
}

func keyOf(ir *IngressRoute) types.NamespacedName {
	return types.NamespacedName{Namespace: ir.Namespace, Name: ir.Name}
}

func (b *builder) setInvalid(k types.NamespacedName, desc string) {
	if _, ok := b.invalid[k]; !ok {
		b.invalid[k] = desc
	}
}

// hostConflicts refuses every root whose fqdn or alias another root also
// claims: neither is served, since neither is more entitled to the name (as
// Contour v1.0.1 internal/dag/builder.go validIngressRoutes does for fqdn).
// Shipped Contour has no aliases; the design document has them and says
// nothing of their conflicts, so the router counts an alias as a name of
// the host just as much, and the conformance suite asserts nothing of it.
func (b *builder) hostConflicts(keys []types.NamespacedName) {
	claims := map[string][]types.NamespacedName{}
	var names []string
	for _, k := range keys {
		vh := b.objs[k].Spec.VirtualHost
		if vh == nil {
			continue
		}
		seen := map[string]bool{}
		for _, n := range hostNames(vh) {
			n = strings.ToLower(n)
			if seen[n] {
				continue // an alias repeating the object's own fqdn is no conflict
			}
			seen[n] = true
			if claims[n] == nil {
				names = append(names, n)
			}
			claims[n] = append(claims[n], k)
		}
	}
	for _, n := range names {
		if ks := claims[n]; len(ks) > 1 {
			var s []string
			for _, k := range ks {
				s = append(s, k.String())
			}
			for _, k := range ks {
				b.setInvalid(k, fmt.Sprintf("host %q is claimed by several IngressRoutes: %s", n, strings.Join(s, ", ")))
			}
		}
	}
}

func hostNames(vh *VirtualHost) []string {
	return append([]string{vh.Fqdn}, vh.Aliases...)
}

// root validates a root and walks its delegations; nil if it is not served.
func (b *builder) root(ir *IngressRoute) *Host {
	k := keyOf(ir)
	if _, bad := b.invalid[k]; bad {
		return nil
	}
	vh := ir.Spec.VirtualHost
	for _, n := range hostNames(vh) {
		if errs := validation.IsDNS1123Subdomain(n); len(errs) > 0 {
			b.setInvalid(k, fmt.Sprintf("virtualhost: %q is not a valid host name: %s", n, strings.Join(errs, "; ")))
			return nil
		}
	}
	h := &Host{Root: k, Names: hostNames(vh)}
	if faults.On("delegation.aliases-not-served") {
		h.Names = h.Names[:1]
	}
	if vh.TLS != nil && !(faults.On("delegation.tls-secret-name-optional") && vh.TLS.SecretName == "") {
		secret, desc := b.tlsSecret(ir.Namespace, vh.TLS.SecretName)
		if faults.On("delegation.tls-secret-found-in-delegate-namespace") && desc != "" {
			for _, r := range ir.Spec.Routes {
				if r.Delegate != nil && r.Delegate.Namespace != "" && b.checkSecret(r.Delegate.Namespace, vh.TLS.SecretName) == "" {
					secret, desc = types.NamespacedName{Namespace: r.Delegate.Namespace, Name: vh.TLS.SecretName}, ""
				}
			}
		}
		if desc != "" {
			b.setInvalid(k, desc)
			if !faults.On("delegation.invalid-tls-root-served-plain") {
				return nil // not over HTTPS, and not over HTTP in its place
			}
		} else {
			h.TLSSecret = &secret
		}
	}
	w := &walk{host: h, seen: map[string]bool{}}
	if !b.visit(w, ir, "", []types.NamespacedName{k}) {
		return nil
	}
	SortRoutes(h.Routes)
	return h
}

// tlsSecret is the secret a root in namespace names in
// spec.virtualhost.tls.secretName, or why it cannot serve the root. The
// design document requires the name and puts the secret in the root's own
// namespace (sections "IngressRoute CRD" and "TLS"). Where the document
// is silent, as Contour v1.0.1 internal/dag/builder.go
// (computeIngressRoute) does: the name may be "namespace/name"
// (splitSecret; an empty namespace is the root's), the secret is checked
// first (missing or malformed), and only then its namespace: one other
// than the root's is refused, since this API has no
// TLSCertificateDelegation to permit it (delegationPermitted).
func (b *builder) tlsSecret(namespace, secretName string) (types.NamespacedName, string) {
	if secretName == "" {
		return types.NamespacedName{}, "spec.virtualhost.tls.secretName is required"
	}
	ref := types.NamespacedName{Namespace: namespace, Name: secretName}
	if ns, name, ok := strings.Cut(secretName, "/"); ok {
		ref.Name = name
		if ns != "" {
			ref.Namespace = ns
		}
	}
	if desc := b.checkSecret(ref.Namespace, ref.Name); desc != "" {
		return ref, desc
	}
	if ref.Namespace != namespace && !faults.On("delegation.tls-secret-other-namespace-accepted") {
		return ref, fmt.Sprintf("TLS secret %s is not in the root's namespace %s", ref, namespace)
	}
	return ref, ""
}

// checkSecret returns why the secret cannot serve TLS, or "".
func (b *builder) checkSecret(namespace, name string) string {
	s := b.secrets(namespace, name)
	switch {
	case s == nil:
		return fmt.Sprintf("TLS secret %s/%s not found", namespace, name)
	case s.Type != corev1.SecretTypeTLS:
		return fmt.Sprintf("TLS secret %s/%s is of type %q, not %q", namespace, name, s.Type, corev1.SecretTypeTLS)
	}
	if _, err := tls.X509KeyPair(s.Data[corev1.TLSCertKey], s.Data[corev1.TLSPrivateKeyKey]); err != nil {
		return fmt.Sprintf("TLS secret %s/%s: %s and %s are not a matching certificate and key: %v", namespace, name, corev1.TLSCertKey, corev1.TLSPrivateKeyKey, err)
	}
	return ""
}

// walk is the state of one root's traversal.
type walk struct {
	host *Host
	// seen holds object+prefix pairs already walked for this host: walking
	// one again adds the same routes, and skipping it keeps a lattice of
	// delegations from costing one walk per path.
	seen map[string]bool
}

// add puts a route in the host. When two objects claim the same prefix the
// one that was delegated the longer prefix wins, as a DNS delegation carves a
// zone out of its parent (the design document's model); otherwise the first
// found keeps it.
func (w *walk) add(r HostRoute) {
	for i := range w.host.Routes {
		if old := &w.host.Routes[i]; old.Prefix == r.Prefix {
			if len(r.delegated) > len(old.delegated) {
				*old = r
			}
			return
		}
	}
	w.host.Routes = append(w.host.Routes, r)
}

// visit serves ir under the delegated prefix ("" for a root), chain being the
// objects from the root to ir. It reports whether ir was served: an object
// with any bad route serves none (design document, validation rule 1).
// Validity is judged per delegation, since the prefix and the chain are the
// delegation's: a vertex two parents delegate to may fit one prefix and not
// the other; it is then served under the first, and its status is invalid,
// naming the second.
func (b *builder) visit(w *walk, ir *IngressRoute, prefix string, chain []types.NamespacedName) bool {
	k := keyOf(ir)
	if desc := b.check(ir, prefix, chain); desc != "" {
		b.setInvalid(k, desc)
		if !faults.On("delegation.invalid-object-still-served") {
			return false
		}
	}
	for i, r := range ir.Spec.Routes {
		if len(r.Services) > 0 {
			if faults.On("delegation.vertex-routes-not-served") && prefix != "" {
				continue
			}
			if faults.On("delegation.first-listed-route-wins") && coveredEarlier(ir.Spec.Routes[:i], r.Match) {
				continue
			}
			hr := HostRoute{Prefix: normalize(r.Match), Owner: k}
			if prefix != "" {
				hr.delegated = normalize(prefix)
			}
			ns := ir.Namespace
			if faults.On("delegation.services-from-root-namespace") {
				ns = chain[0].Namespace
			}
			for _, s := range r.Services {
				hr.Backends = append(hr.Backends, Backend{Namespace: ns, Name: s.Name, Port: s.Port})
			}
			w.add(hr)
			continue
		}
		if (faults.On("delegation.route-without-action-accepted") || faults.On("delegation.invalid-object-still-served")) && r.Delegate == nil {
			continue
		}
		if faults.On("delegation.redelegation-not-followed") && prefix != "" {
			continue
		}
		dk := delegateKey(ir, r.Delegate)
		if faults.On("delegation.blank-namespace-is-roots") && r.Delegate.Namespace == "" {
			dk.Namespace = chain[0].Namespace
		}
		child, ok := b.objs[dk]
		if !ok {
			continue // a delegation to nothing serves nothing; the parent stays valid
		}
		if faults.On("delegation.vertex-served-from-one-root") && connectedElsewhere(b.parents[dk], ir) {
			continue
		}
		b.connect(dk, Parent{Name: ir.Name, Namespace: ir.Namespace, Prefix: r.Match})
		if s := dk.String() + " " + normalize(r.Match); !w.seen[s] {
			w.seen[s] = true
			served := b.visit(w, child, r.Match, append(chain[:len(chain):len(chain)], dk))
			if !served && faults.On("delegation.invalid-child-rejects-parent") {
				return false
			}
		}
	}
	return true
}

// coveredEarlier reports whether a service route listed in earlier serves
// match already.
func coveredEarlier(earlier []Route, match string) bool {
	for _, e := range earlier {
		if len(e.Services) > 0 && Match(normalize(e.Match), match) {
			return true
		}
	}
	return false
}

// connectedElsewhere reports whether parents holds another parent than ir.
func connectedElsewhere(parents []Parent, ir *IngressRoute) bool {
	for _, p := range parents {
		if p.Name != ir.Name || p.Namespace != ir.Namespace {
			return true
		}
	}
	return false
}

// keepOrphans adds the service routes of every orphaned vertex to the
// host of the root it was last connected to.
func (b *builder) keepOrphans(keys []types.NamespacedName, hosts []Host) {
	for _, k := range keys {
		ir := b.objs[k]
		if ir.Spec.VirtualHost != nil || len(b.parents[k]) > 0 {
			continue
		}
		for _, d := range orphaned(ir.Status) {
			last := d.State.Orphaned.LastParent
			for i := range hosts {
				if last == nil || hosts[i].Root != (types.NamespacedName{Namespace: last.Namespace, Name: last.Name}) {
					continue
				}
				w := &walk{host: &hosts[i]}
				for _, r := range ir.Spec.Routes {
					if len(r.Services) == 0 {
						continue
					}
					hr := HostRoute{Prefix: normalize(r.Match), Owner: k}
					for _, s := range r.Services {
						hr.Backends = append(hr.Backends, Backend{Namespace: ir.Namespace, Name: s.Name, Port: s.Port})
					}
					w.add(hr)
				}
				SortRoutes(hosts[i].Routes)
			}
		}
	}
}

func delegateKey(ir *IngressRoute, d *Delegate) types.NamespacedName {
	ns := d.Namespace
	if ns == "" && !faults.On("delegation.blank-namespace-not-defaulted") {
		ns = ir.Namespace // "if blank the current namespace is assumed"
	}
	if faults.On("delegation.delegate-namespace-ignored") {
		ns = ir.Namespace
	}
	return types.NamespacedName{Namespace: ns, Name: d.Name}
}

func (b *builder) connect(k types.NamespacedName, p Parent) {
	for _, q := range b.parents[k] {
		if q == p {
			return
		}
	}
	b.parents[k] = append(b.parents[k], p)
}

// check returns the first reason ir cannot be served under prefix, or "".
// Every route is checked before any is served, so none is served partially.
func (b *builder) check(ir *IngressRoute, prefix string, chain []types.NamespacedName) string {
	if len(ir.Spec.Routes) == 0 && !faults.On("delegation.routes-may-be-empty") {
		// The design document: "routes must _always_ be present and non
		// empty". Contour v1.0.1 reports such an object valid (and serves
		// nothing for it): the document decides.
		return "spec.routes must be present and not empty"
	}
	for _, r := range ir.Spec.Routes {
		switch {
		case !strings.HasPrefix(r.Match, "/"):
			return fmt.Sprintf("route %q: match must start with \"/\"", r.Match)
		case len(r.Services) > 0 && r.Delegate != nil && !faults.On("delegation.service-and-delegate-accepted"):
			// Contour v1.0.1 internal/dag/builder.go (processIngressRoutes)
			// refuses it too, first of a route's checks.
			return fmt.Sprintf("route %q has both service and delegate: a route must have exactly one of them", r.Match)
		case len(r.Services) == 0 && r.Delegate == nil && !faults.On("delegation.route-without-action-accepted"):
			// The design document: each route has "one of service or
			// delegate". Contour v1.0.1 skips such a route and keeps the
			// object valid: the document decides.
			return fmt.Sprintf("route %q has neither service nor delegate: a route must have exactly one of them", r.Match)
		case prefix != "" && !Match(prefix, r.Match) && !outsidePrefixExcused(prefix, r):
			// Design document, validation rule 2, for delegate routes too:
			// "Security Concerns" (a vertex given /foo "cannot operate on
			// this vhost outside /foo") stops it re-delegating a path it was
			// never given. Contour v1.0.1 checks service routes only.
			parent := chain[len(chain)-2]
			if faults.On("delegation.outside-prefix-names-vertex") {
				parent = chain[len(chain)-1]
			}
			return fmt.Sprintf("route %q is outside the prefix %q delegated by %s", r.Match, prefix, parent)
		}
		ns := ir.Namespace
		if faults.On("delegation.services-from-root-namespace") {
			ns = chain[0].Namespace
		}
		for _, s := range r.Services {
			if desc := b.checkService(ns, s); desc != "" {
				return fmt.Sprintf("route %q: %s", r.Match, desc)
			}
		}
		if r.Delegate == nil {
			continue
		}
		dk := delegateKey(ir, r.Delegate)
		child, ok := b.objs[dk]
		if !ok && faults.On("delegation.dangling-delegation-invalid") {
			return fmt.Sprintf("route %q: delegate %s not found", r.Match, dk)
		}
		if !ok {
			continue
		}
		if child.Spec.VirtualHost != nil && !faults.On("delegation.delegation-to-root-followed") {
			// A root is never a vertex of another tree, itself included:
			// Contour v1.0.1 internal/dag/builder.go (processIngressRoutes)
			// asks this before it looks for a cycle. The description names
			// no chain: which root's walk meets it first is no business of
			// the object's.
			return fmt.Sprintf("delegation to root IngressRoute %s is not permitted", dk)
		}
		for _, c := range chain {
			if c == dk && faults.On("delegation.cycle-chain-misreported") {
				return fmt.Sprintf("delegation cycle: %s", chainString(append(chain[1:len(chain):len(chain)], dk)))
			}
			if c == dk && !faults.On("delegation.cycle-not-detected") {
				return fmt.Sprintf("delegation cycle: %s", chainString(append(chain[:len(chain):len(chain)], dk)))
			}
		}
	}
	return ""
}

// outsidePrefixExcused reports whether route r, outside the delegated
// prefix, is let through all the same.
func outsidePrefixExcused(prefix string, r Route) bool {
	switch {
	case faults.On("delegation.outside-prefix-unchecked"):
		return true
	case faults.On("delegation.delegate-route-prefix-unchecked"):
		return len(r.Services) == 0
	case faults.On("delegation.containment-not-on-segment"):
		return strings.HasPrefix(r.Match, strings.TrimSuffix(prefix, "/"))
	}
	return false
}

// checkService looks the service up in the object's own namespace only: an
// IngressRoute dispatches only to services of its namespace (design document).
func (b *builder) checkService(namespace string, s Service) string {
	if s.Port < 1 || s.Port > 65535 {
		return fmt.Sprintf("service %s/%s: port %d is not in 1-65535", namespace, s.Name, s.Port)
	}
	svc := b.services(namespace, s.Name)
	if svc == nil && faults.On("delegation.service-not-found-wording") {
		return fmt.Sprintf("no service %s/%s", namespace, s.Name)
	}
	if svc == nil {
		return fmt.Sprintf("service %s/%s not found", namespace, s.Name)
	}
	if faults.On("delegation.service-port-unchecked") {
		return ""
	}
	for _, p := range svc.Spec.Ports {
		if int(p.Port) == s.Port {
			return ""
		}
	}
	return fmt.Sprintf("service %s/%s has no port %d", namespace, s.Name, s.Port)
}

func chainString(chain []types.NamespacedName) string {
	s := make([]string, len(chain))
	for i, k := range chain {
		s[i] = k.String()
	}
	return strings.Join(s, " -> ")
}

// status is the status ir must have after the walk.
func (b *builder) status(ir *IngressRoute, now metav1.Time) Status {
	k := keyOf(ir)
	parents := b.parents[k]
	if ir.Spec.VirtualHost == nil && len(parents) == 0 && faults.On("delegation.orphan-reported-valid") {
		return Status{CurrentStatus: StatusValid, Description: descValid}
	}
	if ir.Spec.VirtualHost == nil && len(parents) == 0 {
		return Status{CurrentStatus: StatusOrphaned, Description: descOrphaned, DelegationStatuses: orphaned(ir.Status)}
	}
	st := Status{CurrentStatus: StatusValid, Description: descValid}
	if desc, bad := b.invalid[k]; bad {
		st = Status{CurrentStatus: StatusInvalid, Description: desc}
	}
	sort.Slice(parents, func(i, j int) bool {
		a, c := parents[i], parents[j]
		return a.Namespace+"/"+a.Name+" "+a.Prefix < c.Namespace+"/"+c.Name+" "+c.Prefix
	})
	if faults.On("delegation.single-parent-recorded") && len(parents) > 1 {
		parents = parents[:1]
	}
	for _, p := range parents {
		if faults.On("delegation.connected-prefix-dropped") {
			p.Prefix = ""
		}
		// Keep the previous time for an unchanged parent: status does not churn.
		at := now.Rfc3339Copy()
		for _, d := range ir.Status.DelegationStatuses {
			if c := d.State.Connected; c != nil && c.Parent == p && !faults.On("delegation.connected-at-restamped") {
				at = c.ConnectedAt
			}
		}
		st.DelegationStatuses = append(st.DelegationStatuses, DelegationStatus{State: DelegationState{
			Connected: &Connected{Parent: p, ConnectedAt: at},
		}})
	}
	return st
}

// orphaned is the delegationStatuses of an orphan: its last parents are
// those it was connected to before, or the ones it already remembered.
func orphaned(prev Status) []DelegationStatus {
	var out []DelegationStatus
	seen := map[ObjectRef]bool{}
	for _, d := range prev.DelegationStatuses {
		var ref *ObjectRef
		switch {
		case d.State.Connected != nil:
			ref = &ObjectRef{Name: d.State.Connected.Parent.Name, Namespace: d.State.Connected.Parent.Namespace}
		case d.State.Orphaned != nil && d.State.Orphaned.LastParent != nil:
			r := *d.State.Orphaned.LastParent
			ref = &r
		}
		if faults.On("delegation.orphan-last-parent-dropped") {
			ref = nil
		}
		if ref != nil && !seen[*ref] {
			seen[*ref] = true
			out = append(out, DelegationStatus{State: DelegationState{Orphaned: &Orphaned{LastParent: ref}}})
		}
	}
	if out == nil {
		out = []DelegationStatus{{State: DelegationState{Orphaned: &Orphaned{}}}}
	}
	return out
}

// StatusEqual reports whether a and b say the same thing, so a controller
// writes status only when it changes. Times compare at the second, the
// precision they keep through the API server; nil and empty lists are equal.
func StatusEqual(a, b Status) bool {
	if a.CurrentStatus != b.CurrentStatus || a.Description != b.Description ||
		len(a.DelegationStatuses) != len(b.DelegationStatuses) {
		return false
	}
	for i := range a.DelegationStatuses {
		x, y := a.DelegationStatuses[i].State, b.DelegationStatuses[i].State
		if (x.Connected == nil) != (y.Connected == nil) || (x.Orphaned == nil) != (y.Orphaned == nil) {
			return false
		}
		if x.Connected != nil && (x.Connected.Parent != y.Connected.Parent ||
			x.Connected.ConnectedAt.Unix() != y.Connected.ConnectedAt.Unix()) {
			return false
		}
		if x.Orphaned != nil {
			p, q := x.Orphaned.LastParent, y.Orphaned.LastParent
			if (p == nil) != (q == nil) || (p != nil && *p != *q) {
				return false
			}
		}
	}
	return true
}
