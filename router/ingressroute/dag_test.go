package ingressroute

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/router-conformance/suite/apis/contour/v1alpha1/irtest"
)

// services is the cluster's services, each "ns/name" with port 80.
func services(names ...string) ServiceLookup {
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return func(ns, name string) *corev1.Service {
		if !set[ns+"/"+name] {
			return nil
		}
		return &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}},
		}
	}
}

func secretLookup(secrets ...*corev1.Secret) SecretLookup {
	return func(ns, name string) *corev1.Secret {
		for _, s := range secrets {
			if s.Namespace == ns && s.Name == name {
				return s
			}
		}
		return nil
	}
}

var now = metav1.NewTime(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC))

// served renders the hosts as fqdn -> ["tls ns/secret",] "prefix -> backends"
// in the order the renderer must try them.
func served(r Result) map[string][]string {
	out := map[string][]string{}
	for _, h := range r.Hosts {
		key := strings.Join(h.Names, ",")
		lines := []string{}
		if h.TLSSecret != nil {
			lines = append(lines, "tls "+h.TLSSecret.String())
		}
		for _, rt := range h.Routes {
			var bs []string
			for _, b := range rt.Backends {
				bs = append(bs, fmt.Sprintf("%s/%s:%d", b.Namespace, b.Name, b.Port))
			}
			lines = append(lines, rt.Prefix+" -> "+strings.Join(bs, " "))
		}
		out[key] = lines
	}
	return out
}

// checkStatuses compares statuses with want: "valid", "orphaned", or
// "invalid: <text the description must contain>".
func checkStatuses(t *testing.T, got map[types.NamespacedName]Status, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d statuses, want %d: %+v", len(got), len(want), got)
	}
	for k, w := range want {
		ns, name, _ := strings.Cut(k, "/")
		st, ok := got[types.NamespacedName{Namespace: ns, Name: name}]
		if !ok {
			t.Errorf("%s: no status", k)
			continue
		}
		state, desc, _ := strings.Cut(w, ": ")
		if st.CurrentStatus != state || !strings.Contains(st.Description, desc) {
			t.Errorf("%s: status %q %q, want %q containing %q", k, st.CurrentStatus, st.Description, state, desc)
		}
	}
}

