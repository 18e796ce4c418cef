package ingressoperator

import (
	"context"
	"fmt"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	operatorinformers "github.com/openshift/client-go/operator/informers/externalversions"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// Reconciler keeps each IngressController's router Deployment in step.
type Reconciler struct {
	Kube     kubernetes.Interface
	Operator operatorclient.Interface
	Logf     func(format string, args ...any)
	trigger  chan struct{}
}

// Run watches IngressControllers, the client CA ConfigMaps and the router
// Deployments until ctx ends.
func (r *Reconciler) Run(ctx context.Context) error {
	r.trigger = make(chan struct{}, 1)
	poke := func() {
		select {
		case r.trigger <- struct{}{}:
		default:
		}
	}
	handler := cache.ResourceEventHandlerFuncs{AddFunc: func(any) { poke() }, UpdateFunc: func(any, any) { poke() }, DeleteFunc: func(any) { poke() }}
	opInf := operatorinformers.NewSharedInformerFactoryWithOptions(r.Operator, 10*time.Minute, operatorinformers.WithNamespace(OperatorNamespace))
	cfgInf := informers.NewSharedInformerFactoryWithOptions(r.Kube, 10*time.Minute, informers.WithNamespace(ConfigNamespace))
	routerInf := informers.NewSharedInformerFactoryWithOptions(r.Kube, 10*time.Minute, informers.WithNamespace(RouterNamespace))
	ics := opInf.Operator().V1().IngressControllers()
	for _, inf := range []cache.SharedIndexInformer{ics.Informer(), cfgInf.Core().V1().ConfigMaps().Informer(), routerInf.Apps().V1().Deployments().Informer()} {
		if _, err := inf.AddEventHandler(handler); err != nil {
			return err
		}
	}
	for _, f := range []interface{ Start(<-chan struct{}) }{opInf, cfgInf, routerInf} {
		f.Start(ctx.Done())
	}
	if !cache.WaitForCacheSync(ctx.Done(), ics.Informer().HasSynced) {
		return fmt.Errorf("IngressController cache did not sync (is the IngressController CRD installed?)")
	}
	poke()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-r.trigger:
		}
		list, err := ics.Lister().IngressControllers(OperatorNamespace).List(labels.Everything())
		if err != nil {
			return err
		}
		for _, ic := range list {
			if err := r.Reconcile(ctx, ic.DeepCopy()); err != nil {
				r.logf("ingresscontroller %s: %v", ic.Name, err)
				// Try again soon: most errors are conflicts with our own writes.
				time.AfterFunc(time.Second, poke)
			}
		}
	}
}

func (r *Reconciler) logf(format string, args ...any) {
	if r.Logf != nil {
		r.Logf(format, args...)
	}
}

// Reconcile brings one IngressController's router in line with its spec
// and reports its status.
func (r *Reconciler) Reconcile(ctx context.Context, ic *operatorv1.IngressController) error {
	bundle := ""
	if ref := ic.Spec.ClientTLS.ClientCA.Name; ic.Spec.ClientTLS.ClientCertificatePolicy != "" {
		src, err := r.Kube.CoreV1().ConfigMaps(ConfigNamespace).Get(ctx, ref, metav1.GetOptions{})
		if err != nil {
			return r.report(ctx, ic, 0, false, true, "ClientCAUnavailable", fmt.Sprintf("client CA ConfigMap %s/%s: %v", ConfigNamespace, ref, err))
		}
		if bundle = src.Data[ClientCAKey]; bundle == "" {
			return r.report(ctx, ic, 0, false, true, "ClientCAUnavailable", fmt.Sprintf("ConfigMap %s/%s has no %s", ConfigNamespace, ref, ClientCAKey))
		}
		if err := r.syncClientCA(ctx, ic, bundle); err != nil {
			return err
		}
	}
	deployments := r.Kube.AppsV1().Deployments(RouterNamespace)
	d, err := deployments.Get(ctx, DeploymentName(ic), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return r.report(ctx, ic, 0, false, false, "DeploymentMissing", fmt.Sprintf("no router Deployment %s/%s", RouterNamespace, DeploymentName(ic)))
	}
	if err != nil {
		return err
	}
	if Apply(d, ic, Desired(ic, bundle)) {
		if d, err = deployments.Update(ctx, d, metav1.UpdateOptions{}); err != nil {
			return err
		}
		r.logf("ingresscontroller %s: router Deployment updated (generation %d)", ic.Name, d.Generation)
	}
	replicas := d.Status.AvailableReplicas
	if RolledOut(d) {
		return r.report(ctx, ic, replicas, true, false, "AsExpected", "the router runs the IngressController's current settings")
	}
	return r.report(ctx, ic, replicas, false, true, "RollingOut", "the router Deployment is rolling out the IngressController's settings")
}

func (r *Reconciler) syncClientCA(ctx context.Context, ic *operatorv1.IngressController, bundle string) error {
	cms := r.Kube.CoreV1().ConfigMaps(RouterNamespace)
	want := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: ClientCAConfigMapName(ic), Namespace: RouterNamespace},
		Data:       map[string]string{ClientCAKey: bundle},
	}
	cur, err := cms.Get(ctx, want.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		_, err = cms.Create(ctx, want, metav1.CreateOptions{})
		return err
	case err != nil:
		return err
	case cur.Data[ClientCAKey] == bundle:
		return nil
	}
	cur.Data = want.Data
	_, err = cms.Update(ctx, cur, metav1.UpdateOptions{})
	return err
}

// report sets Available and Progressing, and observedGeneration once the
// router Deployment carries this generation's settings.
func (r *Reconciler) report(ctx context.Context, ic *operatorv1.IngressController, replicas int32, available, progressing bool, reason, message string) error {
	status := func(b bool) operatorv1.ConditionStatus {
		if b {
			return operatorv1.ConditionTrue
		}
		return operatorv1.ConditionFalse
	}
	want := []operatorv1.OperatorCondition{
		{Type: operatorv1.OperatorStatusTypeAvailable, Status: status(available), Reason: reason, Message: message},
		{Type: operatorv1.OperatorStatusTypeProgressing, Status: status(progressing), Reason: reason, Message: message},
	}
	changed := ic.Status.ObservedGeneration != ic.Generation || ic.Status.AvailableReplicas != replicas || ic.Status.Domain != ic.Spec.Domain
	for i := range want {
		want[i].LastTransitionTime = metav1.Now()
		for _, old := range ic.Status.Conditions {
			if old.Type == want[i].Type {
				if old.Status == want[i].Status {
					want[i].LastTransitionTime = old.LastTransitionTime
				}
				changed = changed || old.Status != want[i].Status || old.Reason != want[i].Reason || old.Message != want[i].Message
			}
		}
	}
	changed = changed || len(ic.Status.Conditions) != len(want)
	if !changed {
		return nil
	}
	ic.Status.Conditions = want
	ic.Status.ObservedGeneration = ic.Generation
	ic.Status.AvailableReplicas = replicas
	ic.Status.Domain = ic.Spec.Domain
	_, err := r.Operator.OperatorV1().IngressControllers(ic.Namespace).UpdateStatus(ctx, ic, metav1.UpdateOptions{})
	return err
}
