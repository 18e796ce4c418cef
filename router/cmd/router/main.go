// Command router is the reference router: the controller and HAProxy in
// one pod, configured by the upstream OpenShift router's environment
// contract. Beyond Routes it serves IngressRoutes (contour.heptio.com)
// when their CRD is installed.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	routeclient "github.com/openshift/client-go/route/clientset/versioned"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/router/annotations"
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

// getenv reads the environment; tests replace it.
var getenv = os.Getenv

func env(name, def string) string {
	if v := getenv(name); v != "" {
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

// size is a positive byte count from the environment, 0 when unset.
func size(name string) (int, error) {
	v := getenv(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q is not a positive number of bytes", name, v)
	}
	return n, nil
}

// The router reads the part of the environment the upstream ingress
// operator sets (upstream: cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go) that it acts on:
// ROUTER_SERVICE_NAME, ROUTER_CANONICAL_HOSTNAME, ROUTER_DOMAIN,
// STATS_PORT, ROUTER_SERVICE_HTTP(S)_PORT (the bind ports, 80, 443 and
// 1936 by default), ROUTE_LABELS, NAMESPACE_LABELS,
// DEFAULT_CERTIFICATE_DIR (or DEFAULT_CERTIFICATE_PATH),
// DEFAULT_DESTINATION_CA_PATH,
// ROUTER_HTTP_REQUEST/RESPONSE_HEADERS, ROUTER_MUTUAL_TLS_AUTH*,
// ROUTER_UNIQUE_ID_HEADER_NAME and ROUTER_UNIQUE_ID_FORMAT (unique-id-header
// and unique-id-format, from spec.httpHeaders.uniqueId, both or neither),
// ROUTER_H1_CASE_ADJUST (h1-case-adjust: header names, comma-separated,
// each an HTTP token), ROUTER_BUF_SIZE and ROUTER_MAX_REWRITE_SIZE (tune.bufsize and
// tune.maxrewrite, from spec.tuningOptions.headerBufferBytes and
// headerBufferMaxRewriteBytes; upstream's defaults 32768 and 8192 when
// unset) and ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK (routeAdmission's
// namespaceOwnership InterNamespaceAllowed: "true") and
// ROUTER_ALLOW_WILDCARD_ROUTES (routeAdmission's wildcardPolicy
// WildcardsAllowed: "true") and ROUTER_SET_FORWARDED_HEADERS (the
// forwarded-headers policy of routes without their own: append, replace,
// if-none or never; anything else is append, as upstream's template
// reads it), and the access log's: ROUTER_SYSLOG_ADDRESS,
// ROUTER_LOG_MAX_LENGTH, ROUTER_LOG_FACILITY, ROUTER_LOG_LEVEL,
// ROUTER_SYSLOG_FORMAT, ROUTER_CAPTURE_HTTP_REQUEST_HEADERS,
// ROUTER_CAPTURE_HTTP_RESPONSE_HEADERS, ROUTER_CAPTURE_HTTP_COOKIE and
// ROUTER_DONT_LOG_NULL (accessLog), and ROUTER_HARD_STOP_AFTER (the
// hard-stop-after annotation of the IngressController or the Ingress
// config).
// Everything else the operator sets (ROUTER_SERVICE_NAMESPACE,
// STATS_USERNAME_FILE, STATS_PASSWORD_FILE, ROUTER_METRICS_*,
// ROUTER_LOAD_BALANCE_ALGORITHM, ROUTER_TCP_BALANCE_SCHEME,
// ROUTER_THREADS, RELOAD_INTERVAL, ROUTER_CIPHERS, ROUTER_CIPHERSUITES,
// SSL_MIN_VERSION, ROUTER_DISABLE_HTTP2, ROUTER_ENABLE_EXTERNAL_CERTIFICATE, ...) is
// accepted and ignored.
//
// settings is what run needs from the environment, read by loadSettings
// without touching the cluster.
type settings struct {
	base       haproxy.Config
	routerName string
	canonical  string
	// routeSelector and namespaceSelector shard the router; nil selects
	// everything.
	routeSelector, namespaceSelector labels.Selector
	// anyNamespaceMayHoldAHost: ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK.
	anyNamespaceMayHoldAHost bool
	// allowWildcardRoutes: ROUTER_ALLOW_WILDCARD_ROUTES.
	allowWildcardRoutes bool
	// routerDomain: ROUTER_DOMAIN, the domain of a route that names only
	// spec.subdomain.
	routerDomain string
	// crlManager keeps the CRL file when the client CA bundle names
	// distribution points; nil otherwise.
	crlManager *crl.Manager
}

func loadSettings() (*settings, error) {
	// The image has this directory and runs as root; the Deployment mounts
	// nothing there (upstream's router keeps its files under
	// /var/lib/haproxy too).
	dir := env("ROUTER_WORK_DIR", "/var/lib/haproxy/router")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("work directory: %w", err)
	}
	httpBind, err := port("ROUTER_SERVICE_HTTP_PORT", "80")
	if err != nil {
		return nil, err
	}
	httpsBind, err := port("ROUTER_SERVICE_HTTPS_PORT", "443")
	if err != nil {
		return nil, err
	}
	statsBind, err := port("STATS_PORT", "1936")
	if err != nil {
		return nil, err
	}
	defaultCert, source, err := defaultCertificate(getenv("DEFAULT_CERTIFICATE_PATH"), getenv("DEFAULT_CERTIFICATE_DIR"), env("ROUTER_DOMAIN", "apps.example.test"))
	if err != nil {
		return nil, err
	}
	log.Printf("default certificate: %s", source)
	s := &settings{
		base: haproxy.Config{
			HTTPBind: httpBind, HTTPSBind: httpsBind, StatsBind: statsBind, Dir: dir, DefaultCertificate: defaultCert,
			DefaultDestinationCA: defaultDestinationCA(getenv("DEFAULT_DESTINATION_CA_PATH")),
		},
		routerName: routerName(),
		canonical:  getenv("ROUTER_CANONICAL_HOSTNAME"),
		// upstream: pkg/cmd/infra/router/router.go (isTrue: strconv.ParseBool, an error false).
		anyNamespaceMayHoldAHost: parseBool(getenv("ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK")),
		allowWildcardRoutes:      parseBool(getenv("ROUTER_ALLOW_WILDCARD_ROUTES")),
		routerDomain:             getenv("ROUTER_DOMAIN"),
	}
	// upstream: haproxy-config.template, firstMatch of the policies on
	// ROUTER_SET_FORWARDED_HEADERS, append when it matches none.
	s.base.ForwardedHeaders = contract.ForwardedAppend
	if p, ok := contract.ParseForwardedPolicy(getenv(contract.SetForwardedHeadersEnv)); ok {
		s.base.ForwardedHeaders = p
	}
	// upstream: haproxy-config.template, unique-id-format and
	// unique-id-header only when both are set.
	if h, f := getenv("ROUTER_UNIQUE_ID_HEADER_NAME"), getenv("ROUTER_UNIQUE_ID_FORMAT"); h != "" && f != "" {
		s.base.UniqueIDHeader, s.base.UniqueIDFormat = h, f
	}
	// upstream: pkg/cmd/infra/router/template.go,
	// parseHTTPHeaderNameCaseAdjustments (each name checked by Render).
	if v := getenv(contract.HeaderNameCaseEnv); v != "" {
		s.base.HeaderNameCaseAdjustments = strings.Split(v, ",")
	}
	// upstream: haproxy-config.template, global: hard-stop-after when
	// the variable matches $timeSpecPattern (clipped); ignored otherwise.
	s.base.HardStopAfter, _ = annotations.Timeout(getenv(contract.HardStopAfterEnv))
	if s.base.BufSize, err = size("ROUTER_BUF_SIZE"); err != nil {
		return nil, err
	}
	if s.base.MaxRewrite, err = size("ROUTER_MAX_REWRITE_SIZE"); err != nil {
		return nil, err
	}
	if s.routeSelector, s.namespaceSelector, err = selectors(); err != nil {
		return nil, err
	}
	if s.base.RequestHeaders, err = headers.ParseEnv(getenv(headers.RequestEnv)); err != nil {
		return nil, fmt.Errorf("%s: %w", headers.RequestEnv, err)
	}
	if s.base.ResponseHeaders, err = headers.ParseEnv(getenv(headers.ResponseEnv)); err != nil {
		return nil, fmt.Errorf("%s: %w", headers.ResponseEnv, err)
	}
	if s.base.MutualTLS, s.crlManager, err = mutualTLS(dir); err != nil {
		return nil, err
	}
	if err := accessLog(&s.base); err != nil {
		return nil, err
	}
	return s, nil
}

// mutualTLS is ROUTER_MUTUAL_TLS_AUTH{,_CA,_FILTER}, and the CRL manager
// when the CA bundle names distribution points; nil without client TLS.
func mutualTLS(dir string) (*haproxy.MutualTLS, *crl.Manager, error) {
	switch policy := getenv("ROUTER_MUTUAL_TLS_AUTH"); policy {
	case "", "none":
		return nil, nil, nil
	case "required", "optional":
		caFile := getenv("ROUTER_MUTUAL_TLS_AUTH_CA")
		if caFile == "" {
			return nil, nil, errors.New("ROUTER_MUTUAL_TLS_AUTH is set but ROUTER_MUTUAL_TLS_AUTH_CA names no CA bundle")
		}
		cas, err := crl.ReadBundle(caFile)
		if err != nil {
			return nil, nil, fmt.Errorf("ROUTER_MUTUAL_TLS_AUTH_CA: %w", err)
		}
		m := &haproxy.MutualTLS{Policy: policy, CAFile: caFile, SubjectFilter: getenv("ROUTER_MUTUAL_TLS_AUTH_FILTER")}
		// upstream: crl.CABundleHasCRLs; no distribution point at all, no crl-file.
		if !crl.Needed(cas) && !faults.On("client-tls.crl-file-without-distribution-points") {
			return m, nil, nil
		}
		m.CRLFile = filepath.Join(dir, "crls", "client-ca.crl.pem")
		manager := &crl.Manager{CAFile: caFile, CRLFile: m.CRLFile, Logf: log.Printf}
		if err := manager.WritePlaceholder(); err != nil {
			return nil, nil, fmt.Errorf("placeholder CRLs: %w", err)
		}
		return m, manager, nil
	default:
		return nil, nil, fmt.Errorf("ROUTER_MUTUAL_TLS_AUTH=%q: want required, optional or none", policy)
	}
}

// selectors are ROUTE_LABELS and NAMESPACE_LABELS, label selectors in
// their string form, which upstream's router reads as the defaults of
// --labels and --namespace-labels (openshift/router
// pkg/cmd/infra/router/router.go) and the ingress operator sets from an
// IngressController's routeSelector and namespaceSelector. Unset or
// empty, a selector selects everything; one that does not parse stops
// the router, as upstream's Complete does.
func selectors() (route, namespace labels.Selector, err error) {
	parse := func(name string) (labels.Selector, error) {
		v := getenv(name)
		if v == "" {
			return nil, nil
		}
		sel, err := labels.Parse(v)
		if err != nil {
			return nil, fmt.Errorf("%s=%q is not a label selector: %v", name, v, err)
		}
		return sel, nil
	}
	if route, err = parse("ROUTE_LABELS"); err != nil {
		return nil, nil, err
	}
	namespace, err = parse("NAMESPACE_LABELS")
	return route, namespace, err
}

// routerName is the name in status.ingress[].routerName. Upstream's
// router takes it from ROUTER_SERVICE_NAME, which the operator sets to
// the IngressController's name (upstream: openshift/router
// pkg/cmd/infra/router/router.go, flag --name); ROUTER_NAME is this
// router's older variable.
func routerName() string {
	for _, name := range []string{"ROUTER_SERVICE_NAME", "ROUTER_NAME"} {
		if v := getenv(name); v != "" {
			return v
		}
	}
	return "default"
}

// defaultDestinationCA is DEFAULT_DESTINATION_CA_PATH if that file
// exists: it then verifies reencrypt backends of routes without a
// destinationCACertificate. A missing file is ignored (upstream:
// openshift/router pkg/cmd/infra/router/template.go clears its default
// path when the file is missing).
func defaultDestinationCA(path string) string {
	if path == "" {
		return ""
	}
	if fi, err := os.Stat(path); err != nil || fi.IsDir() {
		log.Printf("DEFAULT_DESTINATION_CA_PATH=%s: not a file (%v); reencrypt backends without a destination CA are not verified", path, err)
		return ""
	}
	return path
}

func run() error {
	s, err := loadSettings()
	if err != nil {
		return err
	}
	base := s.base
	proxy := &haproxy.Process{Binary: env("HAPROXY_BINARY", "/usr/sbin/haproxy"), Dir: base.Dir}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	defer proxy.Stop()

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
	// IngressRoutes have no generated client: the dynamic one reads them.
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	c := &controller.Controller{
		Kube: kube, Routes: routes, Dynamic: dyn, Base: base, Proxy: proxy,
		RouterName: s.routerName, CanonicalHostname: s.canonical,
		RouteSelector: s.routeSelector, NamespaceSelector: s.namespaceSelector,
		DisableNamespaceOwnershipCheck: s.anyNamespaceMayHoldAHost,
		AllowWildcardRoutes:            s.allowWildcardRoutes,
		RouterDomain:                   s.routerDomain,
		Logf:                           log.Printf,
	}
	if m := s.crlManager; m != nil {
		// CRLs apply through a reload, once HAProxy runs; until then the
		// placeholder keeps mutual TLS closed.
		m.OnPublish = func(ctx context.Context) error { return c.Reload(ctx) }
		go m.Run(ctx)
	}
	if mtls := base.MutualTLS; mtls != nil {
		// An edit of the client CA ConfigMap reaches the mounted file with
		// no rollout: HAProxy reads ca-file again on a reload.
		go crl.WatchBundle(ctx, mtls.CAFile, time.Second, log.Printf, func(cas []*x509.Certificate) {
			if crl.Needed(cas) != (s.crlManager != nil) {
				// The template's crl-file comes and goes with the
				// distribution points (upstream: haveCRLs); this router
				// decides it at start, so it starts again.
				log.Printf("client CA bundle changed: it now %s CRL distribution points; restarting to apply", map[bool]string{true: "names", false: "names no"}[crl.Needed(cas)])
				stop()
				return
			}
			log.Printf("client CA bundle changed: %d CAs; reloading", len(cas))
			if s.crlManager != nil {
				s.crlManager.BundleChanged()
			}
			if err := c.Reload(ctx); err != nil {
				log.Printf("reload for the new client CA bundle: %v", err)
			}
		})
	}
	log.Printf("router %s: http %s, https %s, stats %s, mutual TLS %v, default destination CA %q, routes %q, namespaces %q",
		c.RouterName, base.HTTPBind, base.HTTPSBind, base.StatsBind, base.MutualTLS != nil, base.DefaultDestinationCA,
		selectorText(s.routeSelector), selectorText(s.namespaceSelector))
	return c.Run(ctx)
}

func selectorText(s labels.Selector) string {
	if s == nil {
		return "all"
	}
	return s.String()
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

// defaultCertificate returns the default certificate as HAProxy loads it
// (chain, then key) and where it came from:
//   - DEFAULT_CERTIFICATE_PATH: one PEM file with the chain and its key;
//   - DEFAULT_CERTIFICATE_DIR: a kubernetes.io/tls Secret's mount, tls.crt
//     (a chain, possibly with its key) and, if tls.crt holds no key,
//     tls.key (upstream: openshift/router pkg/router/template/router.go,
//     secretToPem); an unusable directory is an error, not a fallback;
//   - otherwise a self-signed wildcard for the router's domain.
func defaultCertificate(path, dir, domain string) ([]byte, string, error) {
	switch {
	case path != "":
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, "", fmt.Errorf("DEFAULT_CERTIFICATE_PATH: %w", err)
		}
		if _, err := tls.X509KeyPair(b, b); err != nil {
			return nil, "", fmt.Errorf("DEFAULT_CERTIFICATE_PATH %s: %w", path, err)
		}
		return b, path, nil
	case dir != "":
		crt, err := os.ReadFile(filepath.Join(dir, "tls.crt"))
		if err != nil {
			return nil, "", fmt.Errorf("DEFAULT_CERTIFICATE_DIR: %w", err)
		}
		pemData := withNewline(crt)
		if !hasPrivateKey(crt) {
			key, err := os.ReadFile(filepath.Join(dir, "tls.key"))
			if err != nil {
				return nil, "", fmt.Errorf("DEFAULT_CERTIFICATE_DIR: %w", err)
			}
			pemData = append(pemData, withNewline(key)...)
		}
		if _, err := tls.X509KeyPair(pemData, pemData); err != nil {
			return nil, "", fmt.Errorf("DEFAULT_CERTIFICATE_DIR %s: %w", dir, err)
		}
		return pemData, dir, nil
	}
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "router default CA"}})
	if err != nil {
		return nil, "", err
	}
	leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: []string{"*." + domain}})
	if err != nil {
		return nil, "", err
	}
	return leaf.HAProxyPEM(), "self-signed for *." + domain, nil
}

func withNewline(b []byte) []byte {
	out := append([]byte(nil), b...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return out
}

func hasPrivateKey(data []byte) bool {
	for rest := data; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return false
		}
		if strings.HasSuffix(block.Type, "PRIVATE KEY") {
			return true
		}
	}
}

// parseBool is upstream's isTrue: what strconv.ParseBool reads as true.
func parseBool(s string) bool {
	v, _ := strconv.ParseBool(s)
	return v
}
