package controller

import (
	"strings"
	"sync"

	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/router/haproxy"
)

// firstHSTS is the first Strict-Transport-Security value each route (by
// UID) was translated with; only a test-only fault reads it.
var firstHSTS sync.Map

// hstsTranslateFaults changes the HSTS value Translate chose for route
// only under a test-only fault (faults.On).
func hstsTranslateFaults(route *routev1.Route, out *haproxy.Route) {
	if faults.On("hsts.live-edit-ignored") {
		first, _ := firstHSTS.LoadOrStore(route.UID, out.HSTS)
		out.HSTS = first.(string)
	}
	if faults.On("hsts.wildcard-header-dropped") && out.Wildcard {
		out.HSTS = ""
	}
}

// hstsInheritFault gives, only under a test-only fault (faults.On), each
// route without HSTS under a wildcard route's subdomain the wildcard
// route's value.
func hstsInheritFault(routes []haproxy.Route) {
	if !faults.On("hsts.wildcard-header-inherited") {
		return
	}
	for i := range routes {
		r := &routes[i]
		if r.HSTS != "" || r.IsWildcard() {
			continue
		}
		for _, w := range routes {
			if w.IsWildcard() && w.HSTS != "" && w.Parent() == r.Parent() {
				r.HSTS = w.HSTS
				break
			}
		}
	}
}

// hstsIncludesSubDomains says whether route's hsts_header annotation
// names includeSubDomains (any case).
func hstsIncludesSubDomains(route *routev1.Route) bool {
	return strings.Contains(strings.ToLower(route.Annotations[contract.HSTSAnnotation]), "includesubdomains")
}
