package ingressoperator

import (
	"context"
	"errors"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// The router writes a route's status entry when it admits the route, but
// cannot take it back when it stops selecting the route: the operator
// does (cluster-ingress-operator
// pkg/operator/controller/ingress/router_status.go, syncRouteStatus):
// once a changed namespaceSelector or routeSelector has rolled out, it
// clears this IngressController's entry on every route the selectors no
// longer pick, then copies the selectors to the status to say so.

// selectorsChanged reports whether ic's selectors differ from the ones its
// status says the route status was last synced with.
func selectorsChanged(ic *operatorv1.IngressController) bool {
	return !equality.Semantic.DeepEqual(ic.Spec.NamespaceSelector, ic.Status.NamespaceSelector) ||
		!equality.Semantic.DeepEqual(ic.Spec.RouteSelector, ic.Status.RouteSelector)
}

// clearUnselectedRouteStatus removes ic's entry from the status of every
// route its selectors do not pick. An unset selector picks everything, as
// the router reads it (no NAMESPACE_LABELS or ROUTE_LABELS); upstream
// clears those routes' entries too and its router writes them back at
// once, so what a client sees is the same. Without a route client it does
// nothing.
func (r *Reconciler) clearUnselectedRouteStatus(ctx context.Context, ic *operatorv1.IngressController) error {
	if r.Routes == nil {
		return nil
	}
	selector := func(s *metav1.LabelSelector) (labels.Selector, error) {
		if s == nil {
			return labels.Everything(), nil
		}
		return metav1.LabelSelectorAsSelector(s)
	}
	nsSelector, err := selector(ic.Spec.NamespaceSelector)
	if err != nil {
		return fmt.Errorf("ingresscontroller %s: spec.namespaceSelector: %w", ic.Name, err)
	}
	routeSelector, err := selector(ic.Spec.RouteSelector)
	if err != nil {
		return fmt.Errorf("ingresscontroller %s: spec.routeSelector: %w", ic.Name, err)
	}
	namespaces, err := r.Kube.CoreV1().Namespaces().List(ctx, metav1.ListOptions{LabelSelector: nsSelector.String()})
	if err != nil {
		return fmt.Errorf("namespaces, to clear the route status of ingresscontroller %s: %w", ic.Name, err)
	}
	selected := map[string]bool{}
	for _, ns := range namespaces.Items {
		selected[ns.Name] = true
	}
	routes, err := r.Routes.RouteV1().Routes(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("routes, to clear the route status of ingresscontroller %s: %w", ic.Name, err)
	}
	var errs []error
	for i := range routes.Items {
		route := &routes.Items[i]
		if selected[route.Namespace] && routeSelector.Matches(labels.Set(route.Labels)) {
			continue
		}
		if err := r.dropRouteStatusEntry(ctx, route, ic.Name); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// dropRouteStatusEntry removes routerName's entry from route's status, if
// it has one.
func (r *Reconciler) dropRouteStatusEntry(ctx context.Context, route *routev1.Route, routerName string) error {
	kept := make([]routev1.RouteIngress, 0, len(route.Status.Ingress))
	for _, in := range route.Status.Ingress {
		if in.RouterName != routerName {
			kept = append(kept, in)
		}
	}
	if len(kept) == len(route.Status.Ingress) {
		return nil
	}
	route.Status.Ingress = kept
	if _, err := r.Routes.RouteV1().Routes(route.Namespace).UpdateStatus(ctx, route, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("status of route %s/%s: %w", route.Namespace, route.Name, err)
	}
	r.logf("ingresscontroller %s: cleared its status entry on route %s/%s", routerName, route.Namespace, route.Name)
	return nil
}
