package install

import (
	"context"
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/e2e-framework/klient/k8s"
	"sigs.k8s.io/e2e-framework/klient/k8s/resources"

	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/router/operator"
)

const (
	routerName     = "router"
	admissionName  = "route-admission"
	reconcilerName = "ingress-reconciler"
	// WebhookName is what the API server names in a refusal.
	WebhookName = "routes.route-admission.router-conformance.io"
	// StatsPort serves the router's health checks and HAProxy stats.
	StatsPort = 1936
)

func rule(groups, resources, verbs []string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{APIGroups: groups, Resources: resources, Verbs: verbs}
}

var readOnly = []string{"get", "list", "watch"}

// identity is a ServiceAccount with a ClusterRole bound to it.
func identity(ns, name string, rules ...rbacv1.PolicyRule) []k8s.Object {
	role := "router-conformance:" + name
	return []k8s.Object{
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}},
		&rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: role}, Rules: rules},
		&rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: role},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: ns}},
		},
	}
}

func deployment(ns, name string, replicas int32, pod corev1.PodSpec) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	pod.Tolerations = append(pod.Tolerations, corev1.Toleration{Key: "node-role.kubernetes.io/control-plane", Effect: corev1.TaintEffectNoSchedule})
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			// One node, host ports: the old pod must go before the new one starts.
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: pod},
		},
	}
}

func httpProbe(path string, port int32, scheme corev1.URIScheme) *corev1.Probe {
	return &corev1.Probe{
		ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromInt32(port), Scheme: scheme}},
		PeriodSeconds: 2,
	}
}

// routerObjects: the router with host ports 80 and 443 on the node (the
// kind profile maps them to 127.0.0.1).
func routerObjects(o Options) []k8s.Object {
	objs := identity(operator.RouterNamespace, routerName,
		rule([]string{"route.openshift.io"}, []string{"routes"}, readOnly),
		rule([]string{"route.openshift.io"}, []string{"routes/status"}, []string{"update", "patch"}),
		rule([]string{""}, []string{"services", "endpoints"}, readOnly),
		rule([]string{"discovery.k8s.io"}, []string{"endpointslices"}, readOnly),
	)
	d := deployment(operator.RouterNamespace, "router-default", 1, corev1.PodSpec{
		ServiceAccountName: routerName,
		Containers: []corev1.Container{{
			Name:            operator.RouterContainer,
			Image:           o.Images.Router,
			ImagePullPolicy: corev1.PullNever,
			Env: []corev1.EnvVar{
				{Name: "ROUTER_NAME", Value: "default"},
				{Name: "ROUTER_DOMAIN", Value: o.Domain},
				{Name: "ROUTER_CANONICAL_HOSTNAME", Value: "router-default." + o.Domain},
				{Name: "STATS_PORT", Value: fmt.Sprint(StatsPort)},
			},
			Ports: []corev1.ContainerPort{
				{Name: "http", ContainerPort: 80, HostPort: 80},
				{Name: "https", ContainerPort: 443, HostPort: 443},
				{Name: "stats", ContainerPort: StatsPort},
			},
			ReadinessProbe: httpProbe("/healthz/ready", StatsPort, corev1.URISchemeHTTP),
			LivenessProbe:  &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(StatsPort)}}, InitialDelaySeconds: 30, PeriodSeconds: 10},
			VolumeMounts:   []corev1.VolumeMount{{Name: "work", MountPath: "/var/lib/haproxy/router"}},
		}},
		Volumes: []corev1.Volume{{Name: "work", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
	})
	d.Spec.Template.Labels["ingresscontroller.operator.openshift.io/deployment-ingresscontroller"] = "default"
	return append(objs, d)
}

