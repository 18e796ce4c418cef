package ingressoperator

import (
	"context"
	"errors"
	"fmt"
	"slices"

	operatorv1 "github.com/openshift/api/operator/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/faults"
)

// Finalizer holds a shard's IngressController until its router pods are
// gone and its routes' status entries cleared, as upstream's
// (pkg/manifests/manifests.go IngressControllerFinalizer, handled by
// ensureIngressDeleted in pkg/operator/controller/ingress/controller.go).
// An IngressController that is gone has freed its host ports: a caller
// may at once make another on the same ports. The default
// IngressController gets none: install makes and keeps its router.
const Finalizer = "ingresscontroller.operator.openshift.io/finalizer-ingresscontroller"

// errWaiting says a pass must come again soon, and is nothing to log.
var errWaiting = errors.New("waiting")

// ensureFinalizer adds Finalizer to a shard's IngressController and
// returns the stored object (the status write that follows needs its
// resourceVersion).
func (r *Reconciler) ensureFinalizer(ctx context.Context, ic *operatorv1.IngressController) (*operatorv1.IngressController, error) {
	if isDefault(ic) || slices.Contains(ic.Finalizers, Finalizer) {
		return ic, nil
	}
	ic.Finalizers = append(ic.Finalizers, Finalizer)
	return r.Operator.OperatorV1().IngressControllers(ic.Namespace).Update(ctx, ic, metav1.UpdateOptions{})
}

// finalize tears a deleted shard down in upstream's order: the router
// Deployment, then (once no router pod is left to re-admit them) the
// routes' status entries for this router, then the finalizer.
func (r *Reconciler) finalize(ctx context.Context, ic *operatorv1.IngressController) error {
	if !slices.Contains(ic.Finalizers, Finalizer) {
		return nil
	}
	deployments := r.Kube.AppsV1().Deployments(RouterNamespace)
	err := deployments.Delete(ctx, DeploymentName(ic), metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)})
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	if _, err := deployments.Get(ctx, DeploymentName(ic), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		return errors.Join(errWaiting, err)
	}
	pods, err := r.Kube.CoreV1().Pods(RouterNamespace).List(ctx, metav1.ListOptions{
		LabelSelector: labels.SelectorFromSet(labels.Set{DeploymentLabel: ic.Name}).String(),
	})
	if err != nil {
		return err
	}
	if len(pods.Items) > 0 {
		return errWaiting
	}
	if err := r.clearRouteStatus(ctx, ic.Name); err != nil {
		return err
	}
	// The copy of the client CA bundle goes with its IngressController
	// (upstream: the clientca-configmap controller's own finalizer,
	// ingresscontroller.operator.openshift.io/finalizer-clientca-configmap,
	// removes the copy before it lets the IngressController go).
	if !faults.On("client-tls.client-ca-copy-left-behind") {
		err = r.Kube.CoreV1().ConfigMaps(RouterNamespace).Delete(ctx, ClientCAConfigMapName(ic), metav1.DeleteOptions{})
	}
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	ic.Finalizers = slices.DeleteFunc(ic.Finalizers, func(f string) bool { return f == Finalizer })
	if _, err := r.Operator.OperatorV1().IngressControllers(ic.Namespace).Update(ctx, ic, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	r.logf("ingresscontroller %s: router gone, route status cleared, finalizer removed", ic.Name)
	return nil
}

// clearRouteStatus removes the status.ingress entry routerName wrote on
// every route (upstream: clearAllRoutesStatusForIngressController in
// pkg/operator/controller/ingress/router_status.go). Without a route
// client it does nothing.
func (r *Reconciler) clearRouteStatus(ctx context.Context, routerName string) error {
	if r.Routes == nil {
		return nil
	}
	list, err := r.Routes.RouteV1().Routes(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("routes, to clear the status of router %s: %w", routerName, err)
	}
	var errs []error
	for i := range list.Items {
		if err := r.dropRouteStatusEntry(ctx, &list.Items[i], routerName); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
