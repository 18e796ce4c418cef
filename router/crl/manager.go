// Package crl keeps the router's CRL file in step with the distribution
// points of its client CA bundle, as the upstream router does: it
// downloads the CRL named by each CA certificate's CRL distribution point
// (http only), publishes the whole set at once and never a partial one,
// serves an already-expired placeholder until the first complete download
// (so mutual TLS fails closed), refreshes shortly before the earliest
// nextUpdate, and retries failures with backoff.
//
// Upstream refreshes at nextUpdate itself, which leaves HAProxy with an
// expired CRL (every client refused) for as long as the download and the
// reload take. This manager refreshes a quarter of the CRL's validity
// (at most 5 minutes) earlier; with a CA that publishes only at
// nextUpdate it behaves as upstream.
package crl

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"

	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// MaxCRLBytes bounds one download.
const MaxCRLBytes = 32 << 20

// Manager maintains CRLFile for the CAs in CAFile.
type Manager struct {
	CAFile  string
	CRLFile string
	// Client downloads the CRLs; nil means a client with a 30s timeout.
	Client *http.Client
	// OnPublish is called after a new CRL file is in place (reload HAProxy).
	OnPublish func(ctx context.Context) error
	// MinRefresh is the shortest wait between two refreshes (default 5s);
	// MaxBackoff the longest wait after failures (default 1m).
	MinRefresh, MaxBackoff time.Duration
	Logf                   func(format string, args ...any)

	mu        sync.Mutex
	published bool
	status    Status
}

// Status is what the manager last did, for logs and health reports.
type Status struct {
	Published   time.Time
	NextRefresh time.Time
	LastError   string
	Fetches     int
}

// Status returns a copy of the manager's status.
func (m *Manager) Status() Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.status
}

func (m *Manager) logf(format string, args ...any) {
	if m.Logf != nil {
		m.Logf(format, args...)
	}
}

// ReadBundle parses the PEM certificates of a CA bundle.
func ReadBundle(path string) ([]*x509.Certificate, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var certs []*x509.Certificate
	for rest := data; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, fmt.Errorf("%s holds no PEM certificate", path)
	}
	return certs, nil
}

// DistributionPoint returns the first http distribution point of cert.
func DistributionPoint(cert *x509.Certificate) (string, bool) {
	for _, p := range cert.CRLDistributionPoints {
		if u, err := url.Parse(p); err == nil && u.Scheme == "http" {
			return p, true
		}
	}
	return "", false
}

// Needed reports whether any CA of the bundle names a CRL distribution
// point: only then does the router check CRLs at all.
func Needed(cas []*x509.Certificate) bool {
	for _, c := range cas {
		if _, ok := DistributionPoint(c); ok {
			return true
		}
	}
	return false
}

// WritePlaceholder writes, for every CA of the bundle, a CRL that expired
// long ago and is signed by a throwaway key: HAProxy refuses every client
// until the real CRLs are published. Only written while nothing real has
// been published.
func (m *Manager) WritePlaceholder() error {
	cas, err := ReadBundle(m.CAFile)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	for _, ca := range cas {
		der, err := placeholder(ca)
		if err != nil {
			return err
		}
		_ = pem.Encode(&out, &pem.Block{Type: "X509 CRL", Bytes: der})
	}
	return writeAtomic(m.CRLFile, out.Bytes())
}

func placeholder(ca *x509.Certificate) ([]byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	issuer := *ca
	issuer.PublicKey = key.Public()
	issuer.KeyUsage |= x509.KeyUsageCRLSign
	epoch := time.Unix(0, 0).UTC()
	return x509.CreateRevocationList(rand.Reader, &x509.RevocationList{
		Number: big.NewInt(1), ThisUpdate: epoch, NextUpdate: epoch.Add(time.Hour),
	}, &issuer, key)
}

