package main

import (
	"slices"
	"testing"
)

// make bench-ci's own variables (REPORTS=... on its command line) reach
// the makes it runs through MAKEFLAGS: the clone's make lines get none of
// them, as in CI; everything else passes (the control).
func TestCIEnvDropsWhatMakePassesOn(t *testing.T) {
	got := ciEnv([]string{"PATH=/usr/bin", "MAKEFLAGS= -- REPORTS=/tmp/x", "MFLAGS=", "MAKELEVEL=1", "MAKEOVERRIDES=${-*-command-variables-*-}", "GOFLAGS=-buildvcs=false"})
	if want := []string{"PATH=/usr/bin", "GOFLAGS=-buildvcs=false"}; !slices.Equal(got, want) {
		t.Errorf("ciEnv = %q, want %q", got, want)
	}
}
