// Package controller watches Routes, Services and EndpointSlices (and,
// when their CRD is served, IngressRoutes and Secrets), turns the admitted
// routes and the served IngressRoute hosts into an HAProxy configuration,
// reloads HAProxy when it changes (coalescing bursts), and reports each
// route's Admitted condition and each IngressRoute's status.
package controller

import (
	"crypto/tls"
	"encoding/pem"
	"fmt"
	"net"
	"regexp"
	"sort"
	"strconv"
	"strings"

	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/util/cert"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/router/annotations"
	"github.com/router-conformance/suite/router/haproxy"
	"github.com/router-conformance/suite/router/headers"
	"github.com/router-conformance/suite/router/hsts"
)

// Rejection is why a route is not admitted; Reason is the condition's
// machine-readable reason.
type Rejection struct {
	Reason, Message string
}

func (r *Rejection) Error() string { return r.Reason + ": " + r.Message }

// ServiceLookup finds a Service of the route's namespace by name, and its
// EndpointSlices (either may be missing).
type ServiceLookup func(name string) (*corev1.Service, []*discoveryv1.EndpointSlice)

// Translate turns one route into its HAProxy form, or says why it cannot
// be served. services finds the route's target Services (spec.to and
// spec.alternateBackends): a missing one adds no endpoints, and a route
// with none is served answering 503, as upstream does.
func Translate(route *routev1.Route, services ServiceLookup) (haproxy.Route, *Rejection) {
	out := haproxy.Route{
		Namespace: route.Namespace, Name: route.Name,
		Host: strings.ToLower(route.Spec.Host), Path: route.Spec.Path,
		// Only admitted routes come here: a Subdomain route is one only
		// where wildcard routes are allowed (admitWildcardPolicy).
		Wildcard: route.Spec.WildcardPolicy == routev1.WildcardPolicySubdomain,
	}
	if out.Host == "" {
		return out, &Rejection{"NoHostSpecified", "spec.host is empty; this router does not generate hosts"}
	}
	if tlsCfg := route.Spec.TLS; tlsCfg != nil {
		out.Termination = haproxy.Termination(tlsCfg.Termination)
		switch tlsCfg.InsecureEdgeTerminationPolicy {
		case routev1.InsecureEdgeTerminationPolicyAllow:
			out.InsecurePolicy = haproxy.PolicyAllow
		case routev1.InsecureEdgeTerminationPolicyRedirect:
			out.InsecurePolicy = haproxy.PolicyRedirect
		}
		if out.Termination == haproxy.Edge || out.Termination == haproxy.Reencrypt {
			if rej := extendedValidation(tlsCfg); rej != nil {
				return out, rej
			}
			if tlsCfg.Certificate != "" || tlsCfg.Key != "" {
				chain := tlsCfg.Certificate
				if tlsCfg.CACertificate != "" {
					chain = strings.TrimRight(chain, "\n") + "\n" + tlsCfg.CACertificate
				}
				if _, err := tls.X509KeyPair([]byte(chain), []byte(tlsCfg.Key)); err != nil {
					// upstream: ExtendedValidateRoute, field.Invalid on
					// spec.tls.key with the value redacted.
					return out, &Rejection{contract.ReasonExtendedValidationFailed, field.Invalid(field.NewPath("spec", "tls", "key"), "redacted key data", err.Error()).Error()}
				}
				out.Certificate = []byte(strings.TrimRight(chain, "\n") + "\n" + strings.TrimRight(tlsCfg.Key, "\n") + "\n")
			}
		}
		if out.Termination == haproxy.Reencrypt {
			if dest := tlsCfg.DestinationCACertificate; dest != "" {
				// upstream: ExtendedValidateRoute parses it with
				// client-go's cert.ParseCertsPEM.
				if _, err := cert.ParseCertsPEM([]byte(dest)); err != nil {
					return out, &Rejection{contract.ReasonExtendedValidationFailed, field.Invalid(field.NewPath("spec", "tls", "destinationCACertificate"),
						"redacted destination ca certificate data", fmt.Sprintf("failed to parse destination CA certificate: %v", err)).Error()}
				}
			}
			out.DestinationCA = []byte(tlsCfg.DestinationCACertificate)
			// upstream: pkg/router/template/router.go, ServiceUnit.Hostname;
			// checked (verifyhost) only against the default destination CA.
			out.ServiceHostname = fmt.Sprintf("%s.%s.svc", route.Spec.To.Name, route.Namespace)
		}
	}
	if v, ok := hsts.Header(routev1.TLSTerminationType(out.Termination), route.Annotations[hsts.Annotation]); ok {
		out.HSTS = v
	}
	hstsTranslateFaults(route, &out)
	// upstream: haproxy-config.template, the route backend: the
	// annotation when it is exactly one of the policies, else the
	// router's (ROUTER_SET_FORWARDED_HEADERS).
	if p, ok := contract.ParseForwardedPolicy(route.Annotations[contract.SetForwardedHeadersAnnotation]); ok {
		out.ForwardedHeaders = p
	}
	// upstream: haproxy-config.template, the route backend: isTrue
	// (strconv.ParseBool) of the annotation.
	out.AdjustHeaderCase, _ = strconv.ParseBool(route.Annotations[contract.AdjustHeaderCaseAnnotation])
	out.Cookie = sessionCookie(route, out.Termination, out.InsecurePolicy)
	routeSettings(route, &out)
	routeAnnotationsTranslateFaults(route, &out)
	if h := route.Spec.HTTPHeaders; h != nil {
		out.RequestHeaders = headers.FromRoute(h.Actions.Request)
		out.ResponseHeaders = headers.FromRoute(h.Actions.Response)
	}
	if rej := headerActionsTranslateFaults(route, &out); rej != nil {
		return out, rej
	}
	var activeServices int
	out.Endpoints, activeServices = weightedEndpoints(route, services)
	out.Weighted = true
	out.Balance = balance(route, out.Termination, activeServices)
	out.HealthCheckInterval = healthCheckInterval(route, out.Endpoints)
	if err := out.Validate(); err != nil {
		return out, &Rejection{contract.ReasonExtendedValidationFailed, err.Error()}
	}
	return out, nil
}

