// Package haproxy turns the router's view of the cluster into an HAProxy
// configuration (for the HAProxy that clusters/kind/versions.env pins) laid out as the upstream OpenShift router lays it out
// (frontends public, public_ssl, fe_sni and fe_no_sni; a backend per
// route), and runs HAProxy with it.
package haproxy

import (
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/router/annotations"
	"github.com/router-conformance/suite/router/headers"
)

// Termination of a route; "" is plain HTTP.
type Termination string

const (
	Insecure    Termination = ""
	Edge        Termination = "edge"
	Reencrypt   Termination = "reencrypt"
	Passthrough Termination = "passthrough"
)

// InsecurePolicy is what the router does with plain HTTP to a TLS route.
type InsecurePolicy string

const (
	PolicyNone     InsecurePolicy = ""
	PolicyAllow    InsecurePolicy = "Allow"
	PolicyRedirect InsecurePolicy = "Redirect"
)

// Endpoint is one backend server.
type Endpoint struct {
	Name string // unique within the route
	Addr string // ip:port
	// Weight is HAProxy's server weight, 1-256; 0 leaves HAProxy's default
	// (1). A route merging several services weighs each service's
	// endpoints so that every service gets a like share.
	Weight int
}

// Route is one admitted route, ready to render.
type Route struct {
	Namespace, Name string
	Host            string
	Path            string // "" or a prefix starting with "/"
	// Wildcard serves every host one label under the parent of Host (its
	// part after the first dot), as upstream serves a route with
	// wildcardPolicy Subdomain when wildcard routes are allowed: the
	// host regexp `^[^\.]*\.<parent>`, the certificate for `*.<parent>`
	// (openshift/router pkg/router/template/util/util.go,
	// GenerateRouteRegexp, GenerateSNIRegexp, GenCertificateHostName).
	// Exact hosts are tried before every wildcard. A host without a dot
	// has no parent: the route then serves its host alone, as upstream's.
	Wildcard bool
	// Path matches on a segment boundary ("/foo" serves "/foo", "/foo/"
	// and "/foo/bar", not "/foobar"; "/foo/" serves "/foo/..." only), as
	// upstream's route regexp does. SegmentMatch also drops a trailing
	// "/" of Path first ("/foo/" serves "/foo" too), as IngressRoute
	// prefixes do.
	SegmentMatch   bool
	Termination    Termination
	InsecurePolicy InsecurePolicy
	// RedirectCode is the status of the PolicyRedirect answer; 0 means
	// 302, upstream's. IngressRoute's secure-first redirect is a 301.
	RedirectCode int
	// Certificate is the PEM chain followed by its key (edge, reencrypt);
	// empty means the default certificate.
	Certificate []byte
	// DestinationCA verifies the backend of a reencrypt route (CA only, no
	// host name check). Empty: Config.DefaultDestinationCA, if any, with
	// ServiceHostname checked; otherwise the backend is not verified.
	DestinationCA []byte
	// ServiceHostname is "<service>.<namespace>.svc": the name a reencrypt
	// backend's certificate must hold when it is verified against the
	// default destination CA. It is never sent as SNI (upstream sends none).
	ServiceHostname string
	Endpoints       []Endpoint
	// Balance is the backend's algorithm (roundrobin, leastconn, source,
	// random); "" is roundrobin for HTTP and source for passthrough.
	Balance string
	// Weighted: each endpoint's Weight is its service's share (spec.to
	// and alternateBackends), written on its server line even when 0
	// (an HTTP backend keeps a weight-0 server for clients its cookie
	// pins; a passthrough backend leaves it out), as upstream's route
	// backends. Unweighted endpoints of weight 0 take HAProxy's default.
	Weighted bool
	// HSTS is the Strict-Transport-Security value, "" for none. Edge and
	// reencrypt only; sent on every response of the route's backend, over
	// plain HTTP too (insecureEdgeTerminationPolicy Allow), as upstream.
	HSTS            string
	RequestHeaders  []headers.Action
	ResponseHeaders []headers.Action
	// Cookie is the session cookie the route's backend inserts; nil for
	// none (passthrough, or haproxy.router.openshift.io/disable_cookies).
	Cookie *Cookie
	// ForwardedHeaders is the route's own forwarded-headers policy (the
	// haproxy.router.openshift.io/set-forwarded-headers annotation); ""
	// takes Config.ForwardedHeaders.
	ForwardedHeaders contract.ForwardedPolicy
	// ServerTimeout is the route's own `timeout server` (HTTP backends:
	// the haproxy.router.openshift.io/timeout annotation) and
	// TunnelTimeout its `timeout tunnel` (HTTP: timeout-tunnel;
	// passthrough: timeout-tunnel, else timeout); "" keeps the router's
	// (upstream: haproxy-config.template, the route backends).
	ServerTimeout, TunnelTimeout string
	// Rewrite is the route's path rewrite (HTTP backends: the
	// haproxy.router.openshift.io/rewrite-target annotation); nil for none.
	Rewrite *annotations.Rewrite
	// RateLimit is the route's per-source limits (the
	// haproxy.router.openshift.io/rate-limit-connections annotations); nil
	// for none.
	RateLimit *RateLimit
	// HealthCheckInterval is the `check inter` of every server line;
	// "" for no check (upstream checks only the endpoints of a route
	// with more than one active endpoint).
	HealthCheckInterval string
	// MaxConnPerServer bounds the connections to each endpoint (the
	// haproxy.router.openshift.io/pod-concurrent-connections annotation):
	// more wait in the backend's queue. "" or "0": no bound.
	MaxConnPerServer string
	// Allowlist are the only source addresses and CIDR ranges the route
	// serves (ip_allowlist, else ip_whitelist); a connection from any
	// other is closed unanswered. Empty: every source.
	Allowlist []string
	// AdjustHeaderCase sends the request header names of
	// Config.HeaderNameCaseAdjustments to this route's backend spelled as
	// adjusted (the haproxy.router.openshift.io/h1-adjust-case
	// annotation); every other name goes out in lower case.
	AdjustHeaderCase bool
}

