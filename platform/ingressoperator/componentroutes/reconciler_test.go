package componentroutes

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

// TestMain turns off client-go's WatchListClient feature for TestRun: the
// openshift/client-go config informers do not tell the reflector that the
// fake clientset cannot stream initial events (the k8s.io/client-go fake
// does), so the Ingress informer would wait 10s for a bookmark before
// falling back to list and watch.
func TestMain(m *testing.M) {
	os.Setenv("KUBE_FEATURE_WatchListClient", "false")
	os.Exit(m.Run())
}

// The tests follow cluster-ingress-operator's
// test/e2e/configurable_route_test.go (which exercises the upstream
// pkg/operator/controller/configurable-route/controller.go on a cluster)
// against fake clientsets.

func TestComponentRouteHash(t *testing.T) {
	// Expected values were computed outside Go, by an independent Python
	// implementation of upstream's pkg/util/hash.go Hash: 32-bit FNV-1a
	// (offset basis 2166136261, prime 16777619) over the UTF-8 bytes of
	// "namespace/name", the sum printed in decimal, and each digit c
	// replaced by "bcdfghjklmnpqrstvwxz2456789"[ord(c) % 27] (the alphabet
	// of apimachinery's rand.SafeEncodeString). For example "default/foo"
	// hashes to 3688090093, which encodes to "7bdd4f44f7".
	for _, tc := range []struct{ namespace, name, want string }{
		{"default", "foo", "7bdd4f44f7"},
		{"default", "bar", "7898c766d"},
		{"openshift-authentication", "oauth-openshift", "6b44794d7"},
		{"openshift-console", "console", "7cccb9779c"},
	} {
		if got := ComponentRouteHash(tc.namespace, tc.name); got != tc.want {
			t.Errorf("ComponentRouteHash(%q, %q) = %q, want %q", tc.namespace, tc.name, got, tc.want)
		}
	}
}

func spec(ns, name, secret string) configv1.ComponentRouteSpec {
	return configv1.ComponentRouteSpec{
		Namespace:                ns,
		Name:                     name,
		Hostname:                 configv1.Hostname(name + ".example.com"),
		ServingCertKeyPairSecret: configv1.SecretNameReference{Name: secret},
	}
}

func status(ns, name string, users ...string) configv1.ComponentRouteStatus {
	s := configv1.ComponentRouteStatus{Namespace: ns, Name: name, DefaultHostname: configv1.Hostname(name + ".apps.example.com")}
	for _, u := range users {
		s.ConsumingUsers = append(s.ConsumingUsers, configv1.ConsumingUser(u))
	}
	return s
}

func ingress(specs []configv1.ComponentRouteSpec, statuses []configv1.ComponentRouteStatus) *configv1.Ingress {
	return &configv1.Ingress{
		ObjectMeta: metav1.ObjectMeta{Name: IngressName},
		Spec:       configv1.IngressSpec{Domain: "apps.example.com", ComponentRoutes: specs},
		Status:     configv1.IngressStatus{ComponentRoutes: statuses},
	}
}

func sa(ns, name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Namespace: ns, Name: name}
}

