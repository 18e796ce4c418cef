package haproxy_test

import (
	"context"
	"crypto/tls"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/router-conformance/suite/crlserver"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/router/crl"
	"github.com/router-conformance/suite/router/haproxy"
)

// The router's CRLs come from a real crlserver (its ConfigMap in a fake
// clientset) through the distribution points of the CA certificates; the
// manager publishes them and reloads a real HAProxy.
func TestCRLsAreDownloadedEnforcedAndRotated(t *testing.T) {
	client := fake.NewClientset()
	store := &crlserver.Server{Client: client, Namespace: "crl", ConfigMaps: []string{"crls"}}
	srv := httptest.NewServer(store)
	t.Cleanup(srv.Close)

	root := must[*pki.CA](t)(pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "crl root"}, CRLDistributionPoint: srv.URL + "/root.crl.pem"}))
	inter := must[*pki.CA](t)(root.NewIntermediateCA(pki.CAOptions{Subject: pki.Subject{CommonName: "crl intermediate"}, CRLDistributionPoint: srv.URL + "/intermediate.crl"}))
	leaf := func(cn string) (*pki.Leaf, *tls.Certificate) {
		l := must[*pki.Leaf](t)(inter.IssueClient(pki.ClientOptions{Subject: pki.Subject{CommonName: cn}}))
		c := must[tls.Certificate](t)(l.TLSCertificate())
		return l, &c
	}
	_, valid := leaf("valid")
	revokedLeaf, revoked := leaf("revoked")

	ctx := context.Background()
	// The router refreshes at nextUpdate: the first CRLs live 5 s, so the
	// rotation is picked up then; the rotated ones live an hour, so they do
	// not expire under the test (a CA publishes before nextUpdate).
	publishCRLs := func(lifetime time.Duration, revokedAtIntermediate ...*pki.Leaf) {
		t.Helper()
		var serials []pki.Revocation
		for _, l := range revokedAtIntermediate {
			serials = append(serials, pki.Revoke(l.Cert)...)
		}
		next := time.Now().Add(lifetime)
		rootCRL := must[*pki.CRL](t)(root.IssueCRL(pki.CRLOptions{NextUpdate: next}))
		interCRL := must[*pki.CRL](t)(inter.IssueCRL(pki.CRLOptions{NextUpdate: next, Revoked: serials}))
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "crls", Namespace: "crl"},
			Data:       map[string]string{"root.crl.pem": string(rootCRL.PEM())},
			BinaryData: map[string][]byte{"intermediate.crl": interCRL.DER},
		}
		if _, err := client.CoreV1().ConfigMaps("crl").Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			if _, err := client.CoreV1().ConfigMaps("crl").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}

	w := newWorld(t)
	caFile, crlFile := filepath.Join(w.cfg.Dir, "client-ca.pem"), filepath.Join(w.cfg.Dir, "crls.pem")
	if err := writeFile(caFile, pki.Bundle(root, inter)); err != nil {
		t.Fatal(err)
	}
	manager := &crl.Manager{CAFile: caFile, CRLFile: crlFile, MinRefresh: 500 * time.Millisecond, Logf: t.Logf}
	if err := manager.WritePlaceholder(); err != nil {
		t.Fatal(err)
	}
	w.cfg.MutualTLS = &haproxy.MutualTLS{Policy: "required", CAFile: caFile, CRLFile: crlFile}
	w.cfg.Routes = []haproxy.Route{w.routes()[1]}
	w.start(t)
	request := func(cert *tls.Certificate) (int, string) {
		resp, alert, err := w.refusal(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test", ClientCertificate: cert})
		if err != nil {
			return 0, alert
		}
		return resp.Status, ""
	}

	// Fail closed until the first download: the placeholder is no CA's
	// CRL, so OpenSSL finds none for the client's CA (unable to get CRL),
	// which it answers with the alert of an unknown CA, as behind upstream.
	if status, alert := request(valid); status != 0 || alert != "unknown certificate authority" {
		t.Fatalf("before any CRL was downloaded, a valid client got %d %q; want refused", status, alert)
	}

	publishCRLs(5*time.Second, revokedLeaf)
	manager.OnPublish = func(ctx context.Context) error { return w.proc.Reload(ctx) }
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go manager.Run(runCtx)

	eventually(t, 10*time.Second, func() string {
		if status, alert := request(valid); status != 200 {
			return "valid client: " + alert
		}
		return ""
	})
	if status, alert := request(revoked); status != 0 || alert != "revoked certificate" {
		t.Errorf("revoked client: %d %q, want alert revoked certificate", status, alert)
	}
	fetches := store.Fetches()
	if fetches["/root.crl.pem"] == 0 || fetches["/intermediate.crl"] == 0 {
		t.Errorf("the distribution points were not fetched: %v", fetches)
	}

	// Rotation: the intermediate's next CRL revokes nothing.
	start := time.Now()
	publishCRLs(time.Hour)
	eventually(t, 15*time.Second, func() string {
		if status, alert := request(revoked); status != 200 {
			return "un-revoked client: " + alert
		}
		return ""
	})
	t.Logf("CRL rotation took effect in %s", time.Since(start).Round(100*time.Millisecond))
	if status, _ := request(valid); status != 200 {
		t.Errorf("valid client after rotation: %d", status)
	}
}

