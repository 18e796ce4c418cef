package ingressoperator

import (
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func shard(name string, mod func(*operatorv1.IngressController)) *operatorv1.IngressController {
	c := &operatorv1.IngressController{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: OperatorNamespace}}
	c.Spec.Domain = name + ".shards.test"
	if mod != nil {
		mod(c)
	}
	return c
}

func hostNetwork(http, https, stats int32) func(*operatorv1.IngressController) {
	return func(c *operatorv1.IngressController) {
		c.Spec.EndpointPublishingStrategy = &operatorv1.EndpointPublishingStrategy{
			Type:        operatorv1.HostNetworkStrategyType,
			HostNetwork: &operatorv1.HostNetworkStrategy{HTTPPort: http, HTTPSPort: https, StatsPort: stats},
		}
	}
}

func containerEnv(c corev1.Container) map[string]string {
	out := map[string]string{}
	for _, e := range c.Env {
		out[e.Name] = e.Value
	}
	return out
}

// cluster-ingress-operator renders the selectors with
// LabelSelectorAsSelector(...).String(), and sets the variable whenever
// the selector is set, even to everything.
func TestSelectorsRenderAsUpstream(t *testing.T) {
	c := shard("s", func(c *operatorv1.IngressController) {
		c.Spec.NamespaceSelector = &metav1.LabelSelector{
			MatchLabels:      map[string]string{"shard": "s"},
			MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: metav1.LabelSelectorOpIn, Values: []string{"b", "a"}}},
		}
		c.Spec.RouteSelector = &metav1.LabelSelector{}
	})
	got := env(desired(t, c))
	if got[NamespaceLabelsEnv] != "env in (a,b),shard=s" {
		t.Errorf("NAMESPACE_LABELS = %q", got[NamespaceLabelsEnv])
	}
	if v, ok := got[RouteLabelsEnv]; !ok || v != "" {
		t.Errorf("ROUTE_LABELS = %q (set %v), want set and empty for an empty selector", v, ok)
	}
	c.Spec.RouteSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "x", Operator: "Bogus"}}}
	if _, err := Desired(c, nil); err == nil || !strings.Contains(err.Error(), "invalid spec.routeSelector") {
		t.Errorf("invalid selector: %v", err)
	}
	if got := env(desired(t, ic(nil))); len(got) != 0 {
		t.Errorf("no selectors: %v", got)
	}
}

func TestHostNetworkShardDeployment(t *testing.T) {
	c := shard("s1", hostNetwork(10080, 10443, 11936))
	d := ShardDeployment(c, "router:any", desired(t, c))
	if d.Name != "router-s1" || d.Namespace != RouterNamespace || d.Labels[DeploymentLabel] != "s1" || d.Labels[OwningIngressControllerLabel] != "s1" {
		t.Errorf("meta %s/%s labels %v", d.Namespace, d.Name, d.Labels)
	}
	if d.Spec.Selector.MatchLabels[DeploymentLabel] != "s1" || len(d.Spec.Selector.MatchLabels) != 1 {
		t.Errorf("selector %v", d.Spec.Selector)
	}
	spec := d.Spec.Template.Spec
	if !spec.HostNetwork || spec.DNSPolicy != corev1.DNSClusterFirstWithHostNet {
		t.Errorf("hostNetwork %v, dnsPolicy %s", spec.HostNetwork, spec.DNSPolicy)
	}
	ctr := spec.Containers[0]
	e := containerEnv(ctr)
	for k, v := range map[string]string{
		HTTPPortEnv: "10080", HTTPSPortEnv: "10443", StatsPortEnv: "11936",
		"ROUTER_SERVICE_NAME": "s1", "ROUTER_DOMAIN": "s1.shards.test", "ROUTER_CANONICAL_HOSTNAME": "router-s1.s1.shards.test",
	} {
		if e[k] != v {
			t.Errorf("%s = %q, want %q", k, e[k], v)
		}
	}
	ports := map[string][2]int32{}
	for _, p := range ctr.Ports {
		ports[p.Name] = [2]int32{p.ContainerPort, p.HostPort}
	}
	if ports["http"] != [2]int32{10080, 10080} || ports["https"] != [2]int32{10443, 10443} || ports["metrics"] != [2]int32{11936, 11936} {
		t.Errorf("ports %v", ports)
	}
	for _, p := range []*corev1.Probe{ctr.LivenessProbe, ctr.ReadinessProbe, ctr.StartupProbe} {
		if p.HTTPGet.Port.IntVal != 11936 || p.HTTPGet.Host != "localhost" {
			t.Errorf("probe %s on %s:%d, want localhost:11936", p.HTTPGet.Path, p.HTTPGet.Host, p.HTTPGet.Port.IntVal)
		}
	}
	secrets := map[string]bool{}
	for _, v := range spec.Volumes {
		if v.Secret != nil {
			secrets[v.Secret.SecretName] = true
		}
	}
	for _, name := range []string{"router-certs-s1", "router-stats-s1", "router-metrics-certs-s1"} {
		if !secrets[name] {
			t.Errorf("no volume from Secret %s: %v", name, secrets)
		}
	}
	// A live copy is left alone by the next pass.
	if Apply(d, c, desired(t, c)) {
		t.Error("a second Apply changed the shard's pod template")
	}
}

