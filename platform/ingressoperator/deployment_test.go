package ingressoperator

import (
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
)

func render(image string) *appsv1.Deployment {
	return RouterDeployment(RouterDeploymentOptions{IngressController: "default", Image: image, Domain: "apps.example.test"})
}

func TestRouterDeploymentCarriesTheUpstreamOperatorsEnvironment(t *testing.T) {
	c := render("router:any").Spec.Template.Spec.Containers[0]
	got := map[string]string{}
	for _, e := range c.Env {
		if _, dup := got[e.Name]; dup {
			t.Errorf("%s is set twice", e.Name)
		}
		got[e.Name] = e.Value
	}
	// cluster-ingress-operator pkg/operator/controller/ingress/deployment.go
	// for a default IngressController on the container network.
	want := map[string]string{
		"ROUTER_SERVICE_NAMESPACE":                 "openshift-ingress",
		"ROUTER_SERVICE_NAME":                      "default",
		"DEFAULT_CERTIFICATE_DIR":                  "/etc/pki/tls/private",
		"DEFAULT_DESTINATION_CA_PATH":              "/var/run/configmaps/service-ca/service-ca.crt",
		"STATS_USERNAME_FILE":                      "/var/lib/haproxy/conf/metrics-auth/statsUsername",
		"STATS_PASSWORD_FILE":                      "/var/lib/haproxy/conf/metrics-auth/statsPassword",
		"ROUTER_METRICS_TYPE":                      "haproxy",
		"ROUTER_METRICS_TLS_CERT_FILE":             "/etc/pki/tls/metrics-certs/tls.crt",
		"ROUTER_METRICS_TLS_KEY_FILE":              "/etc/pki/tls/metrics-certs/tls.key",
		"ROUTER_LOAD_BALANCE_ALGORITHM":            "random",
		"ROUTER_TCP_BALANCE_SCHEME":                "source",
		"ROUTER_DOMAIN":                            "apps.example.test",
		"ROUTER_CANONICAL_HOSTNAME":                "router-default.apps.example.test",
		"ROUTER_THREADS":                           "4",
		"RELOAD_INTERVAL":                          "5s",
		"STATS_PORT":                               "1936",
		"SSL_MIN_VERSION":                          "TLSv1.2",
		"ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK": "false",
		"ROUTER_ALLOW_WILDCARD_ROUTES":             "false",
		"ROUTER_SET_FORWARDED_HEADERS":             "append",
		"ROUTER_DISABLE_HTTP2":                     "true",
		"ROUTER_ENABLE_EXTERNAL_CERTIFICATE":       "true",
		"ROUTER_METRICS_TLS_MIN_VERSION":           "VersionTLS12",
	}
	for name, value := range want {
		if got[name] != value {
			t.Errorf("%s = %q, want %q", name, got[name], value)
		}
	}
	// The intermediate TLS profile, split as upstream splits it.
	if got["ROUTER_CIPHERSUITES"] != "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256" {
		t.Errorf("ROUTER_CIPHERSUITES = %q", got["ROUTER_CIPHERSUITES"])
	}
	if got["ROUTER_CIPHERS"] == "" || strings.Contains(got["ROUTER_CIPHERS"], "TLS_AES") {
		t.Errorf("ROUTER_CIPHERS = %q, want the TLS 1.2 ciphers only", got["ROUTER_CIPHERS"])
	}
	if !strings.HasPrefix(got["ROUTER_METRICS_TLS_CIPHERS"], "TLS_AES_128_GCM_SHA256:") || strings.Contains(got["ROUTER_METRICS_TLS_CIPHERS"], "ECDHE-") {
		t.Errorf("ROUTER_METRICS_TLS_CIPHERS = %q, want IANA names", got["ROUTER_METRICS_TLS_CIPHERS"])
	}
	for _, never := range []string{"ROUTER_LISTEN_ADDR", "ROUTER_NAME", "ROUTER_MUTUAL_TLS_AUTH", "ROUTER_HAPROXY_ADMIN_UNIX_SOCKET"} {
		if _, ok := got[never]; ok {
			t.Errorf("%s is set; upstream does not set it for a default IngressController", never)
		}
	}
}

