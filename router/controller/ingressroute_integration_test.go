package controller

import (
	"context"
	"net"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/router-conformance/suite/router/haproxy/haproxytest"

	routev1 "github.com/openshift/api/route/v1"
	routefake "github.com/openshift/client-go/route/clientset/versioned/fake"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/router/haproxy"
	"github.com/router-conformance/suite/router/ingressroute"
)

// The controller with fake API clients and a real HAProxy: a TLS root
// with an alias delegating /foo to a vertex in another namespace, a second
// TLS root, an HTTP-only root and a Route side by side; echo backends on
// 127.0.0.1 are the services' endpoints, each answering with its name.

// TestMain turns off client-go's streaming list: the Route fake clientset
// of openshift/client-go cannot say that it lacks it, and its informer
// would wait for a bookmark that never comes.
func TestMain(m *testing.M) {
	os.Setenv("KUBE_FEATURE_WatchListClient", "false")
	os.Exit(m.Run())
}

type irWorld struct {
	base            haproxy.Config
	dyn             *dynamicfake.FakeDynamicClient
	ctrl            *Controller
	siteCA, otherCA *pki.CA
	logs            logs
}

// echoService adds a Service whose one endpoint is an echo backend
// answering as name.
func echoService(t *testing.T, c *cluster, ns, name string) {
	t.Helper()
	srv := httptest.NewServer(echo.Handler{Listener: name})
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	p, _ := strconv.Atoi(port)
	c.addService(ns, name, "http", 80, int32(p), "127.0.0.1")
}

func services(names ...string) (out []ingressroute.Service) {
	for _, n := range names {
		out = append(out, ingressroute.Service{Name: n, Port: 80})
	}
	return out
}

func rootIR(name, fqdn, secret string, aliases []string, routes ...ingressroute.Route) ingressroute.IngressRoute {
	vh := &ingressroute.VirtualHost{Fqdn: fqdn, Aliases: aliases}
	if secret != "" {
		vh.TLS = &ingressroute.TLS{SecretName: secret}
	}
	return ingressroute.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "web", Name: name}, Spec: ingressroute.Spec{VirtualHost: vh, Routes: routes}}
}

// kubeObjects are the services, their endpoints and the TLS secrets.
func (w *irWorld) kubeObjects(t *testing.T) []runtime.Object {
	c := newCluster()
	for _, svc := range []string{"web/root", "web/red", "team/red", "team/blue", "team/green"} {
		ns, name, _ := strings.Cut(svc, "/")
		echoService(t, c, ns, name)
	}
	var objs []runtime.Object
	for _, s := range c.services {
		objs = append(objs, s)
	}
	for _, ss := range c.slices {
		objs = append(objs, ss[0])
	}
	w.siteCA, w.otherCA = newCA(t, "site CA"), newCA(t, "other CA")
	return append(objs, tlsSecret(t, w.siteCA, "web", "site-tls", "site.test", "www.site.test"),
		tlsSecret(t, w.otherCA, "web", "other-tls", "other.test"))
}

func (w *irWorld) ingressRoutes(t *testing.T) []runtime.Object {
	var objs []runtime.Object
	for _, ir := range []ingressroute.IngressRoute{
		rootIR("site", "site.test", "site-tls", []string{"www.site.test"},
			ingressroute.Route{Match: "/", Services: services("root")},
			ingressroute.Route{Match: "/foo", Delegate: &ingressroute.Delegate{Name: "foo", Namespace: "team"}}),
		// Least specific first: the order of the list must not matter.
		{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "foo"}, Spec: ingressroute.Spec{Routes: []ingressroute.Route{
			{Match: "/foo", Services: services("red", "blue")},
			{Match: "/foo/bar", Services: services("green")},
		}}},
		rootIR("other", "other.test", "other-tls", nil, ingressroute.Route{Match: "/", Services: services("red")}),
		rootIR("plain", "plain.test", "", nil, ingressroute.Route{Match: "/", Services: services("red")}),
	} {
		objs = append(objs, unstructuredIR(t, ir))
	}
	return objs
}

