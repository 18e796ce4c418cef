package pki

import (
	"crypto"
	"crypto/x509"
	"errors"
	"fmt"
	"time"

	"github.com/cloudflare/cfssl/config"
	"github.com/cloudflare/cfssl/csr"
	"github.com/cloudflare/cfssl/helpers"
	"github.com/cloudflare/cfssl/signer"
	"github.com/cloudflare/cfssl/signer/local"
)

// DefaultCAValidity is how long a CA is valid when CAOptions.Validity is zero.
const DefaultCAValidity = 10 * 365 * 24 * time.Hour

// CAOptions describe a CA to create.
type CAOptions struct {
	Subject Subject
	// CRLDistributionPoint is written into the CA certificate. In the
	// layout the OpenShift router expects ("own CRL") it is the URL where
	// this CA's own CRL is served; in the X.509 signer's layout it is the
	// URL of the issuer's CRL. Empty means no distribution point.
	CRLDistributionPoint string
	// CRLDistributionPoints are more distribution points, written in this
	// order after CRLDistributionPoint (if set): alternatives a router
	// tries in turn until one serves a valid CRL.
	CRLDistributionPoints []string
	// Validity defaults to DefaultCAValidity from one minute ago.
	Validity time.Duration
}

func (o CAOptions) distributionPoints() []string {
	return distributionPoints(o.CRLDistributionPoint, o.CRLDistributionPoints)
}

// CA is a certificate authority: its certificate, its key and its parent
// (nil for a root).
type CA struct {
	Cert    *x509.Certificate
	CertPEM []byte
	Key     crypto.Signer
	KeyPEM  []byte
	Parent  *CA

	signer    *local.Signer
	crlNumber int64
}

// NewRootCA creates a self-signed root CA: cfssl's local signer without
// a CA certificate signs with the CSR's own key (what initca does, but
// under this package's CA profile, which lets the distribution points in).
func NewRootCA(opts CAOptions) (*CA, error) {
	if opts.Subject.CommonName == "" {
		return nil, errors.New("pki: a root CA needs a subject common name")
	}
	csrPEM, keyPEM, err := caRequest(opts, "root")
	if err != nil {
		return nil, err
	}
	key, err := helpers.ParsePrivateKeyPEM(keyPEM)
	if err != nil {
		return nil, fmt.Errorf("pki: parse root key: %w", err)
	}
	self, err := local.NewSigner(key, nil, signer.DefaultSigAlgo(key), signingPolicy())
	if err != nil {
		return nil, fmt.Errorf("pki: self-signer for %q: %w", opts.Subject.CommonName, err)
	}
	certPEM, err := signCA(self.Sign, csrPEM, opts)
	if err != nil {
		return nil, fmt.Errorf("pki: self-sign root %q: %w", opts.Subject.CommonName, err)
	}
	return newCA(certPEM, keyPEM, nil)
}

// NewIntermediateCA creates a CA signed by ca.
func (ca *CA) NewIntermediateCA(opts CAOptions) (*CA, error) {
	if opts.Subject.CommonName == "" {
		return nil, errors.New("pki: an intermediate CA needs a subject common name")
	}
	csrPEM, keyPEM, err := caRequest(opts, "intermediate")
	if err != nil {
		return nil, err
	}
	certPEM, err := signCA(ca.sign, csrPEM, opts)
	if err != nil {
		return nil, fmt.Errorf("pki: sign intermediate %q: %w", opts.Subject.CommonName, err)
	}
	return newCA(certPEM, keyPEM, ca)
}

// ParseCA is the root CA of certPEM and keyPEM (a kubernetes.io/tls
// Secret's tls.crt and tls.key): a CA kept across processes, such as the
// service CA whose key the platform keeps in a Secret.
func ParseCA(certPEM, keyPEM []byte) (*CA, error) {
	return newCA(certPEM, keyPEM, nil)
}

