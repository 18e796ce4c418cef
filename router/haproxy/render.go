package haproxy

import (
	"bytes"
	"crypto/md5"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/template"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/router/annotations"
	"github.com/router-conformance/suite/router/headers"
)

// Files is a rendered configuration: paths relative to Config.Dir.
type Files map[string][]byte

// ConfigFile is the main configuration's name within Files.
const ConfigFile = "haproxy.cfg"

// Names HAProxy keeps apart; DNS labels and namespaces never hold them.
var unsafeName = regexp.MustCompile(`[^a-zA-Z0-9._-]`)

// dnsName is what a wildcard route's parent may hold.
var dnsName = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$`)

// Key is a route's identity in backend and file names: "namespace:name".
func (r *Route) Key() string { return r.Namespace + ":" + r.Name }

// FileName is the route's certificate file name.
func (r *Route) FileName() string {
	return unsafeName.ReplaceAllString(r.Namespace+"_"+r.Name, "_") + ".pem"
}

// AllowlistFile is where an allowlist longer than upstream's inline limit
// goes, one entry a line, relative to the configuration's folder
// (upstream: router/allowlists/<namespace>:<name>.txt).
func (r *Route) AllowlistFile() string {
	return "allowlists/" + strings.TrimSuffix(r.FileName(), ".pem") + ".txt"
}

// Backend is the name of the route's backend, by termination, as upstream
// names them.
func (r *Route) Backend() string {
	switch r.Termination {
	case Edge:
		return "be_edge_http:" + r.Key()
	case Reencrypt:
		return "be_secure:" + r.Key()
	case Passthrough:
		return "be_tcp:" + r.Key()
	default:
		return "be_http:" + r.Key()
	}
}

// Parent is the subdomain of the route's host, lowercased
// (contract.WildcardParent).
func (r *Route) Parent() string { return strings.ToLower(contract.WildcardParent(r.Host)) }

// IsWildcard says the route serves every host one label under its
// parent: Wildcard, and a host that has a parent.
func (r *Route) IsWildcard() bool { return r.Wildcard && r.Parent() != "" }

// wildcardRegexp is upstream's host regexp for a wildcard route,
// `^[^\.]*\.<parent>$`, written without backslashes (HAProxy's
// configuration parser would take them): `^[^.]*[.]<parent>$` with each
// dot of the parent as `[.]`. Validate admits only DNS characters in the
// parent of a wildcard route.
func (r *Route) wildcardRegexp() string {
	return "^[^.]*[.]" + strings.ReplaceAll(r.Parent(), ".", "[.]") + "$"
}

// CertificateHost is the SNI name the route's certificate is listed
// for: `*.<parent>` for a wildcard route, else its host.
func (r *Route) CertificateHost() string {
	if r.IsWildcard() {
		return "*." + r.Parent()
	}
	return strings.ToLower(r.Host)
}

// SNIMatch is the public_ssl condition for a passthrough route's SNI
// (upstream: os_sni_passthrough.map, GenerateSNIRegexp).
func (r *Route) SNIMatch() string {
	if r.IsWildcard() {
		return fmt.Sprintf("{ req_ssl_sni,lower -m reg %s }", r.wildcardRegexp())
	}
	return fmt.Sprintf("{ req_ssl_sni -i %s }", r.Host)
}

// ServerCookie is the session cookie value of the route's endpoint e: a
// hash of the route and the endpoint's address, as opaque as upstream's
// (an md5 of the endpoint's ID, which holds its IP address; openshift/router
// pkg/router/template/plugin.go, IdHash).
func (r *Route) ServerCookie(e Endpoint) string {
	return fmt.Sprintf("%x", md5.Sum([]byte(r.Key()+" "+e.Addr)))
}

// cookieName is upstream's cookie name pattern.
var cookieName = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// Validate refuses what HAProxy could not load or would misread, so that
// one bad route is reported and left out instead of breaking the others.
func (r *Route) Validate() error {
	if r.Host == "" || strings.ContainsAny(r.Host, " \t'\"\\{}") {
		return fmt.Errorf("route %s: host %q is not a DNS name", r.Key(), r.Host)
	}
	if r.IsWildcard() && !dnsName.MatchString(r.Parent()) {
		return fmt.Errorf("route %s: wildcard parent %q is not a DNS name", r.Key(), r.Parent())
	}
	if r.Path != "" && (!strings.HasPrefix(r.Path, "/") || strings.ContainsAny(r.Path, "'\"\\{}#")) {
		return fmt.Errorf("route %s: path %q must start with / and hold no quotes, backslashes or braces", r.Key(), r.Path)
	}
	if r.Termination == Passthrough && (r.Path != "" || len(r.RequestHeaders)+len(r.ResponseHeaders) > 0) {
		return fmt.Errorf("route %s: a passthrough route can have neither a path nor header actions", r.Key())
	}
	if c := r.Cookie; c != nil {
		if r.Termination == Passthrough || !cookieName.MatchString(c.Name) {
			return fmt.Errorf("route %s: cookie %q: a passthrough route has none, and a name is [a-zA-Z0-9_-]+", r.Key(), c.Name)
		}
		if c.SameSite != "" && c.SameSite != "Lax" && c.SameSite != "Strict" && c.SameSite != "None" {
			return fmt.Errorf("route %s: cookie SameSite %q is none of Lax, Strict and None", r.Key(), c.SameSite)
		}
	}
	if strings.ContainsAny(r.ServiceHostname, " \t'\"\\{}#") {
		return fmt.Errorf("route %s: service host name %q is not a DNS name", r.Key(), r.ServiceHostname)
	}
	for _, e := range r.Endpoints {
		if strings.ContainsAny(e.Addr+e.Name, " \t'\"\\") {
			return fmt.Errorf("route %s: endpoint %q %q is malformed", r.Key(), e.Name, e.Addr)
		}
		if e.Weight < 0 || e.Weight > 256 {
			return fmt.Errorf("route %s: endpoint %q weight %d is not in 0-256", r.Key(), e.Name, e.Weight)
		}
	}
	if r.RedirectCode != 0 && r.RedirectCode != 301 && r.RedirectCode != 302 {
		return fmt.Errorf("route %s: redirect code %d is neither 301 nor 302", r.Key(), r.RedirectCode)
	}
	return nil
}

// HostMatch is the HAProxy condition for the route's host and path in an
// HTTP frontend: the Host header without its port, case-insensitively,
// with or without a trailing dot (a fully qualified name), as upstream's
// map regexp `^<host>\.?(:[0-9]+)?<path>...$` takes it (openshift/router
// pkg/router/template/util/util.go, GenerateRouteRegexp). The path
// matches on a segment boundary as upstream's does: "" or "/" every path;
// a path ending in "/" every path it begins; any other path itself and
// what lies under "<path>/", never "<path>bar". HAProxy binds AND tighter
// than "||", so the host is repeated in each term.
func (r *Route) HostMatch() string {
	h := strings.ToLower(r.Host)
	host := fmt.Sprintf("{ req.hdr(host),field(1,:),lower -m str %s %s. }", h, h)
	if r.IsWildcard() {
		host = fmt.Sprintf("{ req.hdr(host),field(1,:),lower -m reg %s }", strings.TrimSuffix(r.wildcardRegexp(), "$")+"[.]?$")
	}
	path := r.Path
	if r.SegmentMatch {
		path = strings.TrimSuffix(path, "/")
	}
	path = escapeBlanks(path)
	switch {
	case strings.TrimRight(path, "/") == "":
		return host
	case strings.HasSuffix(path, "/"):
		return fmt.Sprintf("%s { path_beg %s }", host, path)
	default:
		return fmt.Sprintf("%s { path %s } || %s { path_beg %s/ }", host, path, host, path)
	}
}

// escapeBlanks writes the blanks of a path (space, tab, CR, LF) as
// HAProxy's configuration escapes them (\xHH), so that a path holding one
// stays one argument and the configuration loads, as upstream escapes
// them in its map files (GenerateRouteRegexp, rhbz#2074304).
func escapeBlanks(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		switch c := path[i]; c {
		case ' ', '\t', '\r', '\n':
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// reencryptView is what a reencrypt server line depends on.
type reencryptView struct {
	Dir, DefaultCA string
	Route          *Route
}

var funcs = template.FuncMap{
	"quote": headers.Quote,
	"reencrypt": func(dir, defaultCA string, r Route) reencryptView {
		return reencryptView{Dir: dir, DefaultCA: defaultCA, Route: &r}
	},
	"forwarded": forwardedRules,
	"allowlist": allowlistSource,
	"settings":  func(dir string, r Route) settingsView { return settingsView{Dir: dir, Route: r} },
	"lower":     strings.ToLower,
	"request":   func(a headers.Action) string { return a.Directive("http-request") },
	"response":  func(a headers.Action) string { return a.Directive("http-response") },
}

// httpTokenRE is an HTTP token; uniqueIDFormatRE a double-quoted
// string of printable characters whose inner quotes are escaped.
var (
	httpTokenRE      = regexp.MustCompile("^[-!#$%&'*+.0-9A-Z^_`a-z|~]+$")
	uniqueIDFormatRE = regexp.MustCompile(`^"(?:[^"\\\x00-\x1f\x7f]|\\.)*"$`)
)

