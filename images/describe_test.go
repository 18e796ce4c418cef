package images

import "testing"

func TestParseHAProxyVersion(t *testing.T) {
	for banner, want := range map[string]string{
		"HAProxy version 3.0.11-1 2025/06/06 - https://haproxy.org/\nStatus: long-term supported branch": "3.0.11-1",
		"HA-Proxy version 1.8.19 2019/02/11": "1.8.19",
		"haproxy: not found":                 "",
	} {
		if got := ParseHAProxyVersion(banner); got != want {
			t.Errorf("%q: got %q, want %q", banner, got, want)
		}
	}
}
