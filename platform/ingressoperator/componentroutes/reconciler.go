package componentroutes

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/router-conformance/suite/faults"
)

// Reconciler keeps the Roles and RoleBindings labelled HashLabel in
// SecretNamespace in step with the Ingress config's component routes.
type Reconciler struct {
	Kube   kubernetes.Interface
	Config configclient.Interface
	Logf   func(format string, args ...any)
}

// Run watches the Ingress config "cluster" and the labelled Roles and
// RoleBindings in SecretNamespace, and reconciles after each change (changes
// that arrive while a pass runs are folded into one more pass), until ctx
// ends. Like upstream's controller, every trigger leads to one full pass
// over the Ingress config.
func (r *Reconciler) Run(ctx context.Context) error {
	trigger := make(chan struct{}, 1)
	poke := func() {
		select {
		case trigger <- struct{}{}:
		default:
		}
	}
	handler := cache.ResourceEventHandlerFuncs{AddFunc: func(any) { poke() }, UpdateFunc: func(any, any) { poke() }, DeleteFunc: func(any) { poke() }}
	cfgInf := configinformers.NewSharedInformerFactoryWithOptions(r.Config, 10*time.Minute,
		configinformers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("metadata.name", IngressName).String()
		}))
	rbacInf := informers.NewSharedInformerFactoryWithOptions(r.Kube, 10*time.Minute,
		informers.WithNamespace(SecretNamespace),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = HashLabel }))
	infs := []cache.SharedIndexInformer{
		cfgInf.Config().V1().Ingresses().Informer(),
		rbacInf.Rbac().V1().Roles().Informer(),
		rbacInf.Rbac().V1().RoleBindings().Informer(),
	}
	synced := make([]cache.InformerSynced, 0, len(infs))
	for _, inf := range infs {
		if _, err := inf.AddEventHandler(handler); err != nil {
			return err
		}
		synced = append(synced, inf.HasSynced)
	}
	cfgInf.Start(ctx.Done())
	rbacInf.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("Ingress config or RBAC caches did not sync (is the config.openshift.io Ingress CRD installed?)")
	}
	poke()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-trigger:
		}
		if err := r.Reconcile(ctx); err != nil {
			r.logf("component routes: %v", err)
			// Try again soon: most errors are conflicts with concurrent writes.
			time.AfterFunc(time.Second, poke)
		}
	}
}

func (r *Reconciler) logf(format string, args ...any) {
	if r.Logf != nil {
		r.Logf(format, args...)
	}
}

