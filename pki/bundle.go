package pki

import (
	"crypto/x509"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Bundle concatenates the certificates of the given CAs as PEM: the
// client-CA bundle the router verifies against, or a CA chain.
func Bundle(cas ...*CA) []byte {
	var out []byte
	for _, ca := range cas {
		out = append(out, ca.CertPEM...)
	}
	return out
}

// ChainBundle is every CA from ca up to its root, ca first.
func ChainBundle(ca *CA) []byte {
	return Bundle(ca.Chain()...)
}

// Pool returns a certificate pool holding the given CAs.
func Pool(cas ...*CA) *x509.CertPool {
	pool := x509.NewCertPool()
	for _, ca := range cas {
		pool.AddCert(ca.Cert)
	}
	return pool
}

// File is one artefact to write: private keys get mode 0600, the rest 0644.
type File struct {
	Name    string
	Data    []byte
	Private bool
}

// Files for a CA: "<name>.crt" and "<name>.key".
func (ca *CA) Files(name string) []File {
	return []File{{Name: name + ".crt", Data: ca.CertPEM}, {Name: name + ".key", Data: ca.KeyPEM, Private: true}}
}

// Files for a leaf: "<name>.crt" (leaf and intermediates), "<name>.key",
// and "<name>.pem" (HAProxy's cert+key file, private).
func (l *Leaf) Files(name string) []File {
	return []File{
		{Name: name + ".crt", Data: l.ChainPEM()},
		{Name: name + ".key", Data: l.KeyPEM, Private: true},
		{Name: name + ".pem", Data: l.HAProxyPEM(), Private: true},
	}
}

// Files for a CRL: "<name>.crl.pem" and "<name>.crl" (DER).
func (c *CRL) Files(name string) []File {
	return []File{{Name: name + ".crl.pem", Data: c.PEM()}, {Name: name + ".crl", Data: c.DER}}
}

// WriteDir writes the files into dir (created 0755 if missing). Names must
// be plain file names: a name with a path separator or ".." is refused.
func WriteDir(dir string, files ...File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("pki: create %s: %w", dir, err)
	}
	names := make([]string, 0, len(files))
	for _, f := range files {
		if f.Name == "" || f.Name == "." || f.Name == ".." || strings.ContainsAny(f.Name, `/\`) {
			return fmt.Errorf("pki: %q is not a plain file name", f.Name)
		}
		names = append(names, f.Name)
	}
	sort.Strings(names)
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			return fmt.Errorf("pki: %q would be written twice", names[i])
		}
	}
	for _, f := range files {
		mode := os.FileMode(0o644)
		if f.Private {
			mode = 0o600
		}
		path := filepath.Join(dir, f.Name)
		if err := os.WriteFile(path, f.Data, mode); err != nil {
			return fmt.Errorf("pki: write %s: %w", path, err)
		}
		// WriteFile keeps the mode of a file that already exists.
		if err := os.Chmod(path, mode); err != nil {
			return fmt.Errorf("pki: chmod %s: %w", path, err)
		}
	}
	return nil
}
