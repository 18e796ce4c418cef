package v1alpha1

import (
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A small language for IngressRoutes in the API's tests.

var now = metav1.NewTime(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC))

func root(ns, name, fqdn string, routes ...Route) IngressRoute {
	return IngressRoute{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       Spec{VirtualHost: &VirtualHost{Fqdn: fqdn}, Routes: routes},
	}
}

func withAliases(ir IngressRoute, aliases ...string) IngressRoute {
	ir.Spec.VirtualHost.Aliases = aliases
	return ir
}

func withTLS(ir IngressRoute, secret string) IngressRoute {
	ir.Spec.VirtualHost.TLS = &TLS{SecretName: secret}
	return ir
}

// svc routes match to the named services, port 80 unless "name:port".
func svc(match string, names ...string) Route {
	r := Route{Match: match}
	for _, n := range names {
		port := 80
		if i := strings.IndexByte(n, ':'); i >= 0 {
			fmt.Sscan(n[i+1:], &port)
			n = n[:i]
		}
		r.Services = append(r.Services, Service{Name: n, Port: port})
	}
	return r
}

// del delegates match to namespace/name ("" namespace: the object's own).
func del(match, namespace, name string) Route {
	return Route{Match: match, Delegate: &Delegate{Namespace: namespace, Name: name}}
}
