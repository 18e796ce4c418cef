// Command crlserver is the in-cluster CRL distribution point (see package
// crlserver).
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/router-conformance/suite/crlserver"
	"github.com/router-conformance/suite/internal/serve"
)

func main() { serve.Main("crlserver", run) }

func run() error {
	listen := flag.String("listen", ":8080", "address to serve plain HTTP on")
	namespace := flag.String("namespace", os.Getenv("POD_NAMESPACE"), "namespace of the ConfigMaps (default: $POD_NAMESPACE)")
	configMaps := flag.String("configmaps", "crls", "comma-separated ConfigMaps whose keys are served as /<key>")
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig to use outside a cluster (default: in-cluster config)")
	maxBytes := flag.Int64("max-object-bytes", crlserver.DefaultMaxObjectBytes, "largest object served, after decompression")
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q; see -help", flag.Args())
	}
	if *namespace == "" {
		return errors.New("no namespace: pass -namespace or set POD_NAMESPACE (the Downward API)")
	}
	var names []string
	for _, n := range strings.Split(*configMaps, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return errors.New("-configmaps names no ConfigMap")
	}
	cfg, err := restConfig(*kubeconfig)
	if err != nil {
		return err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("kubernetes client: %w", err)
	}
	srv := &http.Server{
		Addr:              *listen,
		Handler:           &crlserver.Server{Client: client, Namespace: *namespace, ConfigMaps: names, MaxObjectBytes: *maxBytes},
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
	log.Printf("serving ConfigMaps %v of namespace %s on %s", names, *namespace, *listen)
	return serve.Until(srv)
}

func restConfig(kubeconfig string) (*rest.Config, error) {
	if kubeconfig != "" {
		cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
		if err != nil {
			return nil, fmt.Errorf("load kubeconfig %s: %w", kubeconfig, err)
		}
		return cfg, nil
	}
	cfg, err := rest.InClusterConfig()
	if err != nil {
		return nil, fmt.Errorf("not in a cluster (%v): pass -kubeconfig", err)
	}
	return cfg, nil
}
