// Command route-admission is the reference router's validating webhook
// for Routes (see package admission).
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"log"
	"net/http"
	"time"

	configclient "github.com/openshift/client-go/config/clientset/versioned"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/router-conformance/suite/internal/serve"
	"github.com/router-conformance/suite/platform/routeadmission"
)

func main() { serve.Main("route-admission", run) }

func run() error {
	listen := flag.String("listen", ":8443", "HTTPS address")
	certFile := flag.String("cert", "/etc/webhook/tls.crt", "serving certificate (PEM chain)")
	keyFile := flag.String("key", "/etc/webhook/tls.key", "serving key (PEM)")
	domain := flag.String("domain", "", "the cluster's ingress domain: a route created without spec.host and spec.subdomain gets <name>-<namespace>.<domain> (empty: no host generated)")
	flag.Parse()
	cert, err := tls.LoadX509KeyPair(*certFile, *keyFile)
	if err != nil {
		return fmt.Errorf("serving certificate: %w", err)
	}
	cfg, err := rest.InClusterConfig()
	if err != nil {
		return fmt.Errorf("not in a cluster: %w", err)
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	config, err := configclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/validate-route", &routeadmission.Webhook{Cluster: routeadmission.LiveCluster{Kube: kube, Config: config}, Secrets: kube.CoreV1(), Log: log.Default()})
	mux.Handle("/assign-route-host", &routeadmission.HostAssigner{Domain: *domain, Log: log.Default()})
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	srv := &http.Server{
		Addr: *listen, Handler: mux, ReadHeaderTimeout: 5 * time.Second,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
	}
	log.Printf("route admission webhook on %s", *listen)
	return serve.Until(srv)
}
