//go:build !conformance_faults

package faults

// Compiled is false: this build holds no fault point.
const Compiled = false

const active = ""
