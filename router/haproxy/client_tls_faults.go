package haproxy

import (
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"

	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/router/crl"
)

// mutualTLSFault is cfg.MutualTLS as a test-only fault of the client TLS
// enhancement alters it (package faults, faults/catalogue/client-tls.yaml);
// without one, cfg.MutualTLS itself. The bind keywords a fault adds ride
// on Policy, which the template writes after "verify".
func mutualTLSFault(cfg Config) *MutualTLS {
	m := cfg.MutualTLS
	if m == nil {
		if faults.On("client-tls.certificate-requested-without-clienttls") {
			return &MutualTLS{Policy: "optional", CAFile: filepath.Join(cfg.Dir, "default.pem")}
		}
		return nil
	}
	f := *m
	switch {
	case faults.On("client-tls.untrusted-ca-accepted"):
		f.Policy += " crt-ignore-err 2,3,20,21"
	case faults.On("client-tls.validity-not-checked"):
		f.Policy += " crt-ignore-err 9,10"
	case faults.On("client-tls.crl-signature-not-checked"):
		f.Policy += " crt-ignore-err 8 ca-ignore-err 8"
	case faults.On("client-tls.crl-file-dropped"):
		f.CRLFile = ""
	case faults.On("client-tls.crl-fail-open") && f.CRLFile != "" && placeholderCRL(f.CRLFile):
		f.CRLFile = ""
	case faults.On("client-tls.optional-not-requested") && f.Policy == "optional":
		f.Policy = "none"
	case faults.On("client-tls.optional-wrong-ca") && f.Policy == "optional":
		f.CAFile = filepath.Join(cfg.Dir, "default.pem")
	case faults.On("client-tls.subject-pattern-comma-dn"):
		f.SubjectFilter = strings.ReplaceAll(f.SubjectFilter, "/", ",")
	default:
		return m
	}
	return &f
}

// placeholderCRL reports whether the CRL file holds the CRL manager's
// placeholder (nothing real published yet).
func placeholderCRL(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return false
	}
	list, err := x509.ParseRevocationList(block.Bytes)
	return err == nil && list.Issuer.CommonName == crl.PlaceholderIssuer
}
