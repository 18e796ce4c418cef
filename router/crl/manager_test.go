package crl

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"fmt"
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

func TestPlaceholderIsExpiredAndUnverifiable(t *testing.T) {
	m, _, root, inter := setup(t)
	if err := m.WritePlaceholder(); err != nil {
		t.Fatal(err)
	}
	got := crls(t, m.CRLFile)
	if len(got) != 2 {
		t.Fatalf("%d placeholder CRLs, want one per CA", len(got))
	}
	for i, ca := range []*pki.CA{root, inter} {
		if !bytes.Equal(got[i].RawIssuer, ca.Cert.RawSubject) || !got[i].NextUpdate.Before(time.Now()) {
			t.Errorf("placeholder %d: issuer %s, nextUpdate %s; want %s, in the past", i, got[i].Issuer, got[i].NextUpdate, ca.Cert.Subject)
		}
		if err := got[i].CheckSignatureFrom(ca.Cert); err == nil {
			t.Errorf("placeholder %d verifies with the real CA: it would admit clients", i)
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
	if m.Status().Fetches != 6 {
		t.Errorf("fetches = %d, want 6", m.Status().Fetches)
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