// TestBuild has one case (at least) per rule; the rule letters are the
// issue's ("Delegation: the IngressRoute DAG").
func TestBuild(t *testing.T) {
	all := services("r/s", "r/s2", "r/home", "r/foo", "r/bar", "r/ads-red", "r/ads-blue",
		"x/s", "x/t", "y/s", "z/s", "f/finance-app", "f/finance-static")
	cases := []struct {
		name     string
		objs     []IngressRoute
		services ServiceLookup
		served   map[string][]string
		status   map[string]string
	}{{
		name: "a: a root is served; a vertex nothing delegates to is not",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s")),
			irtest.Vertex("x", "lonely", irtest.Svc("/", "s")),
		},
		served: map[string][]string{"a.com": {"/ -> r/s:80"}},
		status: map[string]string{"r/root": "valid", "x/lonely": "orphaned"},
	}, {
		name: "a: a vertex is served only under the root that delegates to it",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/", "x", "v")),
			irtest.Vertex("x", "v", irtest.Svc("/", "s")),
		},
		served: map[string][]string{"a.com": {"/ -> x/s:80"}},
		status: map[string]string{"r/root": "valid", "x/v": "valid"},
	}, {
		name: "b: most specific prefix first whatever the order",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "home"), irtest.Svc("/foo/bar", "bar"), irtest.Svc("/foo/", "foo")),
		},
		served: map[string][]string{"a.com": {"/foo/bar -> r/bar:80", "/foo -> r/foo:80", "/ -> r/home:80"}},
		status: map[string]string{"r/root": "valid"},
	}, {
		name: "c: delegation in the namespace (namespace defaults) and across namespaces, three levels deep",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s"), irtest.Del("/a", "", "a")),
			irtest.Vertex("r", "a", irtest.Svc("/a", "s2"), irtest.Del("/a/b", "x", "b")),
			irtest.Vertex("x", "b", irtest.Svc("/a/b", "s"), irtest.Del("/a/b/c", "y", "c")),
			irtest.Vertex("y", "c", irtest.Svc("/a/b/c", "s")),
		},
		served: map[string][]string{"a.com": {"/a/b/c -> y/s:80", "/a/b -> x/s:80", "/a -> r/s2:80", "/ -> r/s:80"}},
		status: map[string]string{"r/root": "valid", "r/a": "valid", "x/b": "valid", "y/c": "valid"},
	}, {
		name: "c: a route dispatches only to services of its own namespace",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s"), irtest.Del("/b", "z", "b")),
			// z/s2 does not exist; r/s2 does, and must not be used.
			irtest.Vertex("z", "b", irtest.Svc("/b", "s"), irtest.Svc("/b/c", "s2")),
		},
		served: map[string][]string{"a.com": {"/ -> r/s:80"}},
		status: map[string]string{"r/root": "valid", "z/b": "invalid: service z/s2 not found"},
	}, {
		name: "c: a missing service or port makes the object invalid, naming it",
		objs: []IngressRoute{
			irtest.Root("r", "gone", "a.com", irtest.Svc("/", "s"), irtest.Svc("/x", "nope")),
			irtest.Root("r", "port", "b.com", irtest.Svc("/", "s:8080")),
		},
		status: map[string]string{
			"r/gone": `invalid: route "/x": service r/nope not found`,
			"r/port": "invalid: service r/s has no port 8080",
		},
	}, {
		name: "d: a vertex route outside its delegated prefix invalidates the whole vertex",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s"), irtest.Del("/static", "x", "child")),
			irtest.Vertex("x", "child", irtest.Svc("/static/css", "s"), irtest.Svc("/css", "t")),
		},
		served: map[string][]string{"a.com": {"/ -> r/s:80"}},
		status: map[string]string{
			"r/root":  "valid",
			"x/child": `invalid: route "/css" is outside the prefix "/static" delegated by r/root`,
		},
	}, {
		name: "d: segments, not bytes: /staticfoo is not under /static",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/static", "x", "child")),
			irtest.Vertex("x", "child", irtest.Svc("/staticfoo", "s")),
		},
		served: map[string][]string{"a.com": {}},
		status: map[string]string{"r/root": "valid", "x/child": "invalid: outside the prefix"},
	}, {
		name: "d: a vertex cannot re-delegate a path it was never given",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s"), irtest.Del("/a", "x", "v")),
			irtest.Vertex("x", "v", irtest.Svc("/a", "s"), irtest.Del("/admin", "y", "w")),
			irtest.Vertex("y", "w", irtest.Svc("/admin", "s")),
		},
		served: map[string][]string{"a.com": {"/ -> r/s:80"}},
		status: map[string]string{
			"r/root": "valid",
			"x/v":    `invalid: route "/admin" is outside the prefix "/a" delegated by r/root`,
			"y/w":    "orphaned",
		},
	}, {
		name: "e: vertices no root reaches (directly or through orphans) have no effect",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s")),
			irtest.Vertex("x", "o1", irtest.Svc("/", "s"), irtest.Del("/b", "y", "o2")),
			irtest.Vertex("y", "o2", irtest.Svc("/b", "s")),
		},
		served: map[string][]string{"a.com": {"/ -> r/s:80"}},
		status: map[string]string{"r/root": "valid", "x/o1": "orphaned", "y/o2": "orphaned"},
	}, {
		name: "f: a vertex delegating to itself",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s"), irtest.Del("/a", "x", "a")),
			irtest.Vertex("x", "a", irtest.Svc("/a", "s"), irtest.Del("/a/b", "", "a")),
		},
		served: map[string][]string{"a.com": {"/ -> r/s:80"}},
		status: map[string]string{"r/root": "valid", "x/a": "invalid: delegation cycle: r/root -> x/a -> x/a"},
	}, {
		name: "f: a cycle back up the chain refuses the object that closes it; the rest is served",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s"), irtest.Del("/a", "x", "a")),
			irtest.Vertex("x", "a", irtest.Svc("/a", "s"), irtest.Del("/a/b", "y", "b")),
			irtest.Vertex("y", "b", irtest.Svc("/a/b", "s"), irtest.Del("/a/b/c", "x", "a")),
		},
		served: map[string][]string{"a.com": {"/a -> x/s:80", "/ -> r/s:80"}},
		status: map[string]string{
			"r/root": "valid",
			"x/a":    "valid",
			"y/b":    "invalid: delegation cycle: r/root -> x/a -> y/b -> x/a",
		},
	}, {
		name: "f: a root delegating to another root is refused; the other root is served",
		objs: []IngressRoute{
			irtest.Root("r", "r1", "a.com", irtest.Svc("/", "s"), irtest.Del("/b", "", "r2")),
			irtest.Root("r", "r2", "b.com", irtest.Svc("/b", "s2")),
		},
		served: map[string][]string{"b.com": {"/b -> r/s2:80"}},
		status: map[string]string{
			"r/r1": "invalid: delegation to root IngressRoute r/r2 is not permitted",
			"r/r2": "valid",
		},
	}, {
		// As Contour v1.0.1 processIngressRoutes: a delegation to a root is
		// refused before any cycle is looked for.
		name: "f: a root delegating to itself is a delegation to a root",
		objs: []IngressRoute{
			irtest.Root("r", "r1", "a.com", irtest.Svc("/", "s"), irtest.Del("/b", "", "r1")),
		},
		status: map[string]string{"r/r1": "invalid: delegation to root IngressRoute r/r1 is not permitted"},
	}, {
		name: "f: a vertex delegating to a root that delegates back to it: a delegation to a root, whichever root walks first",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s"), irtest.Del("/a", "", "a")),
			irtest.Vertex("r", "a", irtest.Del("/a", "", "other")),
			irtest.Root("r", "other", "b.com", irtest.Del("/", "", "a")),
		},
		served: map[string][]string{"a.com": {"/ -> r/s:80"}, "b.com": {}},
		status: map[string]string{"r/root": "valid", "r/other": "valid", "r/a": "invalid: delegation to root IngressRoute r/other is not permitted"},
	}, {
		name: "g: two roots with the same fqdn: neither is served",
		objs: []IngressRoute{
			irtest.Root("r", "one", "a.com", irtest.Svc("/", "s")),
			irtest.Root("x", "two", "A.com", irtest.Svc("/", "s")),
			irtest.Root("y", "other", "b.com", irtest.Svc("/", "s")),
		},
		served: map[string][]string{"b.com": {"/ -> y/s:80"}},
		status: map[string]string{
			"r/one":   `invalid: host "a.com" is claimed by several IngressRoutes: r/one, x/two`,
			"x/two":   `invalid: host "a.com" is claimed by several IngressRoutes: r/one, x/two`,
			"y/other": "valid",
		},
	}, {
		name: "g: an alias equal to another root's fqdn or alias",
		objs: []IngressRoute{
			irtest.WithAliases(irtest.Root("r", "one", "a.com", irtest.Svc("/", "s")), "www.a.com", "a.com"),
			irtest.WithAliases(irtest.Root("x", "two", "b.com", irtest.Svc("/", "s")), "www.a.com"),
			irtest.WithAliases(irtest.Root("y", "three", "c.com", irtest.Svc("/", "s")), "b.com"),
			irtest.WithAliases(irtest.Root("z", "fine", "d.com", irtest.Svc("/", "s")), "www.d.com"),
		},
		served: map[string][]string{"d.com,www.d.com": {"/ -> z/s:80"}},
		status: map[string]string{
			"r/one":   `invalid: host "www.a.com" is claimed by several IngressRoutes: r/one, x/two`,
			"x/two":   "invalid: is claimed by several IngressRoutes",
			"y/three": `invalid: host "b.com" is claimed by several IngressRoutes: x/two, y/three`,
			"z/fine":  "valid",
		},
	}, {
		name: "i: delegating to an object that does not exist serves nothing there; the parent stays valid",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/b", "s"), irtest.Del("/a", "x", "missing")),
		},
		served: map[string][]string{"a.com": {"/b -> r/s:80"}},
		status: map[string]string{"r/root": "valid"},
	}, {
		name: "j: several services on one route are all its backends (the design document's /ads)",
		objs: []IngressRoute{
			irtest.Root("r", "google", "www.google.com", irtest.Svc("/ads", "ads-red:80", "ads-blue:80")),
		},
		served: map[string][]string{"www.google.com": {"/ads -> r/ads-red:80 r/ads-blue:80"}},
		status: map[string]string{"r/google": "valid"},
	}, {
		name: "a vertex shared by two roots is served under both",
		objs: []IngressRoute{
			irtest.Root("r", "one", "a.com", irtest.Del("/", "x", "v")),
			irtest.Root("r", "two", "b.com", irtest.Del("/", "x", "v")),
			irtest.Vertex("x", "v", irtest.Svc("/", "s")),
		},
		served: map[string][]string{"a.com": {"/ -> x/s:80"}, "b.com": {"/ -> x/s:80"}},
		status: map[string]string{"r/one": "valid", "r/two": "valid", "x/v": "valid"},
	}, {
		name: "d: validity is per delegation: served where the prefix fits, invalid naming the other parent",
		objs: []IngressRoute{
			irtest.Root("r", "one", "a.com", irtest.Del("/a", "x", "v")),
			irtest.Root("r", "two", "b.com", irtest.Svc("/", "s"), irtest.Del("/b", "x", "v")),
			irtest.Vertex("x", "v", irtest.Svc("/a", "s")),
		},
		served: map[string][]string{"a.com": {"/a -> x/s:80"}, "b.com": {"/ -> r/s:80"}},
		status: map[string]string{
			"r/one": "valid", "r/two": "valid",
			"x/v": `invalid: route "/a" is outside the prefix "/b" delegated by r/two`,
		},
	}, {
		name: "the same prefix claimed twice: the object delegated the longer prefix wins",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/a/b", "s"), irtest.Del("/a", "x", "v"), irtest.Del("/a/b", "y", "w")),
			irtest.Vertex("x", "v", irtest.Svc("/a/b", "s")),
			irtest.Vertex("y", "w", irtest.Svc("/a/b", "s")),
		},
		served: map[string][]string{"a.com": {"/a/b -> y/s:80"}},
		status: map[string]string{"r/root": "valid", "x/v": "valid", "y/w": "valid"},
	}, {
		name: "malformed objects are refused whole, whether the CRD admits them (as v1.0.1's does) or not",
		objs: []IngressRoute{
			irtest.Root("r", "both", "a.com", Route{Match: "/", Services: []Service{{Name: "s", Port: 80}}, Delegate: &Delegate{Name: "v"}}),
			irtest.Root("r", "neither", "b.com", irtest.Svc("/ok", "s"), Route{Match: "/"}),
			irtest.Root("r", "slash", "c.com", irtest.Svc("c", "s")),
			irtest.Root("r", "empty", "d.com"),
			irtest.Root("r", "port", "e.com", irtest.Svc("/", "s:0")),
			irtest.Root("r", "wild", "*.f.com", irtest.Svc("/", "s")),
		},
		status: map[string]string{
			"r/both":    `invalid: route "/" has both service and delegate`,
			"r/neither": `invalid: route "/" has neither service nor delegate`,
			"r/slash":   `invalid: match must start with "/"`,
			"r/empty":   "invalid: spec.routes must be present and not empty",
			"r/port":    "invalid: port 0 is not in 1-65535",
			"r/wild":    `invalid: "*.f.com" is not a valid host name`,
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lookup := all
			if c.services != nil {
				lookup = c.services
			}
			res := Build(c.objs, lookup, nil, now)
			want := c.served
			if want == nil {
				want = map[string][]string{}
			}
			if got := served(res); !reflect.DeepEqual(got, want) {
				t.Errorf("served\n got %q\nwant %q", got, want)
			}
			checkStatuses(t, res.Statuses, c.status)
		})
	}
}

