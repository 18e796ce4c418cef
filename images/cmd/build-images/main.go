// Command build-images builds every component image (`make images`) and
// prints name=tag lines.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/router-conformance/suite/images"
)

func main() {
	tags, err := images.BuildAll(context.Background(), ".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "build-images:", err)
		os.Exit(1)
	}
	for _, s := range append([]images.Spec{images.ReferenceRouter}, images.Components...) {
		fmt.Printf("%s=%s\n", s.Name, tags[s.Name])
	}
}
