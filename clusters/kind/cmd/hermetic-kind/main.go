// Command hermetic-kind brings the hermetic kind cluster up or down:
//
//	hermetic-kind up [-name N] [-reuse] [-keep-on-interrupt] [-http-port P] [-https-port P]
//	hermetic-kind down [-name N]
//	hermetic-kind logs [-name N] -dir DIR
//
// `make cluster`, `make cluster-down` and `make e2e` call the same code.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/contract"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "hermetic-kind:", err)
		os.Exit(1)
	}
}

func usage() error {
	return errors.New("usage: hermetic-kind up|down|logs [flags]; hermetic-kind <command> -help lists the flags")
}

func run(args []string) error {
	if len(args) == 0 {
		return usage()
	}
	cmd, args := args[0], args[1:]
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	name := fs.String("name", kind.DefaultName, "kind cluster name")
	repo := fs.String("repo", ".", "the suite's checkout")
	kubeconfig := fs.String("kubeconfig", "", "where to write the kubeconfig (default .cache/<name>.kubeconfig)")
	nodeImage := fs.String("node-image", "", "use this node image instead of building one")
	reuse := fs.Bool("reuse", false, "reuse an existing cluster of that name")
	keep := fs.Bool("keep-on-interrupt", false, "keep a half-made cluster when interrupted (debugging)")
	httpPort := fs.Int("http-port", 0, "127.0.0.1 port for the node's port 80 (0: a free one)")
	httpsPort := fs.Int("https-port", 0, "127.0.0.1 port for the node's port 443 (0: a free one)")
	timeouts := contract.DefaultTimeouts()
	fs.DurationVar(&timeouts.ClusterReady, "ready-timeout", timeouts.ClusterReady, "how long to wait for the node and CoreDNS")
	logDir := fs.String("dir", "", "logs: where to write the node logs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	root, err := filepath.Abs(*repo)
	if err != nil {
		return err
	}
	opts := kind.Options{
		Name: *name, RepoRoot: root, NodeImage: *nodeImage, Kubeconfig: *kubeconfig, Reuse: *reuse,
		Timeouts: timeouts,
		// The suite's ports, so that make e2e REUSE=1 and make bench find
		// the shard pairs on a cluster made here.
		Ports: kind.SuitePorts(int32(*httpPort), int32(*httpsPort)),
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	switch cmd {
	case "up":
		start := time.Now()
		c, err := kind.Up(ctx, opts)
		if err != nil {
			if c != nil && c.Created && !*keep && ctx.Err() != nil {
				_ = c.Down(context.Background(), true)
			}
			return err
		}
		fmt.Printf("cluster %q ready in %s\n  export KUBECONFIG=%s\n", c.Name, time.Since(start).Round(time.Second), c.Kubeconfig)
		return nil
	case "down":
		return kind.Delete(ctx, opts)
	case "logs":
		if *logDir == "" {
			return errors.New("logs: -dir is required")
		}
		return kind.CollectLogs(opts, *logDir)
	default:
		return usage()
	}
}
