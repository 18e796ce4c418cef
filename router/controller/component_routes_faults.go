package controller

import (
	"bytes"

	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/router/haproxy"
)

// componentRouteFaults changes the routes to serve only under a test-only
// fault of faults/catalogue/component-routes.yaml (faults.On); otherwise
// it returns them as they are. sync calls it once per pass, from one
// goroutine.
func componentRouteFaults(routes []haproxy.Route) []haproxy.Route {
	if faults.On("component-routes.router-rotated-certificate-kept") {
		keepFirstCertificates(routes)
	}
	if faults.On("component-routes.router-previous-host-kept") {
		routes = withPreviousHosts(routes)
	}
	return routes
}

// firstCertificate is the first certificate of its own each route (by
// key) was served with.
var firstCertificate = map[string][]byte{}

// keepFirstCertificates serves each route that has a certificate of its
// own with the first one it had, whatever it has now.
func keepFirstCertificates(routes []haproxy.Route) {
	for i := range routes {
		r := &routes[i]
		if len(r.Certificate) == 0 {
			continue
		}
		if first, ok := firstCertificate[r.Key()]; ok && !bytes.Equal(first, r.Certificate) {
			r.Certificate = first
			continue
		}
		firstCertificate[r.Key()] = r.Certificate
	}
}

// previousHosts is, per route key, the route as last served at each host
// it has had.
var previousHosts = map[string]map[string]haproxy.Route{}

// withPreviousHosts adds, for each route whose host changed, a copy
// serving each earlier host no route serves now (named apart, so that its
// backend and certificate file are its own).
func withPreviousHosts(routes []haproxy.Route) []haproxy.Route {
	served := map[string]bool{}
	current := map[string]bool{}
	for _, r := range routes {
		served[r.Host] = true
		current[r.Key()] = true
		if previousHosts[r.Key()] == nil {
			previousHosts[r.Key()] = map[string]haproxy.Route{}
		}
		previousHosts[r.Key()][r.Host] = r
	}
	out := routes
	for key, hosts := range previousHosts {
		if !current[key] {
			delete(previousHosts, key)
			continue
		}
		for host, r := range hosts {
			if served[host] {
				continue
			}
			r.Name += "." + host
			out = append(out, r)
		}
	}
	return out
}
