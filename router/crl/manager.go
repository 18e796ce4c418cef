// Package crl keeps the router's CRL file in step with the distribution
// points of its client CA bundle, as the upstream router does (upstream:
// openshift/router pkg/router/crl/crl.go):
//   - a CA certificate without a CRL distribution point is skipped, no
//     error (once the CRL file is in use, HAProxy then refuses clients
//     whose chain goes through that CA with "unknown certificate
//     authority", as it does behind the upstream router);
//   - for a certificate that names distribution points, its http ones are
//     tried in order until one gives a CRL whose nextUpdate is still to
//     come; an expired CRL is refused like a failed download;
//   - CRLs are kept per certificate naming the distribution point (its
//     SubjectKeyId), and a kept CRL is reused until it is due;
//   - only a complete set is ever published: if one certificate gets no
//     valid CRL the update fails and the previous file stays;
//   - until the first complete download a placeholder CRL of no CA of the
//     bundle keeps mutual TLS closed ("unknown certificate authority").
//
// Deliberately better than upstream: upstream refreshes at nextUpdate
// itself, which leaves HAProxy with an expired CRL (every client refused)
// for as long as the download and the reload take, and retries failures
// after 5 minutes. This manager refreshes a CRL a quarter of its validity
// (at most 5 minutes) before its nextUpdate, and retries failures with a
// backoff that starts at 1 s; with a CA that publishes only at
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
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/router-conformance/suite/faults"
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

	// bundleChanged wakes Run when the CA bundle changed (BundleChanged).
	bundleChanged chan struct{}
	once          sync.Once

	mu        sync.Mutex
	published bool
	status    Status
	// cache holds the CRLs of the last complete set, by key of the
	// certificate that names their distribution point.
	cache map[string]*x509.RevocationList
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

// Needed reports whether any CA of the bundle names a CRL distribution
// point: only then does the router check CRLs at all (upstream:
// CABundleHasCRLs, any kind of distribution point).
func Needed(cas []*x509.Certificate) bool {
	for _, c := range cas {
		if len(c.CRLDistributionPoints) > 0 {
			return true
		}
	}
	return false
}