// settingsView is what the route-settings template reads.
type settingsView struct {
	Dir   string
	Route Route
}

// allowlistSource is what the route backend's allowlist acl matches
// `src` against: the addresses inline, or, past upstream's inline limit,
// the file that holds them (-f).
func allowlistSource(dir string, r Route) string {
	if len(r.Allowlist) > annotations.MaxInlineAllowlist {
		return "-f " + filepath.Join(dir, r.AllowlistFile())
	}
	return strings.Join(r.Allowlist, " ")
}

var tmpl = template.Must(template.New(ConfigFile).Funcs(funcs).Parse(configTemplate))

// forwardedRules are a route backend's lines for its forwarded-headers
// policy, as upstream's route backend has them (openshift/router
// images/router/haproxy/conf/haproxy-config.template, the
// $setForwardedHeaders cases): X-Forwarded-For through HAProxy's
// forwardfor option for append (always added) and if-none (added only
// when absent), which HAProxy applies after every http-request rule of
// the frontend and the backend; by a rule for replace. X-Forwarded-Host
// (the Host, lowercased by the frontend), X-Forwarded-Port (dst_port: the
// port the router accepted the connection on, the original one through
// the PROXY protocol of fe_sni and fe_no_sni), X-Forwarded-Proto (http or
// https by ssl_fc), X-Forwarded-Proto-Version (h2 only when ALPN chose
// it) and Forwarded (for, host and the X-Forwarded-Proto the request then
// carries; an IPv6 source quoted in brackets, RFC 7239) are added for
// append, set for replace, and set only where the request has none of
// its own for if-none. never: nothing. An unknown policy is append.
func forwardedRules(p contract.ForwardedPolicy) []string {
	verb, xff := "add-header", "option forwardfor"
	switch p {
	case contract.ForwardedNever:
		return nil
	case contract.ForwardedReplace:
		verb, xff = "set-header", "http-request set-header X-Forwarded-For %[src]"
	case contract.ForwardedIfNone:
		verb, xff = "set-header", "option forwardfor if-none"
	}
	rule := func(name, value, cond string) string {
		if p == contract.ForwardedIfNone {
			cond = strings.TrimSpace(cond + " !{ req.hdr(" + name + ") -m found }")
		}
		line := "http-request " + verb + " " + name + " " + value
		if cond != "" {
			line += " if " + cond
		}
		return line
	}
	const forwarded = "host=%[req.hdr(host)];proto=%[req.hdr(X-Forwarded-Proto)]"
	return []string{
		xff,
		rule("X-Forwarded-Host", "%[req.hdr(host)]", ""),
		rule("X-Forwarded-Port", "%[dst_port]", ""),
		rule("X-Forwarded-Proto", "http", "!{ ssl_fc }"),
		rule("X-Forwarded-Proto", "https", "{ ssl_fc }"),
		rule("X-Forwarded-Proto-Version", "h2", "{ ssl_fc_alpn -i h2 }"),
		"acl ipv6_addr src -m sub :",
		rule("Forwarded", `for=\"[%[src]]\";`+forwarded, "ipv6_addr"),
		rule("Forwarded", "for=%[src];"+forwarded, "!ipv6_addr"),
	}
}