func startIRWorld(t *testing.T) *irWorld {
	w := &irWorld{}
	kube := kubefake.NewClientset(w.kubeObjects(t)...)
	kube.Resources = []*metav1.APIResourceList{{
		GroupVersion: ingressroute.GroupVersion.String(),
		APIResources: []metav1.APIResource{{Name: ingressroute.Plural, Namespaced: true, Kind: ingressroute.Kind}},
	}}
	legacy := &routev1.Route{
		ObjectMeta: metav1.ObjectMeta{Namespace: "web", Name: "legacy"},
		Spec:       routev1.RouteSpec{Host: "route.test", To: routev1.RouteTargetReference{Kind: "Service", Name: "root"}},
	}
	w.dyn = fakeDynamic(w.ingressRoutes(t)...)
	defaultCert, err := newCA(t, "default CA").IssueServer(pki.ServerOptions{Hosts: []string{"*.default.test"}})
	if err != nil {
		t.Fatal(err)
	}
	w.base = haproxy.Config{HTTPBind: haproxytest.FreeAddr(t), HTTPSBind: haproxytest.FreeAddr(t), StatsBind: haproxytest.FreeAddr(t), Dir: t.TempDir(), DefaultCertificate: defaultCert.HAProxyPEM()}
	var output syncWriter
	proxy := &haproxy.Process{Binary: haproxytest.Binary(t), Dir: w.base.Dir, Output: &output}
	w.ctrl = &Controller{
		Kube: kube, Routes: routefake.NewClientset(legacy), Dynamic: w.dyn, Base: w.base, Proxy: proxy,
		RouterName: "default", Coalesce: 20 * time.Millisecond, Logf: w.logs.logf,
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = w.ctrl.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		proxy.Stop()
		if t.Failed() {
			t.Logf("controller:\n%s\nhaproxy:\n%s", strings.Join(w.logs.lines, "\n"), output.String())
		}
	})
	return w
}

// syncWriter collects HAProxy's output from its goroutines.
type syncWriter struct{ logs }

func (s *syncWriter) Write(p []byte) (int, error) {
	s.logf("%s", p)
	return len(p), nil
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.lines, "")
}

func (w *irWorld) get(t *testing.T, r httpclient.Request) *httpclient.Response {
	t.Helper()
	r.Addr = w.base.HTTPBind
	if r.HTTPS {
		r.Addr = w.base.HTTPSBind
	}
	r.Timeout = 10 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), r.Timeout)
	defer cancel()
	resp, err := httpclient.Do(ctx, r)
	if err != nil {
		t.Fatalf("%s%s: %v", r.Host, r.Path, err)
	}
	return resp
}

// answers sends n requests and counts the backends that answered ("" for
// an answer that is not the echo's, by status).
func (w *irWorld) answers(t *testing.T, r httpclient.Request, n int) map[string]int {
	t.Helper()
	got := map[string]int{}
	for range n {
		resp := w.get(t, r)
		if resp.Echo == nil || resp.Status != 200 {
			got["status "+strconv.Itoa(resp.Status)]++
			continue
		}
		got[resp.Echo.Listener]++
	}
	return got
}