// Rule b: Match is by path segment.
func TestMatch(t *testing.T) {
	for _, c := range []struct {
		prefix, path string
		want         bool
	}{
		{"/foo", "/foo", true},
		{"/foo", "/foo/", true},
		{"/foo", "/foo/bar", true},
		{"/foo", "/foobar", false},
		{"/foo", "/fo", false},
		{"/foo", "/", false},
		{"/foo/", "/foo", true},
		{"/foo/", "/foo/bar", true},
		{"/foo/", "/foobar", false},
		{"/", "/", true},
		{"/", "/anything/at/all", true},
		{"/foo/bar", "/foo/bar/baz", true},
		{"/foo/bar", "/foo/barbaz", false},
	} {
		if got := Match(c.prefix, c.path); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.prefix, c.path, got, c.want)
		}
	}
}

// Rule b: whatever order the routes are declared in, Host.Route (the order
// the renderer uses) picks the most specific prefix.
func TestMostSpecificWhateverTheOrder(t *testing.T) {
	routes := []Route{irtest.Svc("/", "home"), irtest.Svc("/foo", "foo"), irtest.Svc("/foo/bar", "bar")}
	orders := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	want := map[string]string{
		"/": "home", "/foo": "foo", "/foo/": "foo", "/foobar": "home",
		"/foo/bar": "bar", "/foo/bar/baz": "bar", "/foo/barbaz": "foo",
	}
	for _, o := range orders {
		ir := irtest.Root("r", "root", "a.com", routes[o[0]], routes[o[1]], routes[o[2]])
		res := Build([]IngressRoute{ir}, services("r/home", "r/foo", "r/bar"), nil, now)
		if len(res.Hosts) != 1 {
			t.Fatalf("order %v: %d hosts", o, len(res.Hosts))
		}
		for path, backend := range want {
			r := res.Hosts[0].Route(path)
			if r == nil || r.Backends[0].Name != backend {
				t.Errorf("order %v: %s served by %+v, want %s", o, path, r, backend)
			}
		}
	}
}

