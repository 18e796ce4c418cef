//go:build conformance_faults

package faults

import (
	"fmt"
	"os"
)

// Compiled is true: a test-only build whose fault points can be switched
// on (never an image of make e2e, make certify or the kit).
const Compiled = true

// active is read once: a process breaks one behaviour for its lifetime.
var active = os.Getenv(Env)

func init() {
	if active != "" {
		fmt.Fprintf(os.Stderr, "test-only build: fault %q is switched on (%s)\n", active, Env)
	}
}
