// Command etcd is etcd's own main, built from the Go module so that the
// node image needs no registry.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