// sessionCookie is the session cookie of a route's backend, as upstream's
// route backend inserts it (openshift/router
// images/router/haproxy/conf/haproxy-config.template: `cookie ... insert
// indirect nocache httponly` unless haproxy.router.openshift.io/disable_cookies
// is true by strconv.ParseBool; the name from router.openshift.io/cookie_name
// when it is a token of [a-zA-Z0-9_-], else the route's RoutingKeyName;
// `secure attr SameSite=` router.openshift.io/cookie-same-site when it is
// exactly Lax, Strict or None, else None, on edge and reencrypt routes whose
// insecureEdgeTerminationPolicy is not Allow). Passthrough has none: its
// backend is TCP. ROUTER_COOKIE_NAME, upstream's router-wide default name,
// is not carried: no IngressController field sets it.
func sessionCookie(route *routev1.Route, t haproxy.Termination, insecure haproxy.InsecurePolicy) *haproxy.Cookie {
	if t == haproxy.Passthrough {
		return nil
	}
	if off, _ := strconv.ParseBool(route.Annotations[contract.DisableCookiesAnnotation]); off {
		return nil
	}
	c := &haproxy.Cookie{Name: route.Annotations[contract.CookieNameAnnotation]}
	if !cookieToken.MatchString(c.Name) {
		c.Name = contract.DefaultCookieName(route.Namespace, route.Name)
	}
	if (t == haproxy.Edge || t == haproxy.Reencrypt) && insecure != haproxy.PolicyAllow {
		c.SameSite = "None"
		switch v := route.Annotations[contract.CookieSameSiteAnnotation]; v {
		case "Lax", "Strict", "None":
			c.SameSite = v
		}
	}
	cookieSameSiteFaults(route, c)
	return c
}

// routeSettings reads the route's per-route settings as upstream's
// template does (openshift/router
// images/router/haproxy/conf/haproxy-config.template, the route
// backends): a value that does not match upstream's pattern is ignored.
// HTTP backends take the timeout as `timeout server`, the timeout-tunnel
// as `timeout tunnel` and the rewrite-target; passthrough takes
// timeout-tunnel, else timeout, as `timeout tunnel`, and never rewrites.
// Every backend takes the allowlist, the bound on each endpoint's
// connections and, when rate-limit-connections is true, the per-source
// limits (rate-http on HTTP backends only).
func routeSettings(route *routev1.Route, out *haproxy.Route) {
	a := route.Annotations
	out.Allowlist = annotations.Allowlist(a[contract.IPAllowlistAnnotation], a[contract.IPWhitelistAnnotation])
	out.MaxConnPerServer, _ = annotations.Count(a[contract.PodConcurrentConnectionsAnnotation])
	if annotations.On(a[contract.RateLimitAnnotation]) {
		out.RateLimit = &haproxy.RateLimit{}
		out.RateLimit.ConcurrentTCP, _ = annotations.Count(a[contract.RateLimitConcurrentTCPAnnotation])
		out.RateLimit.RateTCP, _ = annotations.Count(a[contract.RateLimitRateTCPAnnotation])
		if out.Termination != haproxy.Passthrough {
			out.RateLimit.RateHTTP, _ = annotations.Count(a[contract.RateLimitRateHTTPAnnotation])
		}
	}
	if out.Termination == haproxy.Passthrough {
		for _, v := range []string{a[contract.TimeoutTunnelAnnotation], a[contract.TimeoutAnnotation]} {
			if t, ok := annotations.Timeout(v); ok {
				out.TunnelTimeout = t
				break
			}
		}
		return
	}
	out.ServerTimeout, _ = annotations.Timeout(a[contract.TimeoutAnnotation])
	out.TunnelTimeout, _ = annotations.Timeout(a[contract.TimeoutTunnelAnnotation])
	if rw, ok := annotations.RewriteTarget(route.Spec.Path, a[contract.RewriteTargetAnnotation]); ok {
		out.Rewrite = &rw
	}
}

