package ingressoperator

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	operatorinformers "github.com/openshift/client-go/operator/informers/externalversions"
	operatorlisters "github.com/openshift/client-go/operator/listers/operator/v1"
	routeclient "github.com/openshift/client-go/route/clientset/versioned"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
)

// Reconciler keeps each IngressController's router Deployment in step,
// creating a shard's and deleting it when its IngressController is gone.
type Reconciler struct {
	Kube     kubernetes.Interface
	Operator operatorclient.Interface
	// Routes, if set, clears a deleted shard's entries in route status.
	Routes routeclient.Interface
	// Config, if set, is where the Ingress config "cluster" is read: its
	// hard-stop-after annotation bears on every router.
	Config configclient.Interface
	// RouterImage is the image of a shard's router (upstream: the
	// operator's IMAGE variable); empty, the default router's image.
	RouterImage string
	// SyslogImage is the access-log sidecar's image (SYSLOG_IMAGE);
	// empty, the router's, as upstream.
	SyslogImage string
	Logf        func(format string, args ...any)
	trigger     chan struct{}
	// peers lists the IngressControllers from Run's informer cache (as
	// upstream's validate lists its cache); nil, from the API.
	peers operatorlisters.IngressControllerNamespaceLister
	// ingressConfigs reads the Ingress config from Run's informer cache;
	// nil, from the API (when Config is set).
	ingressConfigs configlisters.IngressLister
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
	deployments := routerInf.Apps().V1().Deployments()
	for _, inf := range []cache.SharedIndexInformer{ics.Informer(), cfgInf.Core().V1().ConfigMaps().Informer(), deployments.Informer()} {
		if _, err := inf.AddEventHandler(handler); err != nil {
			return err
		}
	}
	for _, f := range []interface{ Start(<-chan struct{}) }{opInf, cfgInf, routerInf} {
		f.Start(ctx.Done())
	}
	r.peers = ics.Lister().IngressControllers(OperatorNamespace)
	synced := []cache.InformerSynced{ics.Informer().HasSynced, deployments.Informer().HasSynced}
	if r.Config != nil {
		ingInf := configinformers.NewSharedInformerFactoryWithOptions(r.Config, 10*time.Minute,
			configinformers.WithTweakListOptions(func(o *metav1.ListOptions) {
				o.FieldSelector = fields.OneTermEqualSelector("metadata.name", contract.IngressConfig).String()
			}))
		ings := ingInf.Config().V1().Ingresses()
		if _, err := ings.Informer().AddEventHandler(handler); err != nil {
			return err
		}
		ingInf.Start(ctx.Done())
		r.ingressConfigs = ings.Lister()
		synced = append(synced, ings.Informer().HasSynced)
	}
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		return fmt.Errorf("IngressController, Deployment or Ingress config cache did not sync (are the IngressController and Ingress CRDs installed?)")
	}
	poke()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-r.trigger:
		}
		if err := r.pass(ctx, ics.Lister(), deployments.Lister(), poke); err != nil {
			return err
		}
	}
}

// pass reconciles every IngressController, then removes the routers of
// those gone without their finalizer. Failures ask for another pass.
func (r *Reconciler) pass(ctx context.Context, ics operatorlisters.IngressControllerLister, deployments appslisters.DeploymentLister, poke func()) error {
	list, err := ics.IngressControllers(OperatorNamespace).List(labels.Everything())
	if err != nil {
		return err
	}
	for _, ic := range list {
		err := r.Reconcile(ctx, ic.DeepCopy())
		switch {
		case errors.Is(err, errWaiting):
			// A deleted shard's router pods are still going.
			time.AfterFunc(500*time.Millisecond, poke)
		case err != nil:
			r.logf("ingresscontroller %s: %v", ic.Name, err)
			// Try again soon: most errors are conflicts with our own writes.
			time.AfterFunc(time.Second, poke)
		}
	}
	routers, err := deployments.Deployments(RouterNamespace).List(shardSelector())
	if err != nil {
		return err
	}
	if err := r.removeOrphans(ctx, routers, list); err != nil {
		r.logf("%v", err)
		time.AfterFunc(time.Second, poke)
	}
	return nil
}

func (r *Reconciler) logf(format string, args ...any) {
	if r.Logf != nil {
		r.Logf(format, args...)
	}
}