func TestDesired(t *testing.T) {
	for _, tc := range []struct {
		name string
		ing  *configv1.Ingress
		want []DesiredAccess
	}{
		{name: "nil ingress"},
		{
			name: "in spec and status",
			ing: ingress(
				[]configv1.ComponentRouteSpec{spec("default", "foo", "foo-cert"), spec("default", "bar", "bar-cert")},
				[]configv1.ComponentRouteStatus{
					status("default", "bar", "system:serviceaccount:default:bar"),
					status("default", "foo", "system:serviceaccount:default:foo", "system:serviceaccount:other:bar"),
				}),
			want: []DesiredAccess{
				{Namespace: "default", Name: "foo", Hash: "7bdd4f44f7", SecretName: "foo-cert", Subjects: []rbacv1.Subject{sa("default", "foo"), sa("other", "bar")}},
				{Namespace: "default", Name: "bar", Hash: "7898c766d", SecretName: "bar-cert", Subjects: []rbacv1.Subject{sa("default", "bar")}},
			},
		},
		{
			name: "spec without status",
			ing:  ingress([]configv1.ComponentRouteSpec{spec("default", "foo", "foo-cert")}, nil),
		},
		{
			name: "status without spec",
			ing:  ingress(nil, []configv1.ComponentRouteStatus{status("default", "foo", "system:serviceaccount:default:foo")}),
		},
		{
			name: "matched by namespace as well as name",
			ing: ingress([]configv1.ComponentRouteSpec{spec("default", "foo", "foo-cert")},
				[]configv1.ComponentRouteStatus{status("other", "foo", "system:serviceaccount:default:foo")}),
		},
		{
			name: "empty secret name",
			ing: ingress([]configv1.ComponentRouteSpec{spec("default", "foo", "")},
				[]configv1.ComponentRouteStatus{status("default", "foo", "system:serviceaccount:default:foo")}),
		},
		{
			name: "no consuming users",
			ing: ingress([]configv1.ComponentRouteSpec{spec("default", "foo", "foo-cert")},
				[]configv1.ComponentRouteStatus{status("default", "foo")}),
		},
		{
			name: "only users that are not service accounts",
			ing: ingress([]configv1.ComponentRouteSpec{spec("default", "foo", "foo-cert")},
				[]configv1.ComponentRouteStatus{status("default", "foo", "system:admin", "alice", "system:serviceaccount:default", "system:serviceaccount:default:foo:x", "system:serviceaccount::foo", "other:serviceaccount:default:foo")}),
		},
		{
			name: "repeated and invalid users",
			ing: ingress([]configv1.ComponentRouteSpec{spec("default", "foo", "foo-cert")},
				[]configv1.ComponentRouteStatus{status("default", "foo", "system:serviceaccount:b:y", "system:admin", "system:serviceaccount:a:x", "system:serviceaccount:b:y")}),
			want: []DesiredAccess{{Namespace: "default", Name: "foo", Hash: "7bdd4f44f7", SecretName: "foo-cert", Subjects: []rbacv1.Subject{sa("b", "y"), sa("a", "x")}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Desired(tc.ing); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Desired() = %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// fixture is a Reconciler on fake clientsets. The fakes do not implement
// metadata.generateName or UIDs, so a reactor does what the API server
// would: it names a Role created with only generateName and gives each
// created Role and RoleBinding a UID.
type fixture struct {
	t    *testing.T
	kube *kubefake.Clientset
	cfg  *configfake.Clientset
	r    *Reconciler
}

func newFixture(t *testing.T, ing *configv1.Ingress, objs ...runtime.Object) *fixture {
	t.Helper()
	var cfgObjs []runtime.Object
	if ing != nil {
		cfgObjs = append(cfgObjs, ing)
	}
	f := &fixture{t: t, kube: kubefake.NewClientset(objs...), cfg: configfake.NewClientset(cfgObjs...)}
	var n atomic.Int64
	f.kube.PrependReactor("create", "*", func(action clienttesting.Action) (bool, runtime.Object, error) {
		obj, ok := action.(clienttesting.CreateAction).GetObject().(metav1.Object)
		if !ok {
			return false, nil, nil
		}
		if obj.GetName() == "" && obj.GetGenerateName() != "" {
			obj.SetName(obj.GetGenerateName() + utilrand.String(5))
		}
		if obj.GetUID() == "" {
			obj.SetUID(types.UID(fmt.Sprintf("uid-%d", n.Add(1))))
		}
		return false, nil, nil // let the object tracker store it
	})
	f.r = &Reconciler{Kube: f.kube, Config: f.cfg, Logf: t.Logf}
	return f
}

// writes returns the create, update, patch and delete actions on the Kube
// fake since the last ClearActions.
func (f *fixture) writes() []clienttesting.Action {
	var out []clienttesting.Action
	for _, a := range f.kube.Actions() {
		switch a.GetVerb() {
		case "create", "update", "patch", "delete", "deletecollection":
			out = append(out, a)
		}
	}
	return out
}

// reconcile runs one pass, then a second one that must write nothing.
func (f *fixture) reconcile() {
	f.t.Helper()
	ctx := context.Background()
	if err := f.r.Reconcile(ctx); err != nil {
		f.t.Fatalf("Reconcile: %v", err)
	}
	f.kube.ClearActions()
	if err := f.r.Reconcile(ctx); err != nil {
		f.t.Fatalf("second Reconcile: %v", err)
	}
	if w := f.writes(); len(w) != 0 {
		f.t.Fatalf("second Reconcile wrote %d times: %v", len(w), w)
	}
	f.kube.ClearActions()
}

func (f *fixture) setIngress(ing *configv1.Ingress) {
	f.t.Helper()
	if _, err := f.cfg.ConfigV1().Ingresses().Update(context.Background(), ing, metav1.UpdateOptions{}); err != nil {
		f.t.Fatalf("update Ingress: %v", err)
	}
}

func (f *fixture) roles(hash string) []rbacv1.Role {
	f.t.Helper()
	l, err := f.kube.RbacV1().Roles(SecretNamespace).List(context.Background(), metav1.ListOptions{LabelSelector: HashLabel + "=" + hash})
	if err != nil {
		f.t.Fatal(err)
	}
	return l.Items
}

func (f *fixture) bindings(hash string) []rbacv1.RoleBinding {
	f.t.Helper()
	l, err := f.kube.RbacV1().RoleBindings(SecretNamespace).List(context.Background(), metav1.ListOptions{LabelSelector: HashLabel + "=" + hash})
	if err != nil {
		f.t.Fatal(err)
	}
	return l.Items
}

func (f *fixture) rolesWithLabel() []rbacv1.Role {
	l, err := f.kube.RbacV1().Roles(SecretNamespace).List(context.Background(), metav1.ListOptions{LabelSelector: HashLabel})
	if err != nil {
		f.t.Fatal(err)
	}
	return l.Items
}

func (f *fixture) bindingsWithLabel() []rbacv1.RoleBinding {
	l, err := f.kube.RbacV1().RoleBindings(SecretNamespace).List(context.Background(), metav1.ListOptions{LabelSelector: HashLabel})
	if err != nil {
		f.t.Fatal(err)
	}
	return l.Items
}

// check asserts rule 1 for one component route: exactly one Role and one
// RoleBinding labelled with its hash, shaped as required. It returns the
// Role's name.
func (f *fixture) check(ns, name, secret string, subjects ...rbacv1.Subject) string {
	f.t.Helper()
	hash := ComponentRouteHash(ns, name)
	roles := f.roles(hash)
	if len(roles) != 1 {
		f.t.Fatalf("%s/%s: %d Roles labelled %s=%s, want 1", ns, name, len(roles), HashLabel, hash)
	}
	role := roles[0]
	if !strings.HasPrefix(role.Name, name+"-") || len(role.Name) != len(name)+6 {
		f.t.Errorf("Role name %q was not generated from %q", role.Name, name+"-")
	}
	wantRules := []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "watch"}, ResourceNames: []string{secret}}}
	if !reflect.DeepEqual(role.Rules, wantRules) {
		f.t.Errorf("Role %s rules = %+v, want %+v", role.Name, role.Rules, wantRules)
	}
	bindings := f.bindings(hash)
	if len(bindings) != 1 {
		f.t.Fatalf("%s/%s: %d RoleBindings labelled %s=%s, want 1", ns, name, len(bindings), HashLabel, hash)
	}
	b := bindings[0]
	if b.Name != role.Name {
		f.t.Errorf("RoleBinding %s is not named like Role %s", b.Name, role.Name)
	}
	wantOwners := []metav1.OwnerReference{{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role", Name: role.Name, UID: role.UID}}
	if role.UID == "" || !reflect.DeepEqual(b.OwnerReferences, wantOwners) {
		f.t.Errorf("RoleBinding %s owners = %+v, want %+v", b.Name, b.OwnerReferences, wantOwners)
	}
	if want := (rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: role.Name}); b.RoleRef != want {
		f.t.Errorf("RoleBinding %s roleRef = %+v, want %+v", b.Name, b.RoleRef, want)
	}
	if !reflect.DeepEqual(b.Subjects, subjects) {
		f.t.Errorf("RoleBinding %s subjects = %+v, want %+v", b.Name, b.Subjects, subjects)
	}
	return role.Name
}

// none asserts that nothing is labelled for the component route.
func (f *fixture) none(ns, name string) {
	f.t.Helper()
	hash := ComponentRouteHash(ns, name)
	if r, b := f.roles(hash), f.bindings(hash); len(r) != 0 || len(b) != 0 {
		f.t.Errorf("%s/%s: %d Roles and %d RoleBindings remain, want none", ns, name, len(r), len(b))
	}
}

func fooBar() *configv1.Ingress {
	return ingress(
		[]configv1.ComponentRouteSpec{spec("default", "foo", "foo"), spec("default", "bar", "bar")},
		[]configv1.ComponentRouteStatus{
			status("default", "foo", "system:serviceaccount:default:foo", "system:serviceaccount:default:bar"),
			status("default", "bar", "system:serviceaccount:default:bar"),
		})
}

// Rule 1: a Role (from generateName) and a RoleBinding per component route.
func TestReconcileCreatesRoleAndRoleBinding(t *testing.T) {
	f := newFixture(t, fooBar())
	if err := f.r.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The Roles were created by generateName.
	var created []string
	for _, a := range f.writes() {
		if a.GetVerb() == "create" && a.GetResource().Resource == "roles" {
			role := a.(clienttesting.CreateAction).GetObject().(*rbacv1.Role)
			if role.Name != "" || role.Namespace != SecretNamespace {
				t.Errorf("Role created as %s/%q, want namespace %s and no name", role.Namespace, role.Name, SecretNamespace)
			}
			created = append(created, role.GenerateName)
		}
	}
	if want := []string{"foo-", "bar-"}; !reflect.DeepEqual(created, want) {
		t.Errorf("Roles created with generateName %q, want %q", created, want)
	}
	f.reconcile()
	f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar"))
	f.check("default", "bar", "bar", sa("default", "bar"))
	if r, b := f.rolesWithLabel(), f.bindingsWithLabel(); len(r) != 2 || len(b) != 2 {
		t.Errorf("%d labelled Roles and %d RoleBindings, want 2 and 2", len(r), len(b))
	}
}

// Idempotence: a pass over a converged state writes nothing.
func TestReconcileIsIdempotent(t *testing.T) {
	f := newFixture(t, fooBar())
	ctx := context.Background()
	if err := f.r.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	if w := f.writes(); len(w) != 4 {
		t.Errorf("first pass made %d writes, want 4 (two Roles, two RoleBindings): %v", len(w), w)
	}
	for i := 0; i < 3; i++ {
		f.kube.ClearActions()
		if err := f.r.Reconcile(ctx); err != nil {
			t.Fatal(err)
		}
		if w := f.writes(); len(w) != 0 {
			t.Fatalf("pass %d made writes: %v", i+2, w)
		}
	}
}

// Rule 2: the RoleBinding's subjects follow status consumingUsers.
func TestReconcileConsumingUserRemoved(t *testing.T) {
	f := newFixture(t, fooBar())
	f.reconcile()
	before := f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar"))

	ing := fooBar()
	ing.Status.ComponentRoutes[0] = status("default", "foo", "system:serviceaccount:default:foo")
	f.setIngress(ing)
	if err := f.r.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	w := f.writes()
	if len(w) != 1 || w[0].GetVerb() != "update" || w[0].GetResource().Resource != "rolebindings" {
		t.Errorf("writes = %v, want one RoleBinding update", w)
	}
	f.reconcile()
	if after := f.check("default", "foo", "foo", sa("default", "foo")); after != before {
		t.Errorf("Role replaced (%s -> %s); want it kept", before, after)
	}
	f.check("default", "bar", "bar", sa("default", "bar"))
}

// Rule 2: a consuming user added to status is added to the RoleBinding's
// subjects, and nothing else is written (upstream
// ensureServiceCertKeyPairSecretRoleBinding: ApplyRoleBinding updates the
// subjects in place).
func TestReconcileConsumingUserAdded(t *testing.T) {
	ing := fooBar()
	ing.Status.ComponentRoutes[0] = status("default", "foo", "system:serviceaccount:default:foo")
	f := newFixture(t, ing)
	f.reconcile()
	before := f.check("default", "foo", "foo", sa("default", "foo"))

	f.setIngress(fooBar())
	if err := f.r.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w := f.writes(); len(w) != 1 || w[0].GetVerb() != "update" || w[0].GetResource().Resource != "rolebindings" || writtenName(w[0]) != before {
		t.Errorf("writes = %v, want one update of RoleBinding %s", w, before)
	}
	f.reconcile()
	if after := f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar")); after != before {
		t.Errorf("Role replaced (%s -> %s); want it kept", before, after)
	}
}

// writtenName is the name of the object a write action is about.
func writtenName(a clienttesting.Action) string {
	switch a := a.(type) {
	case clienttesting.CreateAction:
		return a.GetObject().(metav1.Object).GetName()
	case clienttesting.UpdateAction:
		return a.GetObject().(metav1.Object).GetName()
	case clienttesting.DeleteAction:
		return a.GetName()
	}
	return ""
}

// Rule 2: a new Secret name is reflected in the Role's rule.
func TestReconcileSecretRenamed(t *testing.T) {
	f := newFixture(t, fooBar())
	f.reconcile()
	before := f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar"))
	ing := fooBar()
	ing.Spec.ComponentRoutes[0].ServingCertKeyPairSecret.Name = "foo-2"
	f.setIngress(ing)
	// Upstream ensureServiceCertKeyPairSecretRole: ApplyRole on the Role
	// it has, under its name.
	if err := f.r.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w := f.writes(); len(w) != 1 || w[0].GetVerb() != "update" || w[0].GetResource().Resource != "roles" || writtenName(w[0]) != before {
		t.Errorf("writes = %v, want one update of Role %s", w, before)
	}
	f.reconcile()
	if after := f.check("default", "foo", "foo-2", sa("default", "foo"), sa("default", "bar")); after != before {
		t.Errorf("Role replaced (%s -> %s); want it updated", before, after)
	}
}

// Rule 2: what no longer asks for access loses its Role and RoleBinding.
func TestReconcileRemovesAccess(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*configv1.Ingress)
	}{
		{"spec entry removed", func(ing *configv1.Ingress) { ing.Spec.ComponentRoutes = ing.Spec.ComponentRoutes[:1] }},
		{"status entry removed", func(ing *configv1.Ingress) { ing.Status.ComponentRoutes = ing.Status.ComponentRoutes[:1] }},
		{"secret name emptied", func(ing *configv1.Ingress) { ing.Spec.ComponentRoutes[1].ServingCertKeyPairSecret.Name = "" }},
		{"no consuming users", func(ing *configv1.Ingress) { ing.Status.ComponentRoutes[1].ConsumingUsers = []configv1.ConsumingUser{} }},
		{"no service account among consuming users", func(ing *configv1.Ingress) {
			ing.Status.ComponentRoutes[1].ConsumingUsers = []configv1.ConsumingUser{"system:admin"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, fooBar())
			f.reconcile()
			bar := f.check("default", "bar", "bar", sa("default", "bar"))
			foo := f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar"))
			ing := fooBar()
			tc.change(ing)
			f.setIngress(ing)
			// Only bar's Role and RoleBinding are written: foo's are
			// left alone (upstream deleteOrphanedRoles deletes by hash).
			if err := f.r.Reconcile(context.Background()); err != nil {
				t.Fatal(err)
			}
			for _, w := range f.writes() {
				if w.GetVerb() != "delete" || writtenName(w) != bar {
					t.Errorf("write %v: want only deletes of %s", w, bar)
				}
			}
			f.reconcile()
			f.none("default", "bar")
			if got := f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar")); got != foo {
				t.Errorf("foo's Role replaced (%s -> %s)", foo, got)
			}
		})
	}
}

