package ingressoperator

import (
	"fmt"
	"strconv"

	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The environment through which the operator hands a shard's selectors and
// ports to its router (cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go; the router reads them in
// openshift/router pkg/cmd/infra/router/router.go and template.go).
const (
	NamespaceLabelsEnv = "NAMESPACE_LABELS"
	RouteLabelsEnv     = "ROUTE_LABELS"
	HTTPPortEnv        = "ROUTER_SERVICE_HTTP_PORT"
	HTTPSPortEnv       = "ROUTER_SERVICE_HTTPS_PORT"
	StatsPortEnv       = "STATS_PORT"
	// DisableNamespaceOwnershipCheckEnv is spec.routeAdmission.namespaceOwnership.
	DisableNamespaceOwnershipCheckEnv = "ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK"
)

// Upstream's routerDefaultHostNetwork{HTTP,HTTPS,Stats}Port, which
// setDefaultPublishingStrategy (pkg/operator/controller/ingress/
// controller.go) fills in for ports a HostNetwork strategy omits.
const (
	defaultHostNetworkHTTPPort  = 80
	defaultHostNetworkHTTPSPort = 443
	defaultHostNetworkStatsPort = StatsPort
)

// selectorEnv renders spec.namespaceSelector and spec.routeSelector as
// upstream does: LabelSelectorAsSelector(...).String(), set whenever the
// selector is set (an empty selector gives an empty value: everything).
func selectorEnv(ic *operatorv1.IngressController) ([]corev1.EnvVar, error) {
	var env []corev1.EnvVar
	for _, sel := range []struct {
		name, field string
		selector    *metav1.LabelSelector
	}{
		{NamespaceLabelsEnv, "spec.namespaceSelector", ic.Spec.NamespaceSelector},
		{RouteLabelsEnv, "spec.routeSelector", ic.Spec.RouteSelector},
	} {
		if sel.selector == nil {
			continue
		}
		s, err := metav1.LabelSelectorAsSelector(sel.selector)
		if err != nil {
			return nil, fmt.Errorf("ingresscontroller %q has invalid %s: %v", ic.Name, sel.field, err)
		}
		env = append(env, corev1.EnvVar{Name: sel.name, Value: s.String()})
	}
	return env, nil
}

// EffectiveHostNetwork is the HostNetwork strategy of ic with upstream's
// defaults filled in (80, 443, 1936, TCP), or nil when ic does not ask
// for HostNetwork. An IngressController without
// spec.endpointPublishingStrategy keeps the router as install renders it
// (container network, host ports 80 and 443): upstream would pick a
// strategy from the platform, and the default router's Deployment must
// not change. Upstream renders from status.endpointPublishingStrategy,
// which it copies from the spec, ports included (updatePublishingStrategy);
// reading the spec directly gives the same ports.
func EffectiveHostNetwork(ic *operatorv1.IngressController) (*operatorv1.HostNetworkStrategy, error) {
	eps := ic.Spec.EndpointPublishingStrategy
	if eps == nil || eps.Type != operatorv1.HostNetworkStrategyType {
		return nil, nil
	}
	hn := &operatorv1.HostNetworkStrategy{}
	if eps.HostNetwork != nil {
		hn = eps.HostNetwork.DeepCopy()
	}
	for _, p := range []struct {
		port *int32
		def  int32
	}{{&hn.HTTPPort, defaultHostNetworkHTTPPort}, {&hn.HTTPSPort, defaultHostNetworkHTTPSPort}, {&hn.StatsPort, defaultHostNetworkStatsPort}} {
		if *p.port == 0 {
			*p.port = p.def
		}
	}
	if hn.Protocol == operatorv1.DefaultProtocol {
		hn.Protocol = operatorv1.TCPProtocol
	}
	// Upstream's words (desiredRouterDeployment).
	if hn.HTTPSPort == hn.HTTPPort || hn.HTTPPort == hn.StatsPort || hn.StatsPort == hn.HTTPSPort {
		return nil, fmt.Errorf("the specified HTTPS, HTTP and Stats ports %d, %d, %d are not unique", hn.HTTPSPort, hn.HTTPPort, hn.StatsPort)
	}
	return hn, nil
}

// applyHostNetwork puts the router pod on the node's network with hn's
// ports, as upstream's desiredRouterDeployment does for HostNetwork:
// hostNetwork, ClusterFirstWithHostNet (the router still resolves cluster
// names), each port's hostPort equal to its containerPort, the probes on
// the stats port at localhost (the node's address may be filtered), and
// STATS_PORT. ROUTER_SERVICE_HTTP(S)_PORT come in through Settings.Env.
func applyHostNetwork(spec *corev1.PodSpec, hn *operatorv1.HostNetworkStrategy) {
	spec.HostNetwork = true
	spec.DNSPolicy = corev1.DNSClusterFirstWithHostNet
	ports := map[string]int32{"http": hn.HTTPPort, "https": hn.HTTPSPort, "metrics": hn.StatsPort}
	for i := range spec.Containers {
		c := &spec.Containers[i]
		if c.Name != RouterContainer {
			continue
		}
		for j := range c.Ports {
			if p, ok := ports[c.Ports[j].Name]; ok {
				c.Ports[j].ContainerPort, c.Ports[j].HostPort = p, p
			}
		}
		for _, probe := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
			if probe != nil && probe.HTTPGet != nil {
				probe.HTTPGet.Port = intstr.FromInt32(hn.StatsPort)
				probe.HTTPGet.Host = "localhost"
			}
		}
		for j := range c.Env {
			if c.Env[j].Name == StatsPortEnv {
				c.Env[j].Value = strconv.Itoa(int(hn.StatsPort))
			}
		}
	}
}

// isPrivate: the Private endpoint publishing strategy.
func isPrivate(ic *operatorv1.IngressController) bool {
	eps := ic.Spec.EndpointPublishingStrategy
	return eps != nil && eps.Type == operatorv1.PrivateStrategyType
}

// applyPrivate takes the router off the node's ports, as upstream's
// Private strategy has it (desiredRouterDeployment: no host network, no
// host ports): several Private routers share a node, each reached
// through its router-internal Service.
func applyPrivate(spec *corev1.PodSpec) {
	spec.HostNetwork = false
	for i := range spec.Containers {
		c := &spec.Containers[i]
		if c.Name != RouterContainer {
			continue
		}
		for j := range c.Ports {
			c.Ports[j].HostPort = 0
		}
	}
}
