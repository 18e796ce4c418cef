// Command e2e-incluster is make e2e-incluster: the suite as a
// conformance image that hydrophone runs on a lab cluster, its results
// compared spec by spec with the kind profile's (incluster.Prove).
//
//	e2e-incluster -kind-junit _output/junit.xml -out _output/incluster [-workers 2] [-replicas R] [-parallel 4] [-keep]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/router-conformance/suite/incluster"
)

func main() {
	var o incluster.ProveOptions
	flag.StringVar(&o.KindJUnit, "kind-junit", "_output/junit.xml", "the kind profile's junit.xml (make e2e's) to compare with")
	flag.StringVar(&o.OutDir, "out", "_output/incluster", "hydrophone's output directory, and the comparison's")
	flag.StringVar(&o.Name, "name", "router-conformance-incluster", "the lab cluster's name")
	flag.IntVar(&o.Workers, "workers", 2, "the lab's worker nodes; the routers run there, router-internal-default balancing over them (0: one node)")
	flag.IntVar(&o.Replicas, "replicas", 0, "router replicas of the default IngressController with workers (default 2, at most one per worker)")
	flag.IntVar(&o.Parallel, "parallel", 4, "hydrophone --parallel: Ginkgo processes in the pod")
	flag.BoolVar(&o.Keep, "keep", false, "keep the lab cluster afterwards (debugging)")
	features := flag.String("features", "", "comma-separated features the in-cluster run claims (default: the existing profile's)")
	flag.Func("arg", "a suite flag for the pod's run, --key=value as hydrophone takes it, e.g. -arg=--certify=true (repeatable; no commas: hydrophone splits on them)", func(v string) error {
		if strings.Contains(v, ",") {
			return fmt.Errorf("%q: hydrophone's --extra-args splits on commas", v)
		}
		o.ExtraArgs = append(o.ExtraArgs, v)
		return nil
	})
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "e2e-incluster: unexpected arguments %q (flags only)\n", flag.Args())
		os.Exit(2)
	}
	if *features != "" {
		o.Features = strings.Split(*features, ",")
	}
	o.RepoRoot, o.Stdout = ".", os.Stdout
	o.Logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := incluster.Prove(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "e2e-incluster: FAIL:", err)
		os.Exit(1)
	}
	fmt.Printf("e2e-incluster: OK: hydrophone ran the conformance image; every spec as on the kind profile (%s/compare.md, %s/summary.md)\n", o.OutDir, o.OutDir)
}
