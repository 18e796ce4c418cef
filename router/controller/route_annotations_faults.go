package controller

import (
	"regexp"
	"strings"

	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/router/annotations"
	"github.com/router-conformance/suite/router/haproxy"
)

// decimalTime is a timeout written with a fraction ("1.5s"), which only
// a test-only fault reads.
var decimalTime = regexp.MustCompile(`^([0-9]+)\.([0-9])s$`)

// routeAnnotationsTranslateFaults changes the per-route settings
// routeSettings chose for route only under a test-only fault (faults.On).
func routeAnnotationsTranslateFaults(route *routev1.Route, out *haproxy.Route) {
	a := route.Annotations
	http := out.Termination != haproxy.Passthrough
	switch {
	case faults.On("route-annotations.timeout-ignored") && http:
		out.ServerTimeout = ""
	case faults.On("route-annotations.timeout-no-unit-seconds") && http && out.ServerTimeout != "" && strings.Trim(out.ServerTimeout, "0123456789") == "":
		out.ServerTimeout += "s"
	case faults.On("route-annotations.timeout-fraction-read") && http && decimalTime.MatchString(a[contract.TimeoutAnnotation]):
		m := decimalTime.FindStringSubmatch(a[contract.TimeoutAnnotation])
		out.ServerTimeout = m[1] + m[2] + "00ms"
	case faults.On("route-annotations.tunnel-bounds-http-answer") && http && out.ServerTimeout == "":
		out.ServerTimeout = out.TunnelTimeout
	case faults.On("route-annotations.tunnel-timeout-ignored") && http:
		out.TunnelTimeout = ""
	case faults.On("route-annotations.passthrough-timeout-ignored") && !http:
		out.TunnelTimeout, _ = annotations.Timeout(a[contract.TimeoutTunnelAnnotation])
	case faults.On("route-annotations.passthrough-timeout-wins") && !http:
		if t, ok := annotations.Timeout(a[contract.TimeoutAnnotation]); ok {
			out.TunnelTimeout = t
		}
	case faults.On("route-annotations.rewrite-ignored"):
		out.Rewrite = nil
	case faults.On("route-annotations.rewrite-root-slash-kept") && out.Rewrite != nil && a[contract.RewriteTargetAnnotation] == "/":
		out.Rewrite.Pattern = "^" + route.Spec.Path + "(.*)$"
	case faults.On("route-annotations.trailing-slash-path-takes-bare") && out.Rewrite != nil && strings.HasSuffix(route.Spec.Path, "/"):
		out.SegmentMatch = true
	case faults.On("route-annotations.rewrite-relative-target-used") && http && out.Rewrite == nil && a[contract.RewriteTargetAnnotation] != "":
		if rw, ok := annotations.RewriteTarget(route.Spec.Path, "/"+a[contract.RewriteTargetAnnotation]); ok {
			out.Rewrite = &rw
		}
	case faults.On("route-annotations.pod-connections-ignored"):
		out.MaxConnPerServer = ""
	case faults.On("route-annotations.rate-limits-ignored"):
		out.RateLimit = nil
	case faults.On("route-annotations.rate-http-ignored") && out.RateLimit != nil:
		out.RateLimit.RateHTTP = ""
	case faults.On("route-annotations.rate-limits-without-switch") && out.RateLimit == nil:
		out.RateLimit = &haproxy.RateLimit{}
		out.RateLimit.ConcurrentTCP, _ = annotations.Count(a[contract.RateLimitConcurrentTCPAnnotation])
		out.RateLimit.RateTCP, _ = annotations.Count(a[contract.RateLimitRateTCPAnnotation])
		if http {
			out.RateLimit.RateHTTP, _ = annotations.Count(a[contract.RateLimitRateHTTPAnnotation])
		}
	case faults.On("route-annotations.allowlist-ignored"):
		out.Allowlist = nil
	case faults.On("route-annotations.allowlist-inline-limit-fails-open") && len(out.Allowlist) > annotations.MaxInlineAllowlist:
		out.Allowlist = nil
	case faults.On("route-annotations.allowlist-cidr-dropped"):
		var kept []string
		for _, e := range out.Allowlist {
			if !strings.Contains(e, "/") {
				kept = append(kept, e)
			}
		}
		out.Allowlist = kept
	case faults.On("route-annotations.allowlist-comma-read") && out.Allowlist == nil:
		out.Allowlist = annotations.Allowlist(strings.ReplaceAll(a[contract.IPAllowlistAnnotation], ",", " "), strings.ReplaceAll(a[contract.IPWhitelistAnnotation], ",", " "))
	case faults.On("route-annotations.allowlist-blanks-trimmed") && out.Allowlist == nil:
		out.Allowlist = annotations.Allowlist(strings.TrimSpace(a[contract.IPAllowlistAnnotation]), strings.TrimSpace(a[contract.IPWhitelistAnnotation]))
	case faults.On("route-annotations.whitelist-wins") && a[contract.IPWhitelistAnnotation] != "":
		out.Allowlist = annotations.Allowlist(a[contract.IPWhitelistAnnotation], "")
	}
}

// cookieSameSiteFaults changes the session cookie sessionCookie chose
// only under a test-only fault (faults.On).
func cookieSameSiteFaults(route *routev1.Route, c *haproxy.Cookie) {
	switch v := route.Annotations[contract.CookieSameSiteAnnotation]; {
	case faults.On("route-annotations.cookie-same-site-ignored") && c.SameSite != "":
		c.SameSite = "None"
	case faults.On("route-annotations.cookie-same-site-on-plain") && c.SameSite == "" && (v == "Lax" || v == "Strict" || v == "None"):
		c.SameSite = v
	}
}

// balanceFaults changes the algorithm balance chose only under a
// test-only fault (faults.On).
func balanceFaults(route *routev1.Route, t haproxy.Termination, b string) string {
	switch {
	case faults.On("route-annotations.balance-ignored") && route.Annotations[contract.BalanceAnnotation] != "":
		if t == haproxy.Passthrough {
			return "source"
		}
		return "random"
	case faults.On("route-annotations.passthrough-default-roundrobin") && t == haproxy.Passthrough && b == "source" && route.Annotations[contract.BalanceAnnotation] == "":
		return "roundrobin"
	case faults.On("route-annotations.http-default-source") && t != haproxy.Passthrough && b == "random":
		return "source"
	case faults.On("route-annotations.leastconn-as-roundrobin") && b == "leastconn":
		return "roundrobin"
	}
	return b
}

// healthCheckFaults changes the interval healthCheckInterval chose for a
// route of active endpoints ("" for no check) only under a test-only
// fault (faults.On).
func healthCheckFaults(route *routev1.Route, active int, interval string) string {
	switch {
	case faults.On("route-annotations.health-check-interval-ignored") && interval != "":
		return contract.DefaultHealthCheckInterval
	case faults.On("route-annotations.health-check-fraction-read") && interval != "" && decimalTime.MatchString(route.Annotations[contract.HealthCheckIntervalAnnotation]):
		m := decimalTime.FindStringSubmatch(route.Annotations[contract.HealthCheckIntervalAnnotation])
		return m[1] + m[2] + "00ms"
	case faults.On("route-annotations.single-endpoint-checked") && active == 1:
		if t, ok := annotations.Timeout(route.Annotations[contract.HealthCheckIntervalAnnotation]); ok {
			return t
		}
		return contract.DefaultHealthCheckInterval
	}
	return interval
}