// RateLimit are a route backend's per-source limits, as upstream's route
// backends write them (openshift/router
// images/router/haproxy/conf/haproxy-config.template: a stick table
// tracking each source, and a connection closed unanswered when the
// source's count reaches a limit). Each limit is a whole number; ""
// leaves it unchecked.
type RateLimit struct {
	// ConcurrentTCP bounds the source's connections at once (the
	// connection being opened counts), RateTCP its new connections in 3s,
	// RateHTTP its HTTP requests in 10s (HTTP backends only).
	ConcurrentTCP, RateTCP, RateHTTP string
}

// Cookie is a route backend's session cookie, as upstream inserts it
// (openshift/router images/router/haproxy/conf/haproxy-config.template,
// the route backend's `cookie <name> insert indirect nocache httponly`):
// set on an answer to a client that sent none (indirect: the client's
// cookie is not passed on), with HttpOnly, and with Cache-Control: private
// added to that answer (nocache), beside whatever the backend sent. Each
// server carries an opaque value naming it (Route.ServerCookie), so a
// client that returns the cookie reaches the same server.
type Cookie struct {
	// Name is a token of [a-zA-Z0-9_-].
	Name string
	// SameSite is "Lax", "Strict" or "None"; "" adds neither Secure nor
	// SameSite (plain routes, and TLS routes that allow plain HTTP).
	// Otherwise the cookie is Secure too.
	SameSite string
}

// MutualTLS is the router's client-certificate policy (ROUTER_MUTUAL_TLS_AUTH*).
type MutualTLS struct {
	// Policy is "required" or "optional".
	Policy string
	// CAFile and CRLFile are paths HAProxy reads; the CRL file holds one
	// PEM CRL per CA of the bundle. No CRL file: no revocation checks
	// (the CAs name no distribution point).
	CAFile, CRLFile string
	// SubjectFilter is a regular expression the client's subject DN must
	// match; a mismatch, or no client certificate at all, is answered 403.
	SubjectFilter string
}

