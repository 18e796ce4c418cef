package pki

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"time"

	"github.com/cloudflare/cfssl/helpers"
	"github.com/cloudflare/cfssl/signer"
)

// DefaultLeafValidity is how long a leaf is valid when no window is given.
const DefaultLeafValidity = 365 * 24 * time.Hour

// Window is a validity window. The zero Window means "valid now, for
// DefaultLeafValidity". Use Expired or NotYetValid for the negative cases.
type Window struct {
	NotBefore time.Time
	NotAfter  time.Time
}

// Expired returns a window that ended a day ago.
func Expired() Window {
	now := time.Now()
	return Window{NotBefore: now.Add(-30 * 24 * time.Hour), NotAfter: now.Add(-24 * time.Hour)}
}

// NotYetValid returns a window that starts in a day.
func NotYetValid() Window {
	now := time.Now()
	return Window{NotBefore: now.Add(24 * time.Hour), NotAfter: now.Add(30 * 24 * time.Hour)}
}

func (w Window) resolve() (time.Time, time.Time) {
	if w.NotBefore.IsZero() {
		w.NotBefore = time.Now().Add(-time.Minute)
	}
	if w.NotAfter.IsZero() {
		w.NotAfter = w.NotBefore.Add(DefaultLeafValidity)
	}
	return w.NotBefore, w.NotAfter
}

// ServerOptions describe a serving certificate for route hosts.
type ServerOptions struct {
	// Hosts become the SANs (DNS names or IP addresses; "*.apps.example"
	// wildcards allowed). The first is also the common name.
	Hosts  []string
	Window Window
	// CRLDistributionPoint, if set, is written into the certificate.
	CRLDistributionPoint string
}

// ClientOptions describe a client certificate.
type ClientOptions struct {
	Subject Subject
	// Hosts are optional SANs; cfssl does not copy the CN into the SANs.
	Hosts  []string
	Window Window
	// CRLDistributionPoint, if set, is written into the certificate (the
	// X.509 signer's layout: the URL of the issuer's CRL).
	CRLDistributionPoint string
	// CRLDistributionPoints are more, written in order after it.
	CRLDistributionPoints []string
}

// Leaf is an end-entity certificate with its key and issuer.
type Leaf struct {
	Cert    *x509.Certificate
	CertPEM []byte
	KeyPEM  []byte
	Issuer  *CA
}

// IssueServer signs a server certificate.
func (ca *CA) IssueServer(opts ServerOptions) (*Leaf, error) {
	if len(opts.Hosts) == 0 {
		return nil, errors.New("pki: a server certificate needs at least one host")
	}
	return ca.issue(Subject{CommonName: opts.Hosts[0]}, opts.Hosts, profileServer, opts.Window, distributionPoints(opts.CRLDistributionPoint, nil))
}

// IssueClient signs a client certificate with the given subject.
func (ca *CA) IssueClient(opts ClientOptions) (*Leaf, error) {
	if opts.Subject.CommonName == "" {
		return nil, errors.New("pki: a client certificate needs a subject common name")
	}
	return ca.issue(opts.Subject, opts.Hosts, profileClient, opts.Window, distributionPoints(opts.CRLDistributionPoint, opts.CRLDistributionPoints))
}

func (ca *CA) issue(subject Subject, hosts []string, profile string, window Window, cdps []string) (*Leaf, error) {
	ext, err := distributionPointsExtension(cdps)
	if err != nil {
		return nil, err
	}
	req := subject.request()
	req.Hosts = hosts
	csrPEM, keyPEM, err := csrGenerator.ProcessRequest(&req)
	if err != nil {
		return nil, fmt.Errorf("pki: CSR for %q: %w", subject.CommonName, err)
	}
	notBefore, notAfter := window.resolve()
	certPEM, err := ca.sign(signer.SignRequest{
		Request:    string(csrPEM),
		Hosts:      hosts,
		Profile:    profile,
		Extensions: ext,
		NotBefore:  notBefore,
		NotAfter:   notAfter,
	})
	if err != nil {
		return nil, fmt.Errorf("pki: sign %s certificate %q: %w", profile, subject.CommonName, err)
	}
	cert, err := helpers.ParseCertificatePEM(certPEM)
	if err != nil {
		return nil, fmt.Errorf("pki: parse %q: %w", subject.CommonName, err)
	}
	return &Leaf{Cert: cert, CertPEM: certPEM, KeyPEM: keyPEM, Issuer: ca}, nil
}

// ChainPEM is the leaf followed by its intermediates (not the root): what
// a TLS peer sends.
func (l *Leaf) ChainPEM() []byte {
	out := append([]byte{}, l.CertPEM...)
	for _, ca := range l.Issuer.Chain() {
		if ca.Parent == nil {
			break
		}
		out = append(out, ca.CertPEM...)
	}
	return out
}

// HAProxyPEM is the single file HAProxy's crt keyword loads: the chain
// followed by the private key.
func (l *Leaf) HAProxyPEM() []byte {
	return append(l.ChainPEM(), l.KeyPEM...)
}

// TLSCertificate returns the leaf and its intermediates for crypto/tls.
func (l *Leaf) TLSCertificate() (tls.Certificate, error) {
	c, err := tls.X509KeyPair(l.ChainPEM(), l.KeyPEM)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("pki: key pair for %q: %w", l.Cert.Subject.CommonName, err)
	}
	c.Leaf = l.Cert
	return c, nil
}
