// Package componentroutes stands in for cluster-ingress-operator's
// configurable-route controller
// (pkg/operator/controller/configurable-route/controller.go): for every
// component route that a cluster-admin configured in the spec of the
// config.openshift.io/v1 Ingress "cluster" and that an operator reported in
// its status, it lets the operator's service accounts (status
// consumingUsers) read the serving cert/key pair Secret named in the spec,
// through one Role and one RoleBinding in openshift-config.
//
// The design is openshift/enhancements
// enhancements/ingress/custom-route-configuration.md, "Control loop to manage
// secret read permissions in openshift-config".
package componentroutes

import (
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
)

const (
	// SecretNamespace is where the serving cert/key pair Secrets, and so the
	// Roles and RoleBindings, live (upstream
	// operatorcontroller.GlobalUserSpecifiedConfigNamespace).
	SecretNamespace = contract.ConfigNamespace
	// IngressName is the name of the cluster's Ingress config.
	IngressName = contract.IngressConfig
	// HashLabel marks the Roles and RoleBindings this controller manages;
	// its value is ComponentRouteHash of the component route (upstream
	// componentRouteHashLabelKey).
	HashLabel = contract.ComponentRouteHashLabel
)

// ComponentRouteHash is the value of HashLabel for the component route
// namespace/name (the contract's, upstream's algorithm).
func ComponentRouteHash(namespace, name string) string {
	return contract.ComponentRouteHash(namespace, name)
}

// DesiredAccess is what one component route asks for: read access to
// SecretName in SecretNamespace for Subjects.
type DesiredAccess struct {
	// Namespace and Name identify the component route (not the Role).
	Namespace, Name string
	// Hash is ComponentRouteHash(Namespace, Name).
	Hash string
	// SecretName is spec servingCertKeyPairSecret.name.
	SecretName string
	// Subjects are the service accounts among status consumingUsers, in
	// status order, without repeats.
	Subjects []rbacv1.Subject
}

// Desired lists the access the Ingress config asks for, in spec order: one
// entry per component route that is in both spec and status (matched by
// namespace and name), names a Secret in spec and has at least one
// service-account consuming user in status (upstream
// intersectingComponentRoutes and requiresRBAC). A nil ingress asks for
// nothing.
func Desired(ingress *configv1.Ingress) []DesiredAccess {
	if ingress == nil {
		return nil
	}
	type key struct{ namespace, name string }
	status := map[key]configv1.ComponentRouteStatus{}
	for _, s := range ingress.Status.ComponentRoutes {
		k := key{s.Namespace, s.Name}
		if faults.On("component-routes.entries-matched-by-name") {
			k.namespace = ""
		}
		if _, dup := status[k]; !dup {
			status[k] = s
		}
	}
	var out []DesiredAccess
	seen := map[string]bool{}
	for _, spec := range ingress.Spec.ComponentRoutes {
		k := key{spec.Namespace, spec.Name}
		if faults.On("component-routes.entries-matched-by-name") {
			k.namespace = ""
		}
		st, ok := status[k]
		if !ok || (spec.ServingCertKeyPairSecret.Name == "" && !faults.On("component-routes.rbac-empty-secret-granted")) {
			continue
		}
		subjects := Subjects(st.ConsumingUsers)
		if len(subjects) == 0 && !faults.On("component-routes.rbac-no-users-granted") {
			continue
		}
		hash := ComponentRouteHash(spec.Namespace, spec.Name)
		if seen[hash] {
			// The list is keyed by namespace and name, so a second
			// entry (or a hash collision) would fight over the same
			// Role; the first one wins.
			continue
		}
		seen[hash] = true
		out = append(out, DesiredAccess{
			Namespace:  spec.Namespace,
			Name:       spec.Name,
			Hash:       hash,
			SecretName: spec.ServingCertKeyPairSecret.Name,
			Subjects:   subjects,
		})
	}
	return out
}

// Subjects turns the consuming users of the form
// system:serviceaccount:<namespace>:<name> into ServiceAccount subjects, in
// order and without repeats; other users are ignored, as upstream's
// getSubjects does.
func Subjects(users []configv1.ConsumingUser) []rbacv1.Subject {
	var out []rbacv1.Subject
	seen := map[string]bool{}
	for _, u := range users {
		parts := strings.Split(string(u), ":")
		if len(parts) != 4 || parts[0] != "system" || parts[1] != "serviceaccount" || parts[2] == "" || parts[3] == "" {
			continue
		}
		if k := parts[2] + "/" + parts[3]; !seen[k] {
			seen[k] = true
			out = append(out, rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Namespace: parts[2], Name: parts[3]})
		}
		if faults.On("component-routes.rbac-first-user-only") && len(out) > 0 {
			break
		}
	}
	return out
}

// Rules are the Role's rules: get, list and watch on the one Secret.
func (d DesiredAccess) Rules() []rbacv1.PolicyRule {
	if faults.On("component-routes.rbac-rule-any-secret") {
		return []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "watch"}}}
	}
	return []rbacv1.PolicyRule{{
		APIGroups:     []string{""},
		Resources:     []string{"secrets"},
		Verbs:         []string{"get", "list", "watch"},
		ResourceNames: []string{d.SecretName},
	}}
}

// GenerateName is the Role's metadata.generateName.
func (d DesiredAccess) GenerateName() string { return d.Name + "-" }

// Role is the Role to create for d (its name is left to the API server).
func (d DesiredAccess) Role() *rbacv1.Role {
	return &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: d.GenerateName(),
			Namespace:    SecretNamespace,
			Labels:       map[string]string{HashLabel: d.Hash},
		},
		Rules: d.Rules(),
	}
}

// RoleBinding is the RoleBinding for d: named like role, owned by it,
// binding it to d's subjects.
func (d DesiredAccess) RoleBinding(role *rbacv1.Role) *rbacv1.RoleBinding {
	return &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{
			Name:            role.Name,
			Namespace:       SecretNamespace,
			Labels:          map[string]string{HashLabel: d.Hash},
			OwnerReferences: []metav1.OwnerReference{ownerRef(role)},
		},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: role.Name},
		Subjects: append([]rbacv1.Subject(nil), d.Subjects...),
	}
}

func ownerRef(role *rbacv1.Role) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: rbacv1.SchemeGroupVersion.String(),
		Kind:       "Role",
		Name:       role.Name,
		UID:        role.UID,
	}
}
