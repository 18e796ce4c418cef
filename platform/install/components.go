package install

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
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

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/platform/ingressoperator"
	"github.com/router-conformance/suite/platform/serviceca"
)

const (
	admissionName  = "route-admission"
	reconcilerName = "ingress-reconciler"
	// WebhookName is what the API server names in a refusal.
	WebhookName = "routes.route-admission.router-conformance.io"
	// HostWebhookName is the mutating webhook that generates route hosts.
	HostWebhookName = "hosts.route-admission.router-conformance.io"
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

// pullPolicy of the suite's own platform containers: Never unless told,
// as the kind profile loads their images into the node and nothing may
// be pulled on the sealed network.
func pullPolicy(o Options) corev1.PullPolicy {
	if o.PullPolicy == "" {
		return corev1.PullNever
	}
	return o.PullPolicy
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

// routerObjects: the router Deployment and RBAC exactly as the ingress
// operator renders them for the default IngressController, whatever the
// image; host ports 80 and 443 (the kind profile maps them to 127.0.0.1);
// and, apart from the operator's role, what serving IngressRoutes takes.
func routerObjects(o Options) []k8s.Object {
	var objs []k8s.Object
	for _, obj := range ingressoperator.RouterRBAC() {
		objs = append(objs, obj)
	}
	objs = append(objs, ingressRouteRBAC()...)
	return append(objs, ingressoperator.RouterDeployment(ingressoperator.RouterDeploymentOptions{
		IngressController: "default", Image: o.Images.Router, Domain: o.Domain, Fault: o.Fault,
	}), ingressoperator.InternalService(contract.DefaultIngressController))
}

// ingressRouteRBAC lets the router's ServiceAccount read IngressRoutes,
// write their status, and read the Secrets their roots name (any
// namespace: a root's secret lives in the root's). It is a role of its
// own so that the operator's router role stays upstream's, which grants
// no Secrets; the upstream router never uses it.
func ingressRouteRBAC() []k8s.Object {
	role := "router-conformance:router-ingressroutes"
	return []k8s.Object{
		&rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: role}, Rules: []rbacv1.PolicyRule{
			rule([]string{irv1.GroupName}, []string{irv1.Plural}, readOnly),
			rule([]string{irv1.GroupName}, []string{irv1.Plural + "/status"}, []string{"update", "patch"}),
			rule([]string{""}, []string{"secrets"}, readOnly),
		}},
		&rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: role},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role},
			Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind,
				Name: ingressoperator.RouterServiceAccount, Namespace: ingressoperator.RouterNamespace}},
		},
	}
}

func reconcilerObjects(o Options) []k8s.Object {
	objs := identity(ingressoperator.OperatorNamespace, reconcilerName,
		// update: the finalizer on a shard's IngressController.
		rule([]string{"operator.openshift.io"}, []string{"ingresscontrollers"}, []string{"get", "list", "watch", "update"}),
		rule([]string{"operator.openshift.io"}, []string{"ingresscontrollers/status"}, []string{"update", "patch"}),
		// A deleted shard's entries in route status are cleared, and after
		// a selector change those of the routes it no longer selects, as
		// upstream's operator does (namespaces: the namespaceSelector's).
		rule([]string{"route.openshift.io"}, []string{"routes"}, []string{"list"}),
		rule([]string{"route.openshift.io"}, []string{"routes/status"}, []string{"update"}),
		rule([]string{""}, []string{"namespaces"}, []string{"list"}),
		// delete: the copy of the client CA bundle, with its IngressController.
		rule([]string{""}, []string{"configmaps"}, []string{"get", "list", "watch", "create", "update", "delete"}),
		rule([]string{"apps"}, []string{"deployments"}, []string{"get", "list", "watch", "update"}),
		// The component-route controller (cluster-ingress-operator's
		// configurable-route controller): it reads the Ingress config.
		rule([]string{"config.openshift.io"}, []string{"ingresses"}, readOnly),
		// The service-ca stand-in (platform/serviceca): annotated Services
		// in every namespace (update: the signed-by annotation), their
		// Secrets, and the signing key in openshift-service-ca, as
		// upstream's service-ca controller holds them.
		rule([]string{""}, []string{"services"}, []string{"get", "list", "watch", "update"}),
		rule([]string{""}, []string{"secrets"}, []string{"get", "create", "update"}),
	)
	objs = append(objs, componentRouteRBAC()...)
	objs = append(objs, shardRBAC()...)
	return append(objs, deployment(ingressoperator.OperatorNamespace, reconcilerName, 1, corev1.PodSpec{
		ServiceAccountName: reconcilerName,
		Containers: []corev1.Container{{
			Name: reconcilerName, Image: o.Images.Reconciler, ImagePullPolicy: pullPolicy(o),
			Env: reconcilerEnv(o),
		}},
	}))
}

// reconcilerEnv: IMAGE, the router image of shards (upstream's operator
// has the same variable), the one install puts under test; and
// SYSLOG_IMAGE, the access-log sidecar's, when there is one.
func reconcilerEnv(o Options) []corev1.EnvVar {
	env := []corev1.EnvVar{{Name: "IMAGE", Value: o.Images.Router}}
	if o.Images.Syslog != "" {
		env = append(env, corev1.EnvVar{Name: ingressoperator.SyslogImageEnv, Value: o.Images.Syslog})
	}
	return append(env, faultEnv(o)...)
}

