package crl

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/router-conformance/suite/pki"
)

// A distribution point of the test's own: path -> body.
type points struct {
	mu   sync.Mutex
	body map[string][]byte
}

func (p *points) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, ok := p.body[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	_, _ = w.Write(b)
}

func (p *points) set(path string, b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.body[path] = b
}

func setup(t *testing.T) (*Manager, *points, *pki.CA, *pki.CA) {
	t.Helper()
	pts := &points{body: map[string][]byte{}}
	srv := httptest.NewServer(pts)
	t.Cleanup(srv.Close)
	root, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "root"}, CRLDistributionPoint: srv.URL + "/root.crl"})
	if err != nil {
		t.Fatal(err)
	}
	inter, err := root.NewIntermediateCA(pki.CAOptions{Subject: pki.Subject{CommonName: "inter"}, CRLDistributionPoint: srv.URL + "/inter.crl"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	m := &Manager{CAFile: filepath.Join(dir, "ca.pem"), CRLFile: filepath.Join(dir, "crl.pem")}
	if err := os.WriteFile(m.CAFile, pki.Bundle(root, inter), 0o644); err != nil {
		t.Fatal(err)
	}
	return m, pts, root, inter
}

func crls(t *testing.T, path string) []*x509.RevocationList {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []*x509.RevocationList
	for rest := data; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return out
		}
		c, err := x509.ParseRevocationList(block.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
}

func TestPlaceholderNamesNoCAOfTheBundle(t *testing.T) {
	m, _, root, inter := setup(t)
	if err := m.WritePlaceholder(); err != nil {
		t.Fatal(err)
	}
	got := crls(t, m.CRLFile)
	if len(got) != 1 {
		t.Fatalf("%d placeholder CRLs, want one (upstream's dummyCRL)", len(got))
	}
	if got[0].Issuer.CommonName != PlaceholderIssuer || !got[0].NextUpdate.Before(time.Now()) {
		t.Errorf("placeholder: issuer %s, nextUpdate %s; want CN=%s, in the past", got[0].Issuer, got[0].NextUpdate, PlaceholderIssuer)
	}
	for _, ca := range []*pki.CA{root, inter} {
		if bytes.Equal(got[0].RawIssuer, ca.Cert.RawSubject) || got[0].CheckSignatureFrom(ca.Cert) == nil {
			t.Errorf("the placeholder is a CRL of the bundle's CA %s: HAProxy would judge that CA's clients by it", ca.Cert.Subject)
		}
	}
}

func TestRefreshPublishesTheWholeSetOrNothing(t *testing.T) {
	m, pts, root, inter := setup(t)
	if !Needed([]*x509.Certificate{root.Cert}) {
		t.Fatal("a CA with a distribution point does not need CRLs")
	}
	if err := m.WritePlaceholder(); err != nil {
		t.Fatal(err)
	}
	placeholder, _ := os.ReadFile(m.CRLFile)
	rootCRL, _ := root.IssueCRL(pki.CRLOptions{})
	pts.set("/root.crl", rootCRL.PEM())

	// The intermediate's CRL is missing: nothing is published.
	if _, err := m.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Fatalf("refresh with a missing CRL: %v, want HTTP 404", err)
	}
	if now, _ := os.ReadFile(m.CRLFile); !bytes.Equal(now, placeholder) {
		t.Fatal("a partial set was published")
	}
	// Positive control: both present (PEM and DER), published together.
	next := time.Now().Add(time.Hour).Truncate(time.Second)
	interCRL, _ := inter.IssueCRL(pki.CRLOptions{NextUpdate: next})
	pts.set("/inter.crl", interCRL.DER)
	published := 0
	m.OnPublish = func(context.Context) error { published++; return nil }
	got, err := m.Refresh(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Refreshed before the intermediate's nextUpdate (the root's CRL
	// lives a day): a quarter of the hour's validity, at most 5 minutes.
	if want := RefreshAt(interCRL.Parsed); !got.Equal(want) || !got.Before(next) {
		t.Errorf("refresh at %s, want %s (before nextUpdate %s)", got, want, next)
	}
	if list := crls(t, m.CRLFile); len(list) != 2 || list[0].CheckSignatureFrom(root.Cert) != nil || list[1].CheckSignatureFrom(inter.Cert) != nil {
		t.Errorf("published file does not hold the two real CRLs")
	}
	// The same CRLs again: no second reload.
	if _, err := m.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if published != 1 {
		t.Errorf("OnPublish called %d times, want 1 (unchanged CRLs need no reload)", published)
	}
	// 2 (the root's, then the 404) + 2 (both) + 0: kept CRLs that are not
	// due are not downloaded again, and nothing of a failed refresh is kept.
	if m.Status().Fetches != 4 {
		t.Errorf("fetches = %d, want 4", m.Status().Fetches)
	}
}

func TestRefreshAtLeavesMarginBeforeNextUpdate(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		validity, margin time.Duration
	}{{20 * time.Second, 5 * time.Second}, {time.Hour, 5 * time.Minute}, {24 * time.Hour, 5 * time.Minute}} {
		crl := &x509.RevocationList{ThisUpdate: now, NextUpdate: now.Add(tc.validity)}
		if got := RefreshAt(crl); !got.Equal(crl.NextUpdate.Add(-tc.margin)) {
			t.Errorf("validity %s: refresh %s before nextUpdate, want %s", tc.validity, crl.NextUpdate.Sub(got), tc.margin)
		}
	}
}

