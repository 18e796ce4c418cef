//go:build !conformance_flaky

package hsts

// onReencrypt: the reference router sends HSTS on reencrypt routes, as
// upstream does (flaky.go is a test-only build that sometimes does not).
const onReencrypt = true
