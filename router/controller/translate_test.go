package controller

import (
	"fmt"
	"strings"
	"testing"

	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/router/haproxy"
)

func route(mod func(*routev1.Route)) *routev1.Route {
	r := &routev1.Route{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r"},
		Spec:       routev1.RouteSpec{Host: "R.apps.test", To: routev1.RouteTargetReference{Kind: "Service", Name: "echo"}},
	}
	if mod != nil {
		mod(r)
	}
	return r
}

var (
	service = &corev1.Service{Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{
		{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080)},
		{Name: "https", Port: 443, TargetPort: intstr.FromInt32(8443)},
	}}}
	slices = []*discoveryv1.EndpointSlice{{
		Ports: []discoveryv1.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080)}, {Name: ptr.To("https"), Port: ptr.To[int32](8443)}},
		Endpoints: []discoveryv1.Endpoint{
			{Addresses: []string{"10.244.0.9"}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)}},
			{Addresses: []string{"10.244.0.7"}},
			{Addresses: []string{"10.244.0.8"}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(false)}},
		},
	}}
)

func TestTranslateSelectsTheTargetPortsReadyEndpoints(t *testing.T) {
	for _, tc := range []struct {
		name   string
		port   *routev1.RoutePort
		expect string
	}{
		{"no port: the first", nil, "10.244.0.7:8080 10.244.0.9:8080"},
		{"by name", &routev1.RoutePort{TargetPort: intstr.FromString("https")}, "10.244.0.7:8443 10.244.0.9:8443"},
		{"by container port", &routev1.RoutePort{TargetPort: intstr.FromInt32(8443)}, "10.244.0.7:8443 10.244.0.9:8443"},
		{"by service port", &routev1.RoutePort{TargetPort: intstr.FromInt32(443)}, "10.244.0.7:8443 10.244.0.9:8443"},
		{"unknown port", &routev1.RoutePort{TargetPort: intstr.FromString("nope")}, ""},
	} {
		got, rej := Translate(route(func(r *routev1.Route) { r.Spec.Port = tc.port }), only(service, slices))
		if rej != nil {
			t.Fatalf("%s: %v", tc.name, rej)
		}
		var addrs []string
		for _, e := range got.Endpoints {
			addrs = append(addrs, e.Addr)
		}
		if strings.Join(addrs, " ") != tc.expect {
			t.Errorf("%s: endpoints %q, want %q", tc.name, addrs, tc.expect)
		}
	}
}

