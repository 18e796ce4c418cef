package pki

import (
	"strings"

	"github.com/cloudflare/cfssl/csr"
)

// Subject is a certificate's distinguished name. cfssl writes the
// attributes in a fixed order (C, ST, L, O, OU, CN), which is the order
// HAProxy prints in ssl_c_s_dn: "/C=US/ST=NC/O=Example/OU=Eng/CN=client".
type Subject struct {
	Country            string
	Province           string
	Locality           string
	Organization       string
	OrganizationalUnit string
	CommonName         string
}

func (s Subject) request() csr.CertificateRequest {
	req := csr.CertificateRequest{CN: s.CommonName, KeyRequest: csr.NewKeyRequest()}
	if s.Country+s.Province+s.Locality+s.Organization+s.OrganizationalUnit != "" {
		req.Names = []csr.Name{{C: s.Country, ST: s.Province, L: s.Locality, O: s.Organization, OU: s.OrganizationalUnit}}
	}
	return req
}

// DN renders the subject the way HAProxy's ssl_c_s_dn does (and so the way
// the router's allowedSubjectPatterns see it).
func (s Subject) DN() string {
	var b strings.Builder
	for _, part := range []struct{ key, value string }{
		{"C", s.Country}, {"ST", s.Province}, {"L", s.Locality},
		{"O", s.Organization}, {"OU", s.OrganizationalUnit}, {"CN", s.CommonName},
	} {
		if part.value != "" {
			b.WriteString("/" + part.key + "=" + part.value)
		}
	}
	return b.String()
}

// csrGenerator makes a key and a CSR; the subjects are checked by the
// callers, so cfssl's validator has nothing left to refuse.
var csrGenerator = &csr.Generator{Validator: func(*csr.CertificateRequest) error { return nil }}
