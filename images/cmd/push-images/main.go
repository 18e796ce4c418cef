// Command push-images pushes the fixture images the existing profile
// deploys (echo, probe, crlserver, component-operator) from the local
// Docker engine to a registry (`make push-images IMAGE_REPOSITORY=...`),
// for labs that mirror images in a step of their own; the suite then runs
// with -image-repository and -images-pushed. It builds them first (cached).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/router-conformance/suite/images"
)

func main() {
	repository := flag.String("repository", "", "where to push, e.g. registry.example/conformance (required)")
	flag.Parse()
	if *repository == "" {
		fmt.Fprintln(os.Stderr, "push-images: set -repository (make push-images IMAGE_REPOSITORY=registry.example/conformance)")
		os.Exit(2)
	}
	ctx := context.Background()
	for _, s := range images.Fixtures() {
		tag, err := images.Build(ctx, ".", s)
		if err == nil {
			var p images.Pushed
			if p, err = images.PushFromDocker(ctx, tag, *repository); err == nil {
				fmt.Printf("%s=%s\n", s.Name, p.Remote)
				continue
			}
		}
		fmt.Fprintln(os.Stderr, "push-images:", err)
		os.Exit(1)
	}
}