// key identifies the certificate that names a distribution point: its
// SubjectKeyId, as upstream keys its CRLs. A certificate without one (so
// without a key of its own for upstream, which would merge them all) is
// keyed by a digest of the whole certificate instead.
func key(cert *x509.Certificate) string {
	if len(cert.SubjectKeyId) > 0 {
		return hex.EncodeToString(cert.SubjectKeyId)
	}
	sum := sha256.Sum256(cert.Raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// WritePlaceholder writes, as upstream's dummyCRL does, one CRL that
// expired long ago, issued by a throwaway "Placeholder CA" that is no CA
// of the bundle: HAProxy holds no CRL for any client's CA, so it refuses
// every client with "unknown certificate authority" until the real CRLs
// are published. Only written while nothing real has been published.
func (m *Manager) WritePlaceholder() error {
	der, err := placeholder()
	if err != nil {
		return err
	}
	return writeAtomic(m.CRLFile, pem.EncodeToMemory(&pem.Block{Type: "X509 CRL", Bytes: der}))
}

// PlaceholderIssuer is the placeholder CRL's issuer (upstream's dummyCRL
// names the same common name).
const PlaceholderIssuer = "Placeholder CA"

func placeholder() ([]byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	issuer := &x509.Certificate{
		Subject:      pkix.Name{CommonName: PlaceholderIssuer},
		SubjectKeyId: []byte{1},
		KeyUsage:     x509.KeyUsageCRLSign,
		PublicKey:    key.Public(),
	}
	epoch := time.Unix(0, 0).UTC()
	return x509.CreateRevocationList(rand.Reader, &x509.RevocationList{
		Number: big.NewInt(1), ThisUpdate: epoch, NextUpdate: epoch.Add(time.Hour),
	}, issuer, key)
}

// Refresh makes sure every CA certificate that names a distribution point
// has a valid CRL: the one kept from the previous refresh while it is not
// due (RefreshAt), otherwise a new download. If all of them have one, it
// publishes them as one file (if that changed) and returns when to
// refresh next: the earliest RefreshAt. If one has none, nothing is
// published, nothing is kept, and the error says which.
func (m *Manager) Refresh(ctx context.Context) (time.Time, error) {
	cas, err := ReadBundle(m.CAFile)
	if err != nil {
		return time.Time{}, err
	}
	m.mu.Lock()
	cache := m.cache
	m.mu.Unlock()
	now := time.Now()
	var out bytes.Buffer
	var earliest time.Time
	next := map[string]*x509.RevocationList{}
	written := map[string]bool{}
	for _, ca := range cas {
		if len(ca.CRLDistributionPoints) == 0 {
			continue // upstream: no distribution point, no CRL needed
		}
		if faults.On("client-tls.crl-only-root-cas") && !bytes.Equal(ca.RawIssuer, ca.RawSubject) {
			continue
		}
		k := key(ca)
		crl, seen := next[k]
		if !seen {
			if kept := cache[k]; kept != nil && (now.Before(RefreshAt(kept)) || faults.On("client-tls.crl-never-refreshed")) {
				crl = kept
			} else {
				if crl, err = m.fetch(ctx, ca, now); err != nil {
					if faults.On("client-tls.crl-placeholder-after-failed-refresh") && m.WritePlaceholder() == nil && m.OnPublish != nil {
						_ = m.OnPublish(ctx)
					}
					return time.Time{}, err
				}
				// In the signer's layout a CA certificate names its
				// issuer's CRL: as upstream, take it anyway (HAProxy
				// checks signatures and finds no CRL of this CA, so its
				// clients are refused), and say so.
				if err := crl.CheckSignatureFrom(ca); err != nil {
					m.logf("crl: the CRL named by %q is not that CA's own (signer's layout?): its clients will be refused", ca.Subject)
				}
			}
			next[k] = crl
		}
		if at := RefreshAt(crl); earliest.IsZero() || at.Before(earliest) {
			earliest = at
		}
		// One copy of each CRL, however many certificates name it.
		if !written[string(crl.Raw)] {
			written[string(crl.Raw)] = true
			_ = pem.Encode(&out, &pem.Block{Type: "X509 CRL", Bytes: crl.Raw})
		}
	}
	if len(next) == 0 {
		// No CA names a distribution point (any more): keep the file
		// as it is, with the placeholder if nothing was ever published,
		// as upstream keeps its dummy CRL.
		m.mu.Lock()
		m.cache = next
		m.mu.Unlock()
		return time.Time{}, nil
	}
	changed, err := m.publish(out.Bytes())
	if err != nil {
		return time.Time{}, err
	}
	m.mu.Lock()
	m.cache = next
	m.mu.Unlock()
	if changed && m.OnPublish != nil {
		if err := m.OnPublish(ctx); err != nil {
			return time.Time{}, fmt.Errorf("apply the new CRLs: %w", err)
		}
	}
	return earliest, nil
}

// fetch tries the http distribution points of ca in order and returns
// the first CRL that downloads, parses and has not expired (upstream:
// getCRL).
func (m *Manager) fetch(ctx context.Context, ca *x509.Certificate, now time.Time) (*x509.RevocationList, error) {
	var errs []error
	for _, point := range ca.CRLDistributionPoints {
		if faults.On("client-tls.crl-only-first-distribution-point") && len(errs) > 0 {
			break
		}
		if u, err := url.Parse(point); err != nil || u.Scheme != "http" {
			errs = append(errs, fmt.Errorf("%s: unsupported distribution point", point))
			continue
		}
		crl, err := m.download(ctx, point)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			errs = append(errs, fmt.Errorf("%s: %w", point, err))
			continue
		}
		// upstream refuses an expired CRL and tries the next point; a
		// CRL without nextUpdate counts as expired there too.
		if crl.NextUpdate.Before(now) && !faults.On("client-tls.crl-expired-accepted") {
			errs = append(errs, fmt.Errorf("%s: CRL expired (nextUpdate %s)", point, crl.NextUpdate.UTC().Format(time.RFC3339)))
			continue
		}
		return crl, nil
	}
	return nil, fmt.Errorf("no valid CRL for CA %q (key %s): %w", ca.Subject, key(ca), errors.Join(errs...))
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
	changed := m.changes()
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
			if faults.On("client-tls.crl-cache-ignored") {
				m.mu.Lock()
				m.cache = nil
				m.mu.Unlock()
				wait = minRefresh
			}
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
		case <-changed:
			m.logf("crl: the client CA bundle changed: refreshing now")
		}
	}
}

// BundleChanged tells Run that the CA bundle changed: it refreshes at
// once, downloading the CRLs of any CA it does not hold yet (upstream:
// ManageCRLs on caUpdateChannel).
func (m *Manager) BundleChanged() {
	select {
	case m.changes() <- struct{}{}:
	default: // a refresh is already due
	}
}

func (m *Manager) changes() chan struct{} {
	m.once.Do(func() { m.bundleChanged = make(chan struct{}, 1) })
	return m.bundleChanged
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
