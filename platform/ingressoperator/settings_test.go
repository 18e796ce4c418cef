package ingressoperator

import (
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
)

func ic(mod func(*operatorv1.IngressController)) *operatorv1.IngressController {
	c := &operatorv1.IngressController{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: OperatorNamespace}}
	if mod != nil {
		mod(c)
	}
	return c
}

func env(s Settings) map[string]string {
	out := map[string]string{}
	for _, e := range s.Env {
		out[e.Name] = e.Value
	}
	return out
}

func TestDesiredEnvFollowsTheUpstreamOperator(t *testing.T) {
	c := ic(func(c *operatorv1.IngressController) {
		c.Spec.ClientTLS = operatorv1.ClientTLS{
			ClientCertificatePolicy: operatorv1.ClientCertificatePolicyRequired,
			ClientCA:                configv1.ConfigMapNameReference{Name: "client-ca"},
			AllowedSubjectPatterns:  []string{"^/CN=a$", "/OU=Eng/"},
		}
		c.Spec.HTTPHeaders = &operatorv1.IngressControllerHTTPHeaders{Actions: operatorv1.IngressControllerHTTPHeaderActions{
			Request: []operatorv1.IngressControllerHTTPHeader{
				{Name: "X-A", Action: operatorv1.IngressControllerHTTPHeaderActionUnion{Type: operatorv1.Set, Set: &operatorv1.IngressControllerSetHTTPHeader{Value: "a,b"}}},
				{Name: "X-B", Action: operatorv1.IngressControllerHTTPHeaderActionUnion{Type: operatorv1.Delete}},
			},
			Response: []operatorv1.IngressControllerHTTPHeader{
				{Name: "X-C", Action: operatorv1.IngressControllerHTTPHeaderActionUnion{Type: operatorv1.Set, Set: &operatorv1.IngressControllerSetHTTPHeader{Value: "%[res.hdr(X-Value),lower]"}}},
			},
		}}
		c.Spec.HTTPHeaders.UniqueId = operatorv1.IngressControllerHTTPUniqueIdHeaderPolicy{Name: "X-Unique-Id"}
		c.Spec.HTTPHeaders.HeaderNameCaseAdjustments = []operatorv1.IngressControllerHTTPHeaderNameCaseAdjustment{"X-Forwarded-For", "Cache-Control"}
		c.Spec.TuningOptions = operatorv1.IngressControllerTuningOptions{HeaderBufferBytes: 65536, HeaderBufferMaxRewriteBytes: 40000}
	})
	got := env(desired(t, c))
	want := map[string]string{
		"ROUTER_BUF_SIZE":               "65536",
		"ROUTER_UNIQUE_ID_HEADER_NAME":  "X-Unique-Id",
		"ROUTER_UNIQUE_ID_FORMAT":       `"%{+X}o %ci:%cp_%fi:%fp_%Ts_%rt:%pid"`,
		"ROUTER_MAX_REWRITE_SIZE":       "40000",
		"ROUTER_MUTUAL_TLS_AUTH":        "required",
		"ROUTER_MUTUAL_TLS_AUTH_CA":     "/etc/pki/tls/client-ca/ca-bundle.pem",
		"ROUTER_MUTUAL_TLS_AUTH_FILTER": "(?:^/CN=a$|/OU=Eng/)",
		"ROUTER_HTTP_REQUEST_HEADERS":   "X-A:a%2Cb:Set,X-B:Delete",
		"ROUTER_HTTP_RESPONSE_HEADERS":  "X-C:%25%5Bres.hdr%28X-Value%29%2Clower%5D:Set",
		"ROUTER_H1_CASE_ADJUST":         "X-Forwarded-For,Cache-Control",
	}
	if len(got) != len(want) {
		t.Errorf("env = %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	optional := ic(func(c *operatorv1.IngressController) {
		c.Spec.ClientTLS.ClientCertificatePolicy = operatorv1.ClientCertificatePolicyOptional
	})
	if got := env(desired(t, optional)); got["ROUTER_MUTUAL_TLS_AUTH"] != "optional" || got["ROUTER_MUTUAL_TLS_AUTH_FILTER"] != "" {
		t.Errorf("optional: %v", got)
	}
	if got := desired(t, ic(nil)); len(got.Env) != 0 || got.ClientCA {
		t.Errorf("no clientTLS, no headers: %+v", got)
	}
}