func TestTranslateTerminationsHSTSAndRejections(t *testing.T) {
	ca, _ := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "ca"}})
	leaf, _ := ca.IssueServer(pki.ServerOptions{Hosts: []string{"r.apps.test"}})
	other, _ := ca.IssueServer(pki.ServerOptions{Hosts: []string{"r.apps.test"}})

	edge := route(func(r *routev1.Route) {
		r.Annotations = map[string]string{"haproxy.router.openshift.io/hsts_header": "max-age=60"}
		r.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge, Certificate: string(leaf.CertPEM), Key: string(leaf.KeyPEM),
			InsecureEdgeTerminationPolicy: routev1.InsecureEdgeTerminationPolicyRedirect}
	})
	got, rej := Translate(edge, only(service, slices))
	if rej != nil || got.Termination != haproxy.Edge || got.HSTS != "max-age=60" || got.InsecurePolicy != haproxy.PolicyRedirect || got.Host != "r.apps.test" || len(got.Certificate) == 0 {
		t.Errorf("edge: %+v %v", got, rej)
	}

	passthrough := route(func(r *routev1.Route) {
		r.Annotations = map[string]string{"haproxy.router.openshift.io/hsts_header": "max-age=60"}
		r.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationPassthrough}
	})
	if got, rej := Translate(passthrough, only(service, slices)); rej != nil || got.HSTS != "" {
		t.Errorf("passthrough must carry no HSTS: %+v %v", got, rej)
	}

	reencrypt := route(func(r *routev1.Route) {
		r.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationReencrypt, DestinationCACertificate: string(ca.CertPEM)}
	})
	if got, rej := Translate(reencrypt, only(service, slices)); rej != nil || got.ServiceHostname != "echo.ns.svc" || string(got.DestinationCA) != string(ca.CertPEM) {
		t.Errorf("reencrypt: %+v %v", got, rej)
	}

	for _, tc := range []struct {
		name   string
		route  *routev1.Route
		reason string
	}{
		{"no host", route(func(r *routev1.Route) { r.Spec.Host = "" }), "NoHostSpecified"},
		{"key of another certificate", route(func(r *routev1.Route) {
			r.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge, Certificate: string(leaf.CertPEM), Key: string(other.KeyPEM)}
		}), "ExtendedValidationFailed"},
		{"garbage certificate", route(func(r *routev1.Route) {
			r.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge, Certificate: "not a cert", Key: string(leaf.KeyPEM)}
		}), "ExtendedValidationFailed"},
		{"header actions on passthrough", route(func(r *routev1.Route) {
			r.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationPassthrough}
			r.Spec.HTTPHeaders = &routev1.RouteHTTPHeaders{Actions: routev1.RouteHTTPHeaderActions{Request: []routev1.RouteHTTPHeader{
				{Name: "X-A", Action: routev1.RouteHTTPHeaderActionUnion{Type: routev1.Set, Set: &routev1.RouteSetHTTPHeader{Value: "a"}}},
			}}}
		}), "ExtendedValidationFailed"},
		{"path with a quote", route(func(r *routev1.Route) { r.Spec.Path = "/a'b" }), "ExtendedValidationFailed"},
	} {
		if _, rej := Translate(tc.route, only(service, slices)); rej == nil || rej.Reason != tc.reason {
			t.Errorf("%s: rejection %v, want reason %s", tc.name, rej, tc.reason)
		}
	}

	// Upstream's messages, word for word, where one field is wrong.
	for _, tc := range []struct {
		name    string
		tls     routev1.TLSConfig
		message string
	}{
		{"key of another certificate", routev1.TLSConfig{Termination: routev1.TLSTerminationEdge, Certificate: string(leaf.CertPEM), Key: string(other.KeyPEM)},
			contract.KeyPairMismatchRejection},
		{"destination CA not PEM", routev1.TLSConfig{Termination: routev1.TLSTerminationReencrypt, DestinationCACertificate: "not a certificate"},
			contract.DestinationCAUnparsableRejection},
		{"destination CA with its line breaks written as \\n", routev1.TLSConfig{Termination: routev1.TLSTerminationReencrypt,
			DestinationCACertificate: strings.ReplaceAll(string(ca.CertPEM), "\n", `\n`)}, contract.DestinationCAUnparsableRejection},
	} {
		r := route(func(r *routev1.Route) { r.Spec.TLS = &tc.tls })
		if _, rej := Translate(r, only(service, slices)); rej == nil || rej.Reason != contract.ReasonExtendedValidationFailed || rej.Message != tc.message {
			t.Errorf("%s: rejection %+v, want %s: %s", tc.name, rej, contract.ReasonExtendedValidationFailed, tc.message)
		}
	}
}

// upstream's route backend takes the set-forwarded-headers annotation
// when it is exactly one of the policies (firstMatch, case-sensitive);
// anything else leaves the router's own policy.
func TestTranslateForwardedHeadersAnnotation(t *testing.T) {
	for value, want := range map[string]contract.ForwardedPolicy{
		"append": contract.ForwardedAppend, "replace": contract.ForwardedReplace, "if-none": contract.ForwardedIfNone, "never": contract.ForwardedNever,
		"Replace": "", "replace ": "", "bogus": "", "": "",
	} {
		r := route(func(r *routev1.Route) {
			if value != "" {
				r.Annotations = map[string]string{contract.SetForwardedHeadersAnnotation: value}
			}
		})
		got, rej := Translate(r, only(service, slices))
		if rej != nil || got.ForwardedHeaders != want {
			t.Errorf("annotation %q: policy %q (%v), want %q", value, got.ForwardedHeaders, rej, want)
		}
	}
}

