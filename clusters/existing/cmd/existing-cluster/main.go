// Command existing-cluster makes (or removes) the lab cluster that
// `make e2e-existing` runs the existing profile against:
//
//	existing-cluster up [-name N] [-workers 2] [-replicas R] [-router-image IMG] [-manifests DIR] [-env-file F] [-pods-file F] [-keep-on-error]
//	existing-cluster down [-name N]
//	existing-cluster pods [-name N] [-pods-file F]
//
// up writes the existing profile's flags as shell assignments to
// -env-file (KUBECONFIG, HTTP_ADDR, HTTPS_ADDR, DOMAIN, REGISTRY, ROUTER,
// NODES, REPLICAS, LOAD_BALANCER, SHARD_ADDRS: -shard-addrs). pods prints (and writes to -pods-file)
// kubectl get nodes and the default router's pods -o wide.
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
	fs.IntVar(&o.Workers, "workers", 2, "worker nodes; with any, the routers run there behind a TCP load balancer (0: one node, its ports mapped)")
	fs.IntVar(&o.Replicas, "replicas", 0, "router replicas of the default IngressController with workers (default 2, at most one per worker)")
	envFile := fs.String("env-file", "", "up: write the existing profile's flags here as shell assignments")
	podsFile := fs.String("pods-file", "", "up, pods: write kubectl get nodes and the router's pods -o wide here")
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
		fmt.Printf("lab cluster %q ready in %s: %d nodes, router %s (%d replicas) at %s / %s, registry %s\n  export KUBECONFIG=%s\n",
			o.Name, time.Since(start).Round(time.Second), len(lab.Nodes), lab.Router, lab.Replicas, lab.HTTPAddr, lab.HTTPSAddr, lab.Registry, lab.Kubeconfig)
		return pods(ctx, o.Name, *podsFile)
	case "down":
		return existing.Down(ctx, o)
	case "pods":
		return pods(ctx, o.Name, *podsFile)
	}
	return fmt.Errorf("unknown command %q: want up, down or pods", cmd)
}

// pods prints the lab's nodes and router pods, and writes them to file.
func pods(ctx context.Context, name, file string) error {
	out, err := existing.RouterPods(ctx, name)
	if err != nil {
		return err
	}
	fmt.Print(out)
	if file == "" {
		return nil
	}
	return os.WriteFile(file, []byte(out), 0o644)
}
