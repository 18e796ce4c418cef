// Command existing-cluster makes (or removes) the lab cluster that
// `make e2e-existing` runs the existing profile against:
//
//	existing-cluster up [-name N] [-router-image IMG] [-manifests DIR] [-env-file F] [-keep-on-error]
//	existing-cluster down [-name N]
//
// up writes the existing profile's flags as shell assignments to
// -env-file (KUBECONFIG, HTTP_ADDR, HTTPS_ADDR, DOMAIN, REGISTRY, ROUTER).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/router-conformance/suite/clusters/existing"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "existing-cluster:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: existing-cluster up|down [flags]; existing-cluster <command> -help lists the flags")
	}
	cmd, args := args[0], args[1:]
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	var o existing.Options
	fs.StringVar(&o.Name, "name", existing.DefaultName, "kind cluster name (its registry container is <name>-registry)")
	fs.StringVar(&o.RepoRoot, "repo", ".", "the suite's checkout")
	fs.StringVar(&o.RouterImage, "router-image", "", "a local Docker image of the router to install (default: the reference router, built)")
	fs.StringVar(&o.ManifestsDir, "manifests", "", "where the applied manifests are written (default .cache/<name>-manifests)")
	fs.StringVar(&o.Kubeconfig, "kubeconfig", "", "where to write the kubeconfig (default .cache/<name>.kubeconfig)")
	fs.DurationVar(&o.ReadyTimeout, "ready-timeout", 3*time.Minute, "how long to wait for the node, CoreDNS and the router")
	envFile := fs.String("env-file", "", "up: write the existing profile's flags here as shell assignments")
	keep := fs.Bool("keep-on-error", false, "up: keep what was made when it fails or is interrupted (debugging)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	switch cmd {
	case "up":
		start := time.Now()
		lab, err := existing.Up(ctx, o)
		if err != nil {
			if !*keep {
				fmt.Fprintln(os.Stderr, "existing-cluster: removing what was made (-keep-on-error keeps it)")
				_ = existing.Down(context.Background(), o)
			}
			return err
		}
		if *envFile != "" {
			if err := lab.WriteEnv(*envFile); err != nil {
				return err
			}
		}
		fmt.Printf("lab cluster %q ready in %s: router %s at %s / %s, registry %s\n  export KUBECONFIG=%s\n",
			o.Name, time.Since(start).Round(time.Second), lab.Router, lab.HTTPAddr, lab.HTTPSAddr, lab.Registry, lab.Kubeconfig)
		return nil
	case "down":
		return existing.Down(ctx, o)
	}
	return fmt.Errorf("unknown command %q: want up or down", cmd)
}