func TestTranslateSessionCookie(t *testing.T) {
	def := contract.DefaultCookieName("ns", "r")
	for _, tc := range []struct {
		name        string
		termination routev1.TLSTerminationType
		insecure    routev1.InsecureEdgeTerminationPolicyType
		annotations map[string]string
		want        *haproxy.Cookie
	}{
		{"plain", "", "", nil, &haproxy.Cookie{Name: def}},
		{"edge", routev1.TLSTerminationEdge, "", nil, &haproxy.Cookie{Name: def, SameSite: "None"}},
		{"edge Redirect", routev1.TLSTerminationEdge, routev1.InsecureEdgeTerminationPolicyRedirect, nil, &haproxy.Cookie{Name: def, SameSite: "None"}},
		{"edge Allow: not secure", routev1.TLSTerminationEdge, routev1.InsecureEdgeTerminationPolicyAllow, nil, &haproxy.Cookie{Name: def}},
		{"reencrypt, named, Strict", routev1.TLSTerminationReencrypt, "", map[string]string{contract.CookieNameAnnotation: "my_cookie-1", contract.CookieSameSiteAnnotation: "Strict"}, &haproxy.Cookie{Name: "my_cookie-1", SameSite: "Strict"}},
		{"bad name and SameSite: defaults", routev1.TLSTerminationEdge, "", map[string]string{contract.CookieNameAnnotation: "a.b", contract.CookieSameSiteAnnotation: "strict"}, &haproxy.Cookie{Name: def, SameSite: "None"}},
		{"plain: no SameSite", "", "", map[string]string{contract.CookieSameSiteAnnotation: "Lax"}, &haproxy.Cookie{Name: def}},
		{"disabled", routev1.TLSTerminationEdge, "", map[string]string{contract.DisableCookiesAnnotation: "true"}, nil},
		{"disabled by 1", "", "", map[string]string{contract.DisableCookiesAnnotation: "1"}, nil},
		{"not disabled by yes", "", "", map[string]string{contract.DisableCookiesAnnotation: "yes"}, &haproxy.Cookie{Name: def}},
		{"passthrough", routev1.TLSTerminationPassthrough, "", nil, nil},
	} {
		r := route(func(r *routev1.Route) {
			r.Annotations = tc.annotations
			if tc.termination != "" {
				r.Spec.TLS = &routev1.TLSConfig{Termination: tc.termination, InsecureEdgeTerminationPolicy: tc.insecure}
			}
		})
		got, rej := Translate(r, only(service, slices))
		if rej != nil {
			t.Errorf("%s: rejected: %v", tc.name, rej)
			continue
		}
		if (got.Cookie == nil) != (tc.want == nil) || (got.Cookie != nil && *got.Cookie != *tc.want) {
			t.Errorf("%s: cookie %+v, want %+v", tc.name, got.Cookie, tc.want)
		}
	}
	// upstream's RoutingKeyName for ns/r: md5(" ns:r").
	if def != "9f4b23239cf893b80f5a8ee8c4855289" {
		t.Errorf("default cookie name %q", def)
	}
}

