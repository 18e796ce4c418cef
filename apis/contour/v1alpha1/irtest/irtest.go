// Package irtest is a small language for IngressRoutes in tests: the API's
// own tests and the DAG builder's table tests write objects with it.
package irtest

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1alpha1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
)

// Root is a root IngressRoute: it carries the virtual host fqdn.
func Root(ns, name, fqdn string, routes ...v1alpha1.Route) v1alpha1.IngressRoute {
	ir := Vertex(ns, name, routes...)
	ir.Spec.VirtualHost = &v1alpha1.VirtualHost{Fqdn: fqdn}
	return ir
}

// Vertex is an IngressRoute without a virtual host.
func Vertex(ns, name string, routes ...v1alpha1.Route) v1alpha1.IngressRoute {
	return v1alpha1.IngressRoute{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       v1alpha1.Spec{Routes: routes},
	}
}

// WithAliases gives a root its aliases.
func WithAliases(ir v1alpha1.IngressRoute, aliases ...string) v1alpha1.IngressRoute {
	ir.Spec.VirtualHost.Aliases = aliases
	return ir
}

// WithTLS gives a root its TLS secret.
func WithTLS(ir v1alpha1.IngressRoute, secret string) v1alpha1.IngressRoute {
	ir.Spec.VirtualHost.TLS = &v1alpha1.TLS{SecretName: secret}
	return ir
}

// Svc routes match to the named services, port 80 unless "name:port".
func Svc(match string, names ...string) v1alpha1.Route {
	r := v1alpha1.Route{Match: match}
	for _, n := range names {
		port := 80
		if i := strings.IndexByte(n, ':'); i >= 0 {
			fmt.Sscan(n[i+1:], &port)
			n = n[:i]
		}
		r.Services = append(r.Services, v1alpha1.Service{Name: n, Port: port})
	}
	return r
}

// Del delegates match to namespace/name ("" namespace: the object's own).
func Del(match, namespace, name string) v1alpha1.Route {
	return v1alpha1.Route{Match: match, Delegate: &v1alpha1.Delegate{Namespace: namespace, Name: name}}
}