func reconcilerObjects(o Options) []k8s.Object {
	objs := identity(operator.OperatorNamespace, reconcilerName,
		rule([]string{"operator.openshift.io"}, []string{"ingresscontrollers"}, readOnly),
		rule([]string{"operator.openshift.io"}, []string{"ingresscontrollers/status"}, []string{"update", "patch"}),
		rule([]string{""}, []string{"configmaps"}, []string{"get", "list", "watch", "create", "update"}),
		rule([]string{"apps"}, []string{"deployments"}, []string{"get", "list", "watch", "update"}),
	)
	return append(objs, deployment(operator.OperatorNamespace, reconcilerName, 1, corev1.PodSpec{
		ServiceAccountName: reconcilerName,
		Containers: []corev1.Container{{
			Name: reconcilerName, Image: o.Images.Reconciler, ImagePullPolicy: corev1.PullNever,
		}},
	}))
}

// admissionObjects: the webhook's Deployment and Service, its serving
// certificate (kept across reinstalls so the CA bundle stays valid), and
// the ValidatingWebhookConfiguration. A dead webhook refuses routes with a
// clear "failed calling webhook" error within 5 seconds, never a hang.
func admissionObjects(ctx context.Context, r *resources.Resources, image string) ([]k8s.Object, error) {
	ns := operator.RouterNamespace
	secret, err := servingSecret(ctx, r, ns)
	if err != nil {
		return nil, err
	}
	objs := identity(ns, admissionName,
		rule([]string{"config.openshift.io"}, []string{"ingresses"}, readOnly),
		rule([]string{""}, []string{"namespaces"}, readOnly),
	)
	d := deployment(ns, admissionName, 1, corev1.PodSpec{
		ServiceAccountName: admissionName,
		Containers: []corev1.Container{{
			Name: admissionName, Image: image, ImagePullPolicy: corev1.PullNever,
			Args:           []string{"-listen", ":8443", "-cert", "/etc/webhook/tls.crt", "-key", "/etc/webhook/tls.key"},
			Ports:          []corev1.ContainerPort{{Name: "https", ContainerPort: 8443}},
			ReadinessProbe: httpProbe("/healthz", 8443, corev1.URISchemeHTTPS),
			VolumeMounts:   []corev1.VolumeMount{{Name: "tls", MountPath: "/etc/webhook", ReadOnly: true}},
		}},
		Volumes: []corev1.Volume{{Name: "tls", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: admissionName + "-tls"}}}},
	})
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: admissionName, Namespace: ns},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": admissionName},
			Ports: []corev1.ServicePort{{Name: "https", Port: 443, TargetPort: intstr.FromInt32(8443)}}},
	}
	failurePolicy := admissionregistrationv1.Fail
	sideEffects := admissionregistrationv1.SideEffectClassNone
	webhook := &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: admissionName},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name: WebhookName,
			ClientConfig: admissionregistrationv1.WebhookClientConfig{
				Service:  &admissionregistrationv1.ServiceReference{Namespace: ns, Name: admissionName, Path: ptr.To("/validate-route")},
				CABundle: secret.Data["ca.crt"],
			},
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
				Rule:       admissionregistrationv1.Rule{APIGroups: []string{"route.openshift.io"}, APIVersions: []string{"v1"}, Resources: []string{"routes"}},
			}},
			FailurePolicy:           &failurePolicy,
			SideEffects:             &sideEffects,
			TimeoutSeconds:          ptr.To[int32](5),
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
	return append(objs, secret, d, svc, webhook), nil
}

// servingSecret returns the webhook's serving certificate: the existing
// one if the cluster has it, otherwise a new CA and certificate from pki.
func servingSecret(ctx context.Context, r *resources.Resources, ns string) (*corev1.Secret, error) {
	var live corev1.Secret
	err := r.Get(ctx, admissionName+"-tls", ns, &live)
	if err == nil && len(live.Data["ca.crt"]) > 0 {
		live.ManagedFields = nil
		return &live, nil
	}
	if err != nil && !apierrors.IsNotFound(err) {
		return nil, err
	}
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "route-admission webhook CA"}})
	if err != nil {
		return nil, err
	}
	host := fmt.Sprintf("%s.%s.svc", admissionName, ns)
	leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: []string{host}})
	if err != nil {
		return nil, err
	}
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: admissionName + "-tls", Namespace: ns},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{"tls.crt": leaf.ChainPEM(), "tls.key": leaf.KeyPEM, "ca.crt": ca.CertPEM},
	}, nil
}
