// Command prove-kit is the air-gapped kit's CI proof (`make e2e-kit`):
// it unpacks a kit into an empty directory and runs it for some features
// with go, gofmt, apt-get, apt and dpkg removed from PATH and
// GOPROXY=off, and fails unless they all pass (kit.Prove).
//
//	prove-kit -kit _output/router-conformance-kit-....tar [-features router,hsts] [-work DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/kit"
)

func main() {
	tarFile := flag.String("kit", "", "the kit's tar file (make kit prints it)")
	features := flag.String("features", "router,hsts", "comma-separated features the kit's run must pass")
	work := flag.String("work", filepath.Join(os.TempDir(), "router-conformance-kit-proof"), "directory emptied and used for the proof")
	cluster := flag.String("cluster-name", "router-conformance-kit", "the kind cluster the kit's run makes")
	flag.Parse()
	if *tarFile == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: prove-kit -kit <kit.tar> [-features router,hsts] [-work DIR]")
		os.Exit(2)
	}
	var fs []contract.Feature
	for _, f := range strings.Split(*features, ",") {
		if _, ok := contract.LookupFeature(f); !ok {
			fmt.Fprintf(os.Stderr, "prove-kit: -features: %q is no feature of contract/features.go\n", f)
			os.Exit(2)
		}
		fs = append(fs, contract.Feature(f))
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	res, err := kit.Prove(ctx, kit.ProveOptions{Kit: *tarFile, Features: fs, WorkDir: *work, Cluster: *cluster, Stdout: os.Stdout, Stderr: os.Stderr})
	if err != nil {
		fmt.Fprintf(os.Stderr, "prove-kit: FAIL after %s: %v\n", res.Duration.Round(1e9), err)
		os.Exit(1)
	}
	fmt.Printf("prove-kit: OK: %s passed from the kit alone (no go, apt or dpkg on PATH, GOPROXY=off) in %s; result %s (%s)\n",
		*features, res.Duration.Round(1e9), res.Report.Result, res.Report.Reason)
}