// logWordRE is a word of the log line (a facility, a level, an address):
// no space, quote or comment that would change the line.
var logWordRE = regexp.MustCompile(`^[^\s"'#\\]+$`)

// validateLogging fills upstream's defaults into cfg.Log (length 1024,
// facility local1, level warning) and refuses what would not stay one
// directive: a word with a space, a header or cookie name that is no
// HTTP token, a length below 1.
func validateLogging(cfg *Config) error {
	if l := cfg.Log; l != nil {
		copied := *l
		l = &copied
		cfg.Log = l
		if l.MaxLength == 0 {
			l.MaxLength = 1024
		}
		if l.Facility == "" {
			l.Facility = "local1"
		}
		if l.Level == "" {
			l.Level = "warning"
		}
		for _, w := range []string{l.Address, l.Facility, l.Level} {
			if !logWordRE.MatchString(w) {
				return fmt.Errorf("haproxy: log target word %q is empty or holds a space, quote or #", w)
			}
		}
		if l.MaxLength < 0 {
			return fmt.Errorf("haproxy: log length %d is negative", l.MaxLength)
		}
		if l.Format != "" && !uniqueIDFormatRE.MatchString(l.Format) {
			return fmt.Errorf("haproxy: log-format %s is no double-quoted string of one line", l.Format)
		}
	}
	for _, h := range append(append([]CaptureHeader(nil), cfg.CaptureRequestHeaders...), cfg.CaptureResponseHeaders...) {
		if !httpTokenRE.MatchString(h.Name) || h.MaxLength < 1 {
			return fmt.Errorf("haproxy: captured header %q (len %d) needs an HTTP header name and a length of at least 1", h.Name, h.MaxLength)
		}
	}
	if c := cfg.CaptureCookie; c != nil && (!httpTokenRE.MatchString(c.Name) || c.MaxLength < 1) {
		return fmt.Errorf("haproxy: captured cookie %q (len %d) needs a cookie name and a length of at least 1", c.Name, c.MaxLength)
	}
	return nil
}