// cookieToken is upstream's $cookieNamePattern, whole.
var cookieToken = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// weightedEndpoints are the ready endpoints of every Service the route
// names, each weighing as upstream weighs it (openshift/router
// pkg/router/template/router.go: getServiceUnits, getServiceUnitWeight,
// calculateServiceWeights). A service's weight is its reference's (nil: 1;
// clamped to 0-256), the last reference to a name winning. With one
// service of non-zero weight and endpoints, each of its endpoints weighs 1;
// otherwise a service's weight is shared among its endpoints and scaled so
// that the heaviest endpoint weighs 256 (truncated, at least 1 unless the
// service weighs 0). A service of weight 0 keeps its endpoints at weight 0:
// they get no new requests. The count is of the active services: of
// non-zero weight, with endpoints.
func weightedEndpoints(route *routev1.Route, services ServiceLookup) ([]haproxy.Endpoint, int) {
	refs := append([]routev1.RouteTargetReference{route.Spec.To}, route.Spec.AlternateBackends...)
	weights := map[string]int32{}
	var names []string
	for _, ref := range refs {
		if ref.Kind != "" && ref.Kind != "Service" {
			continue
		}
		w := int32(1)
		if ref.Weight != nil {
			w = min(max(*ref.Weight, 0), 256)
		}
		if _, seen := weights[ref.Name]; !seen {
			names = append(names, ref.Name)
		}
		weights[ref.Name] = w
	}
	perService := map[string][]haproxy.Endpoint{}
	active := 0
	var heaviest float32
	for _, name := range names {
		svc, slices := services(name)
		eps := endpoints(route, svc, slices)
		if len(eps) == 0 {
			continue
		}
		perService[name] = eps
		if weights[name] > 0 {
			active++
		}
		heaviest = max(heaviest, float32(weights[name])/float32(len(eps)))
	}
	var out []haproxy.Endpoint
	var serviceWeights []int32
	for _, name := range names {
		eps := perService[name]
		w := 0
		switch {
		case weights[name] == 0:
		case active == 1:
			w = 1
		default:
			// float32, as upstream computes it, so that truncation agrees.
			w = max(1, int(float32(weights[name])/float32(len(eps))*(256/heaviest)))
		}
		for _, e := range eps {
			e.Weight = w
			out = append(out, e)
			serviceWeights = append(serviceWeights, weights[name])
		}
	}
	routeWeightFaults(out, serviceWeights)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	for i := range out {
		out[i].Name = fmt.Sprintf("ep%d", i+1)
	}
	return out, active
}

// healthCheckInterval is the `check inter` of a route's server lines, as
// upstream's template writes it (openshift/router
// images/router/haproxy/conf/haproxy-config.template, the route
// backends' server lines: `check inter` only when the route has more
// than one active endpoint, those of its services of weight above 0; the
// interval from router.openshift.io/haproxy.health.check.interval when it
// matches $timeSpecPattern, clipped, else 5000ms), "" for none.
// ROUTER_BACKEND_CHECK_INTERVAL, upstream's router-wide default, is not
// carried: the stand-in operator sets no IngressController field as it.
func healthCheckInterval(route *routev1.Route, eps []haproxy.Endpoint) string {
	active := 0
	for _, e := range eps {
		if e.Weight > 0 {
			active++
		}
	}
	interval, ok := annotations.Timeout(route.Annotations[contract.HealthCheckIntervalAnnotation])
	if !ok {
		interval = contract.DefaultHealthCheckInterval
	}
	if active < 2 {
		return healthCheckFaults(route, active, "")
	}
	return healthCheckFaults(route, active, interval)
}

