package hsts

import (
	"testing"

	routev1 "github.com/openshift/api/route/v1"
)

func TestHeaderFollowsTheUpstreamPattern(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{
		{"max-age=31536000", true},
		{"max-age=31536000;includeSubDomains", true},
		{"max-age=31536000;includeSubDomains;preload", true},
		{"max-age=0", true},
		{`max-age="600"`, true},
		{"MAX-AGE=600 ; INCLUDESUBDOMAINS ; Preload", true},
		{"max-age = 600", true},
		{"preload;max-age=600", true},
		{"includeSubDomains;preload;max-age=600;includeSubDomains", true},
		{"", false},
		{"includeSubDomains", false},
		{"preload", false},
		{"max-age=", false},
		{"max-age=abc", false},
		{"max-age=-1", false},
		{"max-age=600;foo", false},
		{" max-age=600", false},
		{`max-age="600`, false},
		{"max-age=600;;preload", false},
		{"max-age=600;includeSubDomains;", false}, // openshift/origin#19860: a trailing ";" fails the whole-value match
	} {
		if got := Valid(tc.value); got != tc.want {
			t.Errorf("Valid(%q) = %v, want %v", tc.value, got, tc.want)
		}
	}
}

func TestHeaderOnlyOnEdgeAndReencrypt(t *testing.T) {
	const v = "max-age=600;includeSubDomains"
	for _, tc := range []struct {
		termination routev1.TLSTerminationType
		want        bool
	}{
		{routev1.TLSTerminationEdge, true},
		{routev1.TLSTerminationReencrypt, true},
		{routev1.TLSTerminationPassthrough, false},
		{"", false},
	} {
		got, ok := Header(tc.termination, v)
		if ok != tc.want || (ok && got != v) {
			t.Errorf("%q: got %q, %v; want %v", tc.termination, got, ok, tc.want)
		}
	}
}
