package haproxy

import (
	"strings"
	"testing"
)

func TestHostMatchSegmentAndPlainPrefix(t *testing.T) {
	host := "{ req.hdr(host),field(1,:),lower -m str a.test }"
	for _, tc := range []struct {
		name  string
		route Route
		want  string
	}{
		{"no path", Route{Host: "A.test"}, host},
		{"Route prefix: a string prefix, as upstream", Route{Host: "a.test", Path: "/foo"}, host + " { path_beg /foo }"},
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
		"set-var(txn.os_redirect) int(301) if { req.hdr(host),field(1,:),lower -m str p.test }",
		"set-var(txn.os_redirect) int(302) if { req.hdr(host),field(1,:),lower -m str u.test }",
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
	host := "{ req.hdr(host),field(1,:),lower -m str m.test }"
	want := []string{
		"http-request set-var(txn.os_redirect) int(302) if " + host,
		"http-request set-var(txn.os_redirect) int(0) if " + host + " { path_beg /a }",
		"http-request set-var(txn.os_redirect) int(0) if " + host + " { path_beg /a/b }",
		"http-request redirect location https://%[req.hdr(host),regsub(:[0-9]+$,,)]%[url] code 302 if { var(txn.os_redirect) -m int 302 }",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("redirect decision:\n got %q\nwant %q", got, want)
	}
}