// Render produces the configuration and the certificate files. Routes are
// ordered so that, for one host, the longest path is tried first.
func Render(cfg Config) (Files, error) {
	if cfg.Dir == "" || !filepath.IsAbs(cfg.Dir) {
		return nil, fmt.Errorf("haproxy: Dir %q must be an absolute path", cfg.Dir)
	}
	if len(cfg.DefaultCertificate) == 0 {
		return nil, errors.New("haproxy: no default certificate")
	}
	if p := cfg.DefaultDestinationCA; p != "" && (!filepath.IsAbs(p) || strings.ContainsAny(p, " \t'\"\\#")) {
		return nil, fmt.Errorf("haproxy: default destination CA %q must be an absolute path without spaces or quotes", p)
	}
	if m := cfg.MutualTLS; m != nil {
		if m.Policy != "required" && m.Policy != "optional" {
			return nil, fmt.Errorf("haproxy: mutual TLS policy %q is neither required nor optional", m.Policy)
		}
		if m.CAFile == "" {
			return nil, errors.New("haproxy: mutual TLS needs a CA file")
		}
		if _, err := regexp.Compile(m.SubjectFilter); err != nil {
			return nil, fmt.Errorf("haproxy: subject filter %q: %w", m.SubjectFilter, err)
		}
	}
	cfg.MutualTLS = mutualTLSFault(cfg)
	if (cfg.UniqueIDHeader == "") != (cfg.UniqueIDFormat == "") {
		return nil, errors.New("haproxy: a unique-id header needs its format, and a format its header")
	}
	if cfg.UniqueIDHeader != "" {
		if !httpTokenRE.MatchString(cfg.UniqueIDHeader) {
			return nil, fmt.Errorf("haproxy: unique-id header %q is no HTTP header name", cfg.UniqueIDHeader)
		}
		if !uniqueIDFormatRE.MatchString(cfg.UniqueIDFormat) {
			return nil, fmt.Errorf("haproxy: unique-id format %s is no double-quoted string of one line", cfg.UniqueIDFormat)
		}
	}
	for _, name := range cfg.HeaderNameCaseAdjustments {
		// upstream: pkg/cmd/infra/router/template.go,
		// parseHTTPHeaderNameCaseAdjustments.
		if !httpTokenRE.MatchString(name) {
			return nil, fmt.Errorf("haproxy: invalid HTTP header name: %v", name)
		}
	}
	if err := validateLogging(&cfg); err != nil {
		return nil, err
	}
	if cfg.MaxConn == 0 {
		cfg.MaxConn = 2000
	}
	if cfg.BufSize == 0 {
		cfg.BufSize = 32768
	}
	if cfg.MaxRewrite == 0 {
		cfg.MaxRewrite = 8192
	}
	if cfg.BufSize < 0 || cfg.MaxRewrite < 0 || cfg.MaxRewrite >= cfg.BufSize {
		return nil, fmt.Errorf("haproxy: tune.maxrewrite %d must be below tune.bufsize %d", cfg.MaxRewrite, cfg.BufSize)
	}
	routes := append([]Route(nil), cfg.Routes...)
	sort.SliceStable(routes, func(i, j int) bool {
		// upstream: generateHAProxyMap, SortMapPaths(lines, `^[^\.]*\.`):
		// the wildcard entries after every exact one.
		if wi, wj := routes[i].IsWildcard(), routes[j].IsWildcard(); wi != wj {
			return wj
		}
		if routes[i].Host != routes[j].Host {
			return routes[i].Host < routes[j].Host
		}
		if len(routes[i].Path) != len(routes[j].Path) {
			return len(routes[i].Path) > len(routes[j].Path)
		}
		return routes[i].Key() < routes[j].Key()
	})
	files := Files{"default.pem": cfg.DefaultCertificate}
	var crtList strings.Builder
	for i := range routes {
		r := &routes[i]
		if err := r.Validate(); err != nil {
			return nil, err
		}
		if len(r.Certificate) > 0 && (r.Termination == Edge || r.Termination == Reencrypt) && !faults.On("component-routes.router-route-certificate-unserved") {
			name := "certs/" + r.FileName()
			files[name] = r.Certificate
			fmt.Fprintf(&crtList, "%s %s\n", filepath.Join(cfg.Dir, name), r.CertificateHost())
		}
		if len(r.DestinationCA) > 0 && r.Termination == Reencrypt {
			files["cacerts/"+r.FileName()] = r.DestinationCA
		}
		if len(r.Allowlist) > annotations.MaxInlineAllowlist {
			files[r.AllowlistFile()] = []byte(strings.Join(r.Allowlist, "\n") + "\n")
		}
		if r.Termination == Reencrypt && len(r.DestinationCA) == 0 && cfg.DefaultDestinationCA != "" && r.ServiceHostname == "" {
			return nil, fmt.Errorf("route %s: reencrypt verified by the default destination CA needs the service host name", r.Key())
		}
	}
	files["crt-list"] = []byte(crtList.String())
	headerActionsModelFaults(&cfg, routes)
	redirects, codes := httpRedirects(routes)
	var buf bytes.Buffer
	data := struct {
		Config
		Routes        []Route
		HTTPRedirects []httpRedirect
		RedirectCodes []int
	}{cfg, routes, redirects, codes}
	if err := tmpl.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("haproxy: render: %w", err)
	}
	files[ConfigFile] = routeAnnotationsRenderFaults(hstsRenderFaults(buf.Bytes()))
	files[ConfigFile] = headerActionsRenderFaults(cfg, files[ConfigFile])
	return files, nil
}