// eventually polls check until it returns "" three times in a row.
func eventually(t *testing.T, timeout time.Duration, check func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last string
	for streak := 0; streak < 3; {
		if last = check(); last == "" {
			streak++
		} else {
			streak = 0
		}
		if time.Now().After(deadline) {
			t.Fatalf("not converged within %s: %s", timeout, last)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A CA without a distribution point is skipped by the manager (no error:
// the other CAs' CRLs are published), and HAProxy then refuses the
// clients of that CA for want of its CRL, as behind the upstream router.
func TestCRLsWithACAWithoutDistributionPoint(t *testing.T) {
	client := fake.NewClientset()
	store := &crlserver.Server{Client: client, Namespace: "crl", ConfigMaps: []string{"crls"}}
	srv := httptest.NewServer(store)
	t.Cleanup(srv.Close)
	withCDP := must[*pki.CA](t)(pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "with CDP"}, CRLDistributionPoint: srv.URL + "/root.crl"}))
	without := must[*pki.CA](t)(pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "without CDP"}}))
	clientOf := func(ca *pki.CA) *tls.Certificate {
		l := must[*pki.Leaf](t)(ca.IssueClient(pki.ClientOptions{Subject: pki.Subject{CommonName: "client"}}))
		c := must[tls.Certificate](t)(l.TLSCertificate())
		return &c
	}
	rootCRL := must[*pki.CRL](t)(withCDP.IssueCRL(pki.CRLOptions{}))
	ctx := context.Background()
	if _, err := client.CoreV1().ConfigMaps("crl").Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "crls", Namespace: "crl"},
		Data:       map[string]string{"root.crl": string(rootCRL.PEM())},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	w := newWorld(t)
	caFile, crlFile := filepath.Join(w.cfg.Dir, "client-ca.pem"), filepath.Join(w.cfg.Dir, "crls.pem")
	if err := writeFile(caFile, pki.Bundle(without, withCDP)); err != nil {
		t.Fatal(err)
	}
	manager := &crl.Manager{CAFile: caFile, CRLFile: crlFile, Logf: t.Logf}
	if err := manager.WritePlaceholder(); err != nil {
		t.Fatal(err)
	}
	if _, err := manager.Refresh(ctx); err != nil {
		t.Fatalf("a CA without distribution point failed the refresh: %v", err)
	}
	w.cfg.MutualTLS = &haproxy.MutualTLS{Policy: "required", CAFile: caFile, CRLFile: crlFile}
	w.cfg.Routes = []haproxy.Route{w.routes()[1]}
	w.start(t)
	if resp, err := w.get(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test", ClientCertificate: clientOf(withCDP)}); err != nil || resp.Status != 200 {
		t.Errorf("client of the CA with a CRL: %+v %v, want 200", resp, err)
	}
	if _, alert, err := w.refusal(t, httpclient.Request{HTTPS: true, Host: "edge.apps.test", ClientCertificate: clientOf(without)}); alert != "unknown certificate authority" {
		t.Errorf("client of the CA without CRL: %v, want alert unknown certificate authority", err)
	}
}
