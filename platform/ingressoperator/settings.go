// Package operator stands in for the ingress operator on kind: it turns
// an operator.openshift.io/v1 IngressController into the router
// Deployment's environment and volumes, as the upstream operator does,
// and reports the IngressController's Available and Progressing
// conditions so that a caller can wait for a change to take effect.
package ingressoperator

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
)

// Where things live, as on OpenShift (the suite's contract).
const (
	OperatorNamespace = contract.OperatorNamespace
	RouterNamespace   = contract.RouterNamespace
	ConfigNamespace   = contract.ConfigNamespace
	ClientCAKey       = contract.ClientCAKey
	RouterContainer   = contract.RouterContainer
	ClientCAMountDir  = "/etc/pki/tls/client-ca"
	clientCAVolume    = "client-ca"
)

// DeploymentName is the router Deployment of an IngressController.
func DeploymentName(ic *operatorv1.IngressController) string {
	return contract.RouterDeploymentName(ic.Name)
}

// ClientCAConfigMapName is the copy of the client CA bundle in the router's
// namespace.
func ClientCAConfigMapName(ic *operatorv1.IngressController) string {
	return contract.ClientCAConfigMapName(ic.Name)
}

// managedEnv are the variables this package owns on the router container.
// STATS_PORT is not among them: every router has it (RouterEnv), and only
// a HostNetwork IngressController changes its value (applyHostNetwork).
var managedEnv = map[string]bool{
	"ROUTER_MUTUAL_TLS_AUTH": true, "ROUTER_MUTUAL_TLS_AUTH_CA": true, "ROUTER_MUTUAL_TLS_AUTH_FILTER": true,
	contract.RequestHeadersEnv: true, contract.ResponseHeadersEnv: true, contract.HeaderNameCaseEnv: true,
	headerBufferSizeEnv: true, headerBufferMaxRewriteSizeEnv: true, uniqueIDHeaderEnv: true, uniqueIDFormatEnv: true,
	NamespaceLabelsEnv: true, RouteLabelsEnv: true, HTTPPortEnv: true, HTTPSPortEnv: true,
	contract.HardStopAfterEnv: true,
}

// Settings are what an IngressController implies for the router pod.
type Settings struct {
	Env      []corev1.EnvVar
	ClientCA bool // mount the client CA ConfigMap
	// HostNetwork, when set, puts the router on the node's network with
	// these ports (spec.endpointPublishingStrategy type HostNetwork).
	HostNetwork *operatorv1.HostNetworkStrategy
	// Private publishes the router on no node port at all
	// (spec.endpointPublishingStrategy type Private): reached only
	// through its router-internal Service, inside the cluster.
	Private bool
	// Replicas is spec.replicas; nil leaves the Deployment's count.
	Replicas *int32
	// NodeSelector and Tolerations are spec.nodePlacement's; nil leaves
	// the Deployment's.
	NodeSelector map[string]string
	Tolerations  []corev1.Toleration
	// RouteAdmission are ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK and
	// ROUTER_ALLOW_WILDCARD_ROUTES from spec.routeAdmission. Every router
	// has both (RouterEnv): Apply sets their values where they stand, so
	// a default IngressController's router keeps its template unchanged.
	RouteAdmission []corev1.EnvVar
	// ForwardedHeaders is ROUTER_SET_FORWARDED_HEADERS from
	// spec.httpHeaders.forwardedHeaderPolicy, also on every router
	// (RouterEnv) and set where it stands.
	ForwardedHeaders []corev1.EnvVar
	// AccessLogSidecar runs the access-log sidecar (spec.logging.access
	// with destination type Container), from SyslogImage (the
	// reconciler's SYSLOG_IMAGE), or the router's image when that is
	// empty, as upstream.
	AccessLogSidecar bool
	SyslogImage      string
}

