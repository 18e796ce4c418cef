package contract

import (
	"crypto/md5"
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
)

// Where things live on OpenShift (cluster-ingress-operator
// pkg/operator/controller/names.go).
const (
	OperatorNamespace = "openshift-ingress-operator"
	RouterNamespace   = "openshift-ingress"
	// ConfigNamespace holds what a cluster-admin configures: the client CA
	// ConfigMaps that IngressController spec.clientTLS.clientCA names.
	ConfigNamespace = "openshift-config"
	// DefaultIngressController is the IngressController every cluster has.
	DefaultIngressController = "default"
	// IngressConfig is the name of the cluster's config.openshift.io Ingress.
	IngressConfig = "cluster"
	// ClientCAKey is the key of the client CA bundle in its ConfigMap
	// (cluster-ingress-operator pkg/operator/controller/ingress/deployment.go).
	ClientCAKey = "ca-bundle.pem"
	// RouterContainer is the router's container in its pod.
	RouterContainer = "router"
	// RouterDeploymentLabel selects an IngressController's router pods.
	RouterDeploymentLabel = "ingresscontroller.operator.openshift.io/deployment-ingresscontroller"
)

// HSTSAnnotation is the route annotation whose value the router sends as
// Strict-Transport-Security (openshift/router haproxy-config.template).
const HSTSAnnotation = "haproxy.router.openshift.io/hsts_header"

// The route annotations of the router's session cookie (openshift/router
// images/router/haproxy/conf/haproxy-config.template, the route backend's
// `cookie` line): DisableCookiesAnnotation "true" turns it off,
// CookieNameAnnotation names it, CookieSameSiteAnnotation gives its
// SameSite attribute (Lax, Strict or None) on TLS routes.
const (
	DisableCookiesAnnotation = "haproxy.router.openshift.io/disable_cookies"
	CookieNameAnnotation     = "router.openshift.io/cookie_name"
	CookieSameSiteAnnotation = "router.openshift.io/cookie-same-site"
)

// The route annotations of the router's per-route settings, as OpenShift's
// documentation lists them (openshift/openshift-docs
// modules/nw-route-specific-annotations.adoc) and upstream's template reads
// them (openshift/router images/router/haproxy/conf/haproxy-config.template):
// the server timeout, the tunnel timeout, the path rewrite, the source
// allowlist under its current name and its former one (ip_allowlist wins),
// and the load-balancing algorithm.
const (
	TimeoutAnnotation       = "haproxy.router.openshift.io/timeout"
	TimeoutTunnelAnnotation = "haproxy.router.openshift.io/timeout-tunnel"
	RewriteTargetAnnotation = "haproxy.router.openshift.io/rewrite-target"
	IPAllowlistAnnotation   = "haproxy.router.openshift.io/ip_allowlist"
	IPWhitelistAnnotation   = "haproxy.router.openshift.io/ip_whitelist"
	BalanceAnnotation       = "haproxy.router.openshift.io/balance"
	// PodConcurrentConnectionsAnnotation bounds the connections to each
	// endpoint; RateLimitAnnotation ("true") turns the per-source limits
	// on, each the annotation's name with its suffix.
	PodConcurrentConnectionsAnnotation = "haproxy.router.openshift.io/pod-concurrent-connections"
	RateLimitAnnotation                = "haproxy.router.openshift.io/rate-limit-connections"
	RateLimitConcurrentTCPAnnotation   = RateLimitAnnotation + ".concurrent-tcp"
	RateLimitRateTCPAnnotation         = RateLimitAnnotation + ".rate-tcp"
	RateLimitRateHTTPAnnotation        = RateLimitAnnotation + ".rate-http"
	// HealthCheckIntervalAnnotation is how often the router checks each
	// endpoint of a route of more than one.
	HealthCheckIntervalAnnotation = "router.openshift.io/haproxy.health.check.interval"
)

// HardStopAfterAnnotation, on an IngressController or on the Ingress
// config "cluster" (the IngressController's wins), bounds how long a
// router's old HAProxy keeps the connections it holds after a reload:
// the operator passes it as HardStopAfterEnv (cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go,
// RouterHardStopAfterAnnotation and RouterHardStopAfterEnvName).
const (
	HardStopAfterAnnotation = "ingress.operator.openshift.io/hard-stop-after"
	HardStopAfterEnv        = "ROUTER_HARD_STOP_AFTER"
)

