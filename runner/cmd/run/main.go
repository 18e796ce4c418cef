// Command run is the run path from a checkout of the suite (the Makefile's
// e2e, certify, e2e-existing and verify targets call it):
//
//	go run ./runner/cmd/run e2e -procs 4 -repeat 1 -reports _output [suite flags]
//	go run ./runner/cmd/run certify -implementation-organization ... [suite flags]
//	go run ./runner/cmd/run verify [-allow-dev] <bundle>
//
// Ginkgo compiles ./e2e with the build git describes stamped in (never a
// make variable: a failed git call is a dirty build).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/router-conformance/suite/runner"
)

func main() {
	root, err := os.Getwd()
	if err == nil {
		root, err = filepath.Abs(root)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "run:", err)
		os.Exit(runner.ExitUsage)
	}
	os.Exit(runner.Main("go run ./runner/cmd/run", runner.SourceBinaries(root), nil, os.Args[1:], os.Stdout, os.Stderr))
}
