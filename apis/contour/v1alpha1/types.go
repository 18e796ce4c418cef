// Package ingressroute holds Contour's IngressRoute (contour.heptio.com/v1alpha1)
// as its design document ("IngressRoute CRD", Contour 0.5/0.6 design) writes
// it: the API types, the CRD that serves them, and a pure builder that turns a
// set of IngressRoutes into the virtual hosts a router serves and the status
// each object must report.
//
// Where the design document is silent the package follows shipped Contour
// (v0.15 apis/contour/v1beta1/ingressroute.go, internal/dag/builder.go). No
// Contour code is copied; the comments cite what was followed.
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

const (
	// GroupName is the API group of the design document's apiVersion
	// contour.heptio.com/v1alpha1.
	GroupName = "contour.heptio.com"
	// Kind, ListKind and Plural name the resource, as Contour's register.go.
	Kind     = "IngressRoute"
	ListKind = "IngressRouteList"
	Plural   = "ingressroutes"
	Singular = "ingressroute"
)

var (
	// GroupVersion is contour.heptio.com/v1alpha1.
	GroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha1"}
	// SchemeGroupVersion is GroupVersion under the name client-go code expects.
	SchemeGroupVersion = GroupVersion
	// GroupVersionResource addresses the resource for dynamic clients.
	GroupVersionResource = GroupVersion.WithResource(Plural)

	// SchemeBuilder registers the types with a runtime.Scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds IngressRoute and IngressRouteList to a scheme, so that
	// a controller-runtime or e2e-framework client can read and write them.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &IngressRoute{}, &IngressRouteList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}

// Values of Status.CurrentStatus (as Contour v0.15 internal/dag/builder.go).
const (
	StatusValid    = "valid"
	StatusInvalid  = "invalid"
	StatusOrphaned = "orphaned"
)

// IngressRoute is a root (it has spec.virtualhost) or a vertex (it has not,
// and is reachable only by delegation).
type IngressRoute struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   Spec   `json:"spec"`
	Status Status `json:"status,omitempty"`
}

// IngressRouteList is a list of IngressRoutes.
type IngressRouteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []IngressRoute `json:"items"`
}

// Spec is an IngressRoute's spec.
type Spec struct {
	// VirtualHost appears at most once; its presence makes the object a root.
	VirtualHost *VirtualHost `json:"virtualhost,omitempty"`
	// Routes must always be present and non empty (the design document);
	// they may be in any order and are matched from most to least
	// specific. The CRD admits an object without them, as Contour v1.0.1's
	// does (omitempty as its IngressRouteSpec.Routes): the router reports
	// it invalid.
	Routes []Route `json:"routes,omitempty"`
}

// VirtualHost describes the host a root serves.
type VirtualHost struct {
	// Fqdn is the fully qualified domain name of the root of the tree.
	Fqdn string `json:"fqdn"`
	// Aliases are alternative names served exactly like Fqdn.
	Aliases []string `json:"aliases,omitempty"`
	// TLS, if present, serves the host over HTTPS with the named secret.
	TLS *TLS `json:"tls,omitempty"`
}

// TLS names the certificate of a virtual host.
type TLS struct {
	// SecretName is a kubernetes.io/tls secret in the root's own namespace;
	// the design document calls it required. As Contour v1.0.1's TLS
	// (omitempty, and a plain string in its CRD) the API admits it missing
	// or written "namespace/name": the router reports either invalid,
	// unless the namespace is the root's own.
	SecretName string `json:"secretName,omitempty"`
}

// Route is a prefix match with one of a list of services or a delegation.
type Route struct {
	// Match is a path prefix; it starts with "/".
	Match string `json:"match"`
	// Services are the backends of the route, all in the object's namespace.
	// The design document spells the key "service" (a list), and so do we;
	// shipped Contour (v0.15, v1beta1) renamed it "services".
	Services []Service `json:"service,omitempty"`
	// Delegate hands the prefix over to another IngressRoute.
	Delegate *Delegate `json:"delegate,omitempty"`
}

// Service is a service name and port in the object's namespace.
type Service struct {
	Name string `json:"name"`
	Port int    `json:"port"`
}

// Delegate names the IngressRoute that a route delegates to.
type Delegate struct {
	Name string `json:"name"`
	// Namespace defaults to the delegating object's namespace.
	Namespace string `json:"namespace,omitempty"`
}