// Desired computes the router settings of ic, and of the Ingress config
// "cluster" where it bears on every router (nil: none). It fails on a
// spec the operator cannot render (a selector that does not parse,
// HostNetwork ports that are not unique), as upstream's
// desiredRouterDeployment does.
func Desired(ic *operatorv1.IngressController, ingressConfig *configv1.Ingress) (Settings, error) {
	var s Settings
	var err error
	if s.Env, err = selectorEnv(ic); err != nil {
		return s, err
	}
	if s.HostNetwork, err = EffectiveHostNetwork(ic); err != nil {
		return s, err
	}
	s.Private = isPrivate(ic)
	s.RouteAdmission = routeAdmissionEnv(ic)
	s.ForwardedHeaders = forwardedHeadersEnv(ic)
	// Upstream: determineDeploymentReplicas takes spec.replicas when set
	// (pkg/operator/controller/ingress/deployment.go). Unset, upstream's
	// DetermineReplicas reads the cluster's topology (2 unless
	// SingleReplica); the stand-in keeps the count install gave the
	// Deployment, as a cluster of known topology would.
	if ic.Spec.Replicas != nil {
		if *ic.Spec.Replicas < 0 {
			return s, fmt.Errorf("ingresscontroller %q has invalid spec.replicas %d", ic.Name, *ic.Spec.Replicas)
		}
		s.Replicas = ptr.To(*ic.Spec.Replicas)
	}
	// Upstream: desiredRouterDeployment replaces its default node
	// selector with spec.nodePlacement.nodeSelector and the tolerations
	// with spec.nodePlacement.tolerations, each when set.
	if np := ic.Spec.NodePlacement; np != nil {
		if np.NodeSelector != nil {
			if s.NodeSelector, err = metav1.LabelSelectorAsMap(np.NodeSelector); err != nil {
				return s, fmt.Errorf("ingresscontroller %q has invalid spec.nodePlacement.nodeSelector: %v", ic.Name, err)
			}
		}
		s.Tolerations = np.Tolerations
	}
	if hn := s.HostNetwork; hn != nil {
		s.Env = append(s.Env,
			corev1.EnvVar{Name: HTTPPortEnv, Value: fmt.Sprint(hn.HTTPPort)},
			corev1.EnvVar{Name: HTTPSPortEnv, Value: fmt.Sprint(hn.HTTPSPort)},
		)
	}
	if tls := ic.Spec.ClientTLS; tls.ClientCertificatePolicy != "" && !faults.On("client-tls.policy-not-passed") {
		policy := "required"
		if tls.ClientCertificatePolicy == operatorv1.ClientCertificatePolicyOptional {
			policy = "optional"
		}
		switch {
		case faults.On("client-tls.required-as-optional") && policy == "required":
			policy = "optional"
		case faults.On("client-tls.optional-as-required") && policy == "optional":
			policy = "required"
		}
		s.Env = append(s.Env,
			corev1.EnvVar{Name: "ROUTER_MUTUAL_TLS_AUTH", Value: policy},
			corev1.EnvVar{Name: "ROUTER_MUTUAL_TLS_AUTH_CA", Value: ClientCAMountDir + "/" + ClientCAKey},
		)
		patterns := tls.AllowedSubjectPatterns
		switch {
		case faults.On("client-tls.subject-patterns-dropped"):
			patterns = nil
		case faults.On("client-tls.only-first-subject-pattern") && len(patterns) > 1:
			patterns = patterns[:1]
		case faults.On("client-tls.no-patterns-filter-all") && len(patterns) == 0:
			patterns = []string{"^$"}
		}
		if len(patterns) > 0 {
			s.Env = append(s.Env, corev1.EnvVar{Name: "ROUTER_MUTUAL_TLS_AUTH_FILTER", Value: "(?:" + strings.Join(patterns, "|") + ")"})
		}
		// The bundle itself is the mounted copy's: an edit of it reaches
		// the running router through the kubelet, no rollout (upstream:
		// desiredRouterDeployment has no hash of it; the router watches
		// the mounted file).
		s.ClientCA = true
	}
	if h := ic.Spec.HTTPHeaders; h != nil {
		if req := h.Actions.Request; len(req) > 0 && !faults.On("header-actions.ingresscontroller-request-actions-not-passed") {
			s.Env = append(s.Env, corev1.EnvVar{Name: contract.RequestHeadersEnv, Value: contract.HeaderActionsEnv(req)})
		}
		if resp := h.Actions.Response; len(resp) > 0 && !faults.On("header-actions.ingresscontroller-response-actions-not-passed") {
			s.Env = append(s.Env, corev1.EnvVar{Name: contract.ResponseHeadersEnv, Value: contract.HeaderActionsEnv(resp)})
		}
	}
	// upstream: deployment.go, RouterHTTPHeaderNameCaseAdjustments only
	// when there is a name.
	if v := contract.HeaderNameCaseValue(ic); v != "" {
		s.Env = append(s.Env, corev1.EnvVar{Name: contract.HeaderNameCaseEnv, Value: v})
	}
	s.Env = append(s.Env, tuningEnv(ic)...)
	s.Env = append(s.Env, hardStopAfterEnv(ic, ingressConfig)...)
	s.Env = append(s.Env, uniqueIDEnv(ic)...)
	accessLog, sidecar := accessLogEnv(ic)
	s.Env = append(s.Env, accessLog...)
	s.AccessLogSidecar = sidecar
	sort.Slice(s.Env, func(i, j int) bool { return s.Env[i].Name < s.Env[j].Name })
	return s, nil
}