// faultEnv switches a fault build's fault on (make mutants); the
// reconciler passes it on to the shards' routers it renders.
func faultEnv(o Options) []corev1.EnvVar {
	if o.Fault == "" {
		return nil
	}
	return []corev1.EnvVar{{Name: faults.Env, Value: o.Fault}}
}

// shardRBAC lets the reconciler create and delete the router Deployments
// of IngressControllers other than default, create their Secrets
// (default certificate, stats credentials, metrics certificate), and list
// router pods (a deleted shard's IngressController is held until they are
// gone), in the router's namespace only. It reads Secrets to see which are missing and
// updates one to move its owner to a new Deployment of the same name;
// deleting them is the garbage collector's (the Deployment owns them).
func shardRBAC() []k8s.Object {
	name := "router-conformance:" + reconcilerName + ":shards"
	ns := ingressoperator.RouterNamespace
	return []k8s.Object{
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Rules: []rbacv1.PolicyRule{
			rule([]string{"apps"}, []string{"deployments"}, []string{"create", "delete"}),
			rule([]string{""}, []string{"secrets"}, []string{"get", "create", "update"}),
			// A shard's router-internal-<name> Service.
			rule([]string{""}, []string{"services"}, []string{"get", "create", "update"}),
			rule([]string{""}, []string{"pods"}, []string{"list"}),
		}},
		&rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: reconcilerName, Namespace: ingressoperator.OperatorNamespace}},
		},
	}
}

// componentRouteRBAC lets the reconciler manage Roles and RoleBindings in
// openshift-config only. Granting read access to a Secret needs that
// access itself (RBAC's escalation check), so it may read Secrets there;
// upstream's operator holds the same.
func componentRouteRBAC() []k8s.Object {
	name := "router-conformance:" + reconcilerName + ":component-routes"
	ns := ingressoperator.ConfigNamespace
	return []k8s.Object{
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Rules: []rbacv1.PolicyRule{
			rule([]string{"rbac.authorization.k8s.io"}, []string{"roles", "rolebindings"}, []string{"get", "list", "watch", "create", "update", "delete"}),
			rule([]string{""}, []string{"secrets"}, readOnly),
		}},
		&rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: reconcilerName, Namespace: ingressoperator.OperatorNamespace}},
		},
	}
}

// admissionObjects: the webhook's Deployment and Service, its serving
// certificate (kept across reinstalls so the CA bundle stays valid), and
// the ValidatingWebhookConfiguration. A dead webhook refuses routes with a
// clear "failed calling webhook" error within 5 seconds, never a hang.
func admissionObjects(ctx context.Context, r *resources.Resources, o Options) ([]k8s.Object, error) {
	ns := ingressoperator.RouterNamespace
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
			Name: admissionName, Image: o.Images.Admission, ImagePullPolicy: pullPolicy(o),
			Args:           []string{"-listen", ":8443", "-cert", "/etc/webhook/tls.crt", "-key", "/etc/webhook/tls.key", "-domain", o.Domain},
			Ports:          []corev1.ContainerPort{{Name: "https", ContainerPort: 8443}},
			Env:            faultEnv(o),
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
	// Host generation, as openshift-apiserver does it on create
	// (routeadmission.HostAssigner): mutating webhooks run before the
	// validating ones, so the route is validated with its host.
	reinvocation := admissionregistrationv1.NeverReinvocationPolicy
	mutating := &admissionregistrationv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: admissionName},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{
			Name: HostWebhookName,
			ClientConfig: admissionregistrationv1.WebhookClientConfig{
				Service:  &admissionregistrationv1.ServiceReference{Namespace: ns, Name: admissionName, Path: ptr.To("/assign-route-host")},
				CABundle: secret.Data["ca.crt"],
			},
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
				Rule:       admissionregistrationv1.Rule{APIGroups: []string{"route.openshift.io"}, APIVersions: []string{"v1"}, Resources: []string{"routes"}},
			}},
			FailurePolicy:           &failurePolicy,
			SideEffects:             &sideEffects,
			TimeoutSeconds:          ptr.To[int32](5),
			AdmissionReviewVersions: []string{"v1"},
			ReinvocationPolicy:      &reinvocation,
		}},
	}
	return append(objs, secret, d, svc, webhook, mutating), nil
}

// servingSecret returns the webhook's serving certificate (kept across
// reinstalls so the CA bundle stays valid).
func servingSecret(ctx context.Context, r *resources.Resources, ns string) (*corev1.Secret, error) {
	return keepOrMint(ctx, r, ns, admissionName+"-tls", "ca.crt", func() (*corev1.Secret, error) {
		host := fmt.Sprintf("%s.%s.svc", admissionName, ns)
		return tlsSecret(ns, admissionName+"-tls", "route-admission webhook CA", host)
	})
}