// Rule 2: spec without status, or status without spec, asks for nothing.
func TestReconcileSpecOrStatusAlone(t *testing.T) {
	for _, tc := range []struct {
		name string
		ing  *configv1.Ingress
	}{
		{"spec without status", ingress([]configv1.ComponentRouteSpec{spec("default", "foo", "foo")}, nil)},
		{"status without spec", ingress(nil, []configv1.ComponentRouteStatus{status("default", "foo", "system:serviceaccount:default:foo")})},
		{"different namespaces", ingress([]configv1.ComponentRouteSpec{spec("default", "foo", "foo")},
			[]configv1.ComponentRouteStatus{status("other", "foo", "system:serviceaccount:default:foo")})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.ing)
			f.reconcile()
			if r, b := f.rolesWithLabel(), f.bindingsWithLabel(); len(r) != 0 || len(b) != 0 {
				t.Errorf("%d labelled Roles and %d RoleBindings, want none", len(r), len(b))
			}
			// And an existing grant goes once its counterpart leaves.
			g := newFixture(t, fooBar())
			g.reconcile()
			g.setIngress(tc.ing)
			g.reconcile()
			if r, b := g.rolesWithLabel(), g.bindingsWithLabel(); len(r) != 0 || len(b) != 0 {
				t.Errorf("after the change: %d labelled Roles and %d RoleBindings, want none", len(r), len(b))
			}
		})
	}
}

