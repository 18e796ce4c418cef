package framework

import (
	"reflect"
	"testing"
)

func TestParseHTTPLog(t *testing.T) {
	for _, c := range []struct {
		line     string
		ok       bool
		frontend string
		captures [][]string
		path     string
	}{
		{`2026-11-26T14:10:02.123456+00:00 router-shard-1-x haproxy[42]: 10.244.0.1:51234 [26/Nov/2026:14:10:02.120] public be_http:ns:r/pod:echo:http:10.244.0.9:8080 0/0/0/1/1 200 312 - - --NI 1/1/0/0/0 0/0 {client-ic|client-route} "GET /accesslog/with HTTP/1.1"`,
			true, "public", [][]string{{"client-ic", "client-route"}}, "/accesslog/with"},
		{`2026-11-26T14:10:02.123456+00:00 h haproxy[42]: 10.244.0.1:51234 [26/Nov/2026:14:10:02.120] fe_sni~ be_edge_http:ns:r/pod 0/0/0/1/1 200 312 - - --NI 1/1/0/0/0 0/0 {|} {x} "GET /p HTTP/1.1"`,
			true, "fe_sni~", [][]string{{"", ""}, {"x"}}, "/p"},
		{`2026-11-26T14:10:02.123456+00:00 h haproxy[42]: 10.244.0.1:51234 [26/Nov/2026:14:10:02.120] public openshift_default/<NOSRV> 0/-1/-1/-1/0 503 222 - - SCNN 1/1/0/0/0 0/0 "GET / HTTP/1.1"`,
			true, "public", nil, "/"},
		{`2026-11-26T14:10:02.123456+00:00 h haproxy[42]: 10.244.0.1:51234 [26/Nov/2026:14:10:02.120] public_ssl be_sni/fe_sni 1/0/3 3000 -- 1/1/0/0/0 0/0`, false, "", nil, ""},
		{`2026-11-26T14:10:02.123456+00:00 h haproxy[42]: Proxy public started.`, false, "", nil, ""},
	} {
		e, ok := ParseHTTPLog(c.line)
		if ok != c.ok {
			t.Errorf("%q: ok %v", c.line, ok)
			continue
		}
		if ok && (e.Frontend != c.frontend || e.Path != c.path || !reflect.DeepEqual(e.Captures, c.captures)) {
			t.Errorf("%q: got %+v", c.line, e)
		}
	}
}