// Refresh downloads every CA's CRL and, if all of them arrived and parse,
// publishes them as one file. It returns when to refresh next: the
// earliest RefreshAt of the CRLs.
func (m *Manager) Refresh(ctx context.Context) (time.Time, error) {
	cas, err := ReadBundle(m.CAFile)
	if err != nil {
		return time.Time{}, err
	}
	var out bytes.Buffer
	var earliest time.Time
	seen := map[string]bool{}
	for _, ca := range cas {
		point, ok := DistributionPoint(ca)
		if !ok {
			return time.Time{}, fmt.Errorf("CA %q has no http CRL distribution point, and HAProxy needs a CRL for every CA once one has one", ca.Subject)
		}
		crl, err := m.download(ctx, point)
		if err != nil {
			return time.Time{}, fmt.Errorf("CRL of %q from %s: %w", ca.Subject, point, err)
		}
		// In the signer's layout a CA certificate names its issuer's CRL:
		// as upstream, take it anyway (HAProxy checks signatures and finds
		// no CRL of this CA, so its clients are refused), and say so.
		if err := crl.CheckSignatureFrom(ca); err != nil {
			m.logf("crl: the CRL at %s, named by %q, is not that CA's own (signer's layout?): its clients will be refused", point, ca.Subject)
		}
		if at := RefreshAt(crl); earliest.IsZero() || at.Before(earliest) {
			earliest = at
		}
		if !seen[string(crl.Raw)] {
			seen[string(crl.Raw)] = true
			_ = pem.Encode(&out, &pem.Block{Type: "X509 CRL", Bytes: crl.Raw})
		}
	}
	changed, err := m.publish(out.Bytes())
	if err != nil {
		return time.Time{}, err
	}
	if changed && m.OnPublish != nil {
		if err := m.OnPublish(ctx); err != nil {
			return time.Time{}, fmt.Errorf("apply the new CRLs: %w", err)
		}
	}
	return earliest, nil
}

// RefreshAt is when a CRL should be replaced: before its nextUpdate by a
// quarter of its validity, at most 5 minutes.
func RefreshAt(crl *x509.RevocationList) time.Time {
	margin := crl.NextUpdate.Sub(crl.ThisUpdate) / 4
	if margin > 5*time.Minute {
		margin = 5 * time.Minute
	}
	if margin < 0 {
		margin = 0
	}
	return crl.NextUpdate.Add(-margin)
}

func (m *Manager) download(ctx context.Context, point string) (*x509.RevocationList, error) {
	client := m.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, point, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	m.mu.Lock()
	m.status.Fetches++
	m.mu.Unlock()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxCRLBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > MaxCRLBytes {
		return nil, fmt.Errorf("larger than %d bytes", MaxCRLBytes)
	}
	der := body
	if block, _ := pem.Decode(body); block != nil {
		if block.Type != "X509 CRL" {
			return nil, fmt.Errorf("PEM block %q is not an X509 CRL", block.Type)
		}
		der = block.Bytes
	}
	return x509.ParseRevocationList(der)
}

// publish replaces the CRL file if its content changed.
func (m *Manager) publish(data []byte) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	old, err := os.ReadFile(m.CRLFile)
	if m.published && err == nil && sha256.Sum256(old) == sha256.Sum256(data) {
		return false, nil
	}
	if err := writeAtomic(m.CRLFile, data); err != nil {
		return false, err
	}
	m.published = true
	m.status.Published = time.Now()
	return true, nil
}

// Run refreshes until ctx ends: at the earliest nextUpdate after a
// success (but not sooner than MinRefresh), with doubling backoff after a
// failure.
func (m *Manager) Run(ctx context.Context) {
	minRefresh, maxBackoff := m.MinRefresh, m.MaxBackoff
	if minRefresh <= 0 {
		minRefresh = 5 * time.Second
	}
	if maxBackoff <= 0 {
		maxBackoff = time.Minute
	}
	backoff := time.Second
	for {
		next, err := m.Refresh(ctx)
		var wait time.Duration
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			wait = backoff
			backoff = min(backoff*2, maxBackoff)
			m.logf("crl: %v (retry in %s)", err, wait)
		} else {
			backoff = time.Second
			wait = max(time.Until(next), minRefresh)
			m.logf("crl: up to date; next refresh in %s", wait.Round(time.Second))
		}
		m.mu.Lock()
		m.status.NextRefresh = time.Now().Add(wait)
		if err != nil {
			m.status.LastError = err.Error()
		} else {
			m.status.LastError = ""
		}
		m.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".crl-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