// The signer's layout: the intermediate names its issuer's CRL. As
// upstream, the manager takes it (once), and HAProxy then has no CRL of
// the intermediate.
func TestSignersLayoutPublishesTheIssuersCRLOnce(t *testing.T) {
	m, pts, root, _ := setup(t)
	rootCRL, _ := root.IssueCRL(pki.CRLOptions{})
	pts.set("/root.crl", rootCRL.PEM())
	pts.set("/inter.crl", rootCRL.PEM())
	var logs []string
	m.Logf = func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }
	if _, err := m.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if list := crls(t, m.CRLFile); len(list) != 1 || list[0].CheckSignatureFrom(root.Cert) != nil {
		t.Errorf("published %d CRLs, want the root's once", len(list))
	}
	if len(logs) != 1 || !strings.Contains(logs[0], "signer's layout") {
		t.Errorf("logs = %q, want one warning about the signer's layout", logs)
	}
}

// A CA of its own, made here because a test needs what pki does not make:
// several distribution points, or none beside CAs that have one.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newTestCA(t *testing.T, cn string, points ...string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		CRLDistributionPoints: points,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// crl issues a CRL of ca valid from an hour before nextUpdate.
func (ca *testCA) crl(t *testing.T, nextUpdate time.Time) []byte {
	t.Helper()
	der, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{
		Number: big.NewInt(time.Now().UnixNano()), ThisUpdate: nextUpdate.Add(-time.Hour), NextUpdate: nextUpdate,
	}, ca.cert, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "X509 CRL", Bytes: der})
}

func newManager(t *testing.T, cas ...*testCA) *Manager {
	t.Helper()
	dir := t.TempDir()
	m := &Manager{CAFile: filepath.Join(dir, "ca.pem"), CRLFile: filepath.Join(dir, "crl.pem")}
	var bundle []byte
	for _, ca := range cas {
		bundle = append(bundle, ca.pem...)
	}
	if err := os.WriteFile(m.CAFile, bundle, 0o644); err != nil {
		t.Fatal(err)
	}
	return m
}

func newPoints(t *testing.T) (*points, string) {
	t.Helper()
	pts := &points{body: map[string][]byte{}}
	srv := httptest.NewServer(pts)
	t.Cleanup(srv.Close)
	return pts, srv.URL
}

// A CA without a distribution point needs no CRL: it is skipped, and the
// others' CRLs are published (upstream skips it the same way).
func TestRefreshSkipsACAWithoutDistributionPoint(t *testing.T) {
	pts, url := newPoints(t)
	withCDP := newTestCA(t, "with CDP", url+"/a.crl")
	without := newTestCA(t, "without CDP")
	if Needed([]*x509.Certificate{without.cert}) {
		t.Error("a bundle without distribution points needs CRLs")
	}
	if !Needed([]*x509.Certificate{without.cert, withCDP.cert}) {
		t.Error("a bundle with a distribution point needs no CRLs")
	}
	pts.set("/a.crl", withCDP.crl(t, time.Now().Add(time.Hour)))
	m := newManager(t, without, withCDP)
	if err := m.WritePlaceholder(); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Refresh(context.Background()); err != nil {
		t.Fatalf("refresh with a CA without distribution point: %v", err)
	}
	list := crls(t, m.CRLFile)
	if len(list) != 1 || list[0].CheckSignatureFrom(withCDP.cert) != nil {
		t.Fatalf("published %d CRLs, want only the one of the CA with a distribution point", len(list))
	}
}