// A lattice of delegations (every level delegating to both objects of the
// next) is walked once per object and prefix, not once per path.
func TestDiamondsStayCheap(t *testing.T) {
	const levels = 40
	objs := []IngressRoute{irtest.Root("r", "root", "a.com", irtest.Del("/", "", "l0a"), irtest.Del("/", "", "l0b"))}
	for i := 0; i < levels; i++ {
		for _, side := range []string{"a", "b"} {
			routes := []Route{irtest.Svc(fmt.Sprintf("/l%d", i), "s")}
			if i+1 < levels {
				routes = append(routes, irtest.Del("/", "", fmt.Sprintf("l%da", i+1)), irtest.Del("/", "", fmt.Sprintf("l%db", i+1)))
			}
			objs = append(objs, irtest.Vertex("r", fmt.Sprintf("l%d%s", i, side), routes...))
		}
	}
	done := make(chan Result, 1)
	go func() { done <- Build(objs, services("r/s"), nil, now) }()
	select {
	case res := <-done:
		if n := len(res.Hosts[0].Routes); n != levels {
			t.Errorf("%d routes, want %d", n, levels)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Build walks every path of the lattice")
	}
}

// Rule e: statuses of connected and orphaned vertices, and their stability.
func TestDelegationStatuses(t *testing.T) {
	earlier := metav1.NewTime(now.Add(-time.Hour))
	connected := func(ns, name, prefix string, at metav1.Time) DelegationStatus {
		return DelegationStatus{State: DelegationState{Connected: &Connected{
			Parent: Parent{Namespace: ns, Name: name, Prefix: prefix}, ConnectedAt: at}}}
	}
	orphan := func(ref *ObjectRef) DelegationStatus {
		return DelegationStatus{State: DelegationState{Orphaned: &Orphaned{LastParent: ref}}}
	}
	withStatus := func(ir IngressRoute, ds ...DelegationStatus) IngressRoute {
		ir.Status = Status{CurrentStatus: StatusValid, DelegationStatuses: ds}
		return ir
	}
	cases := []struct {
		name string
		objs []IngressRoute
		want Status // of x/v
	}{{
		name: "newly connected: connectedAt is now",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/a", "x", "v")),
			irtest.Vertex("x", "v", irtest.Svc("/a", "s")),
		},
		want: Status{CurrentStatus: StatusValid, Description: descValid,
			DelegationStatuses: []DelegationStatus{connected("r", "root", "/a", now)}},
	}, {
		name: "parent unchanged: connectedAt is kept",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/a", "x", "v")),
			withStatus(irtest.Vertex("x", "v", irtest.Svc("/a", "s")), connected("r", "root", "/a", earlier)),
		},
		want: Status{CurrentStatus: StatusValid, Description: descValid,
			DelegationStatuses: []DelegationStatus{connected("r", "root", "/a", earlier)}},
	}, {
		name: "parent changed its prefix: a new connection",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/", "x", "v")),
			withStatus(irtest.Vertex("x", "v", irtest.Svc("/a", "s")), connected("r", "root", "/a", earlier)),
		},
		want: Status{CurrentStatus: StatusValid, Description: descValid,
			DelegationStatuses: []DelegationStatus{connected("r", "root", "/", now)}},
	}, {
		name: "several parents: one entry each, sorted; a connected but invalid vertex says both",
		objs: []IngressRoute{
			irtest.Root("r", "two", "b.com", irtest.Del("/b", "x", "v")),
			irtest.Root("r", "one", "a.com", irtest.Del("/a", "x", "v")),
			irtest.Vertex("x", "v", irtest.Svc("/a", "s")),
		},
		want: Status{CurrentStatus: StatusInvalid, Description: `route "/a" is outside the prefix "/b" delegated by r/two`,
			DelegationStatuses: []DelegationStatus{connected("r", "one", "/a", now), connected("r", "two", "/b", now)}},
	}, {
		name: "orphaned after being connected: lastParent is the previous parent",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Svc("/", "s")),
			withStatus(irtest.Vertex("x", "v", irtest.Svc("/a", "s")), connected("r", "root", "/a", earlier), connected("r", "root", "/b", earlier)),
		},
		want: Status{CurrentStatus: StatusOrphaned, Description: descOrphaned,
			DelegationStatuses: []DelegationStatus{orphan(&ObjectRef{Namespace: "r", Name: "root"})}},
	}, {
		name: "still orphaned: lastParent is kept",
		objs: []IngressRoute{
			withStatus(irtest.Vertex("x", "v", irtest.Svc("/a", "s")), orphan(&ObjectRef{Namespace: "r", Name: "gone"})),
		},
		want: Status{CurrentStatus: StatusOrphaned, Description: descOrphaned,
			DelegationStatuses: []DelegationStatus{orphan(&ObjectRef{Namespace: "r", Name: "gone"})}},
	}, {
		name: "never connected: orphaned with no lastParent",
		objs: []IngressRoute{irtest.Vertex("x", "v", irtest.Svc("/a", "s"))},
		want: Status{CurrentStatus: StatusOrphaned, Description: descOrphaned,
			DelegationStatuses: []DelegationStatus{orphan(nil)}},
	}, {
		name: "a parent that is not served does not connect",
		objs: []IngressRoute{
			irtest.Root("r", "root", "a.com", irtest.Del("/a", "x", "v"), irtest.Svc("/b", "missing")),
			withStatus(irtest.Vertex("x", "v", irtest.Svc("/a", "s")), connected("r", "root", "/a", earlier)),
		},
		want: Status{CurrentStatus: StatusOrphaned, Description: descOrphaned,
			DelegationStatuses: []DelegationStatus{orphan(&ObjectRef{Namespace: "r", Name: "root"})}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Build(c.objs, services("r/s", "x/s"), nil, now)
			got := res.Statuses[types.NamespacedName{Namespace: "x", Name: "v"}]
			if !StatusEqual(got, c.want) {
				t.Errorf("status\n got %+v\nwant %+v", dump(got), dump(c.want))
			}
			if res.Statuses[types.NamespacedName{Namespace: "r", Name: "root"}].DelegationStatuses != nil {
				t.Error("a root has delegation statuses")
			}
		})
	}
}