// Reconcile brings one IngressController's router in line with its spec
// and reports its status. A shard's (any IngressController but the
// default) Deployment is created here when missing, and torn down when
// the IngressController is deleted; the default's is install's.
func (r *Reconciler) Reconcile(ctx context.Context, ic *operatorv1.IngressController) error {
	if ic.DeletionTimestamp != nil {
		return r.finalize(ctx, ic)
	}
	ic, err := r.ensureFinalizer(ctx, ic)
	if err != nil {
		return err
	}
	return r.reconcileRouter(ctx, ic)
}

func (r *Reconciler) reconcileRouter(ctx context.Context, ic *operatorv1.IngressController) error {
	msg, err := r.validateDomainUniqueness(ctx, ic)
	if err != nil {
		return err
	}
	if msg != "" {
		return r.reject(ctx, ic, msg)
	}
	if msg := validateClientTLS(ic); msg != "" {
		return r.reject(ctx, ic, msg)
	}
	err = r.clientCABundle(ctx, ic)
	var unavailable *unavailableError
	if errors.As(err, &unavailable) {
		return r.report(ctx, ic, 0, false, true, unavailable.reason, unavailable.message)
	}
	if err != nil {
		return err
	}
	ingressConfig, err := r.ingressConfig(ctx)
	if err != nil {
		return err
	}
	settings, err := Desired(ic, ingressConfig)
	if err != nil {
		return r.report(ctx, ic, 0, false, false, "InvalidSpec", err.Error())
	}
	settings.SyslogImage = r.SyslogImage
	d, err := r.routerDeployment(ctx, ic, settings)
	if errors.As(err, &unavailable) {
		return r.report(ctx, ic, 0, false, false, unavailable.reason, unavailable.message)
	}
	if err != nil {
		return err
	}
	// The sidecar's configuration before the pods that mount it.
	if err := r.ensureRsyslogConfigMap(ctx, ic, d, settings.AccessLogSidecar); err != nil {
		return err
	}
	if Apply(d, ic, settings) {
		if d, err = r.Kube.AppsV1().Deployments(RouterNamespace).Update(ctx, d, metav1.UpdateOptions{}); err != nil {
			return err
		}
		r.logf("ingresscontroller %s: router Deployment updated (generation %d)", ic.Name, d.Generation)
	}
	replicas := d.Status.AvailableReplicas
	if RolledOut(d) {
		// Only once no router of the old selectors is left to admit a
		// route again (upstream: isRouterDeploymentRolloutComplete).
		if selectorsChanged(ic) {
			if err := r.clearUnselectedRouteStatus(ctx, ic); err != nil {
				return err
			}
			ic.Status.NamespaceSelector, ic.Status.RouteSelector = ic.Spec.NamespaceSelector, ic.Spec.RouteSelector
			return r.writeStatus(ctx, ic, replicas, true, false, "AsExpected", "the router runs the IngressController's current settings", true)
		}
		return r.report(ctx, ic, replicas, true, false, "AsExpected", "the router runs the IngressController's current settings")
	}
	if !isDefault(ic) {
		// A shard's router waits for its Secrets; make them again if a
		// pass failed between the Deployment and them.
		if err := r.ensureShardSecrets(ctx, ic, d); err != nil {
			return err
		}
	}
	return r.report(ctx, ic, replicas, false, true, "RollingOut", "the router Deployment is rolling out the IngressController's settings")
}

// ingressConfig is the Ingress config "cluster"; nil without Config or
// when there is none (upstream reads it for every IngressController).
func (r *Reconciler) ingressConfig(ctx context.Context) (*configv1.Ingress, error) {
	var ing *configv1.Ingress
	var err error
	switch {
	case r.Config == nil:
		return nil, nil
	case r.ingressConfigs != nil:
		ing, err = r.ingressConfigs.Get(contract.IngressConfig)
	default:
		ing, err = r.Config.ConfigV1().Ingresses().Get(ctx, contract.IngressConfig, metav1.GetOptions{})
	}
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return ing, err
}

// unavailableError is a state the IngressController reports as a
// condition rather than retried as a failure.
type unavailableError struct{ reason, message string }

func (e *unavailableError) Error() string { return e.reason + ": " + e.message }