// Reconcile makes one pass: it reads the Ingress config, works out the
// access its component routes ask for (Desired), and converges the labelled
// Roles and RoleBindings in SecretNamespace on it: one Role and one
// RoleBinding per DesiredAccess, nothing labelled for anything else. An
// absent Ingress config changes nothing (as upstream, which skips the
// reconcile then). Writes happen only where something differs, so a pass
// over a converged state writes nothing.
func (r *Reconciler) Reconcile(ctx context.Context) error {
	ing, err := r.Config.ConfigV1().Ingresses().Get(ctx, IngressName, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		r.logf("component routes: no Ingress config %q; nothing to do", IngressName)
		return nil
	}
	if err != nil {
		return fmt.Errorf("get Ingress config %q: %w", IngressName, err)
	}
	want := Desired(ing)
	if faults.On("component-routes.rbac-entry-name-taken-as-route") {
		want = slices.DeleteFunc(want, func(d DesiredAccess) bool { return !r.routeExists(ctx, d.Namespace, d.Name) })
	}
	// kept: the hashes whose labelled objects stay although no entry
	// asks for them (only under a fault).
	kept := map[string]bool{}
	if faults.On("component-routes.rbac-spec-only-kept") {
		for _, e := range ing.Spec.ComponentRoutes {
			if !slices.ContainsFunc(ing.Status.ComponentRoutes, func(s configv1.ComponentRouteStatus) bool { return s.Namespace == e.Namespace && s.Name == e.Name }) {
				kept[ComponentRouteHash(e.Namespace, e.Name)] = true
			}
		}
	}
	if faults.On("component-routes.rbac-status-only-kept") {
		for _, e := range ing.Status.ComponentRoutes {
			if !slices.ContainsFunc(ing.Spec.ComponentRoutes, func(s configv1.ComponentRouteSpec) bool { return s.Namespace == e.Namespace && s.Name == e.Name }) {
				kept[ComponentRouteHash(e.Namespace, e.Name)] = true
			}
		}
	}

	selector := metav1.ListOptions{LabelSelector: HashLabel}
	roles, err := r.Kube.RbacV1().Roles(SecretNamespace).List(ctx, selector)
	if err != nil {
		return fmt.Errorf("list Roles in %s: %w", SecretNamespace, err)
	}
	bindings, err := r.Kube.RbacV1().RoleBindings(SecretNamespace).List(ctx, selector)
	if err != nil {
		return fmt.Errorf("list RoleBindings in %s: %w", SecretNamespace, err)
	}
	rolesByHash := map[string][]*rbacv1.Role{}
	for i := range roles.Items {
		h := roles.Items[i].Labels[HashLabel]
		rolesByHash[h] = append(rolesByHash[h], &roles.Items[i])
	}
	bindingsByHash := map[string][]*rbacv1.RoleBinding{}
	for i := range bindings.Items {
		h := bindings.Items[i].Labels[HashLabel]
		bindingsByHash[h] = append(bindingsByHash[h], &bindings.Items[i])
	}

	// Plan: per desired entry the Role to keep (if any) and the RoleBinding
	// named like it; everything else that is labelled goes. Deletions run
	// first, so that a name they free can be taken by a create below.
	type step struct {
		access  DesiredAccess
		role    *rbacv1.Role
		binding *rbacv1.RoleBinding
	}
	var steps []step
	keepRole := map[*rbacv1.Role]bool{}
	keepBinding := map[*rbacv1.RoleBinding]bool{}
	for _, d := range want {
		s := step{access: d, role: pickRole(d, rolesByHash[d.Hash])}
		if s.role != nil {
			keepRole[s.role] = true
			for _, b := range bindingsByHash[d.Hash] {
				if b.Name == s.role.Name {
					s.binding = b
					keepBinding[b] = true
					break
				}
			}
		}
		steps = append(steps, s)
	}

	var errs []error
	for i := range bindings.Items {
		if b := &bindings.Items[i]; !keepBinding[b] && !kept[b.Labels[HashLabel]] {
			if err := r.deleteRoleBinding(ctx, b.Name); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for i := range roles.Items {
		if role := &roles.Items[i]; !keepRole[role] && !kept[role.Labels[HashLabel]] {
			if err := r.deleteRole(ctx, role.Name); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, s := range steps {
		if err := r.converge(ctx, s.access, s.role, s.binding); err != nil {
			errs = append(errs, fmt.Errorf("component route %s/%s: %w", s.access.Namespace, s.access.Name, err))
		}
	}
	return utilerrors.NewAggregate(errs)
}

// maxGeneratedNameLength is how much of generateName the API server keeps
// (k8s.io/apiserver/pkg/storage/names: 63 less 5 random characters).
const maxGeneratedNameLength = 58

// pickRole chooses which of the Roles labelled for d to keep: preferably
// one whose name the API server generated from d's generateName, then the
// oldest, then the first by name. (A labelled Role under another name is
// still kept rather than replaced, so that a naming quirk cannot make the
// controller churn.)
func pickRole(d DesiredAccess, roles []*rbacv1.Role) *rbacv1.Role {
	if len(roles) == 0 {
		return nil
	}
	prefix := d.GenerateName()
	if len(prefix) > maxGeneratedNameLength {
		prefix = prefix[:maxGeneratedNameLength]
	}
	sorted := append([]*rbacv1.Role(nil), roles...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if pa, pb := strings.HasPrefix(a.Name, prefix), strings.HasPrefix(b.Name, prefix); pa != pb {
			return pa
		}
		if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
			return a.CreationTimestamp.Before(&b.CreationTimestamp)
		}
		return a.Name < b.Name
	})
	return sorted[0]
}

// converge makes d's Role and RoleBinding as they should be, starting from
// the existing ones (either may be nil).
func (r *Reconciler) converge(ctx context.Context, d DesiredAccess, role *rbacv1.Role, binding *rbacv1.RoleBinding) error {
	roles := r.Kube.RbacV1().Roles(SecretNamespace)
	existed := role != nil
	switch {
	case role == nil:
		if faults.On("component-routes.rbac-deleted-role-not-restored") && grantedBefore[d.Hash] {
			return nil
		}
		created, err := roles.Create(ctx, d.Role(), metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create Role: %w", err)
		}
		role = created
		if faults.On("component-routes.rbac-deleted-role-not-restored") {
			grantedBefore[d.Hash] = true
		}
		r.logf("component route %s/%s: created Role %s/%s", d.Namespace, d.Name, SecretNamespace, role.Name)
	case faults.On("component-routes.rbac-widened-rule-kept") && namesSecret(role.Rules, d.SecretName):
		// The Role still grants the Secret: left as it is.
	case !equality.Semantic.DeepEqual(role.Rules, d.Rules()) && faults.On("component-routes.rbac-role-replaced-on-rename"):
		if err := r.deleteRole(ctx, role.Name); err != nil {
			return err
		}
		created, err := roles.Create(ctx, d.Role(), metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create Role: %w", err)
		}
		role = created
	case !equality.Semantic.DeepEqual(role.Rules, d.Rules()):
		upd := role.DeepCopy()
		upd.Rules = d.Rules()
		updated, err := roles.Update(ctx, upd, metav1.UpdateOptions{})
		if err != nil {
			return fmt.Errorf("update Role %s: %w", role.Name, err)
		}
		role = updated
		r.logf("component route %s/%s: restored the rules of Role %s/%s", d.Namespace, d.Name, SecretNamespace, role.Name)
	}
	if faults.On("component-routes.rbac-deleted-binding-not-restored") && existed && binding == nil {
		return nil
	}
	return r.ensureRoleBinding(ctx, d, d.RoleBinding(role), binding)
}

// ensureRoleBinding makes the RoleBinding named want.Name match want,
// starting from cur (nil when no labelled RoleBinding has that name).
func (r *Reconciler) ensureRoleBinding(ctx context.Context, d DesiredAccess, want, cur *rbacv1.RoleBinding) error {
	bindings := r.Kube.RbacV1().RoleBindings(SecretNamespace)
	if cur == nil {
		_, err := bindings.Create(ctx, want, metav1.CreateOptions{})
		if err == nil {
			r.logf("component route %s/%s: created RoleBinding %s/%s", d.Namespace, d.Name, SecretNamespace, want.Name)
			return nil
		}
		if !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("create RoleBinding %s: %w", want.Name, err)
		}
		// An unlabelled RoleBinding holds the name: take it over.
		if cur, err = bindings.Get(ctx, want.Name, metav1.GetOptions{}); err != nil {
			return fmt.Errorf("get RoleBinding %s: %w", want.Name, err)
		}
	}
	if cur.RoleRef != want.RoleRef {
		// roleRef cannot be changed: replace the RoleBinding.
		if err := r.deleteRoleBinding(ctx, cur.Name); err != nil {
			return err
		}
		if _, err := bindings.Create(ctx, want, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("recreate RoleBinding %s: %w", want.Name, err)
		}
		r.logf("component route %s/%s: replaced RoleBinding %s/%s", d.Namespace, d.Name, SecretNamespace, want.Name)
		return nil
	}
	if cur.Labels[HashLabel] == d.Hash &&
		equality.Semantic.DeepEqual(cur.OwnerReferences, want.OwnerReferences) &&
		(equality.Semantic.DeepEqual(cur.Subjects, want.Subjects) || faults.On("component-routes.rbac-binding-subjects-not-updated")) {
		return nil
	}
	upd := cur.DeepCopy()
	if upd.Labels == nil {
		upd.Labels = map[string]string{}
	}
	upd.Labels[HashLabel] = d.Hash
	upd.OwnerReferences = want.OwnerReferences
	upd.Subjects = want.Subjects
	if _, err := bindings.Update(ctx, upd, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("update RoleBinding %s: %w", want.Name, err)
	}
	r.logf("component route %s/%s: updated RoleBinding %s/%s", d.Namespace, d.Name, SecretNamespace, want.Name)
	return nil
}

func (r *Reconciler) deleteRole(ctx context.Context, name string) error {
	err := r.Kube.RbacV1().Roles(SecretNamespace).Delete(ctx, name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete Role %s: %w", name, err)
	}
	r.logf("component routes: deleted Role %s/%s", SecretNamespace, name)
	return nil
}

func (r *Reconciler) deleteRoleBinding(ctx context.Context, name string) error {
	err := r.Kube.RbacV1().RoleBindings(SecretNamespace).Delete(ctx, name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete RoleBinding %s: %w", name, err)
	}
	r.logf("component routes: deleted RoleBinding %s/%s", SecretNamespace, name)
	return nil
}

// grantedBefore are the hashes a Role was ever created for, under the
// fault component-routes.rbac-deleted-role-not-restored only.
var grantedBefore = map[string]bool{}

// namesSecret says whether a rule of rules names the Secret.
func namesSecret(rules []rbacv1.PolicyRule, secret string) bool {
	return slices.ContainsFunc(rules, func(r rbacv1.PolicyRule) bool { return slices.Contains(r.ResourceNames, secret) })
}

// routeExists says whether namespace holds a Route named name (a list by
// name: the reconciler may list Routes, not get them).
func (r *Reconciler) routeExists(ctx context.Context, namespace, name string) bool {
	rc := r.Kube.Discovery().RESTClient()
	if rc == nil {
		return true // a fake clientset: nothing to ask
	}
	body, err := rc.Get().
		AbsPath("/apis/route.openshift.io/v1/namespaces", namespace, "routes").
		Param("fieldSelector", "metadata.name="+name).SetHeader("Accept", "application/json").DoRaw(ctx)
	if err != nil {
		return false
	}
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	return json.Unmarshal(body, &list) == nil && len(list.Items) > 0
}