// Every http distribution point is tried in order until one gives a CRL
// that has not expired; unsupported kinds are passed over.
func TestRefreshTriesTheNextDistributionPoint(t *testing.T) {
	pts, url := newPoints(t)
	ca := newTestCA(t, "several CDPs", "ldap://ldap.example/cn=crl", url+"/missing.crl", url+"/expired.crl", url+"/good.crl", url+"/unused.crl")
	pts.set("/expired.crl", ca.crl(t, time.Now().Add(-time.Minute)))
	good := ca.crl(t, time.Now().Add(time.Hour))
	pts.set("/good.crl", good)
	pts.set("/unused.crl", ca.crl(t, time.Now().Add(2*time.Hour)))
	m := newManager(t, ca)
	var logs []string
	m.Logf = func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }
	if _, err := m.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	published, _ := os.ReadFile(m.CRLFile)
	if !bytes.Equal(published, good) {
		t.Errorf("published %q, want the CRL of the first point that gives a valid one", published)
	}
	if m.Status().Fetches != 3 {
		t.Errorf("fetches = %d, want 3 (missing, expired, good)", m.Status().Fetches)
	}
	if len(logs) != 0 {
		t.Errorf("logs = %q, want none (the CRL is the CA's own)", logs)
	}
}

// A CRL past its nextUpdate is refused: with no other point the refresh
// fails and the file published before stays.
func TestRefreshRefusesAnExpiredCRL(t *testing.T) {
	pts, url := newPoints(t)
	ca := newTestCA(t, "expiring", url+"/a.crl")
	m := newManager(t, ca)
	if err := m.WritePlaceholder(); err != nil {
		t.Fatal(err)
	}
	placeholder, _ := os.ReadFile(m.CRLFile)
	pts.set("/a.crl", ca.crl(t, time.Now().Add(-time.Second)))
	if _, err := m.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("refresh with only an expired CRL: %v, want an error about the expired CRL", err)
	}
	if now, _ := os.ReadFile(m.CRLFile); !bytes.Equal(now, placeholder) {
		t.Fatal("an expired CRL was published")
	}

	// Positive control, then an expired CRL again at the next refresh:
	// the valid set stays.
	valid := ca.crl(t, time.Now().Add(2*time.Second))
	pts.set("/a.crl", valid)
	if _, err := m.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	pts.set("/a.crl", ca.crl(t, time.Now().Add(-time.Second)))
	// The kept CRL is due (less than a quarter of its validity left).
	if _, err := m.Refresh(context.Background()); err == nil {
		t.Fatal("refresh that only found an expired CRL succeeded")
	}
	if now, _ := os.ReadFile(m.CRLFile); !bytes.Equal(now, valid) {
		t.Error("the valid set was replaced after a failed refresh")
	}
}

// CRLs are kept per certificate naming the distribution point (its
// SubjectKeyId) and downloaded again only when due.
func TestRefreshKeepsCRLsUntilDue(t *testing.T) {
	pts, url := newPoints(t)
	ca := newTestCA(t, "kept", url+"/a.crl")
	pts.set("/a.crl", ca.crl(t, time.Now().Add(time.Hour)))
	m := newManager(t, ca)
	for i := 0; i < 3; i++ {
		if _, err := m.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if m.Status().Fetches != 1 {
		t.Errorf("fetches = %d, want 1", m.Status().Fetches)
	}
	if _, ok := m.cache[hex.EncodeToString(ca.cert.SubjectKeyId)]; !ok || len(ca.cert.SubjectKeyId) == 0 {
		t.Errorf("CRL not kept under the CA's SubjectKeyId %x: %v", ca.cert.SubjectKeyId, m.cache)
	}
	// Due: a CRL with a minute left of its hour is refreshed.
	kept := m.cache[hex.EncodeToString(ca.cert.SubjectKeyId)]
	kept.ThisUpdate, kept.NextUpdate = time.Now().Add(-time.Hour), time.Now().Add(time.Minute)
	if _, err := m.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if m.Status().Fetches != 2 {
		t.Errorf("fetches = %d after the kept CRL fell due, want 2", m.Status().Fetches)
	}
}
