//go:build conformance_flaky

package hsts

import "math/rand/v2"

// onReencrypt, in a test-only build (-tags conformance_flaky, never in
// the reference router's image or the kit), is decided once per router
// process by a coin: a router that passes one run and fails the next on
// one feature, for reproduction's proof (docs/certification.md:
// reproducing and signing).
var onReencrypt = rand.IntN(2) == 0