// Config is everything one HAProxy configuration depends on.
type Config struct {
	// HTTPBind and HTTPSBind are HAProxy bind addresses (":80", "127.0.0.1:18080").
	HTTPBind, HTTPSBind string
	// MaxConn bounds concurrent connections (and so HAProxy's file
	// descriptors, which must fit the process's limit); 0 means 2000.
	MaxConn int
	// BufSize and MaxRewrite are HAProxy's tune.bufsize and
	// tune.maxrewrite: a request or response, headers included, must fit
	// BufSize, and MaxRewrite of it is kept free for the header actions'
	// rewrites (a rewrite that does not fit answers 500). 0 means
	// upstream's defaults, 32768 and 8192 (upstream: openshift/router
	// images/router/haproxy/conf/haproxy-config.template, global:
	// ROUTER_BUF_SIZE and ROUTER_MAX_REWRITE_SIZE).
	BufSize, MaxRewrite int
	// HardStopAfter is HAProxy's hard-stop-after: how long an old worker
	// keeps the connections it holds after a reload; "" for as long as
	// they last.
	HardStopAfter string
	// StatsBind serves HAProxy's stats page and the health checks.
	StatsBind string
	// Dir holds the rendered configuration, certificates and sockets.
	Dir string
	// DefaultCertificate is served when no route's certificate matches.
	DefaultCertificate []byte
	// DefaultDestinationCA is the path of the CA file that verifies
	// reencrypt backends of routes without a destinationCACertificate
	// (DEFAULT_DESTINATION_CA_PATH, the service CA); "" for none.
	DefaultDestinationCA string
	MutualTLS            *MutualTLS
	// UniqueIDHeader and UniqueIDFormat are HAProxy's unique-id-header
	// and unique-id-format of every HTTP frontend
	// (ROUTER_UNIQUE_ID_HEADER_NAME and ROUTER_UNIQUE_ID_FORMAT, from
	// spec.httpHeaders.uniqueId): both set, or neither. The format is a
	// double-quoted string, as the operator writes it. HAProxy adds the
	// header after every http-request rule, so a header action on the same
	// name does not replace it (upstream: openshift/router
	// images/router/haproxy/conf/haproxy-config.template, frontends public,
	// fe_sni and fe_no_sni).
	UniqueIDHeader, UniqueIDFormat string
	// IngressController-level header actions, applied in the frontends.
	RequestHeaders, ResponseHeaders []headers.Action
	// HeaderNameCaseAdjustments are header names spelled as they must go
	// out over HTTP/1 (ROUTER_H1_CASE_ADJUST, from
	// spec.httpHeaders.headerNameCaseAdjustments), where HAProxy sends
	// every name in lower case: on every response to a client, and on the
	// requests to the backends of routes with AdjustHeaderCase (upstream:
	// openshift/router images/router/haproxy/conf/haproxy-config.template,
	// global h1-case-adjust, defaults option h1-case-adjust-bogus-client,
	// the route backend's option h1-case-adjust-bogus-server). The rename
	// happens as the message is written, after every http-request and
	// http-response rule.
	HeaderNameCaseAdjustments []string
	// ForwardedHeaders is the router's forwarded-headers policy
	// (ROUTER_SET_FORWARDED_HEADERS), for every route without its own;
	// "" is append, upstream's default.
	ForwardedHeaders contract.ForwardedPolicy
	// Log, when set, sends HAProxy's logs to a syslog target
	// (ROUTER_SYSLOG_ADDRESS and the variables beside it): the access log
	// of every HTTP frontend in HAProxy's httplog format (or Format), a
	// tcplog line from public_ssl.
	Log *Logging
	// CaptureRequestHeaders, CaptureResponseHeaders and CaptureCookie are
	// what the HTTP frontends (public, fe_sni, fe_no_sni) capture for the
	// access log (ROUTER_CAPTURE_HTTP_REQUEST_HEADERS,
	// ROUTER_CAPTURE_HTTP_RESPONSE_HEADERS, ROUTER_CAPTURE_HTTP_COOKIE).
	// HAProxy captures a request header as the client sent it, before
	// any http-request rule: an action that sets the header changes what
	// the backend sees, not what is logged.
	CaptureRequestHeaders, CaptureResponseHeaders []CaptureHeader
	CaptureCookie                                 *CaptureCookie
	// DontLogNull is HAProxy's option dontlognull (ROUTER_DONT_LOG_NULL).
	DontLogNull bool
	Routes      []Route
}

// Logging is HAProxy's global log target (upstream: openshift/router
// images/router/haproxy/conf/haproxy-config.template, global: `log
// ROUTER_SYSLOG_ADDRESS len ROUTER_LOG_MAX_LENGTH ROUTER_LOG_FACILITY
// ROUTER_LOG_LEVEL` and log-send-hostname; defaults: log-format
// ROUTER_SYSLOG_FORMAT or option httplog, and log global).
type Logging struct {
	// Address is a host:port (UDP) or the path of a Unix datagram socket.
	Address string
	// MaxLength is a log line's longest (upstream's default 1024).
	MaxLength int
	// Facility and Level default to upstream's local1 and warning.
	Facility, Level string
	// Format is HAProxy's log-format as the operator writes it (a
	// double-quoted string); "" is option httplog.
	Format string
}

// CaptureHeader is one captured header and the length its value is cut
// to in the log.
type CaptureHeader struct {
	Name      string
	MaxLength int
}

// CaptureCookie is the captured cookie: Name matched exactly, or as a
// prefix of the cookie's name.
type CaptureCookie struct {
	Name      string
	Exact     bool
	MaxLength int
}