// No Ingress config: nothing is written (upstream skips the reconcile).
func TestReconcileWithoutIngress(t *testing.T) {
	stray := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "x-abcde", Namespace: SecretNamespace, Labels: map[string]string{HashLabel: "zzz"}}}
	f := newFixture(t, nil, stray)
	if err := f.r.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w := f.writes(); len(w) != 0 {
		t.Errorf("writes = %v, want none", w)
	}
}

// Rule 3: a deleted RoleBinding comes back.
func TestReconcileRestoresDeletedRoleBinding(t *testing.T) {
	f := newFixture(t, fooBar())
	f.reconcile()
	name := f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar"))
	if err := f.kube.RbacV1().RoleBindings(SecretNamespace).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	f.reconcile()
	if got := f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar")); got != name {
		t.Errorf("Role %s replaced by %s", name, got)
	}
}

// Rule 3: a deleted Role is replaced, with a RoleBinding for the new one.
func TestReconcileRestoresDeletedRole(t *testing.T) {
	f := newFixture(t, fooBar())
	f.reconcile()
	name := f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar"))
	// No garbage collector here: the RoleBinding outlives its owner.
	if err := f.kube.RbacV1().Roles(SecretNamespace).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	f.reconcile()
	f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar"))
	if _, err := f.kube.RbacV1().RoleBindings(SecretNamespace).Get(context.Background(), name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("RoleBinding %s of the deleted Role: err = %v, want NotFound", name, err)
	}
}