// HAProxyMaxTimeout is the longest timeout HAProxy takes: a longer valid
// value is clipped to it, by the router's template (openshift/router
// util.HaproxyMaxTimeout) and by the ingress operator
// (cluster-ingress-operator clipHAProxyTimeoutValue) alike.
const HAProxyMaxTimeout = "2147483647ms"

// DefaultHealthCheckInterval is upstream's interval of the checks when
// neither the route nor ROUTER_BACKEND_CHECK_INTERVAL sets one.
const DefaultHealthCheckInterval = "5000ms"

// DefaultCookieName is the session cookie's name for a route without a
// valid cookie_name annotation: upstream's RoutingKeyName, the hex md5 of
// "<termination> <namespace>:<name>", computed before the termination is
// filled in, so always with an empty one (openshift/router
// pkg/router/template/router.go, createServiceAliasConfig).
func DefaultCookieName(namespace, name string) string {
	return fmt.Sprintf("%x", md5.Sum([]byte(" "+namespace+":"+name)))
}

// RouterDeploymentName is the router Deployment of an IngressController.
func RouterDeploymentName(ingressController string) string { return "router-" + ingressController }

// InternalServiceName is the ClusterIP Service in front of an
// IngressController's router pods (cluster-ingress-operator's
// router-internal-<name>): how a client inside the cluster reaches it.
func InternalServiceName(ingressController string) string {
	return "router-internal-" + ingressController
}

// IngressControllerSettled says a change of ic took effect: the operator
// observed its generation, and it is Available and not Progressing (what
// cluster-ingress-operator's test/e2e waits for).
func IngressControllerSettled(ic *operatorv1.IngressController) bool {
	if ic.Status.ObservedGeneration != ic.Generation {
		return false
	}
	available, progressing := false, true
	for _, c := range ic.Status.Conditions {
		switch c.Type {
		case operatorv1.OperatorStatusTypeAvailable:
			available = c.Status == operatorv1.ConditionTrue
		case operatorv1.OperatorStatusTypeProgressing:
			progressing = c.Status == operatorv1.ConditionTrue
		}
	}
	return available && !progressing
}

// HostGeneratedAnnotation marks a route whose spec.host route admission
// generated ("true"): library-go pkg/route/hostassignment,
// HostGeneratedAnnotationKey.
const HostGeneratedAnnotation = "openshift.io/host.generated"

// The service CA (openshift/service-ca-operator): a Service annotated
// ServingCertSecretAnnotation gets a kubernetes.io/tls Secret of that name
// in its namespace, for <service>.<namespace>.svc and
// <service>.<namespace>.svc.cluster.local, signed by the service CA
// (pkg/controller/api/api.go; the serving-cert controller,
// pkg/controller/servingcert/controller/secret_creating_controller.go). The
// router trusts that CA for reencrypt routes without
// destinationCACertificate: cluster-ingress-operator mounts the
// ServiceCABundleConfigMap of the router's namespace (injected with the
// service CA: pkg/operator/controller/ingress/serviceca_configmap.go) and
// points DEFAULT_DESTINATION_CA_PATH at its ServiceCABundleKey
// (pkg/manifests/assets/router/deployment.yaml).
const (
	ServingCertSecretAnnotation = "service.beta.openshift.io/serving-cert-secret-name"
	// ServingCertSignedByAnnotation is set on the Service once its Secret
	// is written: the signer's common name.
	ServingCertSignedByAnnotation = "service.beta.openshift.io/serving-cert-signed-by"
	ServiceCABundleConfigMap      = "service-ca-bundle"
	ServiceCABundleKey            = "service-ca.crt"
)

// DomainConflictRejection is the Admitted=False message (reason Invalid)
// of an IngressController whose domain an admitted one already has
// (upstream: cluster-ingress-operator
// pkg/operator/controller/ingress/controller.go validateDomainUniqueness,
// one error of validate's aggregate).
func DomainConflictRejection(admitted string) string {
	return "conflicts with: " + admitted
}
