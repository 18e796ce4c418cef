package pki_test

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/router-conformance/suite/pki"
)

const (
	rootCRL         = "http://crl.crl-server.svc/root.crl"
	intermediateCRL = "http://crl.crl-server.svc/intermediate.crl"
)

type fixture struct {
	root, intermediate *pki.CA
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	root, err := pki.NewRootCA(pki.CAOptions{
		Subject:              pki.Subject{Country: "US", Organization: "Example", CommonName: "Example Root CA"},
		CRLDistributionPoint: rootCRL,
	})
	if err != nil {
		t.Fatal(err)
	}
	intermediate, err := root.NewIntermediateCA(pki.CAOptions{
		Subject:              pki.Subject{Country: "US", Organization: "Example", CommonName: "Example Intermediate CA"},
		CRLDistributionPoint: intermediateCRL,
	})
	if err != nil {
		t.Fatal(err)
	}
	return fixture{root: root, intermediate: intermediate}
}

func clientSubject(cn string) pki.Subject {
	return pki.Subject{Country: "US", Province: "NC", Organization: "Example", OrganizationalUnit: "Eng", CommonName: cn}
}

func verifyClient(leaf *pki.Leaf, roots ...*pki.CA) error {
	intermediates := x509.NewCertPool()
	for _, ca := range leaf.Issuer.Chain() {
		if ca.Parent != nil {
			intermediates.AddCert(ca.Cert)
		}
	}
	_, err := leaf.Cert.Verify(x509.VerifyOptions{
		Roots:         pki.Pool(roots...),
		Intermediates: intermediates,
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	return err
}

func TestEveryCACarriesTheDistributionPointOfItsOwnCRL(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		ca  *pki.CA
		cdp string
	}{{f.root, rootCRL}, {f.intermediate, intermediateCRL}} {
		if got := tc.ca.Cert.CRLDistributionPoints; len(got) != 1 || got[0] != tc.cdp {
			t.Errorf("%s: CRL distribution points = %q, want [%q]", tc.ca.Cert.Subject.CommonName, got, tc.cdp)
		}
		if !tc.ca.Cert.IsCA || !tc.ca.Cert.BasicConstraintsValid {
			t.Errorf("%s: not a CA certificate", tc.ca.Cert.Subject.CommonName)
		}
		want := x509.KeyUsageCertSign | x509.KeyUsageCRLSign
		if tc.ca.Cert.KeyUsage&want != want {
			t.Errorf("%s: key usage %b lacks cert sign and CRL sign", tc.ca.Cert.Subject.CommonName, tc.ca.Cert.KeyUsage)
		}
	}
	if err := f.intermediate.Cert.CheckSignatureFrom(f.root.Cert); err != nil {
		t.Errorf("intermediate is not signed by the root: %v", err)
	}
	if got := f.intermediate.Root(); got != f.root {
		t.Errorf("Root() of the intermediate is %q", got.Cert.Subject.CommonName)
	}
}

func TestValidClientVerifiesAgainstItsChain(t *testing.T) {
	f := newFixture(t)
	client, err := f.intermediate.IssueClient(pki.ClientOptions{Subject: clientSubject("client")})
	if err != nil {
		t.Fatal(err)
	}
	if err := verifyClient(client, f.root); err != nil {
		t.Fatalf("valid client does not verify: %v", err)
	}
	if got := client.Cert.ExtKeyUsage; len(got) != 1 || got[0] != x509.ExtKeyUsageClientAuth {
		t.Errorf("client ext key usage = %v, want [client auth]", got)
	}
	if got, want := client.Cert.Subject.String(), "CN=client,OU=Eng,O=Example,ST=NC,C=US"; got != want {
		t.Errorf("subject = %q, want %q", got, want)
	}
	if got, want := clientSubject("client").DN(), "/C=US/ST=NC/O=Example/OU=Eng/CN=client"; got != want {
		t.Errorf("DN() = %q, want HAProxy's form %q", got, want)
	}
	// The certificate presented in a handshake must carry the intermediate.
	tlsCert, err := client.TLSCertificate()
	if err != nil {
		t.Fatal(err)
	}
	if len(tlsCert.Certificate) != 2 {
		t.Errorf("TLS chain has %d certificates, want leaf + intermediate", len(tlsCert.Certificate))
	}
}

func TestInvalidClientsFailVerificationForTheRightReason(t *testing.T) {
	f := newFixture(t)
	foreign, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "Foreign Root CA"}})
	if err != nil {
		t.Fatal(err)
	}
	valid, err := f.intermediate.IssueClient(pki.ClientOptions{Subject: clientSubject("valid")})
	if err != nil {
		t.Fatal(err)
	}
	expired, err := f.intermediate.IssueClient(pki.ClientOptions{Subject: clientSubject("expired"), Window: pki.Expired()})
	if err != nil {
		t.Fatal(err)
	}
	notYetValid, err := f.intermediate.IssueClient(pki.ClientOptions{Subject: clientSubject("future"), Window: pki.NotYetValid()})
	if err != nil {
		t.Fatal(err)
	}
	untrusted, err := foreign.IssueClient(pki.ClientOptions{Subject: clientSubject("stranger")})
	if err != nil {
		t.Fatal(err)
	}

	// Positive control: the same chain accepts a valid client.
	if err := verifyClient(valid, f.root); err != nil {
		t.Fatalf("positive control: valid client rejected: %v", err)
	}
	for _, tc := range []struct {
		name   string
		leaf   *pki.Leaf
		detail string
	}{
		{"expired", expired, "is after"},
		{"not yet valid", notYetValid, "is before"},
	} {
		var invalid x509.CertificateInvalidError
		err := verifyClient(tc.leaf, f.root)
		if !errors.As(err, &invalid) || invalid.Reason != x509.Expired || !strings.Contains(invalid.Detail, tc.detail) {
			t.Errorf("%s: got %v, want x509.Expired with %q", tc.name, err, tc.detail)
		}
	}
	var unknown x509.UnknownAuthorityError
	if err := verifyClient(untrusted, f.root); !errors.As(err, &unknown) {
		t.Errorf("untrusted: got %v, want x509.UnknownAuthorityError", err)
	}
	// The foreign client is itself valid: it verifies against its own root.
	if err := verifyClient(untrusted, foreign); err != nil {
		t.Errorf("untrusted client does not verify against its own root: %v", err)
	}
}