// The router's buffer sizes (tune.bufsize and tune.maxrewrite).
const (
	headerBufferSizeEnv           = "ROUTER_BUF_SIZE"
	headerBufferMaxRewriteSizeEnv = "ROUTER_MAX_REWRITE_SIZE"
)

// tuningEnv is spec.tuningOptions' headerBufferBytes and
// headerBufferMaxRewriteBytes as ROUTER_BUF_SIZE and
// ROUTER_MAX_REWRITE_SIZE, each only when set (the router's defaults
// otherwise). Upstream: cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go (desiredRouterDeployment,
// RouterHeaderBufferSize and RouterHeaderBufferMaxRewriteSize).
func tuningEnv(ic *operatorv1.IngressController) []corev1.EnvVar {
	var env []corev1.EnvVar
	if faults.On("header-actions.header-buffer-tuning-not-passed") {
		return nil
	}
	if n := ic.Spec.TuningOptions.HeaderBufferBytes; n != 0 {
		env = append(env, corev1.EnvVar{Name: headerBufferSizeEnv, Value: fmt.Sprint(n)})
	}
	if n := ic.Spec.TuningOptions.HeaderBufferMaxRewriteBytes; n != 0 {
		env = append(env, corev1.EnvVar{Name: headerBufferMaxRewriteSizeEnv, Value: fmt.Sprint(n)})
	}
	return env
}

// hardStopAfterEnv is ROUTER_HARD_STOP_AFTER from the hard-stop-after
// annotation of ic when its value is one, else of the Ingress config, as
// upstream's HardStopAfterIsEnabled (cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go): a value Go's
// time.ParseDuration reads (or a whole number of days, "d"), clipped to
// HAProxy's largest timeout; none otherwise.
func hardStopAfterEnv(ic *operatorv1.IngressController, ingressConfig *configv1.Ingress) []corev1.EnvVar {
	sources := []map[string]string{ic.Annotations}
	if ingressConfig != nil && !faults.On("route-annotations.hard-stop-after-config-ignored") {
		sources = append(sources, ingressConfig.Annotations)
	}
	if faults.On("route-annotations.hard-stop-after-not-passed") {
		return nil
	}
	for _, annotations := range sources {
		if v, ok := clipHAProxyTimeout(annotations[contract.HardStopAfterAnnotation]); ok {
			return []corev1.EnvVar{{Name: contract.HardStopAfterEnv, Value: v}}
		}
	}
	return nil
}

