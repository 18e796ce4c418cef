package pki

import (
	"crypto"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// Revocation is one revoked serial number.
type Revocation struct {
	Serial    *big.Int
	RevokedAt time.Time // zero means ThisUpdate
}

// CRLOptions describe one issue of a CA's CRL.
type CRLOptions struct {
	// ThisUpdate defaults to one minute ago; NextUpdate to a day after it.
	// Put NextUpdate in the past for an expired CRL, ThisUpdate in the
	// future for a CRL that is not yet valid.
	ThisUpdate time.Time
	NextUpdate time.Time
	// Number is the CRL number; zero means "one more than this CA's last".
	Number  int64
	Revoked []Revocation
	// SignedBy, when set, signs the CRL instead of the CA's key: a CRL
	// that names the CA as its issuer but does not verify against it.
	SignedBy crypto.Signer
}

// CRL is a signed certificate revocation list.
type CRL struct {
	DER    []byte
	Parsed *x509.RevocationList
	Issuer *CA
}

// PEM returns the CRL PEM-encoded ("X509 CRL"), the form HAProxy loads.
func (c *CRL) PEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "X509 CRL", Bytes: c.DER})
}

// Revoke is shorthand for the revocation of certificates at ThisUpdate.
func Revoke(certs ...*x509.Certificate) []Revocation {
	out := make([]Revocation, 0, len(certs))
	for _, c := range certs {
		out = append(out, Revocation{Serial: c.SerialNumber})
	}
	return out
}

// IssueCRL signs a CRL. Call it again to rotate: each call gets a higher
// CRL number unless one is given.
func (ca *CA) IssueCRL(opts CRLOptions) (*CRL, error) {
	thisUpdate := opts.ThisUpdate
	if thisUpdate.IsZero() {
		thisUpdate = time.Now().Add(-time.Minute)
	}
	nextUpdate := opts.NextUpdate
	if nextUpdate.IsZero() {
		nextUpdate = thisUpdate.Add(24 * time.Hour)
	}
	if !nextUpdate.After(thisUpdate) {
		return nil, fmt.Errorf("pki: CRL nextUpdate %s is not after thisUpdate %s", nextUpdate, thisUpdate)
	}
	number := opts.Number
	if number == 0 {
		ca.crlNumber++
		number = ca.crlNumber
	} else if number > ca.crlNumber {
		ca.crlNumber = number
	}
	entries := make([]x509.RevocationListEntry, 0, len(opts.Revoked))
	for _, r := range opts.Revoked {
		if r.Serial == nil {
			return nil, errors.New("pki: a revocation without a serial number")
		}
		at := r.RevokedAt
		if at.IsZero() {
			at = thisUpdate
		}
		entries = append(entries, x509.RevocationListEntry{SerialNumber: r.Serial, RevocationTime: at})
	}
	issuer, key := ca.Cert, ca.Key
	if opts.SignedBy != nil {
		// The CA's name and key identifier, another key's signature.
		forged := *ca.Cert
		forged.PublicKey = opts.SignedBy.Public()
		issuer, key = &forged, opts.SignedBy
	}
	der, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{
		Number:                    big.NewInt(number),
		ThisUpdate:                thisUpdate,
		NextUpdate:                nextUpdate,
		RevokedCertificateEntries: entries,
	}, issuer, key)
	if err != nil {
		return nil, fmt.Errorf("pki: sign CRL of %q: %w", ca.Cert.Subject.CommonName, err)
	}
	parsed, err := x509.ParseRevocationList(der)
	if err != nil {
		return nil, fmt.Errorf("pki: parse CRL of %q: %w", ca.Cert.Subject.CommonName, err)
	}
	return &CRL{DER: der, Parsed: parsed, Issuer: ca}, nil
}

// IssueLargeCRL signs a CRL that revokes n random 20-byte serials (and the
// extra revocations given), for the specs that need a CRL of megabytes:
// about 36 000 serials make 1 MB of DER.
func (ca *CA) IssueLargeCRL(n int, opts CRLOptions) (*CRL, error) {
	for i := 0; i < n; i++ {
		buf := make([]byte, 20)
		if _, err := rand.Read(buf); err != nil {
			return nil, err
		}
		buf[0] &= 0x7f
		opts.Revoked = append(opts.Revoked, Revocation{Serial: new(big.Int).SetBytes(buf)})
	}
	return ca.IssueCRL(opts)
}