// Omitted ports take upstream's defaults; clashing ports are refused in
// upstream's words.
func TestHostNetworkPorts(t *testing.T) {
	hn, err := EffectiveHostNetwork(shard("s", hostNetwork(0, 0, 0)))
	if err != nil || hn.HTTPPort != 80 || hn.HTTPSPort != 443 || hn.StatsPort != 1936 || hn.Protocol != operatorv1.TCPProtocol {
		t.Errorf("defaults: %+v %v", hn, err)
	}
	c := shard("s", hostNetwork(0, 0, 0))
	c.Spec.EndpointPublishingStrategy.HostNetwork = nil
	if hn, err := EffectiveHostNetwork(c); err != nil || hn.HTTPPort != 80 {
		t.Errorf("no hostNetwork block: %+v %v", hn, err)
	}
	_, err = Desired(shard("s", hostNetwork(10080, 10080, 11936)), nil)
	if err == nil || err.Error() != "the specified HTTPS, HTTP and Stats ports 10080, 10080, 11936 are not unique" {
		t.Errorf("clash: %v", err)
	}
	if hn, err := EffectiveHostNetwork(shard("s", nil)); hn != nil || err != nil {
		t.Errorf("no strategy: %+v %v", hn, err)
	}
}

// The default IngressController's Deployment, as install renders it, is
// exactly what the reconciler keeps.
func TestDefaultRouterIsLeftAsInstallRendersIt(t *testing.T) {
	d := render("router:any")
	if Apply(d, ic(nil), desired(t, ic(nil))) {
		t.Errorf("Apply changed the default router's Deployment")
	}
	if d.Spec.Template.Spec.HostNetwork || d.Spec.Template.Spec.DNSPolicy != corev1.DNSClusterFirst {
		t.Errorf("default router on the host network")
	}
}

func TestShardSecrets(t *testing.T) {
	c := shard("s1", nil)
	cert, err := ShardSecret(c, "router-certs-s1")
	if err != nil {
		t.Fatal(err)
	}
	if cert.Type != corev1.SecretTypeTLS || len(cert.Data["tls.key"]) == 0 || len(cert.Data["ca.crt"]) == 0 || cert.Labels[OwningIngressControllerLabel] != "s1" {
		t.Errorf("default certificate %+v", cert.ObjectMeta)
	}
	if leaf := chainLeaf(t, cert.Data["tls.crt"]); len(leaf.DNSNames) != 1 || leaf.DNSNames[0] != "*.s1.shards.test" {
		t.Errorf("default certificate names %v", leaf.DNSNames)
	}
	stats, err := ShardSecret(c, "router-stats-s1")
	if err != nil || string(stats.Data["statsUsername"]) != "stats" || len(stats.Data["statsPassword"]) != 32 {
		t.Errorf("stats %v %v", stats, err)
	}
	if _, err := ShardSecret(c, "router-certs-default"); err == nil {
		t.Error("another IngressController's Secret was made")
	}
}

// A Private shard binds no node port (upstream's Private strategy), so it
// shares the node with the default router; its router-internal Service
// reaches it.
func TestPrivateShardDeploymentAndService(t *testing.T) {
	c := shard("s2", func(ic *operatorv1.IngressController) {
		ic.Spec.EndpointPublishingStrategy = &operatorv1.EndpointPublishingStrategy{Type: operatorv1.PrivateStrategyType}
	})
	d := ShardDeployment(c, "router:any", desired(t, c))
	spec := d.Spec.Template.Spec
	if spec.HostNetwork {
		t.Error("a Private shard is on the host network")
	}
	for _, p := range spec.Containers[0].Ports {
		if p.HostPort != 0 {
			t.Errorf("port %s has host port %d", p.Name, p.HostPort)
		}
	}
	// Positive control: the default router keeps its host ports.
	def := RouterDeployment(RouterDeploymentOptions{IngressController: "default", Image: "router:any", Domain: "apps.test"})
	if hp := def.Spec.Template.Spec.Containers[0].Ports[0].HostPort; hp != 80 {
		t.Errorf("default router's http host port %d, want 80", hp)
	}
	svc := InternalService("s2")
	if svc.Name != "router-internal-s2" || svc.Namespace != RouterNamespace || svc.Spec.Selector[DeploymentLabel] != "s2" {
		t.Errorf("service %s/%s selector %v", svc.Namespace, svc.Name, svc.Spec.Selector)
	}
	named := map[string]bool{}
	for _, p := range spec.Containers[0].Ports {
		named[p.Name] = true
	}
	for _, p := range svc.Spec.Ports {
		if !named[p.TargetPort.StrVal] {
			t.Errorf("service port %s targets %q, which the router container does not name", p.Name, p.TargetPort.StrVal)
		}
	}
}
