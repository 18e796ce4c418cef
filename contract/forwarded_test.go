package contract

import (
	"fmt"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
)

func TestForwardedPolicyOfTheIngressController(t *testing.T) {
	for in, want := range map[operatorv1.IngressControllerHTTPHeaderPolicy]ForwardedPolicy{
		"": ForwardedAppend, operatorv1.AppendHTTPHeaderPolicy: ForwardedAppend, operatorv1.ReplaceHTTPHeaderPolicy: ForwardedReplace,
		operatorv1.IfNoneHTTPHeaderPolicy: ForwardedIfNone, operatorv1.NeverHTTPHeaderPolicy: ForwardedNever,
	} {
		if got := ForwardedPolicyOf(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"Append", "replace ", "", "ifnone"} {
		if _, ok := ParseForwardedPolicy(bad); ok {
			t.Errorf("%q parsed as a policy", bad)
		}
	}
}

// The document's X-Forwarded-For chart (rows BC and BD, and the
// policies alone, TestForwardedHeaderPolicy*'s counts) as upstream's
// template decides it.
func TestForwardedSeenFollowsTheChart(t *testing.T) {
	client := map[string][]string{"X-Forwarded-For": {"192.0.2.1", "192.0.2.2"}}
	req := func(ic, route *XFFAction, c map[string][]string) ForwardedRequest {
		return ForwardedRequest{Client: c, IngressController: ic, Route: route, Source: "10.0.0.1", Host: "h.test", Port: "443", TLS: true}
	}
	set := func(v string) *XFFAction { return &XFFAction{Value: v} }
	del := &XFFAction{Delete: true}
	for _, c := range []struct {
		policy    ForwardedPolicy
		ic, route *XFFAction
		client    map[string][]string
		want      []string
	}{
		{ForwardedAppend, nil, nil, nil, []string{"10.0.0.1"}},
		{ForwardedAppend, nil, nil, client, []string{"192.0.2.1", "192.0.2.2", "10.0.0.1"}},
		{ForwardedReplace, nil, nil, client, []string{"10.0.0.1"}},
		{ForwardedIfNone, nil, nil, nil, []string{"10.0.0.1"}},
		{ForwardedIfNone, nil, nil, client, []string{"192.0.2.1", "192.0.2.2"}},
		{ForwardedNever, nil, nil, nil, nil},
		{ForwardedNever, nil, nil, client, []string{"192.0.2.1", "192.0.2.2"}},
		// BC: the IngressController's Set.
		{ForwardedAppend, set("ic"), nil, client, []string{"ic", "10.0.0.1"}},
		{ForwardedReplace, set("ic"), nil, client, []string{"10.0.0.1"}},
		{ForwardedIfNone, set("ic"), nil, client, []string{"ic"}},
		{ForwardedNever, set("ic"), nil, client, []string{"ic"}},
		// BD and BCD: the route's Set.
		{ForwardedAppend, set("ic"), set("route"), client, []string{"route", "10.0.0.1"}},
		{ForwardedReplace, set("ic"), set("route"), client, []string{"route"}},
		{ForwardedIfNone, nil, set("route"), nil, []string{"route"}},
		{ForwardedNever, nil, set("route"), nil, []string{"route"}},
		// Deletes.
		{ForwardedAppend, nil, del, client, []string{"10.0.0.1"}},
		{ForwardedReplace, nil, del, client, nil},
		{ForwardedIfNone, del, nil, client, []string{"10.0.0.1"}},
		{ForwardedNever, del, nil, client, nil},
	} {
		got := c.policy.Seen(req(c.ic, c.route, c.client))["X-Forwarded-For"]
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s, IngressController %+v, route %+v, client %v: X-Forwarded-For %q, want %q", c.policy, c.ic, c.route, c.client, got, c.want)
		}
	}
	all := map[string][]string{"X-Forwarded-Host": {"c.test"}, "X-Forwarded-Proto": {"ftp"}, "X-Forwarded-Port": {"1"}, "Forwarded": {"for=c"}, "X-Forwarded-Proto-Version": {"h9"}}
	seen := ForwardedAppend.Seen(req(nil, nil, all))
	if fmt.Sprint(seen["Forwarded"]) != "[for=c for=10.0.0.1;host=h.test;proto=https]" || fmt.Sprint(seen["X-Forwarded-Proto-Version"]) != "[h9]" {
		t.Errorf("append: %v", seen)
	}
	seen = ForwardedIfNone.Seen(req(nil, nil, map[string][]string{"X-Forwarded-Proto": {"ftp"}}))
	if fmt.Sprint(seen["Forwarded"]) != "[for=10.0.0.1;host=h.test;proto=ftp]" || fmt.Sprint(seen["X-Forwarded-Port"]) != "[443]" {
		t.Errorf("if-none: %v", seen)
	}
	v6 := req(nil, nil, nil)
	v6.Source = "fd00::1"
	if got := ForwardedReplace.Seen(v6)["Forwarded"]; fmt.Sprint(got) != `[for="[fd00::1]";host=h.test;proto=https]` {
		t.Errorf("IPv6 source: %q", got)
	}
}
