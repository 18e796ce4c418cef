package ingressoperator

import (
	"fmt"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/crypto"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
)

// The router Deployment is the one cluster-ingress-operator renders for a
// default IngressController (pkg/operator/controller/ingress/deployment.go
// and pkg/manifests/assets/router/deployment.yaml), in its single-container
// form: the router process starts HAProxy itself. Newer operators split
// HAProxy into a sidecar (ROUTER_HAPROXY_ADMIN_UNIX_SOCKET); the router
// still supports the single-container form, and it is the one any router
// image can run. The reference router runs under exactly this Deployment,
// so any image can take its place without a spec knowing.
const (
	// RouterServiceAccount is the router's identity (upstream: "router").
	RouterServiceAccount = "router"
	// RouterClusterRole is upstream's name for the router's permissions.
	RouterClusterRole = "openshift-ingress-router"
	// DeploymentLabel selects an IngressController's router pods.
	DeploymentLabel = contract.RouterDeploymentLabel

	DefaultCertificateDir = "/etc/pki/tls/private"
	ServiceCADir          = "/var/run/configmaps/service-ca"
	ServiceCAKey          = "service-ca.crt"
	// ServiceCAConfigMap holds the CA that signs service serving
	// certificates (the service-ca operator's bundle on OpenShift).
	ServiceCAConfigMap = "service-ca-bundle"
	statsAuthDir       = "/var/lib/haproxy/conf/metrics-auth"
	metricsCertsDir    = "/etc/pki/tls/metrics-certs"
	StatsPort          = 1936
	// ReloadInterval is upstream's default RELOAD_INTERVAL.
	ReloadInterval = "5s"
	// haproxyThreads is upstream's RouterHAProxyThreadsDefaultValue.
	haproxyThreads = "4"
)

// DefaultCertificateSecretName is the default certificate of an
// IngressController that names none (upstream: router-certs-<name>).
func DefaultCertificateSecretName(ic string) string { return "router-certs-" + ic }

// StatsSecretName holds the stats user name and password.
func StatsSecretName(ic string) string { return "router-stats-" + ic }

// MetricsCertsSecretName holds the metrics listener's certificate.
func MetricsCertsSecretName(ic string) string { return "router-metrics-certs-" + ic }

// RouterDeploymentOptions are what the operator knows of one
// IngressController when it renders its router.
type RouterDeploymentOptions struct {
	IngressController string
	Image             string
	// Domain is the IngressController's status.domain.
	Domain string
	// Fault is the test-only fault the router runs with (faults.Env; ""
	// for none: every image but a fault build's).
	Fault string
}

// RouterDeployment renders the router Deployment of an IngressController
// with the upstream operator's defaults. The IngressController's own
// settings (clientTLS, httpHeaders) are applied afterwards by Apply.
func RouterDeployment(o RouterDeploymentOptions) *appsv1.Deployment {
	name := contract.RouterDeploymentName(o.IngressController)
	labels := map[string]string{DeploymentLabel: o.IngressController}
	secretVolume := func(volume, secret string) corev1.Volume {
		return corev1.Volume{Name: volume, VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: secret, DefaultMode: ptr.To[int32](0o644)}}}
	}
	probe := func(path string, period, failures int32) *corev1.Probe {
		return &corev1.Probe{
			ProbeHandler:     corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromInt32(StatsPort), Scheme: corev1.URISchemeHTTP}},
			PeriodSeconds:    period,
			FailureThreshold: failures,
			TimeoutSeconds:   1,
			SuccessThreshold: 1,
		}
	}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: RouterNamespace, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			// One replica, upstream's choice on a single-replica topology
			// (DetermineReplicas, pkg/operator/controller/ingress/replicas.go);
			// spec.replicas sets another (Apply).
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Strategy: RouterStrategy(),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					Affinity:           RouterAffinity(o.IngressController),
					ServiceAccountName: RouterServiceAccount,
					DNSPolicy:          corev1.DNSClusterFirst,
					Tolerations:        []corev1.Toleration{{Key: "node-role.kubernetes.io/control-plane", Effect: corev1.TaintEffectNoSchedule}},
					Containers: []corev1.Container{{
						Name:            RouterContainer,
						Image:           o.Image,
						ImagePullPolicy: corev1.PullIfNotPresent,
						Env:             RouterEnv(o),
						Ports: []corev1.ContainerPort{
							// The kind profile maps the node's 80 and 443 to 127.0.0.1.
							{Name: "http", ContainerPort: 80, HostPort: 80, Protocol: corev1.ProtocolTCP},
							{Name: "https", ContainerPort: 443, HostPort: 443, Protocol: corev1.ProtocolTCP},
							{Name: "metrics", ContainerPort: StatsPort, Protocol: corev1.ProtocolTCP},
						},
						LivenessProbe:            probe("/healthz", 10, 3),
						ReadinessProbe:           probe("/healthz/ready", 10, 3),
						StartupProbe:             probe("/healthz/ready", 1, 120),
						TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
						VolumeMounts: []corev1.VolumeMount{
							{Name: "default-certificate", MountPath: DefaultCertificateDir, ReadOnly: true},
							{Name: "service-ca-bundle", MountPath: ServiceCADir, ReadOnly: true},
							{Name: "stats-auth", MountPath: statsAuthDir, ReadOnly: true},
							{Name: "metrics-certs", MountPath: metricsCertsDir, ReadOnly: true},
						},
					}},
					Volumes: []corev1.Volume{
						secretVolume("default-certificate", DefaultCertificateSecretName(o.IngressController)),
						{Name: "service-ca-bundle", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
							LocalObjectReference: corev1.LocalObjectReference{Name: ServiceCAConfigMap},
							Items:                []corev1.KeyToPath{{Key: ServiceCAKey, Path: ServiceCAKey}},
							DefaultMode:          ptr.To[int32](0o644),
						}}},
						secretVolume("stats-auth", StatsSecretName(o.IngressController)),
						secretVolume("metrics-certs", MetricsCertsSecretName(o.IngressController)),
					},
				},
			},
		},
	}
}

