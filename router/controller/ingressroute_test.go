package controller

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/router/haproxy"
	"github.com/router-conformance/suite/router/ingressroute"
)

// cluster is what Lookups read, keyed "namespace/name".
type cluster struct {
	services map[string]*corev1.Service
	slices   map[string][]*discoveryv1.EndpointSlice
	secrets  map[string]*corev1.Secret
}

func (c *cluster) lookups() Lookups {
	return Lookups{
		Service: func(ns, name string) *corev1.Service { return c.services[ns+"/"+name] },
		Slices:  func(ns, svc string) []*discoveryv1.EndpointSlice { return c.slices[ns+"/"+svc] },
		Secret:  func(ns, name string) *corev1.Secret { return c.secrets[ns+"/"+name] },
	}
}

// addService adds a Service with one port (named portName, "" for none)
// whose targetPort serves at each of addrs.
func (c *cluster) addService(ns, name, portName string, port, target int32, addrs ...string) {
	c.services[ns+"/"+name] = &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: portName, Port: port, TargetPort: intstr.FromInt32(target)}}},
	}
	s := &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name + "-x", Labels: map[string]string{discoveryv1.LabelServiceName: name}},
		Ports:      []discoveryv1.EndpointPort{{Name: ptr.To(portName), Port: ptr.To(target)}},
	}
	for _, a := range addrs {
		s.Endpoints = append(s.Endpoints, discoveryv1.Endpoint{Addresses: []string{a}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)}})
	}
	c.slices[ns+"/"+name] = append(c.slices[ns+"/"+name], s)
}

func newCluster() *cluster {
	return &cluster{services: map[string]*corev1.Service{}, slices: map[string][]*discoveryv1.EndpointSlice{}, secrets: map[string]*corev1.Secret{}}
}

func newCA(t *testing.T, name string) *pki.CA {
	t.Helper()
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: name}})
	if err != nil {
		t.Fatal(err)
	}
	return ca
}

// tlsSecret is a kubernetes.io/tls Secret with a certificate of ca for hosts.
func tlsSecret(t *testing.T, ca *pki.CA, ns, name string, hosts ...string) *corev1.Secret {
	t.Helper()
	leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: hosts})
	if err != nil {
		t.Fatal(err)
	}
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{corev1.TLSCertKey: leaf.CertPEM, corev1.TLSPrivateKeyKey: leaf.KeyPEM},
	}
}

func backend(ns, name string, port int) ingressroute.Backend {
	return ingressroute.Backend{Namespace: ns, Name: name, Port: port}
}

func nn(ns, name string) types.NamespacedName { return types.NamespacedName{Namespace: ns, Name: name} }

