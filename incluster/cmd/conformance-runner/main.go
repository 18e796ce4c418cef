// Command conformance-runner is the conformance image's entry point: it
// runs the precompiled suite inside the cluster as hydrophone's
// environment asks (incluster.RunnerOptions, through the one run path) and writes e2e.log,
// junit_01.xml and the suite's reports into /tmp/results.
package main

import (
	"os"

	"github.com/router-conformance/suite/incluster"
)

func main() {
	os.Exit(incluster.Run(os.LookupEnv, os.Stdout, os.Stderr))
}