// keepOrMint returns the live Secret ns/name when it has key, otherwise
// the one mint makes: a reinstall on a reused cluster keeps certificates
// that running pods and webhook configurations already trust. A nil r
// (no cluster: rendering manifests) always mints.
func keepOrMint(ctx context.Context, r *resources.Resources, ns, name, key string, mint func() (*corev1.Secret, error)) (*corev1.Secret, error) {
	if r == nil {
		return mint()
	}
	var live corev1.Secret
	err := r.Get(ctx, name, ns, &live)
	if err == nil && len(live.Data[key]) > 0 {
		live.ManagedFields = nil
		return &live, nil
	}
	if err != nil && !apierrors.IsNotFound(err) {
		return nil, err
	}
	return mint()
}

// tlsSecret is a kubernetes.io/tls Secret for hosts, issued by a new CA
// whose certificate is kept under ca.crt.
func tlsSecret(ns, name, caName string, hosts ...string) (*corev1.Secret, error) {
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: caName}})
	if err != nil {
		return nil, err
	}
	leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: hosts})
	if err != nil {
		return nil, err
	}
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{"tls.crt": leaf.ChainPEM(), "tls.key": leaf.KeyPEM, "ca.crt": ca.CertPEM},
	}, nil
}

// routerSecrets are what the router Deployment mounts, made as the
// operator (and on OpenShift the service-ca operator) would: a wildcard
// default certificate for the apps domain, the stats credentials, the
// metrics listener's certificate and the service CA bundle; and the
// service CA's own certificate and key (serviceca.SigningKeySecret), with
// which the service-ca stand-in signs the serving certificates of
// annotated Services, as upstream's signing-key Secret holds them.
func routerSecrets(ctx context.Context, r *resources.Resources, o Options) ([]k8s.Object, error) {
	ns, ic := ingressoperator.RouterNamespace, "default"
	defaultCert, err := keepOrMint(ctx, r, ns, ingressoperator.DefaultCertificateSecretName(ic), "tls.crt", func() (*corev1.Secret, error) {
		return tlsSecret(ns, ingressoperator.DefaultCertificateSecretName(ic), "ingress-operator CA", "*."+o.Domain)
	})
	if err != nil {
		return nil, err
	}
	signingKey, err := keepOrMint(ctx, r, serviceca.Namespace, serviceca.SigningKeySecret, "tls.key", func() (*corev1.Secret, error) {
		ca, err := serviceca.NewSigner()
		if err != nil {
			return nil, err
		}
		return &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: serviceca.SigningKeySecret, Namespace: serviceca.Namespace},
			Type:       corev1.SecretTypeTLS,
			Data:       map[string][]byte{"tls.crt": ca.CertPEM, "tls.key": ca.KeyPEM},
		}, nil
	})
	if err != nil {
		return nil, err
	}
	serviceCA, err := pki.ParseCA(signingKey.Data["tls.crt"], signingKey.Data["tls.key"])
	if err != nil {
		return nil, fmt.Errorf("secret %s/%s: %w", serviceca.Namespace, serviceca.SigningKeySecret, err)
	}
	// The metrics certificate is the service CA's (upstream: the
	// service-ca operator's, for the annotated router-internal Service);
	// one of another CA (a cluster installed before the CA was kept) is
	// replaced.
	metricsName := ingressoperator.MetricsCertsSecretName(ic)
	mintMetrics := func() (*corev1.Secret, error) {
		leaf, err := serviceCA.IssueServer(pki.ServerOptions{Hosts: []string{"router-internal-" + ic + "." + ns + ".svc"}})
		if err != nil {
			return nil, err
		}
		return &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: metricsName, Namespace: ns},
			Type:       corev1.SecretTypeTLS,
			Data:       map[string][]byte{"tls.crt": leaf.ChainPEM(), "tls.key": leaf.KeyPEM, "ca.crt": serviceCA.CertPEM},
		}, nil
	}
	metrics, err := keepOrMint(ctx, r, ns, metricsName, "tls.crt", mintMetrics)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(metrics.Data["ca.crt"], serviceCA.CertPEM) {
		if metrics, err = mintMetrics(); err != nil {
			return nil, err
		}
	}
	stats, err := keepOrMint(ctx, r, ns, ingressoperator.StatsSecretName(ic), "statsPassword", func() (*corev1.Secret, error) {
		password := make([]byte, 16)
		if _, err := rand.Read(password); err != nil {
			return nil, err
		}
		return &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: ingressoperator.StatsSecretName(ic), Namespace: ns},
			Data:       map[string][]byte{"statsUsername": []byte("stats"), "statsPassword": []byte(hex.EncodeToString(password))},
		}, nil
	})
	if err != nil {
		return nil, err
	}
	// The bundle the router trusts for reencrypt routes without
	// destinationCACertificate (cluster-ingress-operator's
	// service-ca-bundle, injected by the service-ca operator).
	bundle := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: ingressoperator.ServiceCAConfigMap, Namespace: ns},
		Data:       map[string]string{ingressoperator.ServiceCAKey: string(serviceCA.CertPEM)},
	}
	return []k8s.Object{signingKey, defaultCert, metrics, stats, bundle}, nil
}
