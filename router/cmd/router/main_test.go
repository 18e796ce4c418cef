package main

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/pki"
)

// withEnv makes getenv read vars for the rest of the test.
func withEnv(t *testing.T, vars map[string]string) {
	t.Helper()
	old := getenv
	getenv = func(name string) string { return vars[name] }
	t.Cleanup(func() { getenv = old })
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// chain parses what defaultCertificate returns as HAProxy would load it.
func chain(t *testing.T, pemData []byte) []*x509.Certificate {
	t.Helper()
	pair, err := tls.X509KeyPair(pemData, pemData)
	if err != nil {
		t.Fatalf("not a certificate and key: %v", err)
	}
	var out []*x509.Certificate
	for _, der := range pair.Certificate {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func TestDefaultCertificate(t *testing.T) {
	root, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "ingress root"}})
	if err != nil {
		t.Fatal(err)
	}
	inter, err := root.NewIntermediateCA(pki.CAOptions{Subject: pki.Subject{CommonName: "ingress intermediate"}})
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := inter.IssueServer(pki.ServerOptions{Hosts: []string{"*.apps.example.com"}})
	if err != nil {
		t.Fatal(err)
	}

	// A kubernetes.io/tls Secret: tls.crt holds the chain, tls.key the key
	// (no trailing newline, as a Secret may have it).
	secretDir := t.TempDir()
	write(t, filepath.Join(secretDir, "tls.crt"), leaf.ChainPEM())
	write(t, filepath.Join(secretDir, "tls.key"), []byte(strings.TrimRight(string(leaf.KeyPEM), "\n")))
	got, source, err := defaultCertificate("", secretDir, "apps.test")
	if err != nil {
		t.Fatal(err)
	}
	if c := chain(t, got); source != secretDir || len(c) != 2 || c[0].Subject.CommonName != "*.apps.example.com" || c[1].Subject.CommonName != "ingress intermediate" {
		t.Errorf("DEFAULT_CERTIFICATE_DIR: source %q, chain %v; want the Secret's leaf and intermediate", source, c)
	}

	// tls.crt that holds its key too: tls.key is not needed.
	combinedDir := t.TempDir()
	write(t, filepath.Join(combinedDir, "tls.crt"), leaf.HAProxyPEM())
	if got, _, err := defaultCertificate("", combinedDir, "apps.test"); err != nil || len(chain(t, got)) != 2 {
		t.Errorf("tls.crt with its key: %v", err)
	}

	// A directory without the Secret's files is an error, not a fallback.
	if _, _, err := defaultCertificate("", t.TempDir(), "apps.test"); err == nil || !strings.Contains(err.Error(), "DEFAULT_CERTIFICATE_DIR") {
		t.Errorf("empty DEFAULT_CERTIFICATE_DIR: %v, want an error", err)
	}
	// A key that is not the certificate's.
	other, _ := inter.IssueServer(pki.ServerOptions{Hosts: []string{"other.example.com"}})
	write(t, filepath.Join(secretDir, "tls.key"), other.KeyPEM)
	if _, _, err := defaultCertificate("", secretDir, "apps.test"); err == nil {
		t.Error("DEFAULT_CERTIFICATE_DIR with a foreign key: no error")
	}

	// DEFAULT_CERTIFICATE_PATH still works, and wins.
	path := filepath.Join(t.TempDir(), "default.pem")
	write(t, path, other.HAProxyPEM())
	if got, source, err := defaultCertificate(path, secretDir, "apps.test"); err != nil || source != path || chain(t, got)[0].Subject.CommonName != "other.example.com" {
		t.Errorf("DEFAULT_CERTIFICATE_PATH: %q %v", source, err)
	}

	// Neither: self-signed for the router's domain.
	got, _, err = defaultCertificate("", "", "apps.test")
	if err != nil {
		t.Fatal(err)
	}
	if c := chain(t, got); c[0].VerifyHostname("x.apps.test") != nil {
		t.Errorf("self-signed fallback does not cover *.apps.test: %v", c[0].DNSNames)
	}
}

func TestRouterName(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"ROUTER_SERVICE_NAME": "internal", "ROUTER_NAME": "old"}, "internal"},
		{map[string]string{"ROUTER_NAME": "old"}, "old"},
		{map[string]string{}, "default"},
	} {
		withEnv(t, tc.env)
		if got := routerName(); got != tc.want {
			t.Errorf("env %v: router name %q, want %q", tc.env, got, tc.want)
		}
	}
}

func TestDefaultDestinationCAIgnoresAMissingFile(t *testing.T) {
	dir := t.TempDir()
	ca := filepath.Join(dir, "service-ca.crt")
	write(t, ca, []byte("CA"))
	for path, want := range map[string]string{ca: ca, filepath.Join(dir, "missing.crt"): "", dir: "", "": ""} {
		if got := defaultDestinationCA(path); got != want {
			t.Errorf("DEFAULT_DESTINATION_CA_PATH=%q: %q, want %q", path, got, want)
		}
	}
}

