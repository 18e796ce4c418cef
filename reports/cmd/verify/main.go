// Command verify checks a conformance bundle as a certifier would
// (reports.Verify):
//
//	go run ./reports/cmd/verify [-allow-dev] [-v] _output/acme-acme_router-1.2.3.tar.gz
//
// It prints one line: "OK: <project> <version>: <result> ..." (what was
// claimed, unsupported and not judged, how many specs judged the router
// and the platform, the image) when the bundle verifies, else
// "FAIL: <reason>". Exit status: 0 for a verified passed verdict, 2 for a
// verified verdict that is not passed (nothing but passed is passing), 1
// when the bundle fails verification or the command line is wrong.
//
// -allow-dev accepts a bundle of a development build of the suite (a
// version such as v0.3.0-dev); -v prints, below the line, the verdict
// feature by feature and the image.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/router-conformance/suite/reports"
)

const usage = "usage: verify [-allow-dev] [-v] <bundle.tar.gz>"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run verifies the bundle args name, prints its line (and with -v the
// table) and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("verify", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	allowDev := flags.Bool("allow-dev", false, "accept a bundle of a development build of the suite")
	verbose := flags.Bool("v", false, "print the verdict feature by feature and the image")
	if err := flags.Parse(args); err != nil {
		fmt.Fprintf(stderr, "%s (%v)\n", usage, err)
		return 1
	}
	if flags.NArg() != 1 {
		fmt.Fprintln(stderr, usage)
		return 1
	}
	v, err := reports.Verify(flags.Arg(0), reports.VerifyOptions{AllowDev: *allowDev})
	if err != nil {
		fmt.Fprintln(stdout, "FAIL:", err)
		return 1
	}
	fmt.Fprintln(stdout, v.Line())
	if *verbose {
		fmt.Fprint(stdout, v.Table())
	}
	return v.ExitCode()
}