func dump(s Status) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %q", s.CurrentStatus, s.Description)
	for _, d := range s.DelegationStatuses {
		if c := d.State.Connected; c != nil {
			fmt.Fprintf(&b, " connected%+v@%s", c.Parent, c.ConnectedAt.UTC().Format(time.RFC3339))
		}
		if o := d.State.Orphaned; o != nil {
			fmt.Fprintf(&b, " orphaned%+v", o.LastParent)
		}
	}
	return b.String()
}

// Rule e: a second Build over the statuses the first one wrote changes
// nothing, even when time has passed.
func TestStatusDoesNotChurn(t *testing.T) {
	objs := []IngressRoute{
		irtest.Root("r", "root", "a.com", irtest.Del("/a", "x", "v")),
		irtest.Vertex("x", "v", irtest.Svc("/a", "s")),
		irtest.Vertex("x", "orphan", irtest.Svc("/a", "s")),
	}
	first := Build(objs, services("x/s"), nil, now)
	for i := range objs {
		objs[i].Status = first.Statuses[keyOf(&objs[i])]
	}
	second := Build(objs, services("x/s"), nil, metav1.NewTime(now.Add(time.Hour)))
	for k, st := range second.Statuses {
		if !StatusEqual(st, first.Statuses[k]) {
			t.Errorf("%s: %s became %s", k, dump(first.Statuses[k]), dump(st))
		}
	}
}