// The environment the upstream ingress operator gives a default
// IngressController's router (cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go): every variable is
// accepted; those the router uses take effect.
func TestLoadSettingsAcceptsTheUpstreamOperatorsEnvironment(t *testing.T) {
	leaf, err := func() (*pki.Leaf, error) {
		ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "ingress-operator"}})
		if err != nil {
			return nil, err
		}
		return ca.IssueServer(pki.ServerOptions{Hosts: []string{"*.apps.example.com"}})
	}()
	if err != nil {
		t.Fatal(err)
	}
	certDir, caDir, work := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "router")
	write(t, filepath.Join(certDir, "tls.crt"), leaf.ChainPEM())
	write(t, filepath.Join(certDir, "tls.key"), leaf.KeyPEM)
	serviceCA := filepath.Join(caDir, "service-ca.crt")
	write(t, serviceCA, leaf.ChainPEM())
	withEnv(t, map[string]string{
		"ROUTER_WORK_DIR":                          work,
		"ROUTER_SERVICE_NAMESPACE":                 "openshift-ingress",
		"DEFAULT_CERTIFICATE_DIR":                  certDir,
		"DEFAULT_DESTINATION_CA_PATH":              serviceCA,
		"ROUTER_SERVICE_NAME":                      "default",
		"STATS_USERNAME_FILE":                      "/var/lib/haproxy/conf/metrics-auth/statsUsername",
		"STATS_PASSWORD_FILE":                      "/var/lib/haproxy/conf/metrics-auth/statsPassword",
		"ROUTER_METRICS_TYPE":                      "haproxy",
		"ROUTER_METRICS_TLS_CERT_FILE":             "/etc/pki/tls/metrics-certs/tls.crt",
		"ROUTER_METRICS_TLS_KEY_FILE":              "/etc/pki/tls/metrics-certs/tls.key",
		"ROUTER_LOAD_BALANCE_ALGORITHM":            "random",
		"ROUTER_TCP_BALANCE_SCHEME":                "source",
		"ROUTER_DOMAIN":                            "apps.example.com",
		"ROUTER_CANONICAL_HOSTNAME":                "router-default.apps.example.com",
		"ROUTER_THREADS":                           "4",
		"RELOAD_INTERVAL":                          "5s",
		"STATS_PORT":                               "1936",
		"ROUTER_CIPHERS":                           "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256",
		"ROUTER_CIPHERSUITES":                      "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256",
		"SSL_MIN_VERSION":                          "TLSv1.2",
		"ROUTER_DISABLE_NAMESPACE_OWNERSHIP_CHECK": "false",
		"ROUTER_ALLOW_WILDCARD_ROUTES":             "false",
		"ROUTER_SET_FORWARDED_HEADERS":             "append",
		"ROUTER_DISABLE_HTTP2":                     "true",
		"ROUTER_ENABLE_EXTERNAL_CERTIFICATE":       "true",
		"ROUTER_BUF_SIZE":                          "65536",
		"ROUTER_MAX_REWRITE_SIZE":                  "16384",
	})
	s, err := loadSettings()
	if err != nil {
		t.Fatal(err)
	}
	if s.routerName != "default" || s.canonical != "router-default.apps.example.com" {
		t.Errorf("router name %q, canonical host name %q", s.routerName, s.canonical)
	}
	b := s.base
	if b.Dir != work || b.HTTPBind != ":80" || b.HTTPSBind != ":443" || b.StatsBind != ":1936" || b.DefaultDestinationCA != serviceCA || b.MutualTLS != nil || s.crlManager != nil {
		t.Errorf("settings %+v", b)
	}
	if b.ForwardedHeaders != contract.ForwardedAppend {
		t.Errorf("forwarded headers %q, want append", b.ForwardedHeaders)
	}
	if b.BufSize != 65536 || b.MaxRewrite != 16384 {
		t.Errorf("tune.bufsize %d, tune.maxrewrite %d; want the environment's 65536 and 16384", b.BufSize, b.MaxRewrite)
	}
	if c := chain(t, b.DefaultCertificate); c[0].VerifyHostname("x.apps.example.com") != nil {
		t.Errorf("default certificate is not the Secret's: %v", c[0].DNSNames)
	}
	if fi, err := os.Stat(work); err != nil || !fi.IsDir() {
		t.Errorf("work directory not made: %v", err)
	}
}

