package ingressroute

import (
	v1alpha1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
)

// The API the DAG is built from is the suite's own copy of
// contour.heptio.com/v1alpha1 (apis/contour/v1alpha1): the platform installs
// its CRD and the specs write its objects; these names keep the builder
// readable.
type (
	IngressRoute     = v1alpha1.IngressRoute
	IngressRouteList = v1alpha1.IngressRouteList
	Spec             = v1alpha1.Spec
	VirtualHost      = v1alpha1.VirtualHost
	TLS              = v1alpha1.TLS
	Route            = v1alpha1.Route
	Service          = v1alpha1.Service
	Delegate         = v1alpha1.Delegate
	Status           = v1alpha1.Status
	DelegationStatus = v1alpha1.DelegationStatus
	DelegationState  = v1alpha1.DelegationState
	Connected        = v1alpha1.Connected
	Parent           = v1alpha1.Parent
	Orphaned         = v1alpha1.Orphaned
	ObjectRef        = v1alpha1.ObjectRef
)

const (
	GroupName = v1alpha1.GroupName
	Kind      = v1alpha1.Kind
	ListKind  = v1alpha1.ListKind
	Plural    = v1alpha1.Plural

	StatusValid    = v1alpha1.StatusValid
	StatusInvalid  = v1alpha1.StatusInvalid
	StatusOrphaned = v1alpha1.StatusOrphaned
)

var (
	GroupVersion         = v1alpha1.GroupVersion
	GroupVersionResource = v1alpha1.GroupVersionResource
)