func (w *irWorld) waitServed(t *testing.T, r httpclient.Request, backend string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := httpclient.Do(context.Background(), withAddr(r, w.base)); err == nil && resp.Echo != nil && resp.Echo.Listener == backend {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s%s never answered by %s", r.Host, r.Path, backend)
}

func withAddr(r httpclient.Request, base haproxy.Config) httpclient.Request {
	r.Addr, r.Timeout = base.HTTPBind, 2*time.Second
	if r.HTTPS {
		r.Addr = base.HTTPSBind
	}
	return r
}

func TestIngressRoutesServedByHAProxy(t *testing.T) {
	w := startIRWorld(t)
	site := func(path string) httpclient.Request {
		return httpclient.Request{HTTPS: true, Host: "site.test", Path: path, RootCAs: pki.Pool(w.siteCA)}
	}
	w.waitServed(t, site("/foo/bar"), "green")

	t.Run("segments, most specific first", func(t *testing.T) {
		for path, want := range map[string]string{
			"/": "root", "/foobar": "root", "/foo/bar": "green", "/foo/bar/": "green", "/foo/bar/x": "green",
			"/foo": "red|blue", "/foo/": "red|blue", "/foo/x": "red|blue", "/foo/barista": "red|blue",
		} {
			for backend := range w.answers(t, site(path), 2) {
				if !strings.Contains("|"+want+"|", "|"+backend+"|") {
					t.Errorf("%s answered by %s, want %s", path, backend, want)
				}
			}
		}
	})
	t.Run("every service of a route receives traffic", func(t *testing.T) {
		if got := w.answers(t, site("/foo"), 10); got["red"] != 5 || got["blue"] != 5 {
			t.Errorf("10 requests to /foo: %v, want red and blue alike", got)
		}
	})
	t.Run("SNI selects each root's certificate", func(t *testing.T) {
		for _, r := range []httpclient.Request{
			site("/foo/bar"),
			{HTTPS: true, Host: "www.site.test", Path: "/foo/bar", RootCAs: pki.Pool(w.siteCA)},
			{HTTPS: true, Host: "other.test", RootCAs: pki.Pool(w.otherCA)},
		} {
			resp := w.get(t, r) // verified against the root's CA for r.Host
			if resp.Status != 200 || resp.TLS.PeerCertificates[0].VerifyHostname(r.Host) != nil {
				t.Errorf("%s: status %d, certificate %v", r.Host, resp.Status, resp.TLS.PeerCertificates[0].DNSNames)
			}
		}
	})
	t.Run("plain HTTP", func(t *testing.T) {
		resp := w.get(t, httpclient.Request{Host: "site.test", Path: "/foo?q=1"})
		if resp.Status != 301 || resp.Header.Get("Location") != "https://site.test/foo?q=1" {
			t.Errorf("TLS root over HTTP: %d %q, want a 301 to https", resp.Status, resp.Header.Get("Location"))
		}
		for _, tc := range []struct {
			r    httpclient.Request
			want string
		}{
			{httpclient.Request{Host: "plain.test", Path: "/x"}, "red"},
			{httpclient.Request{HTTPS: true, Host: "plain.test", Path: "/x"}, "status 503"}, // no TLS: HTTP only
			{httpclient.Request{Host: "route.test"}, "root"},                                // the Route, alongside
			{httpclient.Request{Host: "nope.test"}, "status 503"},
		} {
			if got := w.answers(t, tc.r, 1); got[tc.want] != 1 {
				t.Errorf("%s %s: %v, want %s", map[bool]string{true: "https", false: "http"}[tc.r.HTTPS], tc.r.Host, got, tc.want)
			}
		}
	})
	t.Run("status", func(t *testing.T) { w.checkStatus(t) })
}

// checkStatus: every object valid, the vertex connected to its parent; a
// later sync rewrites nothing.
func (w *irWorld) checkStatus(t *testing.T) {
	get := func(ns, name string) *unstructured.Unstructured {
		u, err := w.dyn.Resource(ingressroute.GroupVersionResource).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	for _, k := range []string{"web/site", "team/foo", "web/other", "web/plain"} {
		ns, name, _ := strings.Cut(k, "/")
		if s, _, _ := unstructured.NestedString(get(ns, name).Object, "status", "currentStatus"); s != ingressroute.StatusValid {
			t.Errorf("%s: currentStatus %q", k, s)
		}
	}
	ds, _, _ := unstructured.NestedSlice(get("team", "foo").Object, "status", "delegationStatuses")
	if len(ds) != 1 {
		t.Fatalf("vertex delegationStatuses %v, want one", ds)
	}
	parent, _, _ := unstructured.NestedStringMap(ds[0].(map[string]any), "state", "connected", "parent")
	if parent["name"] != "site" || parent["namespace"] != "web" || parent["prefix"] != "/foo" {
		t.Errorf("vertex delegationStatuses %v", ds)
	}
	writes := len(statusWrites(w.dyn.Actions()))
	syncs := w.logs.count("haproxy serves")
	_ = w.ctrl.Reload(context.Background())
	for deadline := time.Now().Add(10 * time.Second); w.logs.count("haproxy serves") == syncs; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no sync after a reload request")
		}
	}
	if n := len(statusWrites(w.dyn.Actions())); n != writes {
		t.Errorf("a sync with nothing changed wrote %d statuses", n-writes)
	}
}
