package controller

import (
	"crypto/tls"
	"errors"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/router/haproxy"
	"github.com/router-conformance/suite/router/ingressroute"
)

// Lookups is what the IngressRoute translation reads from the cluster:
// the controller's listers, or maps in tests. Each returns nil when the
// object does not exist.
type Lookups struct {
	Service func(namespace, name string) *corev1.Service
	// Slices returns the EndpointSlices of the named Service.
	Slices func(namespace, service string) []*discoveryv1.EndpointSlice
	Secret func(namespace, name string) *corev1.Secret
}

// TranslateHosts turns the hosts ingressroute.Build serves into HAProxy
// routes: one per host name (fqdn and aliases) and prefix, matching whole
// path segments. A host that cannot be rendered (its secret changed since
// Build read it, a prefix HAProxy cannot hold) is left out whole, like an
// invalid root, and reported; the other hosts are unaffected.
func TranslateHosts(hosts []ingressroute.Host, l Lookups) ([]haproxy.Route, []error) {
	var out []haproxy.Route
	var errs []error
	if faults.On("delegation.tls-vertex-not-served-insecurely") {
		hosts = withoutTLSOwners(hosts)
	}
	for i := range hosts {
		routes, err := translateHost(&hosts[i], l)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, routes...)
	}
	return out, errs
}

// withoutTLSOwners drops from every host without TLS the routes of an
// object that a host with TLS also serves.
func withoutTLSOwners(hosts []ingressroute.Host) []ingressroute.Host {
	secure := map[types.NamespacedName]bool{}
	for _, h := range hosts {
		for _, hr := range h.Routes {
			if h.TLSSecret != nil {
				secure[hr.Owner] = true
			}
		}
	}
	out := make([]ingressroute.Host, len(hosts))
	for i, h := range hosts {
		out[i] = h
		if h.TLSSecret != nil {
			continue
		}
		out[i].Routes = nil
		for _, hr := range h.Routes {
			if !secure[hr.Owner] {
				out[i].Routes = append(out[i].Routes, hr)
			}
		}
	}
	return out
}

// translateHost renders one host. A root with a TLS secret is edge
// terminated with that certificate, chosen by SNI (the crt-list holds it
// for each name). Plain HTTP to it is redirected with a 301, as shipped
// Contour does: "When TLS is enabled for a virtual host, any request to
// the insecure port is redirected to the secure interface with a 301
// redirect" (projectcontour/contour v1.0.1 site/_docs_1_0/ingressroute.md,
// TLS; internal/dag/builder.go marks every route of a secure vhost
// HTTPSUpgrade unless permitInsecure, and internal/envoy/route.go
// UpgradeHTTPS answers with Envoy's https_redirect: host, path and query
// kept). The design document's API has no permitInsecure, so every route
// redirects. A root without TLS is HTTP
// only: its names get the default certificate and no route over HTTPS.
func translateHost(h *ingressroute.Host, l Lookups) ([]haproxy.Route, error) {
	var cert []byte
	if s := h.TLSSecret; s != nil && !faults.On("delegation.tls-root-without-certificate") {
		var err error
		if cert, err = secretPEM(l.Secret(s.Namespace, s.Name)); err != nil {
			return nil, fmt.Errorf("IngressRoute %s: TLS secret %s: %w", h.Root, s, err)
		}
	}
	var out []haproxy.Route
	for i, hr := range h.Routes {
		eps := backendEndpoints(hr.Backends, l)
		for _, name := range hostNames(h.Names) {
			r := haproxy.Route{
				Namespace: h.Root.Namespace,
				// No Route's name holds ":", so no key collides with a Route's.
				Name: fmt.Sprintf("ingressroute:%s:%s:%d", h.Root.Name, name, i),
				Host: name, Path: hr.Prefix, SegmentMatch: true, Endpoints: eps,
			}
			if cert != nil && !(faults.On("delegation.delegated-routes-not-tls") && hr.Owner != h.Root) {
				r.Termination, r.Certificate = haproxy.Edge, cert
				r.InsecurePolicy, r.RedirectCode = haproxy.PolicyRedirect, 301
			}
			if err := r.Validate(); err != nil {
				return nil, fmt.Errorf("IngressRoute %s (root %s): %w", hr.Owner, h.Root, err)
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// hostNames lowercases and deduplicates: an alias may repeat the fqdn
// (Build accepts that), and one name must give one backend.
func hostNames(names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.ToLower(n)
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// secretPEM is a kubernetes.io/tls Secret as HAProxy loads it: the chain,
// then the key. It is checked again because the cache may have changed
// since Build validated it, and a bad file would stop HAProxy loading.
func secretPEM(s *corev1.Secret) ([]byte, error) {
	if s == nil {
		return nil, errors.New("not found")
	}
	crt, key := s.Data[corev1.TLSCertKey], s.Data[corev1.TLSPrivateKeyKey]
	if _, err := tls.X509KeyPair(crt, key); err != nil {
		return nil, err
	}
	return []byte(strings.TrimRight(string(crt), "\n") + "\n" + strings.TrimRight(string(key), "\n") + "\n"), nil
}

// backendEndpoints merges the ready endpoints of every service of a route
// into one HAProxy backend. Without weights shipped Contour splits a
// route's traffic evenly between its services, whatever their sizes
// (projectcontour/contour v1.0.1 site/_docs_1_0/ingressroute.md, Upstream
// Weighting), so with several services each endpoint of a service of n
// endpoints weighs 256/n (256 is HAProxy's largest weight).
func backendEndpoints(backends []ingressroute.Backend, l Lookups) []haproxy.Endpoint {
	var out []haproxy.Endpoint
	if faults.On("delegation.only-first-service") && len(backends) > 1 {
		backends = backends[:1]
	}
	for _, b := range backends {
		addrs := serviceAddrs(l.Service(b.Namespace, b.Name), b.Port, l.Slices(b.Namespace, b.Name))
		weight := 0
		if len(backends) > 1 && len(addrs) > 0 {
			weight = max(1, 256/len(addrs))
		}
		for _, a := range addrs {
			out = append(out, haproxy.Endpoint{Addr: a, Weight: weight})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	for i := range out {
		out[i].Name = fmt.Sprintf("ep%d", i+1)
	}
	return out
}

// serviceAddrs are the ready addresses behind a Service port. An
// EndpointSlice names its ports after the Service's ("" for a single
// unnamed port), so the port is found by the Service port's name.
func serviceAddrs(svc *corev1.Service, port int, slices []*discoveryv1.EndpointSlice) []string {
	if svc == nil {
		return nil
	}
	name, found := "", false
	for _, p := range svc.Spec.Ports {
		if int(p.Port) == port {
			name, found = p.Name, true
		}
	}
	if faults.On("delegation.service-port-ignored") && len(svc.Spec.Ports) > 0 {
		name, found = svc.Spec.Ports[0].Name, true
	}
	if !found {
		return nil
	}
	var out []string
	for _, s := range slices {
		for _, p := range s.Ports {
			if p.Port != nil && (p.Name == nil && name == "" || p.Name != nil && *p.Name == name) {
				out = append(out, readyAddrs(s, *p.Port)...)
				break
			}
		}
	}
	return out
}