func TestRouterDeploymentMountsProbesAndPorts(t *testing.T) {
	d := render("router:any")
	spec := d.Spec.Template.Spec
	c := spec.Containers[0]
	mounts := map[string]string{}
	for _, m := range c.VolumeMounts {
		mounts[m.Name] = m.MountPath
		if !m.ReadOnly {
			t.Errorf("mount %s is writable", m.Name)
		}
	}
	sources := map[string]string{}
	for _, v := range spec.Volumes {
		switch {
		case v.Secret != nil:
			sources[v.Name] = "secret/" + v.Secret.SecretName
		case v.ConfigMap != nil:
			sources[v.Name] = "configmap/" + v.ConfigMap.Name
		default:
			t.Errorf("volume %s is neither a Secret nor a ConfigMap (an emptyDir would hide the image's own files)", v.Name)
		}
	}
	for name, want := range map[string][2]string{
		"default-certificate": {"/etc/pki/tls/private", "secret/router-certs-default"},
		"service-ca-bundle":   {"/var/run/configmaps/service-ca", "configmap/service-ca-bundle"},
		"stats-auth":          {"/var/lib/haproxy/conf/metrics-auth", "secret/router-stats-default"},
		"metrics-certs":       {"/etc/pki/tls/metrics-certs", "secret/router-metrics-certs-default"},
	} {
		if mounts[name] != want[0] || sources[name] != want[1] {
			t.Errorf("volume %s: mounted at %q from %q, want %q from %q", name, mounts[name], sources[name], want[0], want[1])
		}
	}
	for _, p := range []struct {
		probe *corev1.Probe
		path  string
	}{{c.LivenessProbe, "/healthz"}, {c.ReadinessProbe, "/healthz/ready"}, {c.StartupProbe, "/healthz/ready"}} {
		if p.probe == nil || p.probe.HTTPGet == nil || p.probe.HTTPGet.Path != p.path || p.probe.HTTPGet.Port.IntVal != StatsPort {
			t.Errorf("probe %+v, want GET %s on %d", p.probe, p.path, StatsPort)
		}
	}
	ports := map[string][2]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = [2]int32{p.ContainerPort, p.HostPort}
	}
	if ports["http"] != [2]int32{80, 80} || ports["https"] != [2]int32{443, 443} || ports["metrics"] != [2]int32{1936, 0} {
		t.Errorf("ports %v", ports)
	}
	if spec.ServiceAccountName != "router" || d.Spec.Template.Labels[DeploymentLabel] != "default" {
		t.Errorf("service account %q, labels %v", spec.ServiceAccountName, d.Spec.Template.Labels)
	}
}

func TestEveryRouterImageGetsTheSameDeployment(t *testing.T) {
	reference, other := render("router-conformance/router:abc"), render("router-conformance/openshift-router:4b401a86d")
	if other.Spec.Template.Spec.Containers[0].Image != "router-conformance/openshift-router:4b401a86d" {
		t.Fatalf("image not set")
	}
	other.Spec.Template.Spec.Containers[0].Image = reference.Spec.Template.Spec.Containers[0].Image
	if !equality.Semantic.DeepEqual(reference, other) {
		t.Errorf("the Deployment differs by more than the image")
	}
}

func TestApplyingAnIngressControllerKeepsTheUpstreamDeployment(t *testing.T) {
	d := render("router:any")
	before := len(d.Spec.Template.Spec.Containers[0].Env)
	c := &operatorv1.IngressController{}
	c.Name = "default"
	c.Spec.ClientTLS.ClientCertificatePolicy = operatorv1.ClientCertificatePolicyOptional
	c.Spec.ClientTLS.ClientCA.Name = "ca"
	if !Apply(d, c, desired(t, c)) {
		t.Fatal("Apply changed nothing")
	}
	spec := d.Spec.Template.Spec
	if got := len(spec.Containers[0].Env); got != before+2 {
		t.Errorf("env has %d entries, want the %d upstream defaults and ROUTER_MUTUAL_TLS_AUTH{,_CA}", got, before)
	}
	if len(spec.Volumes) != 5 || spec.Volumes[4].ConfigMap == nil || spec.Volumes[4].ConfigMap.Name != "router-client-ca-default" {
		t.Errorf("volumes %+v, want the upstream four and the client CA", spec.Volumes)
	}
}

func TestRouterRBACIsUpstreamsNotClusterAdmin(t *testing.T) {
	var role *rbacv1.ClusterRole
	bound := map[string]bool{}
	for _, obj := range RouterRBAC() {
		switch o := obj.(type) {
		case *rbacv1.ClusterRole:
			role = o
		case *rbacv1.ClusterRoleBinding:
			if len(o.Subjects) != 1 || o.Subjects[0].Name != "router" || o.Subjects[0].Namespace != "openshift-ingress" {
				t.Errorf("binding %s subjects %+v", o.Name, o.Subjects)
			}
			bound[o.RoleRef.Name] = true
		}
	}
	if role == nil || !bound[role.Name] || !bound["system:auth-delegator"] || bound["cluster-admin"] || len(bound) != 2 {
		t.Fatalf("bindings %v", bound)
	}
	for _, r := range role.Rules {
		for _, v := range r.Verbs {
			if v == "*" || v == "create" || v == "delete" {
				t.Errorf("rule %+v grants %s", r, v)
			}
		}
		for _, res := range r.Resources {
			if res == "secrets" || res == "*" {
				t.Errorf("rule %+v reaches %s", r, res)
			}
		}
	}
	if len(role.Rules) != 4 {
		t.Errorf("%d rules, want deploy/router_rbac.yaml's three and EndpointSlices", len(role.Rules))
	}
}
