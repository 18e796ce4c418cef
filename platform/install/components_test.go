package install

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	rbacv1 "k8s.io/api/rbac/v1"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/platform/ingressoperator"
)

// The router's ServiceAccount may read IngressRoutes and Secrets and write
// IngressRoute status, through a role apart from the operator's.
func TestRouterObjectsGrantIngressRoutes(t *testing.T) {
	roles := map[string]*rbacv1.ClusterRole{}
	var bound []string
	for _, obj := range routerObjects(Options{Images: Images{Router: "router:test"}}) {
		switch o := obj.(type) {
		case *rbacv1.ClusterRole:
			roles[o.Name] = o
		case *rbacv1.ClusterRoleBinding:
			s := o.Subjects
			if len(s) == 1 && s[0].Name == ingressoperator.RouterServiceAccount && s[0].Namespace == ingressoperator.RouterNamespace {
				bound = append(bound, o.RoleRef.Name)
			}
		}
	}
	allowed := func(group, resource, verb string) bool {
		for _, name := range bound {
			if role := roles[name]; role != nil {
				for _, r := range role.Rules {
					if slices.Contains(r.APIGroups, group) && slices.Contains(r.Resources, resource) && slices.Contains(r.Verbs, verb) {
						return true
					}
				}
			}
		}
		return false
	}
	for _, want := range []struct{ group, resource, verb string }{
		{irv1.GroupName, "ingressroutes", "get"}, {irv1.GroupName, "ingressroutes", "list"}, {irv1.GroupName, "ingressroutes", "watch"},
		{irv1.GroupName, "ingressroutes/status", "update"}, {irv1.GroupName, "ingressroutes/status", "patch"},
		{"", "secrets", "get"}, {"", "secrets", "list"}, {"", "secrets", "watch"},
	} {
		if !allowed(want.group, want.resource, want.verb) {
			t.Errorf("the router may not %s %s.%s", want.verb, want.resource, want.group)
		}
	}
	for _, deny := range []struct{ group, resource, verb string }{
		{irv1.GroupName, "ingressroutes", "update"}, {"", "secrets", "update"}, {irv1.GroupName, "ingressroutes", "delete"},
	} {
		if allowed(deny.group, deny.resource, deny.verb) {
			t.Errorf("the router may %s %s.%s", deny.verb, deny.resource, deny.group)
		}
	}
	if op := roles[ingressoperator.RouterClusterRole]; op == nil || len(op.Rules) != 4 {
		t.Errorf("the operator's router role changed: %+v", op)
	}
}

func TestInstalledCRDsIncludeIngressRoute(t *testing.T) {
	crds, err := installedCRDs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range crds {
		names = append(names, c.Name)
	}
	for _, want := range []string{"routes.route.openshift.io", "ingresscontrollers.operator.openshift.io", "ingresses.config.openshift.io", "ingressroutes.contour.heptio.com"} {
		if !slices.Contains(names, want) {
			t.Errorf("CRDs %v lack %s", names, want)
		}
	}
}

// The reconciler may create and delete router Deployments and create
// their Secrets in the router's namespace, and knows the router image
// shards run.
func TestReconcilerMayMakeShards(t *testing.T) {
	objs := reconcilerObjects(Options{Images: Images{Router: "router:test", Reconciler: "reconciler:test"}})
	allowed := func(group, resource, verb string) bool {
		for _, obj := range objs {
			if role, ok := obj.(*rbacv1.Role); ok && role.Namespace == ingressoperator.RouterNamespace {
				for _, r := range role.Rules {
					if slices.Contains(r.APIGroups, group) && slices.Contains(r.Resources, resource) && slices.Contains(r.Verbs, verb) {
						return true
					}
				}
			}
		}
		return false
	}
	for _, want := range [][3]string{{"apps", "deployments", "create"}, {"apps", "deployments", "delete"}, {"", "secrets", "get"}, {"", "secrets", "create"}, {"", "pods", "list"}} {
		if !allowed(want[0], want[1], want[2]) {
			t.Errorf("the reconciler may not %s %s in %s", want[2], want[1], ingressoperator.RouterNamespace)
		}
	}
	if allowed("", "secrets", "delete") || allowed("", "secrets", "list") {
		t.Error("the reconciler may list or delete Secrets in the router's namespace")
	}
	bound := false
	for _, obj := range objs {
		if b, ok := obj.(*rbacv1.RoleBinding); ok && b.Namespace == ingressoperator.RouterNamespace && b.Subjects[0].Name == reconcilerName {
			bound = true
		}
		if d, ok := obj.(*appsv1.Deployment); ok {
			env := d.Spec.Template.Spec.Containers[0].Env
			if len(env) != 1 || env[0].Name != "IMAGE" || env[0].Value != "router:test" {
				t.Errorf("reconciler env %v, want IMAGE=router:test", env)
			}
		}
	}
	if !bound {
		t.Error("the shard role is not bound to the reconciler")
	}
	// Cluster-wide: the finalizer, and clearing a deleted shard's route status.
	for _, want := range [][3]string{{"operator.openshift.io", "ingresscontrollers", "update"}, {"route.openshift.io", "routes", "list"}, {"route.openshift.io", "routes/status", "update"}} {
		found := false
		for _, obj := range objs {
			if role, ok := obj.(*rbacv1.ClusterRole); ok {
				for _, r := range role.Rules {
					found = found || slices.Contains(r.APIGroups, want[0]) && slices.Contains(r.Resources, want[1]) && slices.Contains(r.Verbs, want[2])
				}
			}
		}
		if !found {
			t.Errorf("the reconciler may not %s %s.%s", want[2], want[1], want[0])
		}
	}
}