func TestServerCertificateCoversItsHostsAndWildcards(t *testing.T) {
	f := newFixture(t)
	server, err := f.intermediate.IssueServer(pki.ServerOptions{Hosts: []string{"edge.apps.example.test", "*.wild.apps.example.test", "127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	intermediates := pki.Pool(f.intermediate)
	for _, host := range []string{"edge.apps.example.test", "a.wild.apps.example.test", "127.0.0.1"} {
		if _, err := server.Cert.Verify(x509.VerifyOptions{DNSName: host, Roots: pki.Pool(f.root), Intermediates: intermediates}); err != nil {
			t.Errorf("%s: %v", host, err)
		}
	}
	var hostErr x509.HostnameError
	if _, err := server.Cert.Verify(x509.VerifyOptions{DNSName: "other.apps.example.test", Roots: pki.Pool(f.root), Intermediates: intermediates}); !errors.As(err, &hostErr) {
		t.Errorf("other host: got %v, want x509.HostnameError", err)
	}
	if _, err := tls.X509KeyPair(server.HAProxyPEM(), server.HAProxyPEM()); err != nil {
		t.Errorf("HAProxy PEM is not a usable cert+key file: %v", err)
	}
}

func TestCRLRevokesChosenSerialsAndVerifiesWithItsCA(t *testing.T) {
	f := newFixture(t)
	revoked, err := f.intermediate.IssueClient(pki.ClientOptions{Subject: clientSubject("revoked")})
	if err != nil {
		t.Fatal(err)
	}
	kept, err := f.intermediate.IssueClient(pki.ClientOptions{Subject: clientSubject("kept")})
	if err != nil {
		t.Fatal(err)
	}
	thisUpdate := time.Now().Add(-time.Hour).Truncate(time.Second)
	nextUpdate := thisUpdate.Add(2 * time.Hour)
	crl, err := f.intermediate.IssueCRL(pki.CRLOptions{ThisUpdate: thisUpdate, NextUpdate: nextUpdate, Revoked: pki.Revoke(revoked.Cert)})
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := x509.ParseRevocationList(crl.DER)
	if err != nil {
		t.Fatal(err)
	}
	if err := parsed.CheckSignatureFrom(f.intermediate.Cert); err != nil {
		t.Errorf("CRL signature does not verify with its CA: %v", err)
	}
	if err := parsed.CheckSignatureFrom(f.root.Cert); err == nil {
		t.Errorf("CRL signature verifies with the wrong CA")
	}
	if !parsed.ThisUpdate.Equal(thisUpdate) || !parsed.NextUpdate.Equal(nextUpdate) {
		t.Errorf("update times = %s / %s, want %s / %s", parsed.ThisUpdate, parsed.NextUpdate, thisUpdate, nextUpdate)
	}
	if len(parsed.RevokedCertificateEntries) != 1 || parsed.RevokedCertificateEntries[0].SerialNumber.Cmp(revoked.Cert.SerialNumber) != 0 {
		t.Errorf("revoked entries = %v, want exactly the serial of %q", parsed.RevokedCertificateEntries, revoked.Cert.Subject.CommonName)
	}
	for _, e := range parsed.RevokedCertificateEntries {
		if e.SerialNumber.Cmp(kept.Cert.SerialNumber) == 0 {
			t.Errorf("the kept certificate is listed as revoked")
		}
	}
	if !bytes.Equal(parsed.AuthorityKeyId, f.intermediate.Cert.SubjectKeyId) {
		t.Errorf("CRL authority key id does not name its CA")
	}
	block, rest := pem.Decode(crl.PEM())
	if block == nil || block.Type != "X509 CRL" || len(rest) != 0 || !bytes.Equal(block.Bytes, crl.DER) {
		t.Errorf("PEM form is not one X509 CRL block holding the DER")
	}
}

func TestCRLRotationRaisesTheNumberAndCanUnrevoke(t *testing.T) {
	f := newFixture(t)
	client, err := f.root.IssueClient(pki.ClientOptions{Subject: clientSubject("rotated")})
	if err != nil {
		t.Fatal(err)
	}
	first, err := f.root.IssueCRL(pki.CRLOptions{Revoked: pki.Revoke(client.Cert)})
	if err != nil {
		t.Fatal(err)
	}
	second, err := f.root.IssueCRL(pki.CRLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if second.Parsed.Number.Cmp(first.Parsed.Number) <= 0 {
		t.Errorf("CRL number did not rise: %s then %s", first.Parsed.Number, second.Parsed.Number)
	}
	if len(first.Parsed.RevokedCertificateEntries) != 1 || len(second.Parsed.RevokedCertificateEntries) != 0 {
		t.Errorf("entries: first %d, second %d; want 1 then 0", len(first.Parsed.RevokedCertificateEntries), len(second.Parsed.RevokedCertificateEntries))
	}
	expired, err := f.root.IssueCRL(pki.CRLOptions{ThisUpdate: time.Now().Add(-48 * time.Hour), NextUpdate: time.Now().Add(-24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if !expired.Parsed.NextUpdate.Before(time.Now()) {
		t.Errorf("expired CRL nextUpdate %s is not in the past", expired.Parsed.NextUpdate)
	}
	if _, err := f.root.IssueCRL(pki.CRLOptions{ThisUpdate: time.Now(), NextUpdate: time.Now().Add(-time.Hour)}); err == nil {
		t.Errorf("a CRL whose nextUpdate precedes thisUpdate was issued")
	}
}

func TestLargeCRLExceedsOneMegabyte(t *testing.T) {
	f := newFixture(t)
	target, err := f.intermediate.IssueClient(pki.ClientOptions{Subject: clientSubject("needle")})
	if err != nil {
		t.Fatal(err)
	}
	crl, err := f.intermediate.IssueLargeCRL(40000, pki.CRLOptions{Revoked: pki.Revoke(target.Cert)})
	if err != nil {
		t.Fatal(err)
	}
	if len(crl.DER) <= 1<<20 || len(crl.PEM()) <= 1<<20 {
		t.Errorf("large CRL is %d bytes DER, %d PEM; want > 1 MiB", len(crl.DER), len(crl.PEM()))
	}
	parsed, err := x509.ParseRevocationList(crl.DER)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(parsed.RevokedCertificateEntries); got != 40001 {
		t.Errorf("large CRL has %d entries, want 40001", got)
	}
	if err := parsed.CheckSignatureFrom(f.intermediate.Cert); err != nil {
		t.Errorf("large CRL signature: %v", err)
	}
	found := false
	for _, e := range parsed.RevokedCertificateEntries {
		found = found || e.SerialNumber.Cmp(target.Cert.SerialNumber) == 0
	}
	if !found {
		t.Errorf("the chosen serial is missing from the large CRL")
	}
}

func TestBundlesAndWriteDir(t *testing.T) {
	f := newFixture(t)
	client, err := f.intermediate.IssueClient(pki.ClientOptions{Subject: clientSubject("files")})
	if err != nil {
		t.Fatal(err)
	}
	crl, err := f.intermediate.IssueCRL(pki.CRLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bundle := pki.ChainBundle(f.intermediate)
	var certs []*x509.Certificate
	for rest := bundle; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		certs = append(certs, c)
	}
	if len(certs) != 2 || !certs[0].Equal(f.intermediate.Cert) || !certs[1].Equal(f.root.Cert) {
		t.Errorf("chain bundle is not [intermediate, root]")
	}

	dir := t.TempDir()
	files := append(append(f.root.Files("root"), client.Files("client")...), crl.Files("intermediate")...)
	if err := pki.WriteDir(dir, files...); err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]os.FileMode{
		"root.crt": 0o644, "root.key": 0o600, "client.crt": 0o644, "client.key": 0o600,
		"client.pem": 0o600, "intermediate.crl.pem": 0o644, "intermediate.crl": 0o644,
	} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if st.Mode().Perm() != mode {
			t.Errorf("%s: mode %o, want %o", name, st.Mode().Perm(), mode)
		}
	}
	pair, err := tls.LoadX509KeyPair(filepath.Join(dir, "client.crt"), filepath.Join(dir, "client.key"))
	if err != nil {
		t.Fatalf("written client pair does not load: %v", err)
	}
	if len(pair.Certificate) != 2 {
		t.Errorf("client.crt holds %d certificates, want leaf + intermediate", len(pair.Certificate))
	}
	if err := pki.WriteDir(dir, pki.File{Name: "../escape", Data: []byte("x")}); err == nil {
		t.Errorf("a name with .. was written")
	}
	if err := pki.WriteDir(dir, pki.File{Name: "a"}, pki.File{Name: "a"}); err == nil {
		t.Errorf("a duplicate name was accepted")
	}
}

func TestSeveralDistributionPointsAreWrittenInOrder(t *testing.T) {
	points := []string{"http://crl.a.svc:81/first.crl", "http://crl.a.svc/status/503", "http://crl.a.svc/third.crl"}
	root, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "several"}, CRLDistributionPoint: points[0], CRLDistributionPoints: points[1:]})
	if err != nil {
		t.Fatal(err)
	}
	inter, err := root.NewIntermediateCA(pki.CAOptions{Subject: pki.Subject{CommonName: "several inter"}, CRLDistributionPoints: points})
	if err != nil {
		t.Fatal(err)
	}
	client, err := inter.IssueClient(pki.ClientOptions{Subject: clientSubject("c"), CRLDistributionPoints: points})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*x509.Certificate{root.Cert, inter.Cert, client.Cert} {
		if got := c.CRLDistributionPoints; strings.Join(got, " ") != strings.Join(points, " ") {
			t.Errorf("%s: CRL distribution points = %q, want %q", c.Subject.CommonName, got, points)
		}
		n := 0
		for _, e := range c.Extensions {
			if e.Id.String() == "2.5.29.31" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d CRL distribution points extensions, want 1", c.Subject.CommonName, n)
		}
	}
	if err := root.Cert.CheckSignatureFrom(root.Cert); err != nil {
		t.Errorf("root is not self-signed: %v", err)
	}
	if got := time.Until(root.Cert.NotAfter); got < pki.DefaultCAValidity-time.Hour {
		t.Errorf("root valid for %s more, want about %s", got, pki.DefaultCAValidity)
	}
	if len(root.Cert.SubjectKeyId) == 0 {
		t.Error("root has no subject key id (the router keys its CRLs by it)")
	}
	if err := verifyClient(client, root); err != nil {
		t.Errorf("client of the intermediate does not verify: %v", err)
	}
}

func TestNoDistributionPointWritesNoExtension(t *testing.T) {
	root, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "none"}})
	if err != nil {
		t.Fatal(err)
	}
	client, err := root.IssueClient(pki.ClientOptions{Subject: clientSubject("c")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*x509.Certificate{root.Cert, client.Cert} {
		if got := c.CRLDistributionPoints; len(got) != 0 {
			t.Errorf("%s: CRL distribution points = %q, want none", c.Subject.CommonName, got)
		}
	}
	if _, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "empty"}, CRLDistributionPoints: []string{""}}); err == nil {
		t.Error("an empty distribution point was accepted")
	}
}

