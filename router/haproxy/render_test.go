package haproxy

import (
	"strings"
	"testing"
)

// upstream: openshift/router pkg/router/template/util/util.go
// (GenerateRouteRegexp: the host with an optional trailing dot; a path
// matched on a segment boundary; blanks escaped).
func TestHostMatchSegmentAndPlainPrefix(t *testing.T) {
	host := "{ req.hdr(host),field(1,:),lower -m str a.test a.test. }"
	for _, tc := range []struct {
		name  string
		route Route
		want  string
	}{
		{"no path", Route{Host: "A.test"}, host},
		{"Route path: itself or below it, as upstream", Route{Host: "a.test", Path: "/foo"}, host + " { path /foo } || " + host + " { path_beg /foo/ }"},
		{"Route path with a trailing slash: what it begins", Route{Host: "a.test", Path: "/foo/"}, host + " { path_beg /foo/ }"},
		{"Route path /: every path", Route{Host: "a.test", Path: "/"}, host},
		{"Route path with blanks: escaped", Route{Host: "a.test", Path: "/a b\tc"}, host + ` { path /a\x20b\x09c } || ` + host + ` { path_beg /a\x20b\x09c/ }`},
		{"segment prefix: the path itself or below it", Route{Host: "a.test", Path: "/foo", SegmentMatch: true},
			host + " { path /foo } || " + host + " { path_beg /foo/ }"},
		{"segment prefix with a trailing slash", Route{Host: "a.test", Path: "/foo/", SegmentMatch: true},
			host + " { path /foo } || " + host + " { path_beg /foo/ }"},
		{"segment prefix /: every path", Route{Host: "a.test", Path: "/", SegmentMatch: true}, host},
	} {
		if got := tc.route.HostMatch(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

func TestRenderRedirectCodeAndWeights(t *testing.T) {
	eps := []Endpoint{{Name: "ep1", Addr: "10.0.0.1:80", Weight: 128}, {Name: "ep2", Addr: "10.0.0.2:80"}}
	cfg := Config{
		HTTPBind: ":80", HTTPSBind: ":443", StatsBind: ":1936", Dir: "/tmp/x", DefaultCertificate: []byte("pem"),
		Routes: []Route{
			{Namespace: "ns", Name: "permanent", Host: "p.test", Termination: Edge, InsecurePolicy: PolicyRedirect, RedirectCode: 301, Endpoints: eps},
			{Namespace: "ns", Name: "upstream", Host: "u.test", Termination: Edge, InsecurePolicy: PolicyRedirect},
		},
	}
	files, err := Render(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := string(files[ConfigFile])
	for _, want := range []string{
		"set-var(txn.os_redirect) int(301) if { req.hdr(host),field(1,:),lower -m str p.test p.test. }",
		"set-var(txn.os_redirect) int(302) if { req.hdr(host),field(1,:),lower -m str u.test u.test. }",
		"code 301 if { var(txn.os_redirect) -m int 301 }",
		"code 302 if { var(txn.os_redirect) -m int 302 }",
		"server ep1 10.0.0.1:80 weight 128\n",
		"server ep2 10.0.0.2:80\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("configuration lacks %q:\n%s", want, got)
		}
	}
	cfg.Routes[0].RedirectCode = 307
	if _, err := Render(cfg); err == nil {
		t.Error("redirect code 307 rendered")
	}
	cfg.Routes[0].RedirectCode, cfg.Routes[0].Endpoints[0].Weight = 301, 257
	if _, err := Render(cfg); err == nil {
		t.Error("weight 257 rendered")
	}
}

// upstream's os_route_http_redirect.map has an entry for every route and
// its first match, the most specific path, decides: on a host with a
// Redirect route, every route of the host sets the decision, least
// specific first; hosts without a Redirect route get no entry at all.
func TestRenderRedirectDecisionMostSpecificLast(t *testing.T) {
	cfg := Config{
		HTTPBind: ":80", HTTPSBind: ":443", StatsBind: ":1936", Dir: "/tmp/x", DefaultCertificate: []byte("pem"),
		Routes: []Route{
			{Namespace: "ns", Name: "allow", Host: "m.test", Path: "/a", Termination: Edge, InsecurePolicy: PolicyAllow},
			{Namespace: "ns", Name: "redirect", Host: "m.test", Termination: Edge, InsecurePolicy: PolicyRedirect},
			{Namespace: "ns", Name: "none", Host: "m.test", Path: "/a/b", Termination: Reencrypt},
			{Namespace: "ns", Name: "other", Host: "o.test", Termination: Edge, InsecurePolicy: PolicyAllow},
		},
	}
	files, err := Render(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(files[ConfigFile]), "\n") {
		if strings.Contains(line, "txn.os_redirect") {
			got = append(got, strings.TrimSpace(line))
		}
	}
	host := "{ req.hdr(host),field(1,:),lower -m str m.test m.test. }"
	want := []string{
		"http-request set-var(txn.os_redirect) int(302) if " + host,
		"http-request set-var(txn.os_redirect) int(0) if " + host + " { path /a } || " + host + " { path_beg /a/ }",
		"http-request set-var(txn.os_redirect) int(0) if " + host + " { path /a/b } || " + host + " { path_beg /a/b/ }",
		"http-request redirect location https://%[req.hdr(host),regsub(:[0-9]+$,,)]%[url] code 302 if { var(txn.os_redirect) -m int 302 }",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("redirect decision:\n got %q\nwant %q", got, want)
	}
}

// upstream: openshift/router pkg/router/template/util/util.go
// (GenerateRouteRegexp, GenerateSNIRegexp, GenCertificateHostName with
// wildcard set) and template_helper.go (generateHAProxyMap: wildcard
// entries after the exact ones).
func TestWildcardMatchesOneLabelUnderTheParent(t *testing.T) {
	wild := Route{Namespace: "ns", Name: "w", Host: "WWW.Wild.Test", Wildcard: true, Termination: Edge}
	if got, want := wild.HostMatch(), "{ req.hdr(host),field(1,:),lower -m reg ^[^.]*[.]wild[.]test[.]?$ }"; got != want {
		t.Errorf("HostMatch = %s, want %s", got, want)
	}
	if got, want := wild.SNIMatch(), "{ req_ssl_sni,lower -m reg ^[^.]*[.]wild[.]test$ }"; got != want {
		t.Errorf("SNIMatch = %s, want %s", got, want)
	}
	if got := wild.CertificateHost(); got != "*.wild.test" {
		t.Errorf("CertificateHost = %s, want *.wild.test", got)
	}
	exact := Route{Host: "www.wild.test"}
	if exact.IsWildcard() || exact.CertificateHost() != "www.wild.test" || exact.SNIMatch() != "{ req_ssl_sni -i www.wild.test }" {
		t.Errorf("exact route: wildcard %v, certificate host %s, SNI %s", exact.IsWildcard(), exact.CertificateHost(), exact.SNIMatch())
	}
	// A host without a parent serves itself alone, as upstream's.
	if lone := (Route{Host: "localhost", Wildcard: true}); lone.IsWildcard() || lone.CertificateHost() != "localhost" {
		t.Errorf("a wildcard route without a parent: %v %s", lone.IsWildcard(), lone.CertificateHost())
	}

	cfg := Config{
		HTTPBind: ":80", HTTPSBind: ":443", StatsBind: ":1936", Dir: "/tmp/x", DefaultCertificate: []byte("pem"),
		Routes: []Route{
			{Namespace: "ns", Name: "a-wild", Host: "a.wild.test", Wildcard: true, Termination: Edge, Certificate: []byte("pem")},
			{Namespace: "ns", Name: "z-exact", Host: "z.wild.test", Termination: Edge},
		},
	}
	files, err := Render(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := string(files[ConfigFile])
	exactAt := strings.Index(got, "use_backend be_edge_http:ns:z-exact")
	wildAt := strings.Index(got, "use_backend be_edge_http:ns:a-wild")
	if exactAt < 0 || wildAt < 0 || wildAt < exactAt {
		t.Errorf("want the exact route's use_backend before the wildcard's:\n%s", got)
	}
	if crt := string(files["crt-list"]); crt != "/tmp/x/certs/ns_a-wild.pem *.wild.test\n" {
		t.Errorf("crt-list = %q", crt)
	}
	cfg.Routes[0].Host = "a.wild_x.test"
	if _, err := Render(cfg); err == nil {
		t.Error("a wildcard parent that is no DNS name rendered")
	}
}

func TestRenderUniqueIDInEveryHTTPFrontend(t *testing.T) {
	cfg := Config{
		HTTPBind: ":80", HTTPSBind: ":443", StatsBind: ":1936", Dir: "/tmp/x", DefaultCertificate: []byte("pem"),
		UniqueIDHeader: "X-Unique-Id", UniqueIDFormat: `"%{+X}o %ci:%cp_%fi:%fp_%Ts_%rt:%pid"`,
	}
	files, err := Render(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := string(files[ConfigFile])
	if n := strings.Count(got, "\n  unique-id-format \"%{+X}o %ci:%cp_%fi:%fp_%Ts_%rt:%pid\"\n  unique-id-header X-Unique-Id\n"); n != 3 {
		t.Errorf("unique-id in %d frontends, want public, fe_sni and fe_no_sni:\n%s", n, got)
	}
	for _, bad := range []Config{
		{UniqueIDHeader: "X-Unique-Id"},
		{UniqueIDFormat: `"%ci"`},
		{UniqueIDHeader: "X Unique", UniqueIDFormat: `"%ci"`},
		{UniqueIDHeader: "X-Unique-Id", UniqueIDFormat: "%ci"},
		{UniqueIDHeader: "X-Unique-Id", UniqueIDFormat: "\"%ci\"\n  timeout client 1s"},
	} {
		c := cfg
		c.UniqueIDHeader, c.UniqueIDFormat = bad.UniqueIDHeader, bad.UniqueIDFormat
		if _, err := Render(c); err == nil {
			t.Errorf("unique-id header %q, format %q rendered", bad.UniqueIDHeader, bad.UniqueIDFormat)
		}
	}
}
