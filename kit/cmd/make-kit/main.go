// Command make-kit writes the air-gapped kit (`make kit`):
// <out>/router-conformance-kit-<version>-<os>-<arch>.tar, and prints its
// path. It builds what is not cached (images, node image), compiles the
// suite and ./run with the build git describes stamped in (runner.SourceBuild:
// no flag sets it), and saves every image into the kit.
//
//	make-kit -out _output   # the kit; its path on stdout
//	make-kit -list          # the images it carries: name, reference, ID
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/router-conformance/suite/kit"
)

func main() {
	out := flag.String("out", "_output", "directory the kit's tar goes to")
	list := flag.Bool("list", false, "only print the images a kit carries (name, reference, ID), building what is not cached")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "make-kit: unexpected arguments %q (flags only: -out, -list)\n", flag.Args())
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	if *list {
		m, err := kit.Images(ctx, ".")
		if err != nil {
			fmt.Fprintln(os.Stderr, "make-kit:", err)
			os.Exit(1)
		}
		for _, img := range m.Images {
			fmt.Printf("%s\t%s\t%s\n", img.Name, img.Ref, img.ID)
		}
		return
	}
	path, err := kit.Build(ctx, kit.BuildOptions{
		RepoRoot: ".", OutDir: *out,
		Logf: logf,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "make-kit:", err)
		os.Exit(1)
	}
	fmt.Println(path)
}