// clipHAProxyTimeout is upstream's clipHAProxyTimeoutValue
// (cluster-ingress-operator pkg/operator/controller/ingress/deployment.go):
// val when Go's time.ParseDuration reads it (or it is a whole number of
// days), contract.HAProxyMaxTimeout when it is longer; false when it is empty or
// unreadable.
func clipHAProxyTimeout(val string) (string, bool) {
	if val == "" {
		return "", false
	}
	max, err := time.ParseDuration(contract.HAProxyMaxTimeout)
	if err != nil {
		return "", false
	}
	if days, ok := strings.CutSuffix(val, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return "", false
		}
		if max.Hours() < float64(n*24) {
			return contract.HAProxyMaxTimeout, true
		}
		return val, true
	}
	d, err := time.ParseDuration(val)
	if err != nil {
		return "", false
	}
	if max.Milliseconds() < d.Milliseconds() {
		return contract.HAProxyMaxTimeout, true
	}
	return val, true
}

// Apply writes the settings into the router Deployment d and reports
// whether anything changed. Variables it does not own are kept.
func Apply(d *appsv1.Deployment, ic *operatorv1.IngressController, s Settings) bool {
	if faults.On("client-tls.removal-not-applied") && !s.ClientCA && slices.ContainsFunc(d.Spec.Template.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == clientCAVolume }) {
		return false
	}
	before := d.Spec.Template.DeepCopy()
	beforeReplicas := d.Spec.Replicas
	if s.Replicas != nil && (d.Spec.Replicas == nil || *d.Spec.Replicas != *s.Replicas) {
		d.Spec.Replicas = ptr.To(*s.Replicas)
	}
	spec := &d.Spec.Template.Spec
	if s.NodeSelector != nil {
		spec.NodeSelector = s.NodeSelector
	}
	if s.Tolerations != nil {
		spec.Tolerations = s.Tolerations
	}
	for i := range spec.Containers {
		c := &spec.Containers[i]
		if c.Name != RouterContainer {
			continue
		}
		var env []corev1.EnvVar
		for _, e := range c.Env {
			if !managedEnv[e.Name] {
				env = append(env, e)
			}
		}
		c.Env = append(setInPlace(setInPlace(env, s.RouteAdmission), s.ForwardedHeaders), s.Env...)
		var mounts []corev1.VolumeMount
		for _, m := range c.VolumeMounts {
			if m.Name != clientCAVolume {
				mounts = append(mounts, m)
			}
		}
		if s.ClientCA {
			mounts = append(mounts, corev1.VolumeMount{Name: clientCAVolume, MountPath: ClientCAMountDir, ReadOnly: true})
		}
		c.VolumeMounts = mounts
	}
	applyAccessLog(spec, ic, s)
	if s.HostNetwork != nil {
		applyHostNetwork(spec, s.HostNetwork)
	}
	if s.Private {
		applyPrivate(spec)
	}
	var volumes []corev1.Volume
	var current *corev1.Volume
	for i, v := range spec.Volumes {
		if v.Name != clientCAVolume {
			volumes = append(volumes, v)
		} else {
			current = &spec.Volumes[i]
		}
	}
	if s.ClientCA {
		// Keep the live volume (with the API server's defaults) when it
		// already names the right ConfigMap.
		if current == nil || current.ConfigMap == nil || current.ConfigMap.Name != ClientCAConfigMapName(ic) {
			current = &corev1.Volume{Name: clientCAVolume, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: ClientCAConfigMapName(ic)},
			}}}
		}
		volumes = append(volumes, *current)
	}
	spec.Volumes = volumes
	return !equality.Semantic.DeepEqual(before, &d.Spec.Template) || !equality.Semantic.DeepEqual(beforeReplicas, d.Spec.Replicas)
}