func TestLoadSettingsMutualTLS(t *testing.T) {
	withCDP, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "with CDP"}, CRLDistributionPoint: "http://crl.example/a.crl"})
	if err != nil {
		t.Fatal(err)
	}
	without, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "without CDP"}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		bundle   []byte
		needCRLs bool
	}{
		{"no distribution point: no CRL file", without.CertPEM, false},
		{"one distribution point: CRLs, placeholder first", pki.Bundle(without, withCDP), true},
	} {
		caFile := filepath.Join(dir, "ca-bundle.pem")
		write(t, caFile, tc.bundle)
		work := filepath.Join(t.TempDir(), "router")
		withEnv(t, map[string]string{
			"ROUTER_WORK_DIR": work, "ROUTER_MUTUAL_TLS_AUTH": "optional", "ROUTER_MUTUAL_TLS_AUTH_CA": caFile,
			"ROUTER_MUTUAL_TLS_AUTH_FILTER": "(?:/CN=allowed)",
		})
		s, err := loadSettings()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m := s.base.MutualTLS
		if m == nil || m.Policy != "optional" || m.CAFile != caFile || m.SubjectFilter != "(?:/CN=allowed)" {
			t.Fatalf("%s: mutual TLS %+v", tc.name, m)
		}
		if (m.CRLFile != "") != tc.needCRLs || (s.crlManager != nil) != tc.needCRLs {
			t.Errorf("%s: CRL file %q, manager %v", tc.name, m.CRLFile, s.crlManager != nil)
		}
		if tc.needCRLs {
			if _, err := os.Stat(m.CRLFile); err != nil || !strings.HasPrefix(m.CRLFile, work) {
				t.Errorf("%s: placeholder CRL file %q: %v", tc.name, m.CRLFile, err)
			}
		}
	}
}

// A shard's environment, as the ingress operator renders it for a
// HostNetwork IngressController with selectors: its ports and selectors.
func TestLoadSettingsOfAShard(t *testing.T) {
	vars := map[string]string{
		"ROUTER_WORK_DIR":           filepath.Join(t.TempDir(), "router"),
		"ROUTER_SERVICE_NAME":       "shard-a",
		"ROUTER_SERVICE_HTTP_PORT":  "10080",
		"ROUTER_SERVICE_HTTPS_PORT": "10443",
		"STATS_PORT":                "11936",
		"NAMESPACE_LABELS":          "env in (a,b),router-conformance/shard=a",
		"ROUTE_LABELS":              "type!=internal",
	}
	withEnv(t, vars)
	s, err := loadSettings()
	if err != nil {
		t.Fatal(err)
	}
	if b := s.base; b.HTTPBind != ":10080" || b.HTTPSBind != ":10443" || b.StatsBind != ":11936" || s.routerName != "shard-a" {
		t.Errorf("binds %s %s %s, name %s", b.HTTPBind, b.HTTPSBind, b.StatsBind, s.routerName)
	}
	ns := s.namespaceSelector
	if ns == nil || !ns.Matches(labels.Set{"env": "a", "router-conformance/shard": "a"}) || ns.Matches(labels.Set{"env": "a"}) {
		t.Errorf("namespace selector %v", ns)
	}
	rs := s.routeSelector
	if rs == nil || !rs.Matches(labels.Set{}) || rs.Matches(labels.Set{"type": "internal"}) {
		t.Errorf("route selector %v", rs)
	}

	// Unset or empty: everything, as upstream's flags default to "".
	vars["NAMESPACE_LABELS"], vars["ROUTE_LABELS"] = "", ""
	if s, err := loadSettings(); err != nil || s.namespaceSelector != nil || s.routeSelector != nil {
		t.Errorf("empty selectors: %v %v %v", s.namespaceSelector, s.routeSelector, err)
	}
	for _, name := range []string{"ROUTE_LABELS", "NAMESPACE_LABELS"} {
		vars[name] = "a in (b"
		if _, err := loadSettings(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s that does not parse: %v", name, err)
		}
		vars[name] = ""
	}
	vars["ROUTER_SERVICE_HTTPS_PORT"] = "70000"
	if _, err := loadSettings(); err == nil || !strings.Contains(err.Error(), "ROUTER_SERVICE_HTTPS_PORT") {
		t.Errorf("a port out of range: %v", err)
	}
}

// ROUTER_SET_FORWARDED_HEADERS as upstream's template reads it: one of
// the four policies exactly, anything else (unset included) append.
func TestLoadSettingsForwardedHeaders(t *testing.T) {
	certDir := t.TempDir()
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "ca"}})
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: []string{"*.apps.example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(certDir, "tls.crt"), leaf.ChainPEM())
	write(t, filepath.Join(certDir, "tls.key"), leaf.KeyPEM)
	for value, want := range map[string]contract.ForwardedPolicy{
		"": contract.ForwardedAppend, "append": contract.ForwardedAppend, "replace": contract.ForwardedReplace,
		"if-none": contract.ForwardedIfNone, "never": contract.ForwardedNever, "Never": contract.ForwardedAppend, "bogus": contract.ForwardedAppend,
	} {
		withEnv(t, map[string]string{"ROUTER_WORK_DIR": t.TempDir(), "DEFAULT_CERTIFICATE_DIR": certDir, "ROUTER_SET_FORWARDED_HEADERS": value})
		s, err := loadSettings()
		if err != nil {
			t.Fatal(err)
		}
		if s.base.ForwardedHeaders != want {
			t.Errorf("ROUTER_SET_FORWARDED_HEADERS=%q: policy %q, want %q", value, s.base.ForwardedHeaders, want)
		}
	}
}