// The route annotations' settings, per termination: HTTP routes take the
// server timeout, the tunnel timeout and the rewrite; passthrough takes
// timeout-tunnel, else timeout, as its tunnel timeout, and no rewrite;
// every route takes the allowlist, ip_allowlist before ip_whitelist.
func TestTranslateRouteSettings(t *testing.T) {
	annotated := func(termination routev1.TLSTerminationType, a map[string]string) haproxy.Route {
		t.Helper()
		out, rej := Translate(route(func(r *routev1.Route) {
			r.Annotations = a
			r.Spec.Path = "/foo"
			if termination != "" {
				r.Spec.TLS = &routev1.TLSConfig{Termination: termination}
			}
			if termination == routev1.TLSTerminationPassthrough {
				r.Spec.Path = ""
			}
		}), only(service, slices))
		if rej != nil {
			t.Fatal(rej)
		}
		return out
	}
	all := map[string]string{
		contract.TimeoutAnnotation: "2s", contract.TimeoutTunnelAnnotation: "10s", contract.RewriteTargetAnnotation: "/bar",
		contract.IPAllowlistAnnotation: "10.0.0.1", contract.IPWhitelistAnnotation: "10.0.0.2",
	}
	edge := annotated(routev1.TLSTerminationEdge, all)
	if edge.ServerTimeout != "2s" || edge.TunnelTimeout != "10s" || edge.Rewrite == nil || edge.Rewrite.Replacement != `/bar\1` || strings.Join(edge.Allowlist, " ") != "10.0.0.1" {
		t.Errorf("edge: %+v %+v", edge, edge.Rewrite)
	}
	pass := annotated(routev1.TLSTerminationPassthrough, all)
	if pass.ServerTimeout != "" || pass.TunnelTimeout != "10s" || pass.Rewrite != nil || strings.Join(pass.Allowlist, " ") != "10.0.0.1" {
		t.Errorf("passthrough: %+v", pass)
	}
	if pass := annotated(routev1.TLSTerminationPassthrough, map[string]string{contract.TimeoutAnnotation: "2s"}); pass.TunnelTimeout != "2s" {
		t.Errorf("passthrough with timeout alone: tunnel %q, want 2s", pass.TunnelTimeout)
	}
	plain := annotated("", map[string]string{contract.TimeoutAnnotation: "1.5s", contract.RewriteTargetAnnotation: "bar", contract.IPWhitelistAnnotation: "10.0.0.1,10.0.0.2"})
	if plain.ServerTimeout != "" || plain.Rewrite != nil || plain.Allowlist != nil {
		t.Errorf("plain with values the router does not read: %+v", plain)
	}
}

// only finds svc and its slices by any name.
func only(svc *corev1.Service, s []*discoveryv1.EndpointSlice) ServiceLookup {
	return func(string) (*corev1.Service, []*discoveryv1.EndpointSlice) { return svc, s }
}