func TestTranslateHostsNamesPrefixesTLSAndMergedBackends(t *testing.T) {
	c := newCluster()
	c.addService("ns", "one", "http", 80, 8080, "10.0.0.1")
	c.addService("ns", "three", "", 80, 9090, "10.0.1.3", "10.0.1.1", "10.0.1.2") // unnamed port
	c.secrets["ns/tls"] = tlsSecret(t, newCA(t, "ca"), "ns", "tls", "www.a.test", "a.test")
	owner := nn("ns", "root")
	host := ingressroute.Host{
		Root: owner, Names: []string{"www.a.test", "a.test", "WWW.A.TEST"}, TLSSecret: &types.NamespacedName{Namespace: "ns", Name: "tls"},
		Routes: []ingressroute.HostRoute{
			{Prefix: "/foo/bar", Owner: owner, Backends: []ingressroute.Backend{backend("ns", "one", 80)}},
			{Prefix: "/foo", Owner: owner, Backends: []ingressroute.Backend{backend("ns", "one", 80), backend("ns", "three", 80)}},
			{Prefix: "/", Owner: owner, Backends: []ingressroute.Backend{backend("ns", "three", 80)}},
		},
	}
	routes, errs := TranslateHosts([]ingressroute.Host{host}, c.lookups())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, r := range routes {
		got = append(got, r.Host+r.Path)
		if !r.SegmentMatch || r.Termination != haproxy.Edge || r.InsecurePolicy != haproxy.PolicyRedirect || r.RedirectCode != 301 || len(r.Certificate) == 0 {
			t.Errorf("%s%s: want segment matching, edge with the secret's certificate, 301 redirect: %+v", r.Host, r.Path, r)
		}
		if !strings.HasPrefix(r.Key(), "ns:ingressroute:root:"+r.Host+":") {
			t.Errorf("key %s", r.Key())
		}
	}
	// Names deduplicated case-insensitively, each with every prefix.
	if want := "www.a.test/foo/bar a.test/foo/bar www.a.test/foo a.test/foo www.a.test/ a.test/"; strings.Join(got, " ") != want {
		t.Errorf("routes %q, want %q", strings.Join(got, " "), want)
	}
	// /foo merges both services; each gets half the weight whatever its size.
	var eps []string
	for _, e := range routes[2].Endpoints {
		eps = append(eps, fmt.Sprintf("%s=%s@%d", e.Name, e.Addr, e.Weight))
	}
	if want := "ep1=10.0.0.1:8080@256 ep2=10.0.1.1:9090@85 ep3=10.0.1.2:9090@85 ep4=10.0.1.3:9090@85"; strings.Join(eps, " ") != want {
		t.Errorf("/foo endpoints %q, want %q", strings.Join(eps, " "), want)
	}
	if e := routes[4].Endpoints; len(e) != 3 || e[0].Weight != 0 {
		t.Errorf("one service: plain round robin, got %+v", e)
	}
	if e := routes[0].Endpoints; len(e) != 1 || e[0].Addr != "10.0.0.1:8080" {
		t.Errorf("named port: got %+v", e)
	}
}

func TestTranslateHostsLeavesOutOnlyTheHostItCannotRender(t *testing.T) {
	c := newCluster()
	c.addService("ns", "svc", "http", 80, 8080, "10.0.0.1")
	route := func(prefix string) []ingressroute.HostRoute {
		return []ingressroute.HostRoute{{Prefix: prefix, Owner: nn("ns", "x"), Backends: []ingressroute.Backend{backend("ns", "svc", 80)}}}
	}
	ca := newCA(t, "ca")
	bad := tlsSecret(t, ca, "ns", "bad", "bad.test")
	bad.Data[corev1.TLSPrivateKeyKey] = tlsSecret(t, ca, "ns", "other", "bad.test").Data[corev1.TLSPrivateKeyKey]
	c.secrets["ns/bad"] = bad
	hosts := []ingressroute.Host{
		{Root: nn("ns", "gone"), Names: []string{"gone.test"}, TLSSecret: &types.NamespacedName{Namespace: "ns", Name: "gone"}, Routes: route("/")},
		{Root: nn("ns", "bad"), Names: []string{"bad.test"}, TLSSecret: &types.NamespacedName{Namespace: "ns", Name: "bad"}, Routes: route("/")},
		{Root: nn("ns", "quote"), Names: []string{"quote.test"}, Routes: route("/a'b")},
		{Root: nn("ns", "plain"), Names: []string{"plain.test"}, Routes: route("/")},
	}
	routes, errs := TranslateHosts(hosts, c.lookups())
	if len(errs) != 3 {
		t.Errorf("errors %v, want the missing secret, the mismatched key and the quote", errs)
	}
	if len(routes) != 1 || routes[0].Host != "plain.test" || routes[0].Termination != haproxy.Insecure || len(routes[0].Certificate) != 0 {
		t.Fatalf("routes %+v, want plain.test alone, HTTP only", routes)
	}
	// Service or port missing: served with no endpoints (503), as a Route.
	c.services["ns/svc"].Spec.Ports[0].Port = 81
	if routes, _ := TranslateHosts(hosts[3:], c.lookups()); len(routes) != 1 || len(routes[0].Endpoints) != 0 {
		t.Errorf("service without the port: %+v", routes)
	}
}

