package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Only a certifier's signed statement of a matching rerun of this very
// bundle makes it certified; the same bundle without it is consistent
// (the control), and every shortcut is refused in one line.
func TestOnlyACertifiersRerunCertifies(t *testing.T) {
	vendor, _, _ := keyPair(t)
	certifier, certifierPublic, _ := keyPair(t)
	bundle := signedBundleOf(t, vendor)
	consistent, err := testVerifier.verify(bundle)
	if err != nil {
		t.Fatal(err)
	}
	if line := consistent.Line(); !strings.HasPrefix(line, "CONSISTENT: ") || consistent.CertifiedBy != "" {
		t.Fatalf("without a certifier key: %q", line)
	}
	withKey := testVerifier
	withKey.certifierKey = certifierPublic
	claim := CertificationClaim{Implementation: consistent.Report.Implementation, Result: consistent.Report.Result,
		Rerun: Rerun{Suite: consistent.Report.Suite, ImageID: consistent.Report.Implementation.ImageID, Date: time.Now().UTC(), Result: consistent.Report.Result, Same: 10}}

	// No statement beside the bundle: a consistent forgery stops here.
	if _, err := withKey.verify(bundle); err == nil || !strings.HasPrefix(err.Error(), "not certified: no certifier's statement beside the bundle") {
		t.Errorf("no statement: %v", err)
	}
	// The vendor signs a statement of its own.
	if _, err := WriteCertification(bundle, claim, vendor); err != nil {
		t.Fatal(err)
	}
	if _, err := withKey.verify(bundle); err == nil || !strings.Contains(err.Error(), "is not signed by the certifier's key") {
		t.Errorf("a statement signed by the vendor: %v", err)
	}
	// A rerun that did not match certifies nothing.
	differs := claim
	differs.Rerun.Different = 1
	if _, err := WriteCertification(bundle, differs, certifier); err == nil {
		t.Error("a rerun with a different spec was certified")
	}
	otherImage := claim
	otherImage.Rerun.ImageID = "sha256:" + strings.Repeat("0", 64)
	if _, err := WriteCertification(bundle, otherImage, certifier); err == nil {
		t.Error("a rerun of another image was certified")
	}
	// The certifier's statement of a matching rerun: certified.
	if _, err := WriteCertification(bundle, claim, certifier); err != nil {
		t.Fatal(err)
	}
	got, err := withKey.verify(bundle)
	if err != nil || got.CertifiedBy == "" || !strings.HasPrefix(got.Line(), "CERTIFIED: ") {
		t.Fatalf("the certifier's statement: %+v %v", got.Line(), err)
	}
	// The statement is about that bundle file: another run's bundle (a
	// failed spec the vendor would hide) is not certified by it.
	other := filepath.Join(t.TempDir(), "other.tar.gz")
	if err := writeBundle(runDir(t, failedSuite()), other, bundleFiles, goodPublished(), vendor); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(CertificationPath(bundle))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(CertificationPath(other), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := withKey.verify(other); err == nil || !strings.HasPrefix(err.Error(), "not certified: the certifier's statement is about another bundle") {
		t.Errorf("a statement moved to another bundle: %v", err)
	}
}