// clientCABundle copies the client CA bundle spec.clientTLS names into
// the router's namespace (nothing without clientTLS), where the router
// mounts it: an edit of the bundle reaches the running router through
// that copy (upstream: cluster-ingress-operator
// pkg/operator/controller/clientca-configmap, ensureClientCAConfigMap).
func (r *Reconciler) clientCABundle(ctx context.Context, ic *operatorv1.IngressController) error {
	ref := ic.Spec.ClientTLS.ClientCA.Name
	if ic.Spec.ClientTLS.ClientCertificatePolicy == "" {
		return nil
	}
	if faults.On("client-tls.client-ca-read-beside-ingresscontroller") {
		if beside, err := r.Kube.CoreV1().ConfigMaps(ic.Namespace).Get(ctx, ref, metav1.GetOptions{}); err == nil && beside.Data[ClientCAKey] != "" {
			return r.syncClientCA(ctx, ic, beside.Data[ClientCAKey])
		}
	}
	src, err := r.Kube.CoreV1().ConfigMaps(ConfigNamespace).Get(ctx, ref, metav1.GetOptions{})
	if err != nil {
		return &unavailableError{"ClientCAUnavailable", fmt.Sprintf("client CA ConfigMap %s/%s: %v", ConfigNamespace, ref, err)}
	}
	bundle := src.Data[ClientCAKey]
	if bundle == "" {
		return &unavailableError{"ClientCAUnavailable", fmt.Sprintf("ConfigMap %s/%s has no %s", ConfigNamespace, ref, ClientCAKey)}
	}
	return r.syncClientCA(ctx, ic, bundle)
}

// routerDeployment is ic's live router Deployment; a shard's is created
// when missing.
func (r *Reconciler) routerDeployment(ctx context.Context, ic *operatorv1.IngressController, s Settings) (*appsv1.Deployment, error) {
	d, err := r.Kube.AppsV1().Deployments(RouterNamespace).Get(ctx, DeploymentName(ic), metav1.GetOptions{})
	switch {
	case err == nil:
		return d, nil
	case !apierrors.IsNotFound(err):
		return nil, err
	case isDefault(ic):
		return nil, &unavailableError{"DeploymentMissing", fmt.Sprintf("no router Deployment %s/%s", RouterNamespace, DeploymentName(ic))}
	}
	return r.createShard(ctx, ic, s)
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
	case cur.Data[ClientCAKey] == bundle || faults.On("client-tls.client-ca-copy-not-updated"):
		return nil
	}
	cur.Data = want.Data
	_, err = cms.Update(ctx, cur, metav1.UpdateOptions{})
	return err
}

// publishedStrategy is status.endpointPublishingStrategy: the spec's with
// upstream's HostNetwork defaults (setDefaultPublishingStrategy). Without
// a spec strategy the status keeps what it has (nothing, for the default
// IngressController as install makes it).
func publishedStrategy(ic *operatorv1.IngressController) *operatorv1.EndpointPublishingStrategy {
	spec := ic.Spec.EndpointPublishingStrategy
	if spec == nil {
		return ic.Status.EndpointPublishingStrategy
	}
	out := spec.DeepCopy()
	if hn, err := EffectiveHostNetwork(ic); err == nil && hn != nil {
		out.HostNetwork = hn
	}
	return out
}

// report sets Available and Progressing, and observedGeneration once the
// router Deployment carries this generation's settings.
func (r *Reconciler) report(ctx context.Context, ic *operatorv1.IngressController, replicas int32, available, progressing bool, reason, message string) error {
	return r.writeStatus(ctx, ic, replicas, available, progressing, reason, message, false)
}

// writeStatus is report; force writes even when nothing report compares
// changed (the selectors that clearing route status set).
func (r *Reconciler) writeStatus(ctx context.Context, ic *operatorv1.IngressController, replicas int32, available, progressing bool, reason, message string, force bool) error {
	status := func(b bool) operatorv1.ConditionStatus {
		if b {
			return operatorv1.ConditionTrue
		}
		return operatorv1.ConditionFalse
	}
	want := []operatorv1.OperatorCondition{
		{Type: contract.IngressControllerAdmittedCondition, Status: operatorv1.ConditionTrue, Reason: contract.ReasonIngressControllerValid},
		{Type: operatorv1.OperatorStatusTypeAvailable, Status: status(available), Reason: reason, Message: message},
		{Type: operatorv1.OperatorStatusTypeProgressing, Status: status(progressing), Reason: reason, Message: message},
	}
	eps := publishedStrategy(ic)
	changed := force || ic.Status.ObservedGeneration != ic.Generation || ic.Status.AvailableReplicas != replicas || ic.Status.Domain != ic.Spec.Domain ||
		!equality.Semantic.DeepEqual(ic.Status.EndpointPublishingStrategy, eps)
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
	ic.Status.EndpointPublishingStrategy = eps
	_, err := r.Operator.OperatorV1().IngressControllers(ic.Namespace).UpdateStatus(ctx, ic, metav1.UpdateOptions{})
	return err
}