// httpRedirect is one route's entry in the public frontend's redirect
// decision: its match and its redirect code, 0 for none.
type httpRedirect struct {
	Code  int
	Match string
}

// httpRedirects is upstream's os_route_http_redirect.map for the hosts
// that have a Redirect route: an entry for every route of such a host,
// Redirect or not, least specific path first (routes come sorted most
// specific first), so that the last one to match, the most specific, sets
// the decision as upstream's first match does. A more specific route
// without Redirect thus keeps plain HTTP from its host's Redirect route.
// codes are the redirect codes in use, ascending.
func httpRedirects(routes []Route) (entries []httpRedirect, codes []int) {
	redirecting := map[string]bool{}
	// A wildcard Redirect route reaches hosts other than its own: then
	// every route takes part, exact ones after (more specific than) the
	// wildcards, which come last in routes.
	all := false
	for _, r := range routes {
		if r.InsecurePolicy == PolicyRedirect {
			redirecting[strings.ToLower(r.Host)] = true
			all = all || r.IsWildcard()
		}
	}
	used := map[int]bool{}
	for i := len(routes) - 1; i >= 0; i-- {
		r := routes[i]
		if !all && !redirecting[strings.ToLower(r.Host)] {
			continue
		}
		code := 0
		if r.InsecurePolicy == PolicyRedirect {
			code = r.RedirectCode
			if code == 0 {
				code = 302
			}
			used[code] = true
		}
		entries = append(entries, httpRedirect{Code: code, Match: r.HostMatch()})
	}
	for c := range used {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	return entries, codes
}

// Write puts the files into dir, replacing each atomically; certificate
// files are private.
func (f Files) Write(dir string) error {
	for _, sub := range []string{"certs", "cacerts", "allowlists", "run"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return err
		}
	}
	for name, data := range f {
		path := filepath.Join(dir, name)
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, data, 0o600); err != nil {
			return err
		}
		if err := os.Rename(tmp, path); err != nil {
			return err
		}
	}
	return nil
}