// routeAdmissionEnv is spec.routeAdmission as upstream's
// desiredRouterDeployment renders it (cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go): namespaceOwnership
// (Strict by default) to ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK
// ("true" for InterNamespaceAllowed) and wildcardPolicy
// (WildcardsDisallowed by default) to ROUTER_ALLOW_WILDCARD_ROUTES ("true"
// for WildcardsAllowed, "false" for anything else). A change is a new
// pod template: the router rolls out, as upstream's does.
func routeAdmissionEnv(ic *operatorv1.IngressController) []corev1.EnvVar {
	ownership, wildcards := operatorv1.StrictNamespaceOwnershipCheck, operatorv1.WildcardPolicyDisallowed
	if a := ic.Spec.RouteAdmission; a != nil {
		if a.NamespaceOwnership != "" {
			ownership = a.NamespaceOwnership
		}
		if a.WildcardPolicy != "" {
			wildcards = a.WildcardPolicy
		}
	}
	var env []corev1.EnvVar
	switch ownership {
	case operatorv1.StrictNamespaceOwnershipCheck:
		env = append(env, corev1.EnvVar{Name: DisableNamespaceOwnershipCheckEnv, Value: "false"})
	case operatorv1.InterNamespaceAllowedOwnershipCheck:
		env = append(env, corev1.EnvVar{Name: DisableNamespaceOwnershipCheckEnv, Value: "true"})
	}
	allow := "false"
	if wildcards == operatorv1.WildcardPolicyAllowed {
		allow = "true"
	}
	return append(env, corev1.EnvVar{Name: contract.AllowWildcardRoutesEnv, Value: allow})
}

// forwardedHeadersEnv is spec.httpHeaders.forwardedHeaderPolicy as
// upstream's desiredRouterDeployment renders it (cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go): unset and Append to
// "append", Replace to "replace", IfNone to "if-none", Never to "never"
// (contract.ForwardedPolicyOf). A change rolls the router out.
func forwardedHeadersEnv(ic *operatorv1.IngressController) []corev1.EnvVar {
	var policy operatorv1.IngressControllerHTTPHeaderPolicy
	if h := ic.Spec.HTTPHeaders; h != nil && !faults.On("header-actions.forwarded-policy-not-passed") {
		policy = h.ForwardedHeaderPolicy
	}
	return []corev1.EnvVar{{Name: contract.SetForwardedHeadersEnv, Value: string(contract.ForwardedPolicyOf(policy))}}
}

// setInPlace gives each variable of set its value where env has it, and
// appends the ones env lacks.
func setInPlace(env, set []corev1.EnvVar) []corev1.EnvVar {
	for _, v := range set {
		found := false
		for i := range env {
			if env[i].Name == v.Name {
				env[i], found = v, true
			}
		}
		if !found {
			env = append(env, v)
		}
	}
	return env
}

// RolledOut reports whether every replica of d runs its current template.
func RolledOut(d *appsv1.Deployment) bool {
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	st := d.Status
	return st.ObservedGeneration >= d.Generation && st.UpdatedReplicas == want && st.Replicas == want && st.AvailableReplicas == want
}

// The router's request-ID header.
const (
	uniqueIDHeaderEnv = "ROUTER_UNIQUE_ID_HEADER_NAME"
	uniqueIDFormatEnv = "ROUTER_UNIQUE_ID_FORMAT"
	// defaultUniqueIDFormat is upstream's format when uniqueId.format is
	// empty.
	defaultUniqueIDFormat = "%{+X}o %ci:%cp_%fi:%fp_%Ts_%rt:%pid"
)

// uniqueIDEnv is spec.httpHeaders.uniqueId: the header's name, and its
// format (upstream's default when empty) as a Go-quoted string, only when
// the name is set. Upstream: cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go (desiredRouterDeployment,
// RouterUniqueHeaderName and RouterUniqueHeaderFormat: fmt.Sprintf("%q")).
func uniqueIDEnv(ic *operatorv1.IngressController) []corev1.EnvVar {
	h := ic.Spec.HTTPHeaders
	if h == nil || h.UniqueId.Name == "" {
		return nil
	}
	format := h.UniqueId.Format
	if format == "" {
		format = defaultUniqueIDFormat
	}
	return []corev1.EnvVar{
		{Name: uniqueIDHeaderEnv, Value: h.UniqueId.Name},
		{Name: uniqueIDFormatEnv, Value: fmt.Sprintf("%q", format)},
	}
}
