// Command run is the air-gapped kit's entry point (the file ./run at the
// kit's root): it loads the kit's images into Docker and runs the
// precompiled suite as make e2e and make certify do, with no Go
// toolchain, module proxy or apt. `./run help` says how.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/router-conformance/suite/kit"
)

func main() {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "run: cannot tell where the kit is:", err)
		os.Exit(2)
	}
	os.Exit(kit.Main(filepath.Dir(self), os.Args[1:], os.Stdout, os.Stderr))
}