// Chain returns this CA and its ancestors, this CA first, the root last.
func (ca *CA) Chain() []*CA {
	var chain []*CA
	for c := ca; c != nil; c = c.Parent {
		chain = append(chain, c)
	}
	return chain
}

// Root returns the root of this CA's chain.
func (ca *CA) Root() *CA {
	chain := ca.Chain()
	return chain[len(chain)-1]
}

const (
	profileCA     = "ca"
	profileServer = "server"
	profileClient = "client"
)

// signingPolicy is the one policy every CA signs with. cfssl requires the
// Default profile to carry an Expiry, and silently falls back to Default
// for a named profile whose Expiry is zero, so every profile has one; the
// specs pass explicit NotBefore/NotAfter anyway. Every profile lets the
// CRL distribution points extension in: cfssl's own CRL option
// (CRLOverride) writes one URL only.
func signingPolicy() *config.Signing {
	expiry := 365 * 24 * time.Hour
	profile := func(p config.SigningProfile) *config.SigningProfile {
		p.Expiry = expiry
		p.ExtensionWhitelist = map[string]bool{oidCRLDistributionPoints.String(): true}
		return &p
	}
	return &config.Signing{
		Default: profile(config.SigningProfile{Usage: []string{"digital signature"}}),
		Profiles: map[string]*config.SigningProfile{
			profileCA: profile(config.SigningProfile{
				Usage:        []string{"cert sign", "crl sign"},
				CAConstraint: config.CAConstraint{IsCA: true},
			}),
			profileServer: profile(config.SigningProfile{Usage: []string{"digital signature", "key encipherment", "server auth"}}),
			profileClient: profile(config.SigningProfile{Usage: []string{"digital signature", "key encipherment", "client auth"}}),
		},
	}
}

func newCA(certPEM, keyPEM []byte, parent *CA) (*CA, error) {
	cert, err := helpers.ParseCertificatePEM(certPEM)
	if err != nil {
		return nil, fmt.Errorf("pki: parse CA certificate: %w", err)
	}
	key, err := helpers.ParsePrivateKeyPEM(keyPEM)
	if err != nil {
		return nil, fmt.Errorf("pki: parse CA key: %w", err)
	}
	s, err := local.NewSigner(key, cert, signer.DefaultSigAlgo(key), signingPolicy())
	if err != nil {
		return nil, fmt.Errorf("pki: signer for %q: %w", cert.Subject.CommonName, err)
	}
	return &CA{Cert: cert, CertPEM: certPEM, Key: key, KeyPEM: keyPEM, Parent: parent, signer: s}, nil
}

func (ca *CA) sign(req signer.SignRequest) ([]byte, error) {
	return ca.signer.Sign(req)
}

// caRequest is a CA's CSR and key. The CA section puts
// basicConstraints(CA) into the CSR; the profile's CAConstraint is what
// allows the signer to honour it.
func caRequest(opts CAOptions, kind string) (csrPEM, keyPEM []byte, err error) {
	req := opts.Subject.request()
	req.CA = &csr.CAConfig{}
	csrPEM, keyPEM, err = csrGenerator.ProcessRequest(&req)
	if err != nil {
		return nil, nil, fmt.Errorf("pki: CSR for %s %q: %w", kind, opts.Subject.CommonName, err)
	}
	return csrPEM, keyPEM, nil
}

// signCA signs a CA certificate under the CA profile with opts'
// distribution points, valid from a minute ago (clock skew) for opts'
// validity.
func signCA(sign func(signer.SignRequest) ([]byte, error), csrPEM []byte, opts CAOptions) ([]byte, error) {
	ext, err := distributionPointsExtension(opts.distributionPoints())
	if err != nil {
		return nil, err
	}
	notBefore := time.Now().Add(-time.Minute)
	return sign(signer.SignRequest{
		Request:    string(csrPEM),
		Profile:    profileCA,
		Extensions: ext,
		NotBefore:  notBefore,
		NotAfter:   notBefore.Add(validityOrDefault(opts.Validity)),
	})
}

func validityOrDefault(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultCAValidity
	}
	return d
}