// A CRL signed by another key names the CA as its issuer, with the CA's
// key identifier, and does not verify against it; the CA's own does.
func TestCRLSignedByAnotherKeyDoesNotVerify(t *testing.T) {
	f := newFixture(t)
	other, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "other"}})
	if err != nil {
		t.Fatal(err)
	}
	forged, err := f.root.IssueCRL(pki.CRLOptions{SignedBy: other.Key})
	if err != nil {
		t.Fatal(err)
	}
	if forged.Parsed.Issuer.String() != f.root.Cert.Subject.String() || !bytes.Equal(forged.Parsed.AuthorityKeyId, f.root.Cert.SubjectKeyId) {
		t.Errorf("issuer %s, authority key %x: want the CA's %s, %x", forged.Parsed.Issuer, forged.Parsed.AuthorityKeyId, f.root.Cert.Subject, f.root.Cert.SubjectKeyId)
	}
	if err := forged.Parsed.CheckSignatureFrom(f.root.Cert); err == nil {
		t.Error("a CRL signed by another key verifies against the CA")
	}
	genuine, err := f.root.IssueCRL(pki.CRLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := genuine.Parsed.CheckSignatureFrom(f.root.Cert); err != nil {
		t.Errorf("the CA's own CRL does not verify: %v", err)
	}
}
