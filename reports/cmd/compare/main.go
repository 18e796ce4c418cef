// Command compare compares two runs of the suite spec by spec
// (reports.Compare has the rules): a run on the kind profile and one on
// the existing profile must give every spec the same outcome, but for
// the specs that need the kind profile's own ports.
//
//	compare -a kind/report.json -b existing/report.json [-a-name kind] [-b-name existing] [-out compare.md]
//
// It writes the comparison to -out as markdown and prints its summary
// line and the differences. Exit status: 0 when the runs agree, 1 when a
// spec differs, 2 when the arguments or a report cannot be used.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/router-conformance/suite/reports"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	agree    = 0
	differ   = 1
	unusable = 2
)

// run compares as the arguments say and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	a := fs.String("a", "", "report.json (or junit.xml) of the kind profile's run (required)")
	b := fs.String("b", "", "report.json (or junit.xml, junit_01.xml) of the other run (required)")
	aName := fs.String("a-name", "kind", "what the output calls run A")
	bName := fs.String("b-name", "existing", "what the output calls run B")
	out := fs.String("out", "compare.md", "where the markdown comparison goes")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return agree
		}
		return unusable
	}
	fail := func(format string, v ...any) int {
		fmt.Fprintf(stderr, "compare: "+format+"\n", v...)
		return unusable
	}
	switch {
	case *a == "" || *b == "":
		return fail("-a and -b are required: compare -a <kind report.json> -b <existing report.json>")
	case fs.NArg() > 0:
		return fail("unexpected arguments %q: the reports go with -a and -b", fs.Args())
	case *aName == *bName:
		return fail("-a-name and -b-name are both %q: name the runs apart", *aName)
	}
	c, err := reports.CompareFiles(*aName, *a, *bName, *b, *out, stdout)
	if err != nil {
		return fail("%v", err)
	}
	if len(c.Differences()) > 0 {
		return differ
	}
	return agree
}