// Rule h: the TLS secret must be a kubernetes.io/tls secret of the root's
// namespace whose certificate and key are a pair. The name is required;
// as Contour v1.0.1 (splitSecret, delegationPermitted) it may be written
// "namespace/name", and another namespace than the root's is refused once
// the secret there is found good (no certificate delegation in this API).
func TestTLS(t *testing.T) {
	cert, key := keyPair(t)
	_, otherKey := keyPair(t)
	secret := func(ns, name string, typ corev1.SecretType, crt, k []byte) *corev1.Secret {
		return &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Type:       typ,
			Data:       map[string][]byte{corev1.TLSCertKey: crt, corev1.TLSPrivateKeyKey: k},
		}
	}
	secrets := secretLookup(
		secret("r", "good", corev1.SecretTypeTLS, cert, key),
		secret("r", "opaque", corev1.SecretTypeOpaque, cert, key),
		secret("r", "mismatch", corev1.SecretTypeTLS, cert, otherKey),
		secret("r", "garbage", corev1.SecretTypeTLS, []byte("not pem"), key),
		secret("r", "nokey", corev1.SecretTypeTLS, cert, nil),
		secret("x", "elsewhere", corev1.SecretTypeTLS, cert, key),
	)
	cases := []struct {
		secret, want string
	}{
		{"good", ""},
		{"missing", "TLS secret r/missing not found"},
		{"elsewhere", "TLS secret r/elsewhere not found"}, // x/elsewhere is another namespace's
		{"opaque", `TLS secret r/opaque is of type "Opaque", not "kubernetes.io/tls"`},
		{"mismatch", "TLS secret r/mismatch: tls.crt and tls.key are not a matching certificate and key"},
		{"garbage", "TLS secret r/garbage: tls.crt and tls.key are not a matching certificate and key"},
		{"nokey", "TLS secret r/nokey: tls.crt and tls.key are not a matching certificate and key"},
		{"", "spec.virtualhost.tls.secretName is required"},
		{"r/good", ""},
		{"/good", ""}, // an empty namespace is the root's
		{"x/elsewhere", "TLS secret x/elsewhere is not in the root's namespace r"},
		{"x/missing", "TLS secret x/missing not found"},
		{"r/missing", "TLS secret r/missing not found"},
	}
	for _, c := range cases {
		t.Run(c.secret, func(t *testing.T) {
			ir := irtest.WithTLS(irtest.Root("r", "root", "a.com", irtest.Svc("/", "s")), c.secret)
			res := Build([]IngressRoute{ir}, services("r/s"), secrets, now)
			st := res.Statuses[keyOf(&ir)]
			if c.want == "" {
				if st.CurrentStatus != StatusValid || len(res.Hosts) != 1 || res.Hosts[0].TLSSecret == nil ||
					*res.Hosts[0].TLSSecret != (types.NamespacedName{Namespace: "r", Name: "good"}) {
					t.Fatalf("got %s, hosts %+v; want valid and served with r/good", dump(st), res.Hosts)
				}
				return
			}
			if st.CurrentStatus != StatusInvalid || !strings.Contains(st.Description, c.want) {
				t.Errorf("got %s, want invalid %q", dump(st), c.want)
			}
			if len(res.Hosts) != 0 {
				t.Errorf("served %+v; an invalid root is served over neither HTTPS nor HTTP", res.Hosts)
			}
		})
	}
}

