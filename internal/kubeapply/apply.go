// Package kubeapply creates or replaces typed objects: the one way the
// suite installs what it owns.
package kubeapply

import (
	"context"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/e2e-framework/klient/k8s"
	"sigs.k8s.io/e2e-framework/klient/k8s/resources"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
)

// Apply creates obj, or replaces the live object with it when it exists
// (the fast dev loop reuses clusters). It looks first: for some objects (a
// Service with a fixed cluster IP) a second Create fails validation before
// it could say "already exists".
func Apply(ctx context.Context, r *resources.Resources, obj k8s.Object) error {
	live := obj.DeepCopyObject().(k8s.Object)
	err := r.Get(ctx, obj.GetName(), obj.GetNamespace(), live)
	switch {
	case apierrors.IsNotFound(err):
		return r.Create(ctx, obj)
	case err != nil:
		return err
	}
	obj.SetResourceVersion(live.GetResourceVersion())
	return r.Update(ctx, obj)
}

// Resources returns an e2e-framework client that knows the OpenShift
// (Route, IngressController, Ingress config), IngressRoute and CRD types.
func Resources(cfg *rest.Config) (*resources.Resources, error) {
	r, err := resources.New(cfg)
	if err != nil {
		return nil, err
	}
	for _, add := range []func(*runtime.Scheme) error{apiextensionsv1.AddToScheme, routev1.Install, operatorv1.Install, configv1.Install, irv1.AddToScheme} {
		if err := add(r.GetScheme()); err != nil {
			return nil, err
		}
	}
	return r, nil
}