func TestApplyOwnsOnlyItsEnvAndVolume(t *testing.T) {
	d := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{Name: RouterContainer, Env: []corev1.EnvVar{{Name: "ROUTER_NAME", Value: "default"}, {Name: "ROUTER_MUTUAL_TLS_AUTH", Value: "stale"}}}},
		Volumes:    []corev1.Volume{{Name: "work"}},
	}}}}
	c := ic(func(c *operatorv1.IngressController) {
		c.Spec.ClientTLS = operatorv1.ClientTLS{ClientCertificatePolicy: operatorv1.ClientCertificatePolicyRequired, ClientCA: configv1.ConfigMapNameReference{Name: "ca"}}
	})
	if !Apply(d, c, desired(t, c)) {
		t.Fatal("first apply reported no change")
	}
	if Apply(d, c, desired(t, c)) {
		t.Error("second identical apply reported a change")
	}
	// An edit of the bundle is the mounted copy's to carry, never a
	// rollout (upstream's desiredRouterDeployment has no hash of it).
	if Apply(d, c, desired(t, c)) {
		t.Error("the same clientTLS changed the pod template")
	}
	ctr := d.Spec.Template.Spec.Containers[0]
	e := map[string]string{}
	for _, v := range ctr.Env {
		e[v.Name] = v.Value
	}
	// Plus the two routeAdmission variables and ROUTER_SET_FORWARDED_HEADERS
	// every router has (appended here: this Deployment lacked them).
	if e["ROUTER_NAME"] != "default" || e["ROUTER_MUTUAL_TLS_AUTH"] != "required" || e["ROUTER_SET_FORWARDED_HEADERS"] != "append" || len(ctr.Env) != 6 {
		t.Errorf("env = %v", ctr.Env)
	}
	if len(d.Spec.Template.Spec.Volumes) != 2 || len(ctr.VolumeMounts) != 1 {
		t.Errorf("volumes %v, mounts %v", d.Spec.Template.Spec.Volumes, ctr.VolumeMounts)
	}
	// Removing clientTLS removes the mount, the volume and the variables.
	Apply(d, c, desired(t, ic(nil)))
	if len(d.Spec.Template.Spec.Volumes) != 1 || len(d.Spec.Template.Spec.Containers[0].Env) != 4 {
		t.Errorf("after removal: %+v", d.Spec.Template.Spec)
	}
}

// cluster-ingress-operator desiredRouterDeployment: routeAdmission to
// ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK and ROUTER_ALLOW_WILDCARD_ROUTES,
// with the defaults Strict and WildcardsDisallowed; set in place, so the
// default IngressController's router keeps its template, and a change of
// policy is a new template (a rollout).
func TestRouteAdmissionSetsTheRoutersSwitchesInPlace(t *testing.T) {
	for _, c := range []struct {
		name                   string
		admission              *operatorv1.RouteAdmissionPolicy
		disableOwnership, wild string
	}{
		{"unset", nil, "false", "false"},
		{"empty", &operatorv1.RouteAdmissionPolicy{}, "false", "false"},
		{"WildcardsAllowed", &operatorv1.RouteAdmissionPolicy{WildcardPolicy: operatorv1.WildcardPolicyAllowed}, "false", "true"},
		{"WildcardsDisallowed", &operatorv1.RouteAdmissionPolicy{WildcardPolicy: operatorv1.WildcardPolicyDisallowed}, "false", "false"},
		{"InterNamespaceAllowed", &operatorv1.RouteAdmissionPolicy{NamespaceOwnership: operatorv1.InterNamespaceAllowedOwnershipCheck}, "true", "false"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := render("router:any")
			before := append([]corev1.EnvVar(nil), d.Spec.Template.Spec.Containers[0].Env...)
			spec := ic(func(ic *operatorv1.IngressController) { ic.Spec.RouteAdmission = c.admission })
			changed := Apply(d, spec, desired(t, spec))
			after := d.Spec.Template.Spec.Containers[0].Env
			if len(after) != len(before) {
				t.Fatalf("env grew from %d to %d variables", len(before), len(after))
			}
			for i := range after {
				if after[i].Name != before[i].Name {
					t.Errorf("variable %d is %s, was %s: the order changed", i, after[i].Name, before[i].Name)
				}
			}
			got := map[string]string{}
			for _, e := range after {
				got[e.Name] = e.Value
			}
			if got["ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK"] != c.disableOwnership || got["ROUTER_ALLOW_WILDCARD_ROUTES"] != c.wild {
				t.Errorf("ownership check disabled %q, wildcards %q; want %q, %q", got["ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK"], got["ROUTER_ALLOW_WILDCARD_ROUTES"], c.disableOwnership, c.wild)
			}
			if wantChange := c.disableOwnership == "true" || c.wild == "true"; changed != wantChange {
				t.Errorf("Apply reported change %v, want %v", changed, wantChange)
			}
		})
	}
}

