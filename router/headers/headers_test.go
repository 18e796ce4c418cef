package headers

import (
	"reflect"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/router-conformance/suite/contract"
)

func TestEnvRoundTripKeepsOrderAndAwkwardCharacters(t *testing.T) {
	in := []Action{
		{Name: "X-Frame-Options", Kind: Set, Value: "DENY"},
		{Name: "X-Comma", Kind: Set, Value: "a,b:c%d e"},
		{Name: "X-Dynamic", Kind: Set, Value: "%[req.hdr(host),lower]"},
		{Name: "X-Powered-By", Kind: Delete},
	}
	var ic []operatorv1.IngressControllerHTTPHeader
	for _, a := range in {
		h := operatorv1.IngressControllerHTTPHeader{Name: a.Name, Action: operatorv1.IngressControllerHTTPHeaderActionUnion{Type: operatorv1.IngressControllerHTTPHeaderActionType(a.Kind)}}
		if a.Kind == Set {
			h.Action.Set = &operatorv1.IngressControllerSetHTTPHeader{Value: a.Value}
		}
		ic = append(ic, h)
	}
	env := contract.HeaderActionsEnv(ic)
	if want := "X-Frame-Options:DENY:Set,X-Comma:a%2Cb%3Ac%25d+e:Set,X-Dynamic:%25%5Breq.hdr%28host%29%2Clower%5D:Set,X-Powered-By:Delete"; env != want {
		t.Errorf("HeaderActionsEnv = %q\nwant        %q", env, want)
	}
	out, err := ParseEnv(env)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("round trip: %+v", out)
	}
}

func TestParseEnvRefusesMalformedItems(t *testing.T) {
	for _, env := range []string{"X:Set", "X:v:Delete", "X:v:Add", ":v:Set", "X:%zz:Set", "X"} {
		if _, err := ParseEnv(env); err == nil {
			t.Errorf("ParseEnv(%q) accepted", env)
		}
	}
	if got, err := ParseEnv(""); err != nil || got != nil {
		t.Errorf("empty env: %v, %v", got, err)
	}
}

func TestDirectivesAreStronglyQuoted(t *testing.T) {
	for _, tc := range []struct {
		a    Action
		dir  string
		want string
	}{
		{Action{Name: "X-A", Kind: Set, Value: "it's a \\ test; ok"}, "http-request", `http-request set-header 'X-A' 'it'\''s a \ test; ok'`},
		{Action{Name: "X-B", Kind: Delete}, "http-response", `http-response del-header 'X-B'`},
		{Action{Name: "X-C", Kind: Set, Value: "%{+Q}[ssl_c_der,base64]"}, "http-request", `http-request set-header 'X-C' '%{+Q}[ssl_c_der,base64]'`},
	} {
		if got := tc.a.Directive(tc.dir); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
