// Package kubeapply creates or replaces typed objects: the one way the
// suite installs what it owns.
package kubeapply

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/e2e-framework/klient/k8s"
	"sigs.k8s.io/e2e-framework/klient/k8s/resources"
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