func keyPair(t *testing.T) (certPEM, keyPEM []byte) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "a.com"},
		DNSNames:     []string{"a.com"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}

// Rule k: StatusEqual.
func TestStatusEqual(t *testing.T) {
	at := metav1.NewTime(now.Time)
	conn := func(prefix string, at metav1.Time) []DelegationStatus {
		return []DelegationStatus{{State: DelegationState{Connected: &Connected{
			Parent: Parent{Namespace: "r", Name: "root", Prefix: prefix}, ConnectedAt: at}}}}
	}
	orph := func(name string) []DelegationStatus {
		var ref *ObjectRef
		if name != "" {
			ref = &ObjectRef{Namespace: "r", Name: name}
		}
		return []DelegationStatus{{State: DelegationState{Orphaned: &Orphaned{LastParent: ref}}}}
	}
	base := Status{CurrentStatus: StatusValid, Description: descValid}
	with := func(f func(*Status)) Status { s := base; f(&s); return s }
	cases := []struct {
		name string
		a, b Status
		want bool
	}{
		{"identical", base, base, true},
		{"nil and empty lists", base, with(func(s *Status) { s.DelegationStatuses = []DelegationStatus{} }), true},
		{"current status", base, with(func(s *Status) { s.CurrentStatus = StatusInvalid }), false},
		{"description", base, with(func(s *Status) { s.Description = "x" }), false},
		{"same connection", with(func(s *Status) { s.DelegationStatuses = conn("/a", at) }),
			with(func(s *Status) { s.DelegationStatuses = conn("/a", at) }), true},
		{"sub-second time the API server drops", with(func(s *Status) { s.DelegationStatuses = conn("/a", at) }),
			with(func(s *Status) { s.DelegationStatuses = conn("/a", metav1.NewTime(at.Add(300*time.Millisecond))) }), true},
		{"connected at another time", with(func(s *Status) { s.DelegationStatuses = conn("/a", at) }),
			with(func(s *Status) { s.DelegationStatuses = conn("/a", metav1.NewTime(at.Add(time.Minute))) }), false},
		{"another prefix", with(func(s *Status) { s.DelegationStatuses = conn("/a", at) }),
			with(func(s *Status) { s.DelegationStatuses = conn("/b", at) }), false},
		{"connected vs orphaned", with(func(s *Status) { s.DelegationStatuses = conn("/a", at) }),
			with(func(s *Status) { s.DelegationStatuses = orph("root") }), false},
		{"same last parent", with(func(s *Status) { s.DelegationStatuses = orph("root") }),
			with(func(s *Status) { s.DelegationStatuses = orph("root") }), true},
		{"another last parent", with(func(s *Status) { s.DelegationStatuses = orph("root") }),
			with(func(s *Status) { s.DelegationStatuses = orph("other") }), false},
		{"last parent vs none", with(func(s *Status) { s.DelegationStatuses = orph("root") }),
			with(func(s *Status) { s.DelegationStatuses = orph("") }), false},
		{"one entry vs none", with(func(s *Status) { s.DelegationStatuses = orph("") }), base, false},
	}
	for _, c := range cases {
		if got := StatusEqual(c.a, c.b); got != c.want {
			t.Errorf("%s: StatusEqual = %v, want %v", c.name, got, c.want)
		}
		if got := StatusEqual(c.b, c.a); got != c.want {
			t.Errorf("%s (swapped): StatusEqual = %v, want %v", c.name, got, c.want)
		}
	}
}
