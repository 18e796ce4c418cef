package annotations

import (
	"slices"
	"testing"

	"github.com/router-conformance/suite/contract"
)

// Upstream's cases: openshift/router template_helper_test.go
// (TestClipHAProxyTimeoutValue, TestParseIPList) and
// util/rewritetarget/rewritetarget_test.go.
func TestTimeout(t *testing.T) {
	for value, want := range map[string]string{
		"2s": "2s", "2000": "2000", "5500ms": "5500ms", "100us": "100us", "1m": "1m", "24d": "24d",
		"100d": contract.HAProxyMaxTimeout, "2147483648": contract.HAProxyMaxTimeout, "9999999999999999": contract.HAProxyMaxTimeout, "2147483647": "2147483647",
		"": "", "0": "", "-2s": "", "01s": "", "1.5s": "", "1m30s": "", "10S": "", " 10s": "", "foo": "", "24d1": "",
	} {
		got, ok := Timeout(value)
		if got != want || ok != (want != "") {
			t.Errorf("Timeout(%q) = %q, %v; want %q", value, got, ok, want)
		}
	}
}

func TestRewriteTarget(t *testing.T) {
	for _, c := range []struct{ path, target, pattern, replacement string }{
		{"/foo", "/", `^/foo/?(.*)$`, `/\1`},
		{"/foo", "/bar", `^/foo(.*)$`, `/bar\1`},
		{"/foo/", "/", `^/foo//?(.*)$`, `/\1`},
		{"", "/x", `^(.*)$`, `/x\1`},
		{"/it's", "/v2", `^/it'\''s(.*)$`, `/v2\1`},
		{"/foo", "/baz#x", `^/foo(.*)$`, `/baz`},
		{"/foo", `/a"b'c%d\e`, `^/foo(.*)$`, `/abc%%de\1`},
	} {
		got, ok := RewriteTarget(c.path, c.target)
		if !ok || got.Pattern != c.pattern || got.Replacement != c.replacement {
			t.Errorf("RewriteTarget(%q, %q) = %+v, %v; want %q %q", c.path, c.target, got, ok, c.pattern, c.replacement)
		}
	}
	for _, target := range []string{"", "foo", "/a\nb"} {
		if got, ok := RewriteTarget("/foo", target); ok {
			t.Errorf("RewriteTarget(%q) = %+v: a target not matching ^/.*$ is ignored", target, got)
		}
	}
}

func TestAllowlist(t *testing.T) {
	for _, c := range []struct {
		allowlist, whitelist string
		want                 []string
	}{
		{"", "192.168.1.10", []string{"192.168.1.10"}},
		{"10.0.0.1 10.0.0.0/8", "192.168.1.10", []string{"10.0.0.1", "10.0.0.0/8"}},
		{"192.168.1.0 10.10.0.1 192.168. 10.", "", []string{"192.168.1.0", "10.10.0.1"}},
		{"10.0.0.1\t2001:db8::/32", "", []string{"10.0.0.1", "2001:db8::/32"}},
		{"10.0.0.1,10.0.0.2", "", nil},
		{" 10.0.0.1", "", nil},
		{"10.0.0.1 ", "", nil},
		{"garbage", "", nil},
		{"a\nb", "10.0.0.9", []string{"10.0.0.9"}},
		{"", "", nil},
	} {
		if got := Allowlist(c.allowlist, c.whitelist); !slices.Equal(got, c.want) {
			t.Errorf("Allowlist(%q, %q) = %q, want %q", c.allowlist, c.whitelist, got, c.want)
		}
	}
}
