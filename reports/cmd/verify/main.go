// Command verify checks a conformance bundle as a certifier would
// (reports.VerifyBundle):
//
//	go run ./reports/cmd/verify _output/conformance-bundle.tar.gz
//
// It prints "OK: <implementation> <version>: <result>" when every check
// holds, else "FAIL: <reason>". Exit status: 0 for a verified passed
// verdict, 2 for a verified verdict that is not passed (nothing but passed
// is passing), 1 when the bundle fails verification.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/router-conformance/suite/reports"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: verify <bundle.tar.gz>")
		os.Exit(1)
	}
	os.Exit(run(os.Args[1], os.Stdout))
}

// run verifies one bundle, prints its line and returns the exit status.
func run(bundle string, w io.Writer) int {
	r, err := reports.VerifyBundle(bundle)
	if err != nil {
		fmt.Fprintln(w, "FAIL:", err)
		return 1
	}
	fmt.Fprintf(w, "OK: %s %s: %s\n", r.Implementation.Project, r.Implementation.Version, r.Result)
	if !r.Passed() {
		return 2
	}
	return 0
}