// Rule 3: tampering with the Role or RoleBinding is undone.
func TestReconcileRestoresTampering(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, f *fixture, name string)
	}{
		{"role rule widened", func(t *testing.T, f *fixture, name string) {
			role, err := f.kube.RbacV1().Roles(SecretNamespace).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			role.Rules[0].ResourceNames = nil
			role.Rules[0].Verbs = append(role.Rules[0].Verbs, "create", "delete")
			role.Rules = append(role.Rules, rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"*"}})
			if _, err := f.kube.RbacV1().Roles(SecretNamespace).Update(ctx, role, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}},
		{"role rules removed", func(t *testing.T, f *fixture, name string) {
			role, err := f.kube.RbacV1().Roles(SecretNamespace).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			role.Rules = nil
			if _, err := f.kube.RbacV1().Roles(SecretNamespace).Update(ctx, role, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}},
		{"subjects and owner changed", func(t *testing.T, f *fixture, name string) {
			b, err := f.kube.RbacV1().RoleBindings(SecretNamespace).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			b.Subjects = append(b.Subjects, rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: "mallory"})
			b.OwnerReferences = nil
			if _, err := f.kube.RbacV1().RoleBindings(SecretNamespace).Update(ctx, b, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}},
		{"roleRef changed", func(t *testing.T, f *fixture, name string) {
			// roleRef is immutable on a real API server, so this stands for
			// a RoleBinding deleted and recreated by someone else.
			b, err := f.kube.RbacV1().RoleBindings(SecretNamespace).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			b.RoleRef = rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "cluster-admin"}
			if _, err := f.kube.RbacV1().RoleBindings(SecretNamespace).Update(ctx, b, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}},
		{"rolebinding label removed", func(t *testing.T, f *fixture, name string) {
			b, err := f.kube.RbacV1().RoleBindings(SecretNamespace).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			b.Labels = map[string]string{"other": "label"}
			if _, err := f.kube.RbacV1().RoleBindings(SecretNamespace).Update(ctx, b, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, fooBar())
			f.reconcile()
			name := f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar"))
			tc.tamper(t, f, name)
			f.reconcile()
			if got := f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar")); got != name {
				t.Errorf("Role %s replaced by %s", name, got)
			}
			f.check("default", "bar", "bar", sa("default", "bar"))
		})
	}
}

