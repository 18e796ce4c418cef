package reports

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Only a certifier's signed statement of a matching rerun of this very
// bundle makes it certified; the same bundle without it is consistent
// (the control), and every shortcut is refused in one line.
func TestOnlyACertifiersRerunCertifies(t *testing.T) {
	vendor, vendorPublic, _ := keyPair(t)
	certifier, certifierPublic, _ := keyPair(t)
	bundle := signedBundleOf(t, vendor)
	consistent, err := testVerifier.verify(bundle)
	if err != nil {
		t.Fatal(err)
	}
	if line := consistent.Line(); !strings.HasPrefix(line, "CONSISTENT: ") || consistent.Certified != nil {
		t.Fatalf("without a certifier key: %q", line)
	}
	withKey := testVerifier
	withKey.certifierKey = certifierPublic
	claim := CertificationClaim{Implementation: consistent.Report.Implementation, Result: consistent.Report.Result,
		Rerun: Rerun{Suite: consistent.Report.Suite, ImageID: consistent.Report.Implementation.ImageID, Date: time.Now().UTC(), Result: consistent.Report.Result, Same: 10}}
	digest := consistent.Digest

	// No statement beside the bundle: a consistent forgery stops here.
	if _, err := withKey.verify(bundle); err == nil || !strings.HasPrefix(err.Error(), "not certified: no certifier's statement beside the bundle") {
		t.Errorf("no statement: %v", err)
	}
	// The vendor signs a statement of its own.
	if _, err := WriteCertification(bundle, digest, claim, vendor); err != nil {
		t.Fatal(err)
	}
	if _, err := withKey.verify(bundle); err == nil || !strings.Contains(err.Error(), "is not signed by the certifier's key") {
		t.Errorf("a statement signed by the vendor: %v", err)
	}
	// A rerun that did not match certifies nothing.
	differs := claim
	differs.Rerun.Different = 1
	if _, err := WriteCertification(bundle, digest, differs, certifier); err == nil {
		t.Error("a rerun with a different spec was certified")
	}
	otherImage := claim
	otherImage.Rerun.ImageID = "sha256:" + strings.Repeat("0", 64)
	if _, err := WriteCertification(bundle, digest, otherImage, certifier); err == nil {
		t.Error("a rerun of another image was certified")
	}
	// The certifier's statement of a matching rerun: certified.
	if _, err := WriteCertification(bundle, digest, claim, certifier); err != nil {
		t.Fatal(err)
	}
	got, err := withKey.verify(bundle)
	if err != nil || got.Certified == nil || !strings.HasPrefix(got.Line(), "CERTIFIED: ") {
		t.Fatalf("the certifier's statement: %+v %v", got.Line(), err)
	}
	// The line names what the certifier compared: the image ID, and the
	// digest the bundle names only when the certifier's copy had it.
	if line := got.Line(); !strings.Contains(line, "which compared the image ID sha256:"+hex64('e')+", not the repository digest sha256:"+hex64('d')+" (the certifier's copy of the image had none)") {
		t.Errorf("the line does not say the digest was not compared: %s", line)
	}
	withDigest := claim
	withDigest.Rerun.ImageDigest = "sha256:" + hex64('d')
	if _, err := WriteCertification(bundle, digest, withDigest, certifier); err != nil {
		t.Fatal(err)
	}
	if got, err := withKey.verify(bundle); err != nil || !strings.Contains(got.Line(), "which compared the image ID sha256:"+hex64('e')+" and the repository digest sha256:"+hex64('d')) {
		t.Errorf("the digest compared: %v %v", got.Line(), err)
	}
	// A statement whose rerun was not the bundle's build, under its
	// rules, is refused: each one line (the control above certified).
	for _, tc := range []struct {
		name, want string
		change     func(*CertificationClaim)
	}{
		{"another commit", "not certified: the certifier reran suite commit 9999999, the bundle's is 0123abc", func(c *CertificationClaim) { c.Rerun.Suite.Commit = "9999999" }},
		{"a dirty rerun", "not certified: the certifier's rerun was built from a tree with uncommitted changes", func(c *CertificationClaim) { c.Rerun.Suite.Dirty = true }},
		{"no binary compared", "not certified: the certifier's statement says the suite binary was not compared with the bundle's (a record names none)", func(c *CertificationClaim) { c.Rerun.Suite.Binary = nil }},
		{"another Go", "not certified: the certifier's statement says the suite binary was not compared with the bundle's (the bundle's was compiled with go1.25.0, the rerun's with go1.26.0): rerun with the bundle's Go toolchain", func(c *CertificationClaim) {
			c.Rerun.Suite.Binary = &Binary{SHA256: strings.Repeat("c", 64), GoVersion: "go1.26.0"}
		}},
		{"another digest", "not certified: the certifier compared repository digest sha256:" + hex64('f') + ", the bundle names sha256:" + hex64('d'), func(c *CertificationClaim) { c.Rerun.ImageDigest = "sha256:" + hex64('f') }},
		{"a negative statement", "not certified: the certifier's rerun of 2026-11-28T10:00:00Z (key " + certifierPublic.id + ") did not reproduce the bundle: 2 specs differ", func(c *CertificationClaim) {
			c.Rerun.Date, c.Rerun.Same, c.Rerun.Different = time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC), 8, 2
			c.NotReproduced = []string{"2 specs differ"}
		}},
	} {
		changed := claim
		tc.change(&changed)
		if _, err := WriteCertification(bundle, digest, changed, certifier); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, err := withKey.verify(bundle); err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
	// The certifier's key is not the vendor's: with the statement
	// rewritten as the control, a key that signed the attestation too
	// certifies nothing.
	if _, err := WriteCertification(bundle, digest, claim, vendor); err != nil {
		t.Fatal(err)
	}
	asVendor := testVerifier
	asVendor.certifierKey = vendorPublic
	if _, err := asVendor.verify(bundle); err == nil || !strings.Contains(err.Error(), "signed the bundle's attestation too") {
		t.Errorf("the vendor's key as the certifier's: %v", err)
	}
	if _, err := WriteCertification(bundle, digest, claim, certifier); err != nil {
		t.Fatal(err)
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

// The verifier reads a bundle once: a named pipe that serves a forged
// bundle to the checks and the certified one to a second read (the
// digest) gets no CERTIFIED, and the certified bundle served alone, the
// control, does.
func TestTheStatementIsAboutTheBundleAsRead(t *testing.T) {
	vendor, _, _ := keyPair(t)
	certifier, certifierPublic, _ := keyPair(t)
	certified := signedBundleOf(t, vendor)
	forged := filepath.Join(t.TempDir(), "forged.tar.gz")
	if err := writeBundle(runDir(t, failedSuite()), forged, bundleFiles, goodPublished(), vendor); err != nil {
		t.Fatal(err)
	}
	withKey := testVerifier
	withKey.certifierKey = certifierPublic
	read, err := testVerifier.verify(certified)
	if err != nil {
		t.Fatal(err)
	}
	claim := CertificationClaim{Implementation: read.Report.Implementation, Result: read.Report.Result,
		Rerun: Rerun{Suite: read.Report.Suite, ImageID: read.Report.Implementation.ImageID, Date: time.Now().UTC(), Result: read.Report.Result, Same: 10}}

	for _, tc := range []struct {
		name   string
		served []string
		want   string
	}{
		{"the certified bundle alone", []string{certified}, ""},
		{"a forged bundle, then the certified one", []string{forged, certified}, "not certified: the certifier's statement is about another bundle"},
	} {
		pipe := filepath.Join(t.TempDir(), "bundle.tar.gz")
		if err := syscall.Mkfifo(pipe, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := WriteCertification(pipe, read.Digest, claim, certifier); err != nil {
			t.Fatal(err)
		}
		served := make(chan struct{})
		go func() {
			defer close(served)
			for _, file := range tc.served {
				data, _ := os.ReadFile(file)
				f, err := os.OpenFile(pipe, os.O_WRONLY, 0)
				if err != nil {
					return
				}
				_, _ = f.Write(data)
				f.Close()
			}
		}()
		got, err := withKey.verify(pipe)
		switch {
		case tc.want == "" && (err != nil || got.Certified == nil):
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
		// A second read would have taken what the pipe serves next: let
		// the writer finish, draining what it still serves, however
		// late it opens the pipe again (a reader opened once, before
		// the writer's next open, would leave it blocked for good).
		for done := false; !done; {
			if f, err := os.OpenFile(pipe, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				_, _ = io.Copy(io.Discard, f)
				f.Close()
			}
			select {
			case <-served:
				done = true
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
}