// RouterStrategy is how a router Deployment rolls out: upstream's for a
// router bound to its node's ports (cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go, desiredRouterDeployment,
// the HostNetworkStrategyType case: RollingUpdate, maxUnavailable 25%,
// maxSurge 0). Every router here binds its node's ports (the default's
// host ports, a shard's host network), so a surge pod would find its
// ports taken: one replica is replaced at a time (Kubernetes rounds 25%
// of fewer than four replicas up to one), and a router of several
// replicas keeps serving through its rollout.
func RouterStrategy() appsv1.DeploymentStrategy {
	return appsv1.DeploymentStrategy{
		Type: appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{
			MaxUnavailable: ptr.To(intstr.FromString("25%")),
			MaxSurge:       ptr.To(intstr.FromInt32(0)),
		},
	}
}

// RouterAffinity spreads an IngressController's router replicas over
// nodes: upstream's required pod anti-affinity on kubernetes.io/hostname
// for the pods of the IngressController's deployment label
// (desiredRouterDeployment, the LoadBalancerService/NodePort/Private case,
// PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution). Upstream
// narrows it to one generation (its deployment-hash label) so that a surge
// pod may join an old one's node; with no surge (RouterStrategy) no new
// pod ever needs that, and the term stands on the deployment label alone.
// Upstream's preferred pod affinity between generations and its zone
// spread (TopologySpreadConstraints on topology.kubernetes.io/zone) are
// left out: they serve the surge and zones, which a kind cluster has not.
func RouterAffinity(ingressController string) *corev1.Affinity {
	return &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			TopologyKey: corev1.LabelHostname,
			LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
				Key: DeploymentLabel, Operator: metav1.LabelSelectorOpIn, Values: []string{ingressController},
			}}},
		}},
	}}
}