// Rule 3: labelled Roles and RoleBindings that nothing asks for are
// removed; a second labelled Role for a wanted route is removed too
// (exactly one each); unlabelled RBAC is left alone.
func TestReconcileRemovesStrays(t *testing.T) {
	labelled := func(h string) map[string]string { return map[string]string{HashLabel: h} }
	foo := ComponentRouteHash("default", "foo")
	objs := []runtime.Object{
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "gone-abcde", Namespace: SecretNamespace, Labels: labelled(ComponentRouteHash("default", "gone"))}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "gone-abcde", Namespace: SecretNamespace, Labels: labelled(ComponentRouteHash("default", "gone"))},
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "gone-abcde"}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "lonely", Namespace: SecretNamespace, Labels: labelled("bogus")},
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "lonely"}},
		// Two Roles for default/foo: the one named from "foo-" stays.
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "aaa-extra", Namespace: SecretNamespace, UID: "u-extra", Labels: labelled(foo)}},
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "foo-kept1", Namespace: SecretNamespace, UID: "u-kept", Labels: labelled(foo)}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "aaa-extra", Namespace: SecretNamespace, Labels: labelled(foo)},
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "aaa-extra"}},
		// Not ours.
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "admin-stuff", Namespace: SecretNamespace}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "admin-stuff", Namespace: SecretNamespace},
			RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "admin-stuff"}},
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "elsewhere", Namespace: "default", Labels: labelled("bogus")}},
	}
	f := newFixture(t, fooBar(), objs...)
	f.reconcile()
	if got := f.check("default", "foo", "foo", sa("default", "foo"), sa("default", "bar")); got != "foo-kept1" {
		t.Errorf("kept Role %s, want foo-kept1", got)
	}
	f.check("default", "bar", "bar", sa("default", "bar"))
	f.none("default", "gone")
	if r, b := f.rolesWithLabel(), f.bindingsWithLabel(); len(r) != 2 || len(b) != 2 {
		t.Errorf("%d labelled Roles and %d RoleBindings, want 2 and 2", len(r), len(b))
	}
	for _, name := range []string{"admin-stuff"} {
		if _, err := f.kube.RbacV1().Roles(SecretNamespace).Get(context.Background(), name, metav1.GetOptions{}); err != nil {
			t.Errorf("unlabelled Role %s: %v", name, err)
		}
		if _, err := f.kube.RbacV1().RoleBindings(SecretNamespace).Get(context.Background(), name, metav1.GetOptions{}); err != nil {
			t.Errorf("unlabelled RoleBinding %s: %v", name, err)
		}
	}
	if _, err := f.kube.RbacV1().Roles("default").Get(context.Background(), "elsewhere", metav1.GetOptions{}); err != nil {
		t.Errorf("labelled Role outside %s: %v", SecretNamespace, err)
	}

	// Everything goes once the Ingress config asks for nothing.
	f.setIngress(ingress(nil, nil))
	f.reconcile()
	if r, b := f.rolesWithLabel(), f.bindingsWithLabel(); len(r) != 0 || len(b) != 0 {
		t.Errorf("%d labelled Roles and %d RoleBindings, want none", len(r), len(b))
	}
}