// balanceAlgorithm is upstream's $balanceAlgoPattern, whole.
var balanceAlgorithm = regexp.MustCompile(`^(roundrobin|leastconn|source|random)$`)

// balance is the route backend's algorithm, as upstream's template
// chooses it (openshift/router images/router/haproxy/conf/haproxy-config.template,
// the route backends): the haproxy.router.openshift.io/balance
// annotation when it is one of the algorithms; otherwise roundrobin for a
// route with more than one service of non-zero weight, so the weights
// hold; otherwise random (ROUTER_LOAD_BALANCE_ALGORITHM, the operator's
// default) for HTTP and source (ROUTER_TCP_BALANCE_SCHEME) for
// passthrough. activeServices counts the services of non-zero weight
// with endpoints.
func balance(route *routev1.Route, t haproxy.Termination, activeServices int) string {
	b := route.Annotations[contract.BalanceAnnotation]
	switch {
	case balanceAlgorithm.MatchString(b):
	case activeServices > 1:
		b = "roundrobin"
	case t == haproxy.Passthrough:
		b = "source"
	default:
		b = "random"
	}
	return balanceFaults(route, t, b)
}

// endpoints are the ready addresses of the route's target port.
func endpoints(route *routev1.Route, service *corev1.Service, slices []*discoveryv1.EndpointSlice) []haproxy.Endpoint {
	var target *intstr.IntOrString
	if route.Spec.Port != nil {
		target = &route.Spec.Port.TargetPort
	}
	// A numeric target may name a Service port: match its name then.
	portName := ""
	if target != nil && target.Type == intstr.String {
		portName = target.StrVal
	} else if target != nil && service != nil {
		for _, p := range service.Spec.Ports {
			if p.Port == target.IntVal {
				portName = p.Name
			}
		}
	}
	var out []haproxy.Endpoint
	for _, s := range slices {
		var port *int32
		for _, p := range s.Ports {
			if p.Port == nil {
				continue
			}
			name := ""
			if p.Name != nil {
				name = *p.Name
			}
			switch {
			case target == nil:
			case target.Type == intstr.String && name != portName:
				continue
			case target.Type == intstr.Int && *p.Port != target.IntVal && (portName == "" || name != portName):
				continue
			}
			port = p.Port
			break
		}
		if port == nil {
			continue
		}
		for _, addr := range readyAddrs(s, *port) {
			out = append(out, haproxy.Endpoint{Addr: addr})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	for i := range out {
		out[i].Name = fmt.Sprintf("ep%d", i+1)
	}
	return out
}

// readyAddrs are the slice's ready (or not known unready) addresses with
// port, IPv6 in brackets.
func readyAddrs(s *discoveryv1.EndpointSlice, port int32) []string {
	var out []string
	for _, e := range s.Endpoints {
		if e.Conditions.Ready != nil && !*e.Conditions.Ready {
			continue
		}
		for _, a := range e.Addresses {
			out = append(out, net.JoinHostPort(a, strconv.Itoa(int(port))))
		}
	}
	return out
}

// extendedValidation is the first of upstream's checks of an edge or
// reencrypt route's own PEM fields that fails, in upstream's order and
// words (openshift/router pkg/router/routeapihelpers/validation.go
// ExtendedValidateRoute: the CA certificate, the certificate, then a key
// at all; the key pair is checked after).
func extendedValidation(tlsCfg *routev1.TLSConfig) *Rejection {
	path := field.NewPath("spec", "tls")
	invalid := func(child, redacted, msg string) *Rejection {
		return &Rejection{contract.ReasonExtendedValidationFailed, field.Invalid(path.Child(child), redacted, msg).Error()}
	}
	if tlsCfg.CACertificate != "" {
		if _, err := cert.ParseCertsPEM([]byte(tlsCfg.CACertificate)); err != nil {
			return invalid("caCertificate", "redacted ca certificate data", fmt.Sprintf("failed to parse CA certificate: %v", err))
		}
	}
	if tlsCfg.Certificate != "" {
		if _, err := cert.ParseCertsPEM([]byte(tlsCfg.Certificate)); err != nil {
			return invalid("certificate", "redacted certificate data", err.Error())
		}
		// No PEM block in the key (nor a key in the certificate): upstream
		// drops what is not PEM, and then has no key.
		if block, _ := pem.Decode([]byte(tlsCfg.Key)); block == nil && !strings.Contains(tlsCfg.Certificate, "PRIVATE KEY") {
			return invalid("key", "", "no key specified")
		}
	}
	return nil
}