// RouterEnv is the environment upstream sets for an IngressController
// with default settings (no tuning, no overrides, container network).
// Left out on purpose: ROUTER_CURVES (newer operators list X25519MLKEM768,
// which Debian's HAProxy may refuse; HAProxy's default curves apply) and
// ROUTER_HAPROXY_ADMIN_UNIX_SOCKET (the sidecar form, see above).
func RouterEnv(o RouterDeploymentOptions) []corev1.EnvVar {
	profile := configv1.TLSProfiles[configv1.TLSProfileIntermediateType]
	var tls13, other []string
	for _, c := range profile.Ciphers {
		if strings.HasPrefix(c, "TLS_") {
			tls13 = append(tls13, c)
		} else {
			other = append(other, c)
		}
	}
	env := []corev1.EnvVar{
		{Name: "ROUTER_SERVICE_NAMESPACE", Value: RouterNamespace},
		{Name: "DEFAULT_CERTIFICATE_DIR", Value: DefaultCertificateDir},
		{Name: "DEFAULT_DESTINATION_CA_PATH", Value: ServiceCADir + "/" + ServiceCAKey},
		{Name: "ROUTER_SERVICE_NAME", Value: o.IngressController},
		{Name: "STATS_USERNAME_FILE", Value: statsAuthDir + "/statsUsername"},
		{Name: "STATS_PASSWORD_FILE", Value: statsAuthDir + "/statsPassword"},
		{Name: "ROUTER_METRICS_TYPE", Value: "haproxy"},
		{Name: "ROUTER_METRICS_TLS_CERT_FILE", Value: metricsCertsDir + "/tls.crt"},
		{Name: "ROUTER_METRICS_TLS_KEY_FILE", Value: metricsCertsDir + "/tls.key"},
		{Name: "ROUTER_LOAD_BALANCE_ALGORITHM", Value: "random"},
		{Name: "ROUTER_TCP_BALANCE_SCHEME", Value: "source"},
		{Name: "ROUTER_DOMAIN", Value: o.Domain},
		{Name: "ROUTER_CANONICAL_HOSTNAME", Value: fmt.Sprintf("router-%s.%s", o.IngressController, o.Domain)},
		{Name: "ROUTER_THREADS", Value: haproxyThreads},
		{Name: "RELOAD_INTERVAL", Value: ReloadInterval},
		{Name: "STATS_PORT", Value: fmt.Sprint(StatsPort)},
		{Name: "ROUTER_CIPHERS", Value: strings.Join(other, ":")},
		{Name: "ROUTER_CIPHERSUITES", Value: strings.Join(tls13, ":")},
		{Name: "SSL_MIN_VERSION", Value: "TLSv1.2"},
		// The metrics listener: the API server's profile, intermediate by default.
		{Name: "ROUTER_METRICS_TLS_CIPHERS", Value: strings.Join(crypto.OpenSSLToIANACipherSuites(profile.Ciphers), ":")},
		{Name: "ROUTER_METRICS_TLS_MIN_VERSION", Value: string(profile.MinTLSVersion)},
		// spec.routeAdmission's defaults (Strict, WildcardsDisallowed);
		// Apply sets them from the IngressController (routeAdmissionEnv).
		{Name: DisableNamespaceOwnershipCheckEnv, Value: "false"},
		{Name: contract.AllowWildcardRoutesEnv, Value: "false"},
		// spec.httpHeaders.forwardedHeaderPolicy's default (Append); Apply
		// sets it from the IngressController (forwardedHeadersEnv).
		{Name: contract.SetForwardedHeadersEnv, Value: string(contract.ForwardedAppend)},
		{Name: "ROUTER_DISABLE_HTTP2", Value: "true"},
		{Name: "ROUTER_ENABLE_EXTERNAL_CERTIFICATE", Value: "true"},
	}
	if o.Fault != "" {
		env = append(env, corev1.EnvVar{Name: faults.Env, Value: o.Fault})
	}
	return env
}

// RouterRBAC is the router's ServiceAccount and permissions: the rules of
// openshift/router deploy/router_rbac.yaml, plus list/watch on
// EndpointSlices (the router watches them; cluster-ingress-operator's
// assets/router/cluster-role.yaml grants it), and system:auth-delegator
// for the metrics listener's token and access reviews. Not cluster-admin.
func RouterRBAC() []Object {
	return []Object{
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: RouterServiceAccount, Namespace: RouterNamespace}},
		&rbacv1.ClusterRole{
			ObjectMeta: metav1.ObjectMeta{Name: RouterClusterRole},
			Rules: []rbacv1.PolicyRule{
				{APIGroups: []string{""}, Resources: []string{"namespaces", "services", "endpoints"}, Verbs: []string{"get", "list", "watch"}},
				{APIGroups: []string{"route.openshift.io"}, Resources: []string{"routes"}, Verbs: []string{"list", "watch"}},
				{APIGroups: []string{"route.openshift.io"}, Resources: []string{"routes/status"}, Verbs: []string{"get", "patch", "update"}},
				{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: []string{"list", "watch"}},
			},
		},
		clusterRoleBinding(RouterClusterRole, RouterClusterRole),
		clusterRoleBinding(RouterClusterRole+"-auth-delegator", "system:auth-delegator"),
	}
}

// Object is a typed API object this package renders.
type Object interface {
	metav1.Object
	runtime.Object
}

func clusterRoleBinding(name, role string) *rbacv1.ClusterRoleBinding {
	return &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: RouterServiceAccount, Namespace: RouterNamespace}},
	}
}
