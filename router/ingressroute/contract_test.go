package ingressroute

import (
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/router-conformance/suite/apis/contour/v1alpha1/irtest"
	"github.com/router-conformance/suite/contract"
)

// Every invalid status the conformance specs match carries one of the
// accepted wordings of its condition (contract/ingressroute_status.go):
// the reference router's is in the suite's table, and the spec accepts it.
func TestDescriptionsMatchTheContract(t *testing.T) {
	cert, key := keyPair(t)
	secrets := secretLookup(&corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: "r", Name: "opaque"},
		Type:       corev1.SecretTypeOpaque,
		Data:       map[string][]byte{corev1.TLSCertKey: cert, corev1.TLSPrivateKeyKey: key},
	}, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: "x", Name: "www-tls"},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{corev1.TLSCertKey: cert, corev1.TLSPrivateKeyKey: key},
	})
	cases := []struct {
		name   string
		objs   []IngressRoute
		object string
		want   contract.StatusDescription
	}{{
		name: "a service route outside the delegated prefix",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/team", "x", "team")),
			irtest.Vertex("x", "team", irtest.Svc("/team", "s"), irtest.Svc("/other", "s")),
		},
		object: "x/team", want: contract.IngressRouteOutsidePrefix("/other", "/team", "r/root"),
	}, {
		name: "a delegate route outside the delegated prefix",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/team", "x", "team")),
			irtest.Vertex("x", "team", irtest.Svc("/team", "s"), irtest.Del("/admin", "y", "admin")),
			irtest.Vertex("y", "admin", irtest.Svc("/admin", "s")),
		},
		object: "x/team", want: contract.IngressRouteOutsidePrefix("/admin", "/team", "r/root"),
	}, {
		name: "a route past the delegated prefix's segment boundary",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/team", "x", "team")),
			irtest.Vertex("x", "team", irtest.Svc("/teamx", "s")),
		},
		object: "x/team", want: contract.IngressRouteOutsidePrefix("/teamx", "/team", "r/root"),
	}, {
		name: "a service only another namespace has",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/team", "x", "team")),
			irtest.Vertex("x", "team", irtest.Svc("/team", "home")),
		},
		object: "x/team", want: contract.IngressRouteServiceNotFound("x", "home", 80),
	}, {
		name:   "a port the service does not have",
		objs:   []IngressRoute{irtest.Root("r", "root", "a.com", irtest.Svc("/", "s:8080"))},
		object: "r/root", want: contract.IngressRouteServicePortAbsent("r", "s", 8080),
	}, {
		name: "a vertex delegating to itself",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s"), irtest.Del("/a", "", "a")),
			irtest.Vertex("r", "a", irtest.Del("/a", "", "a")),
		},
		object: "r/a", want: contract.IngressRouteCycle("r/root", "r/a", "r/a"),
	}, {
		name: "a vertex delegating back up the chain",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s"), irtest.Del("/a", "", "a")),
			irtest.Vertex("r", "a", irtest.Del("/a", "", "b")),
			irtest.Vertex("r", "b", irtest.Del("/a", "", "a")),
		},
		object: "r/b", want: contract.IngressRouteCycle("r/root", "r/a", "r/b", "r/a"),
	}, {
		name: "a vertex delegating to another root",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s"), irtest.Del("/a", "", "a")),
			irtest.Vertex("r", "a", irtest.Del("/a", "", "other-root")),
			irtest.Root("r", "other-root", "b.com", irtest.Del("/", "", "a")),
		},
		object: "r/a", want: contract.IngressRouteDelegatesToRoot("r/other-root"),
	}, {
		name: "two roots with one fqdn",
		objs: []IngressRoute{
			irtest.Root("r", "second", "www.a.com", irtest.Svc("/", "s")),
			irtest.Root("r", "first", "www.a.com", irtest.Svc("/", "s")),
		},
		object: "r/second", want: contract.IngressRouteFqdnConflict("www.a.com", "r/first", "r/second"),
	}, {
		name:   "a TLS secret that does not exist",
		objs:   []IngressRoute{irtest.WithTLS(irtest.Root("r", "root", "a.com", irtest.Svc("/", "s")), "missing-tls")},
		object: "r/root", want: contract.IngressRouteTLSSecretNotFound("r", "missing-tls"),
	}, {
		name:   "a TLS secret that is not kubernetes.io/tls",
		objs:   []IngressRoute{irtest.WithTLS(irtest.Root("r", "root", "a.com", irtest.Svc("/", "s")), "opaque")},
		object: "r/root", want: contract.IngressRouteTLSSecretWrongType("r", "opaque", "Opaque"),
	}, {
		name:   "tls without a secretName",
		objs:   []IngressRoute{irtest.WithTLS(irtest.Root("r", "root", "a.com", irtest.Svc("/", "s")), "")},
		object: "r/root", want: contract.IngressRouteTLSSecretNameMissing(),
	}, {
		name:   "a TLS secret only another namespace has, named plainly",
		objs:   []IngressRoute{irtest.WithTLS(irtest.Root("r", "root", "a.com", irtest.Svc("/", "s")), "www-tls")},
		object: "r/root", want: contract.IngressRouteTLSSecretNotFound("r", "www-tls"),
	}, {
		name:   "a TLS secret of another namespace, named namespace/name",
		objs:   []IngressRoute{irtest.WithTLS(irtest.Root("r", "root", "a.com", irtest.Svc("/", "s")), "x/www-tls")},
		object: "r/root", want: contract.IngressRouteTLSSecretOtherNamespace("r", "x", "www-tls"),
	}, {
		name:   "a route with both service and delegate",
		objs:   []IngressRoute{irtest.Root("r", "root", "a.com", irtest.Svc("/ok", "s"), Route{Match: "/both", Services: []Service{{Name: "s", Port: 80}}, Delegate: &Delegate{Name: "v"}})},
		object: "r/root", want: contract.IngressRouteServiceAndDelegate("/both"),
	}, {
		name:   "a route with neither service nor delegate",
		objs:   []IngressRoute{irtest.Root("r", "root", "a.com", irtest.Svc("/ok", "s"), Route{Match: "/none"})},
		object: "r/root", want: contract.IngressRouteNoServiceOrDelegate("/none"),
	}, {
		name:   "a root without routes",
		objs:   []IngressRoute{irtest.Root("r", "root", "a.com")},
		object: "r/root", want: contract.IngressRouteRoutesMissing(),
	}, {
		name: "a vertex with an empty list of routes",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/app", "x", "app")),
			{ObjectMeta: metav1.ObjectMeta{Namespace: "x", Name: "app"}, Spec: Spec{Routes: []Route{}}},
		},
		object: "x/app", want: contract.IngressRouteRoutesMissing(),
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Build(c.objs, services("r/s", "x/s", "y/s", "r/home"), secrets, now)
			ns, name, _ := strings.Cut(c.object, "/")
			st := res.Statuses[types.NamespacedName{Namespace: ns, Name: name}]
			if st.CurrentStatus != c.want.CurrentStatus || !c.want.Matches(st.Description) {
				t.Errorf("%s: %s %q, want %s", c.object, st.CurrentStatus, st.Description, c.want)
			}
		})
	}
}

