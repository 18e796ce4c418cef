// Package faults is the switch of the test-only fault points: places in
// the reference router and the platform stand-ins where one behaviour can
// be broken on purpose, to show that the specs citing a statement fail
// when it is broken (`make mutants`, docs/mutants.md). The points are
// compiled only with the build tag conformance_faults; without it On is
// false and the compiler drops what it guards, so the images of make e2e,
// make certify and the kit hold none. faults/catalogue lists every fault
// and the trace statements it breaks.
package faults

// Env is the environment variable that switches one fault on in a fault
// build: a fault's ID from the catalogue.
const Env = "CONFORMANCE_FAULT"

// Tag is the build tag that compiles the fault points in.
const Tag = "conformance_faults"

// On reports whether the fault id is switched on in this process.
func On(id string) bool { return active != "" && id == active }

// Chosen reports whether the fault a run was given (framework Options'
// -fault, passed to the install) is id: the fault points of what the
// suite's own process applies (the CRDs the install copies from
// openshift/api), which no fault build's environment reaches. The -fault
// flag is refused for a certification and with prebuilt images.
func Chosen(fault, id string) bool { return fault != "" && fault == id }

// Active is the fault switched on in this process ("" for none, and
// always in a build without the tag).
func Active() string { return active }