// Status is what the builder reports for an object. CurrentStatus and
// Description are shipped Contour's; DelegationStatuses is the design
// document's "Reporting status" form.
type Status struct {
	CurrentStatus string `json:"currentStatus,omitempty"`
	Description   string `json:"description,omitempty"`
	// DelegationStatuses is a list because a vertex may be part of several
	// delegation chains. Roots have none.
	DelegationStatuses []DelegationStatus `json:"delegationStatuses,omitempty"`
}

// DelegationStatus is one entry of status.delegationStatuses; the document
// nests the state under a "state" key.
type DelegationStatus struct {
	State DelegationState `json:"state"`
}

// DelegationState holds exactly one of Connected or Orphaned.
type DelegationState struct {
	Connected *Connected `json:"connected,omitempty"`
	Orphaned  *Orphaned  `json:"orphaned,omitempty"`
}

// Connected records a live delegation to the object.
type Connected struct {
	Parent      Parent      `json:"parent"`
	ConnectedAt metav1.Time `json:"connectedAt"`
}

// Parent is the delegating object and the prefix it delegated.
type Parent struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	Prefix    string `json:"prefix"`
}

// Orphaned records that no root reaches the object any more.
type Orphaned struct {
	// LastParent is the last object known to delegate to this one, if any.
	LastParent *ObjectRef `json:"lastParent,omitempty"`
}

// ObjectRef names an IngressRoute.
type ObjectRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// Deepcopy, written by hand (no generator): every pointer and slice is copied.

// DeepCopyInto copies in into out.
func (in *IngressRoute) DeepCopyInto(out *IngressRoute) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Spec.DeepCopyInto(&out.Spec)
	in.Status.DeepCopyInto(&out.Status)
}

// DeepCopy returns a deep copy.
func (in *IngressRoute) DeepCopy() *IngressRoute {
	if in == nil {
		return nil
	}
	out := new(IngressRoute)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *IngressRoute) DeepCopyObject() runtime.Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies in into out.
func (in *IngressRouteList) DeepCopyInto(out *IngressRouteList) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]IngressRoute, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopy returns a deep copy.
func (in *IngressRouteList) DeepCopy() *IngressRouteList {
	if in == nil {
		return nil
	}
	out := new(IngressRouteList)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *IngressRouteList) DeepCopyObject() runtime.Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies in into out.
func (in *Spec) DeepCopyInto(out *Spec) {
	*out = *in
	if in.VirtualHost != nil {
		out.VirtualHost = new(VirtualHost)
		in.VirtualHost.DeepCopyInto(out.VirtualHost)
	}
	if in.Routes != nil {
		out.Routes = make([]Route, len(in.Routes))
		for i := range in.Routes {
			in.Routes[i].DeepCopyInto(&out.Routes[i])
		}
	}
}

// DeepCopyInto copies in into out.
func (in *VirtualHost) DeepCopyInto(out *VirtualHost) {
	*out = *in
	if in.Aliases != nil {
		out.Aliases = append([]string(nil), in.Aliases...)
	}
	if in.TLS != nil {
		t := *in.TLS
		out.TLS = &t
	}
}

// DeepCopyInto copies in into out.
func (in *Route) DeepCopyInto(out *Route) {
	*out = *in
	if in.Services != nil {
		out.Services = append([]Service(nil), in.Services...)
	}
	if in.Delegate != nil {
		d := *in.Delegate
		out.Delegate = &d
	}
}

// DeepCopyInto copies in into out.
func (in *Status) DeepCopyInto(out *Status) {
	*out = *in
	if in.DelegationStatuses != nil {
		out.DelegationStatuses = make([]DelegationStatus, len(in.DelegationStatuses))
		for i := range in.DelegationStatuses {
			in.DelegationStatuses[i].DeepCopyInto(&out.DelegationStatuses[i])
		}
	}
}

// DeepCopy returns a deep copy.
func (in *Status) DeepCopy() *Status {
	if in == nil {
		return nil
	}
	out := new(Status)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out.
func (in *DelegationStatus) DeepCopyInto(out *DelegationStatus) {
	*out = *in
	if c := in.State.Connected; c != nil {
		out.State.Connected = &Connected{Parent: c.Parent}
		c.ConnectedAt.DeepCopyInto(&out.State.Connected.ConnectedAt)
	}
	if o := in.State.Orphaned; o != nil {
		out.State.Orphaned = &Orphaned{}
		if o.LastParent != nil {
			lp := *o.LastParent
			out.State.Orphaned.LastParent = &lp
		}
	}
}