// Run reacts to the Ingress config and to the Roles and RoleBindings.
func TestRun(t *testing.T) {
	f := newFixture(t, ingress(nil, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.r.Run(ctx) }()
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("Run did not return")
		}
	}()
	eventually := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	hash := ComponentRouteHash("default", "foo")
	f.setIngress(fooBar())
	eventually("the RoleBinding for default/foo", func() bool { return len(f.bindings(hash)) == 1 })
	name := f.bindings(hash)[0].Name
	if err := f.kube.RbacV1().RoleBindings(SecretNamespace).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually("the RoleBinding to come back", func() bool {
		_, err := f.kube.RbacV1().RoleBindings(SecretNamespace).Get(ctx, name, metav1.GetOptions{})
		return err == nil
	})
	// A deleted Role (the watch on labelled Roles): a new one, and a
	// RoleBinding named like it.
	if err := f.kube.RbacV1().Roles(SecretNamespace).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually("a new Role and its RoleBinding", func() bool {
		roles, bindings := f.roles(hash), f.bindings(hash)
		return len(roles) == 1 && roles[0].Name != name && len(bindings) == 1 && bindings[0].Name == roles[0].Name
	})
	f.setIngress(ingress(nil, nil))
	eventually("everything to be removed", func() bool {
		return len(f.rolesWithLabel()) == 0 && len(f.bindingsWithLabel()) == 0
	})
}