// The delegation specs' scenarios, as Build sees them.
func TestDelegationSpecScenarios(t *testing.T) {
	cert, key := keyPair(t)
	good := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: "r", Name: "tls"},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{corev1.TLSCertKey: cert, corev1.TLSPrivateKeyKey: key},
	}
	cases := []struct {
		name    string
		objs    []IngressRoute
		secrets SecretLookup
		served  map[string][]string
		status  map[string]string
		parents map[string][]Parent
	}{{
		name: "the children of a root with a missing TLS secret are orphaned, and nothing is served",
		objs: []IngressRoute{
			irtest.WithTLS(irtest.Root("r", "root", "a.com", irtest.Del("/app", "x", "child")), "tls"),
			irtest.Vertex("x", "child", irtest.Svc("/app", "s")),
		},
		status: map[string]string{"r/root": "invalid: TLS secret r/tls not found", "x/child": "orphaned"},
	}, {
		name: "positive control: the secret exists, the child is connected and served",
		objs: []IngressRoute{
			irtest.WithTLS(irtest.Root("r", "root", "a.com", irtest.Del("/app", "x", "child")), "tls"),
			irtest.Vertex("x", "child", irtest.Svc("/app", "s")),
		},
		secrets: secretLookup(good),
		served:  map[string][]string{"a.com": {"tls r/tls", "/app -> x/s:80"}},
		status:  map[string]string{"r/root": "valid", "x/child": "valid"},
		parents: map[string][]Parent{"x/child": {{Namespace: "r", Name: "root", Prefix: "/app"}}},
	}, {
		name: "a bad route after the delegation rejects the whole root: its child is orphaned",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/app", "x", "child"), irtest.Svc("/broken", "absent")),
			irtest.Vertex("x", "child", irtest.Svc("/app", "s")),
		},
		status: map[string]string{"r/root": "invalid: service r/absent not found", "x/child": "orphaned"},
	}, {
		name: "an invalid child leaves its valid siblings served",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/good", "x", "good"), irtest.Del("/bad", "x", "bad")),
			irtest.Vertex("x", "good", irtest.Svc("/good", "s")),
			irtest.Vertex("x", "bad", irtest.Svc("/bad", "absent")),
		},
		served: map[string][]string{"a.com": {"/good -> x/s:80"}},
		status: map[string]string{"r/root": "valid", "x/good": "valid", "x/bad": "invalid: service x/absent not found"},
	}, {
		name: "a vertex two roots delegate / to is served under both and names both parents",
		objs: []IngressRoute{
			irtest.Root("r", "www", "www.a.com", irtest.Del("/", "x", "site")),
			irtest.Root("r", "bare", "a.com", irtest.Del("/", "x", "site")),
			irtest.Vertex("x", "site", irtest.Svc("/", "s"), irtest.Svc("/static", "s")),
		},
		served: map[string][]string{
			"www.a.com": {"/static -> x/s:80", "/ -> x/s:80"},
			"a.com":     {"/static -> x/s:80", "/ -> x/s:80"},
		},
		status:  map[string]string{"r/www": "valid", "r/bare": "valid", "x/site": "valid"},
		parents: map[string][]Parent{"x/site": {{Namespace: "r", Name: "bare", Prefix: "/"}, {Namespace: "r", Name: "www", Prefix: "/"}}},
	}, {
		name: "a root whose TLS secret only the namespace it delegates / to has: invalid, the vertex orphaned",
		objs: []IngressRoute{
			irtest.WithTLS(irtest.Root("r", "root", "a.com", irtest.Del("/", "x", "site")), "tls"),
			irtest.Vertex("x", "site", irtest.Svc("/", "s")),
		},
		secrets: secretLookup(inNamespace(good, "x")),
		status:  map[string]string{"r/root": "invalid: TLS secret r/tls not found", "x/site": "orphaned"},
	}, {
		name: "the same, named x/tls: invalid, the vertex orphaned",
		objs: []IngressRoute{
			irtest.WithTLS(irtest.Root("r", "root", "a.com", irtest.Del("/", "x", "site")), "x/tls"),
			irtest.Vertex("x", "site", irtest.Svc("/", "s")),
		},
		secrets: secretLookup(inNamespace(good, "x")),
		status:  map[string]string{"r/root": "invalid: TLS secret x/tls is not in the root's namespace r", "x/site": "orphaned"},
	}, {
		name: "positive control: the secret in the root's namespace, / delegated to x is served over TLS",
		objs: []IngressRoute{
			irtest.WithTLS(irtest.Root("r", "root", "a.com", irtest.Del("/", "x", "site")), "tls"),
			irtest.Vertex("x", "site", irtest.Svc("/", "s")),
		},
		secrets: secretLookup(good, inNamespace(good, "x")),
		served:  map[string][]string{"a.com": {"tls r/tls", "/ -> x/s:80"}},
		status:  map[string]string{"r/root": "valid", "x/site": "valid"},
		parents: map[string][]Parent{"x/site": {{Namespace: "r", Name: "root", Prefix: "/"}}},
	}, {
		name: "No ability to prevent route delegation: a vertex of a TLS root re-delegated from a host without TLS is served there in the clear",
		objs: []IngressRoute{
			irtest.WithTLS(irtest.Root("r", "google", "www.google.com", irtest.Del("/mail", "x", "gmail")), "tls"),
			irtest.Root("r", "dave", "dave.cheney.net", irtest.Del("/", "y", "webapp")),
			irtest.Vertex("y", "webapp", irtest.Del("/mail", "x", "gmail")),
			irtest.Vertex("x", "gmail", irtest.Svc("/mail", "s")),
		},
		secrets: secretLookup(good),
		served: map[string][]string{
			"www.google.com":  {"tls r/tls", "/mail -> x/s:80"},
			"dave.cheney.net": {"/mail -> x/s:80"},
		},
		status: map[string]string{"r/google": "valid", "r/dave": "valid", "y/webapp": "valid", "x/gmail": "valid"},
		parents: map[string][]Parent{
			"x/gmail":  {{Namespace: "r", Name: "google", Prefix: "/mail"}, {Namespace: "y", Name: "webapp", Prefix: "/mail"}},
			"y/webapp": {{Namespace: "r", Name: "dave", Prefix: "/"}},
		},
	}, {
		name: "a valid route listed before a malformed one is not served either",
		objs: []IngressRoute{
			irtest.Root("r", "both", "a.com", irtest.Svc("/ok", "s"), Route{Match: "/both", Services: []Service{{Name: "s", Port: 80}}, Delegate: &Delegate{Name: "v", Namespace: "x"}}),
			irtest.Root("r", "neither", "b.com", irtest.Svc("/ok", "s"), Route{Match: "/none"}),
			irtest.Root("r", "port", "c.com", irtest.Svc("/ok", "s"), irtest.Svc("/port", "s:7070")),
			irtest.Vertex("x", "v", irtest.Svc("/both", "s")),
		},
		status: map[string]string{
			"r/both":    `invalid: route "/both" has both service and delegate`,
			"r/neither": `invalid: route "/none" has neither service nor delegate`,
			"r/port":    "invalid: service r/s has no port 7070",
			"x/v":       "orphaned",
		},
	}, {
		name: "/teamx is not under a delegated /team; /team and /team/x are",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/team", "x", "bad"), irtest.Del("/team/", "y", "good")),
			irtest.Vertex("x", "bad", irtest.Svc("/teamx", "s")),
			irtest.Vertex("y", "good", irtest.Svc("/team", "s"), irtest.Svc("/team/x", "s")),
		},
		served: map[string][]string{"a.com": {"/team/x -> y/s:80", "/team -> y/s:80"}},
		status: map[string]string{"r/root": "valid", "x/bad": `invalid: route "/teamx" is outside the prefix "/team"`, "y/good": "valid"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Build(c.objs, services("r/s", "x/s", "y/s"), c.secrets, now)
			want := c.served
			if want == nil {
				want = map[string][]string{}
			}
			if got := served(res); !reflect.DeepEqual(got, want) {
				t.Errorf("served\n got %q\nwant %q", got, want)
			}
			checkStatuses(t, res.Statuses, c.status)
			for k, ps := range c.parents {
				ns, name, _ := strings.Cut(k, "/")
				var got []Parent
				for _, d := range res.Statuses[types.NamespacedName{Namespace: ns, Name: name}].DelegationStatuses {
					if d.State.Connected != nil {
						got = append(got, d.State.Connected.Parent)
					}
				}
				if !reflect.DeepEqual(got, ps) {
					t.Errorf("%s: connected to %+v, want %+v", k, got, ps)
				}
			}
		})
	}
}

// inNamespace is a copy of s in namespace ns.
func inNamespace(s *corev1.Secret, ns string) *corev1.Secret {
	c := s.DeepCopy()
	c.Namespace = ns
	return c
}
