// Command router is the reference router: the controller and HAProxy in
// one pod, configured by the upstream OpenShift router's environment
// contract.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	routeclient "github.com/openshift/client-go/route/clientset/versioned"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/router/controller"
	"github.com/router-conformance/suite/router/crl"
	"github.com/router-conformance/suite/router/haproxy"
	"github.com/router-conformance/suite/router/headers"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "router:", err)
		os.Exit(1)
	}
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func port(name, def string) (string, error) {
	v := env(name, def)
	if n, err := strconv.Atoi(v); err != nil || n <= 0 || n > 65535 {
		return "", fmt.Errorf("%s=%q is not a port number", name, v)
	}
	return ":" + v, nil
}

func run() error {
	dir := env("ROUTER_WORK_DIR", "/var/lib/haproxy/router")
	httpBind, err := port("ROUTER_SERVICE_HTTP_PORT", "80")
	if err != nil {
		return err
	}
	httpsBind, err := port("ROUTER_SERVICE_HTTPS_PORT", "443")
	if err != nil {
		return err
	}
	statsBind, err := port("STATS_PORT", "1936")
	if err != nil {
		return err
	}
	defaultCert, err := defaultCertificate(os.Getenv("DEFAULT_CERTIFICATE_PATH"), env("ROUTER_DOMAIN", "apps.example.test"))
	if err != nil {
		return err
	}
	base := haproxy.Config{HTTPBind: httpBind, HTTPSBind: httpsBind, StatsBind: statsBind, Dir: dir, DefaultCertificate: defaultCert}
	if base.RequestHeaders, err = headers.ParseEnv(os.Getenv(headers.RequestEnv)); err != nil {
		return fmt.Errorf("%s: %w", headers.RequestEnv, err)
	}
	if base.ResponseHeaders, err = headers.ParseEnv(os.Getenv(headers.ResponseEnv)); err != nil {
		return fmt.Errorf("%s: %w", headers.ResponseEnv, err)
	}
	proxy := &haproxy.Process{Binary: env("HAPROXY_BINARY", "/usr/sbin/haproxy"), Dir: dir}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	defer proxy.Stop()

	var crlManager *crl.Manager
	switch policy := os.Getenv("ROUTER_MUTUAL_TLS_AUTH"); policy {
	case "", "none":
	case "required", "optional":
		caFile := os.Getenv("ROUTER_MUTUAL_TLS_AUTH_CA")
		if caFile == "" {
			return errors.New("ROUTER_MUTUAL_TLS_AUTH is set but ROUTER_MUTUAL_TLS_AUTH_CA names no CA bundle")
		}
		cas, err := crl.ReadBundle(caFile)
		if err != nil {
			return fmt.Errorf("ROUTER_MUTUAL_TLS_AUTH_CA: %w", err)
		}
		base.MutualTLS = &haproxy.MutualTLS{Policy: policy, CAFile: caFile, SubjectFilter: os.Getenv("ROUTER_MUTUAL_TLS_AUTH_FILTER")}
		if crl.Needed(cas) {
			base.MutualTLS.CRLFile = filepath.Join(dir, "crls", "client-ca.crl.pem")
			crlManager = &crl.Manager{CAFile: caFile, CRLFile: base.MutualTLS.CRLFile, Logf: log.Printf}
			if err := crlManager.WritePlaceholder(); err != nil {
				return fmt.Errorf("placeholder CRLs: %w", err)
			}
		}
	default:
		return fmt.Errorf("ROUTER_MUTUAL_TLS_AUTH=%q: want required, optional or none", policy)
	}

	cfg, err := restConfig()
	if err != nil {
		return err
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	routes, err := routeclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	c := &controller.Controller{
		Kube: kube, Routes: routes, Base: base, Proxy: proxy,
		RouterName: env("ROUTER_NAME", "default"), CanonicalHostname: os.Getenv("ROUTER_CANONICAL_HOSTNAME"),
		Logf: log.Printf,
	}
	if crlManager != nil {
		// CRLs apply through a reload, once HAProxy runs; until then the
		// placeholder keeps mutual TLS closed.
		crlManager.OnPublish = func(ctx context.Context) error { return c.Reload(ctx) }
		go crlManager.Run(ctx)
	}
	log.Printf("router %s: http %s, https %s, stats %s, mutual TLS %v", c.RouterName, httpBind, httpsBind, statsBind, base.MutualTLS != nil)
	return c.Run(ctx)
}

func restConfig() (*rest.Config, error) {
	if kc := os.Getenv("KUBECONFIG"); kc != "" {
		return clientcmd.BuildConfigFromFlags("", kc)
	}
	cfg, err := rest.InClusterConfig()
	if err != nil {
		return nil, fmt.Errorf("not in a cluster and no KUBECONFIG: %w", err)
	}
	return cfg, nil
}

// defaultCertificate loads DEFAULT_CERTIFICATE_PATH (cert chain and key in
// one PEM file), or mints a self-signed wildcard for the router's domain.
func defaultCertificate(path, domain string) ([]byte, error) {
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("DEFAULT_CERTIFICATE_PATH: %w", err)
		}
		return b, nil
	}
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "router default CA"}})
	if err != nil {
		return nil, err
	}
	leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: []string{"*." + domain}})
	if err != nil {
		return nil, err
	}
	return leaf.HAProxyPEM(), nil
}