// Service weights, as upstream's TestCalculateServiceWeights has them:
// shared among a service's endpoints and scaled so that the heaviest
// endpoint weighs 256; one active service weighs 1; weight 0 stays 0.
func TestTranslateServiceWeights(t *testing.T) {
	ready := func(addrs ...string) []*discoveryv1.EndpointSlice {
		s := &discoveryv1.EndpointSlice{Ports: []discoveryv1.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080)}}}
		for _, a := range addrs {
			s.Endpoints = append(s.Endpoints, discoveryv1.Endpoint{Addresses: []string{a}})
		}
		return []*discoveryv1.EndpointSlice{s}
	}
	lookup := map[string][]*discoveryv1.EndpointSlice{
		"a": ready("10.0.0.1"), "b": ready("10.0.1.1"), "two": ready("10.0.2.1", "10.0.2.2"), "none": nil,
	}
	services := func(name string) (*corev1.Service, []*discoveryv1.EndpointSlice) { return service, lookup[name] }
	for _, tc := range []struct {
		name string
		to   routev1.RouteTargetReference
		alt  []routev1.RouteTargetReference
		want string // addr=weight, in address order
	}{
		{"25/75", ref("a", 25), []routev1.RouteTargetReference{ref("b", 75)}, "10.0.0.1=85 10.0.1.1=256"},
		{"50/50 over 1 and 2 endpoints", ref("a", 50), []routev1.RouteTargetReference{ref("two", 50)}, "10.0.0.1=256 10.0.2.1=128 10.0.2.2=128"},
		{"20/60", ref("a", 20), []routev1.RouteTargetReference{ref("b", 60)}, "10.0.0.1=85 10.0.1.1=256"},
		{"one active service", ref("a", 100), []routev1.RouteTargetReference{ref("b", 0)}, "10.0.0.1=1 10.0.1.1=0"},
		{"every weight 0", ref("a", 0), []routev1.RouteTargetReference{ref("b", 0)}, "10.0.0.1=0 10.0.1.1=0"},
		{"a service without endpoints", ref("none", 100), []routev1.RouteTargetReference{ref("b", 100)}, "10.0.1.1=1"},
		{"over 256 clamped", ref("a", 1000), []routev1.RouteTargetReference{ref("b", 128)}, "10.0.0.1=256 10.0.1.1=128"},
		{"a name twice: the last weight", ref("a", 1), []routev1.RouteTargetReference{ref("b", 1), ref("a", 3)}, "10.0.0.1=256 10.0.1.1=85"},
	} {
		r := route(func(r *routev1.Route) { r.Spec.To, r.Spec.AlternateBackends = tc.to, tc.alt })
		got, rej := Translate(r, services)
		if rej != nil {
			t.Fatalf("%s: %v", tc.name, rej)
		}
		var have []string
		for _, e := range got.Endpoints {
			have = append(have, fmt.Sprintf("%s=%d", strings.TrimSuffix(e.Addr, ":8080"), e.Weight))
		}
		if strings.Join(have, " ") != tc.want || !got.Weighted {
			t.Errorf("%s: %s (weighted %v), want %s", tc.name, strings.Join(have, " "), got.Weighted, tc.want)
		}
	}
}

func ref(name string, weight int32) routev1.RouteTargetReference {
	return routev1.RouteTargetReference{Kind: "Service", Name: name, Weight: ptr.To(weight)}
}

// The health checks, as upstream's server lines: only with more than one
// active endpoint (of services weighing more than 0), every
// router.openshift.io/haproxy.health.check.interval that matches the
// time pattern, else 5000ms.
func TestTranslateHealthCheckInterval(t *testing.T) {
	one := []*discoveryv1.EndpointSlice{{Ports: slices[0].Ports, Endpoints: slices[0].Endpoints[:1]}}
	lookup := map[string][]*discoveryv1.EndpointSlice{"two": slices, "one": one, "other": one}
	services := func(name string) (*corev1.Service, []*discoveryv1.EndpointSlice) { return service, lookup[name] }
	for _, tc := range []struct {
		name     string
		interval string
		to       routev1.RouteTargetReference
		alt      []routev1.RouteTargetReference
		want     string
	}{
		{"two endpoints, 1s", "1s", ref("two", 100), nil, "1s"},
		{"two endpoints, no unit", "250", ref("two", 100), nil, "250"},
		{"two endpoints, none", "", ref("two", 100), nil, contract.DefaultHealthCheckInterval},
		{"two endpoints, a fraction", "1.5s", ref("two", 100), nil, contract.DefaultHealthCheckInterval},
		{"one endpoint", "1s", ref("one", 100), nil, ""},
		{"one endpoint each of two services", "1s", ref("one", 1), []routev1.RouteTargetReference{ref("other", 1)}, "1s"},
		{"the other service weighing 0", "1s", ref("one", 1), []routev1.RouteTargetReference{ref("other", 0)}, ""},
	} {
		r := route(func(r *routev1.Route) {
			r.Spec.To, r.Spec.AlternateBackends = tc.to, tc.alt
			if tc.interval != "" {
				r.Annotations = map[string]string{contract.HealthCheckIntervalAnnotation: tc.interval}
			}
		})
		got, rej := Translate(r, services)
		if rej != nil {
			t.Fatalf("%s: %v", tc.name, rej)
		}
		if got.HealthCheckInterval != tc.want {
			t.Errorf("%s: check inter %q, want %q", tc.name, got.HealthCheckInterval, tc.want)
		}
	}
}