// cluster-ingress-operator desiredRouterDeployment: forwardedHeaderPolicy
// to ROUTER_SET_FORWARDED_HEADERS (append when unset), set in place like
// the routeAdmission switches: the default IngressController's router
// keeps its template, another policy is a new template (a rollout).
func TestForwardedHeaderPolicySetsTheRoutersDefaultInPlace(t *testing.T) {
	for _, c := range []struct {
		headers *operatorv1.IngressControllerHTTPHeaders
		want    string
	}{
		{nil, "append"},
		{&operatorv1.IngressControllerHTTPHeaders{}, "append"},
		{&operatorv1.IngressControllerHTTPHeaders{ForwardedHeaderPolicy: operatorv1.AppendHTTPHeaderPolicy}, "append"},
		{&operatorv1.IngressControllerHTTPHeaders{ForwardedHeaderPolicy: operatorv1.ReplaceHTTPHeaderPolicy}, "replace"},
		{&operatorv1.IngressControllerHTTPHeaders{ForwardedHeaderPolicy: operatorv1.IfNoneHTTPHeaderPolicy}, "if-none"},
		{&operatorv1.IngressControllerHTTPHeaders{ForwardedHeaderPolicy: operatorv1.NeverHTTPHeaderPolicy}, "never"},
	} {
		name := "unset"
		if c.headers != nil {
			name = "policy " + string(c.headers.ForwardedHeaderPolicy)
		}
		t.Run(name, func(t *testing.T) {
			d := render("router:any")
			before := append([]corev1.EnvVar(nil), d.Spec.Template.Spec.Containers[0].Env...)
			spec := ic(func(ic *operatorv1.IngressController) { ic.Spec.HTTPHeaders = c.headers })
			changed := Apply(d, spec, desired(t, spec))
			after := d.Spec.Template.Spec.Containers[0].Env
			if len(after) != len(before) {
				t.Fatalf("env grew from %d to %d variables", len(before), len(after))
			}
			for i := range after {
				if after[i].Name != before[i].Name {
					t.Errorf("variable %d is %s, was %s: the order changed", i, after[i].Name, before[i].Name)
				}
				if after[i].Name == "ROUTER_SET_FORWARDED_HEADERS" && after[i].Value != c.want {
					t.Errorf("ROUTER_SET_FORWARDED_HEADERS = %q, want %q", after[i].Value, c.want)
				}
			}
			if wantChange := c.want != "append"; changed != wantChange {
				t.Errorf("Apply reported change %v, want %v", changed, wantChange)
			}
		})
	}
}

// desired is Desired for a spec that must render.
func desired(t *testing.T, c *operatorv1.IngressController) Settings {
	t.Helper()
	s, err := Desired(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ROUTER_HARD_STOP_AFTER, as upstream's HardStopAfterIsEnabled: the
// IngressController's annotation when time.ParseDuration reads it (or it
// is whole days), else the Ingress config's; clipped to HAProxy's
// largest timeout; none for an empty or unreadable value.
func TestHardStopAfterEnv(t *testing.T) {
	config := func(v string) *configv1.Ingress {
		return &configv1.Ingress{ObjectMeta: metav1.ObjectMeta{Name: "cluster", Annotations: map[string]string{contract.HardStopAfterAnnotation: v}}}
	}
	for _, c := range []struct {
		name      string
		ic        string // "" none
		ingConfig *configv1.Ingress
		want      string // "" none
	}{
		{"the IngressController's", "3s", nil, "3s"},
		{"the Ingress config's", "", config("1m30s"), "1m30s"},
		{"the IngressController's wins", "3s", config("1h"), "3s"},
		{"an unreadable one falls back to the config's", "3 s", config("1h"), "1h"},
		{"days", "2d", nil, "2d"},
		{"clipped", "30d", nil, "2147483647ms"},
		{"a number without a unit", "30", nil, ""},
		{"neither", "", nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ic := &operatorv1.IngressController{ObjectMeta: metav1.ObjectMeta{Name: "shard"}}
			if c.ic != "" {
				ic.Annotations = map[string]string{contract.HardStopAfterAnnotation: c.ic}
			}
			s, err := Desired(ic, c.ingConfig)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, e := range s.Env {
				if e.Name == contract.HardStopAfterEnv {
					got = e.Value
				}
			}
			if got != c.want {
				t.Errorf("%s = %q, want %q", contract.HardStopAfterEnv, got, c.want)
			}
		})
	}
}