// Build's result, translated: the path the controller takes.
func TestTranslateBuildResult(t *testing.T) {
	c := newCluster()
	c.addService("team", "blog", "", 80, 8080, "10.0.0.2")
	c.addService("root", "web", "", 80, 8080, "10.0.0.1")
	irs := []ingressroute.IngressRoute{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "root", Name: "root"}, Spec: ingressroute.Spec{
			VirtualHost: &ingressroute.VirtualHost{Fqdn: "site.test"},
			Routes: []ingressroute.Route{
				{Match: "/", Services: []ingressroute.Service{{Name: "web", Port: 80}}},
				{Match: "/blog", Delegate: &ingressroute.Delegate{Name: "blog", Namespace: "team"}},
			},
		}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "blog"}, Spec: ingressroute.Spec{
			Routes: []ingressroute.Route{{Match: "/blog/", Services: []ingressroute.Service{{Name: "blog", Port: 80}}}},
		}},
	}
	l := c.lookups()
	res := ingressroute.Build(irs, l.Service, l.Secret, metav1.Now())
	routes, errs := TranslateHosts(res.Hosts, l)
	if len(errs) > 0 || len(routes) != 2 {
		t.Fatalf("routes %+v, errors %v", routes, errs)
	}
	if r := routes[0]; r.Path != "/blog" || r.Endpoints[0].Addr != "10.0.0.2:8080" || r.Namespace != "root" {
		t.Errorf("delegated route first, in the root's namespace, to the vertex's service: %+v", r)
	}
	if r := routes[1]; r.Path != "/" || r.Endpoints[0].Addr != "10.0.0.1:8080" {
		t.Errorf("root route: %+v", r)
	}
}

// A Service with two ports whose endpoints differ (one EndpointSlice per
// port, as the delegation/service-named-port spec builds it): a route's
// backend is the endpoints of the port it names, never the other's (as
// Contour v1.0.1's lookupService picks the Service port by number).
func TestTranslateHostsReachesOnlyTheNamedPort(t *testing.T) {
	c := newCluster()
	c.services["r/pair"] = &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "r", Name: "pair"},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{
			{Name: "port-8080", Port: 8080, TargetPort: intstr.FromInt32(8080)},
			{Name: "port-9090", Port: 9090, TargetPort: intstr.FromInt32(8080)},
		}},
	}
	for port, addr := range map[string]string{"port-8080": "10.0.0.1", "port-9090": "10.0.0.2"} {
		c.slices["r/pair"] = append(c.slices["r/pair"], &discoveryv1.EndpointSlice{
			ObjectMeta: metav1.ObjectMeta{Namespace: "r", Name: "pair-" + port, Labels: map[string]string{discoveryv1.LabelServiceName: "pair"}},
			Ports:      []discoveryv1.EndpointPort{{Name: ptr.To(port), Port: ptr.To[int32](8080)}},
			Endpoints:  []discoveryv1.Endpoint{{Addresses: []string{addr}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)}}},
		})
	}
	root := ingressroute.IngressRoute{
		ObjectMeta: metav1.ObjectMeta{Namespace: "r", Name: "root"},
		Spec: ingressroute.Spec{VirtualHost: &ingressroute.VirtualHost{Fqdn: "a.com"}, Routes: []ingressroute.Route{
			{Match: "/first", Services: []ingressroute.Service{{Name: "pair", Port: 8080}}},
			{Match: "/second", Services: []ingressroute.Service{{Name: "pair", Port: 9090}}},
		}},
	}
	res := ingressroute.Build([]ingressroute.IngressRoute{root}, c.lookups().Service, nil, metav1.Now())
	routes, errs := TranslateHosts(res.Hosts, c.lookups())
	if len(errs) != 0 || len(routes) != 2 {
		t.Fatalf("routes %+v, errors %v", routes, errs)
	}
	want := map[string]string{"/first": "10.0.0.1:8080", "/second": "10.0.0.2:8080"}
	for _, r := range routes {
		if len(r.Endpoints) != 1 || r.Endpoints[0].Addr != want[r.Path] {
			t.Errorf("%s: endpoints %+v, want only %s", r.Path, r.Endpoints, want[r.Path])
		}
	}
}
