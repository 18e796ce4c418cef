// Command build-images builds every component image (`make images`,
// `make e2e-images`) and prints name=tag lines; -skip-reference-router
// leaves out the reference router when another router is judged.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/router-conformance/suite/images"
)

func main() {
	skip := flag.Bool("skip-reference-router", false, "build the component images only (another router is judged)")
	flag.Parse()
	build, specs := images.BuildAll, append([]images.Spec{images.ReferenceRouter}, images.Components...)
	if *skip {
		build, specs = images.BuildComponents, images.Components
	}
	tags, err := build(context.Background(), ".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "build-images:", err)
		os.Exit(1)
	}
	for _, s := range specs {
		fmt.Printf("%s=%s\n", s.Name, tags[s.Name])
	}
}