// validateDomainUniqueness refuses an IngressController whose domain an
// admitted other one has: the first admitted keeps it (upstream:
// cluster-ingress-operator pkg/operator/controller/ingress/controller.go
// validateDomainUniqueness, comparing status.domain, which this operator
// sets from spec.domain).
func (r *Reconciler) validateDomainUniqueness(ctx context.Context, ic *operatorv1.IngressController) (string, error) {
	if ic.Spec.Domain == "" {
		return "", nil
	}
	var others []*operatorv1.IngressController
	if r.peers != nil {
		listed, err := r.peers.List(labels.Everything())
		if err != nil {
			return "", err
		}
		others = listed
	} else {
		list, err := r.Operator.OperatorV1().IngressControllers(ic.Namespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return "", err
		}
		for i := range list.Items {
			others = append(others, &list.Items[i])
		}
	}
	for _, other := range others {
		if other.UID != ic.UID && other.Status.Domain == ic.Spec.Domain && admitted(other) {
			return contract.DomainConflictRejection(other.Name), nil
		}
	}
	return "", nil
}

// admitted reports the Admitted condition True.
func admitted(ic *operatorv1.IngressController) bool {
	for _, c := range ic.Status.Conditions {
		if c.Type == contract.IngressControllerAdmittedCondition {
			return c.Status == operatorv1.ConditionTrue
		}
	}
	return false
}

// validateClientTLS is the ingress operator's admission check of
// spec.clientTLS: every allowedSubjectPatterns entry must parse as a
// regular expression (upstream: validateClientTLS in
// pkg/operator/controller/ingress/controller.go). It returns the
// Admitted=False message, empty when the spec is valid.
func validateClientTLS(ic *operatorv1.IngressController) string {
	if faults.On("client-tls.invalid-pattern-admitted") {
		return ""
	}
	var msgs []string
	for i, p := range ic.Spec.ClientTLS.AllowedSubjectPatterns {
		if msg := contract.AllowedSubjectPatternRejection(i, p); msg != "" {
			msgs = append(msgs, msg)
		}
	}
	switch len(msgs) {
	case 0:
		return ""
	case 1:
		return msgs[0]
	}
	// As k8s.io/apimachinery's aggregate error lists several.
	return "[" + strings.Join(msgs, ", ") + "]"
}

// reject reports an IngressController the operator does not admit:
// Admitted False with reason Invalid, the generation observed, the other
// conditions as they were, and nothing else done, so its router keeps
// running what it ran (upstream: admit records the rejection and
// Reconcile returns before ensureIngressController).
func (r *Reconciler) reject(ctx context.Context, ic *operatorv1.IngressController, message string) error {
	cond := operatorv1.OperatorCondition{Type: contract.IngressControllerAdmittedCondition, Status: operatorv1.ConditionFalse,
		Reason: contract.ReasonIngressControllerInvalid, Message: message, LastTransitionTime: metav1.Now()}
	changed := ic.Status.ObservedGeneration != ic.Generation
	found := false
	for i, old := range ic.Status.Conditions {
		if old.Type != cond.Type {
			continue
		}
		found = true
		if old.Status == cond.Status {
			cond.LastTransitionTime = old.LastTransitionTime
		}
		changed = changed || old.Status != cond.Status || old.Reason != cond.Reason || old.Message != cond.Message
		ic.Status.Conditions[i] = cond
	}
	if !found {
		ic.Status.Conditions = append(ic.Status.Conditions, cond)
		changed = true
	}
	if !changed {
		return nil
	}
	ic.Status.ObservedGeneration = ic.Generation
	_, err := r.Operator.OperatorV1().IngressControllers(ic.Namespace).UpdateStatus(ctx, ic, metav1.UpdateOptions{})
	if err == nil {
		r.logf("ingresscontroller %s: not admitted: %s", ic.Name, message)
	}
	return err
}
