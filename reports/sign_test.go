package reports

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	intoto "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// keyPair writes a P-256 key pair and loads both halves.
func keyPair(t *testing.T) (private, public *Key, publicPath string) {
	t.Helper()
	dir := t.TempDir()
	priv, pub := filepath.Join(dir, "key.pem"), filepath.Join(dir, "key.pub")
	if err := GenerateKey(priv, pub); err != nil {
		t.Fatal(err)
	}
	private, err := LoadPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	public, err = LoadPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return private, public, pub
}

// signedBundleOf is the bundle of a run, its attestation signed with k.
func signedBundleOf(t *testing.T, k *Key) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "bundle.tar.gz")
	if err := writeBundle(runDir(t, goodSuite()), out, bundleFiles, goodPublished(), k); err != nil {
		t.Fatal(err)
	}
	return out
}

// The attestation is an in-toto Statement v1 with the test-result
// predicate, whose subject is the router image and which names the suite
// build; signed, a DSSE envelope of exactly it.
func TestTheBundleCarriesAnInTotoStatement(t *testing.T) {
	private, public, _ := keyPair(t)
	contents, _, err := readBundle(signedBundleOf(t, private))
	if err != nil {
		t.Fatal(err)
	}
	var s intoto.Statement
	if err := protojson.Unmarshal(contents[StatementFile], &s); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	pred := s.GetPredicate().AsMap()
	config, _ := pred["configuration"].([]any)
	suite, _ := config[0].(map[string]any)
	if s.GetType() != "https://in-toto.io/Statement/v1" || s.GetPredicateType() != TestResultPredicate ||
		s.GetSubject()[0].GetDigest()["sha256"] == "" || pred["result"] != "PASSED" ||
		suite["name"] != SuiteModule || suite["digest"].(map[string]any)["gitCommit"] != "0123abc" {
		t.Errorf("statement %s", contents[StatementFile])
	}
	if err := checkEnvelope(contents[EnvelopeFile], contents[StatementFile], public); err != nil {
		t.Errorf("the envelope: %v", err)
	}
	// An unsigned bundle carries the statement alone.
	contents, _, _ = readBundle(bundleOf(t, goodSuite()))
	if contents[StatementFile] == nil || contents[EnvelopeFile] != nil {
		t.Errorf("unsigned bundle: statement %v, envelope %v", contents[StatementFile] != nil, contents[EnvelopeFile] != nil)
	}
}

// make certify SIGN_KEY= + make verify KEY=: the signature checks; one
// byte of the statement changed, another key, or no signature when a key
// is given: refused, one line each.
func TestTheSignatureSaysWhoMadeTheBundle(t *testing.T) {
	private, public, _ := keyPair(t)
	_, otherPublic, _ := keyPair(t)
	signed := signedBundleOf(t, private)
	v := testVerifier
	v.key = public
	got, err := v.verify(signed)
	if err != nil || got.SignedBy == "" || !strings.Contains(got.Line(), "; signature OK (key "+got.SignedBy+")") || got.ExitCode() != 0 {
		t.Fatalf("a signed bundle, its key: %v %q", err, got.Line())
	}
	// Without a key the signature is not checked, but the envelope must
	// still sign the statement.
	if got, err := testVerifier.verify(signed); err != nil || got.SignedBy != "" {
		t.Errorf("a signed bundle, no key: %v %q", err, got.SignedBy)
	}
	// Ed25519 too.
	_, edPriv, _ := ed25519.GenerateKey(rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(edPriv)
	edPath := filepath.Join(t.TempDir(), "ed.pem")
	if err := os.WriteFile(edPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	ed, err := LoadPrivateKey(edPath)
	if err != nil {
		t.Fatal(err)
	}
	edPublic, _ := newKey(nil, ed.Public())
	v.key = edPublic
	if _, err := v.verify(signedBundleOf(t, ed)); err != nil {
		t.Errorf("an Ed25519 signature: %v", err)
	}

	flip := func(c map[string][]byte) {
		c[StatementFile] = bytes.Replace(c[StatementFile], []byte("PASSED"), []byte("PASSEd"), 1)
	}
	for _, tc := range []struct {
		name   string
		bundle string
		key    *Key
		want   string
	}{
		{"one byte of the statement changed", tamper(t, signed, true, flip), public,
			StatementFile + " does not say what report.json says (subject, result, suite build or tests differ)"},
		{"a statement re-signed by the forger, checked with the vendor's key", tamper(t, signed, true, func(c map[string][]byte) {
			forger, _, _ := keyPair(t)
			env, err := SignStatement(c[StatementFile], forger)
			if err != nil {
				t.Fatal(err)
			}
			c[EnvelopeFile] = env
		}), public, EnvelopeFile + ": no signature verifies with the given key (key ID " + public.id + "): "},
		{"another key", signed, otherPublic, EnvelopeFile + ": no signature verifies with the given key (key ID " + otherPublic.id + "): "},
		{"no signature, a key given", bundleOf(t, goodSuite()), public,
			"the bundle is not signed (no " + EnvelopeFile + "): a key was given, make certify SIGN_KEY=<key> signs it"},
		{"an envelope of another statement", tamper(t, signed, true, func(c map[string][]byte) {
			c[EnvelopeFile] = bytes.Replace(c[EnvelopeFile], []byte(`"payload": "`), []byte(`"payload": "e30K`), 1)
		}), nil, EnvelopeFile + " signs another statement than " + StatementFile},
		{"no statement", tamper(t, bundleOf(t, goodSuite()), true, func(c map[string][]byte) { delete(c, StatementFile) }), nil,
			"the bundle lacks " + StatementFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := testVerifier
			v.key = tc.key
			_, err := v.verify(tc.bundle)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v\nwant %q...", err, tc.want)
			}
		})
	}
}

// A key of another kind, or a file that is no key, is refused in one line.
func TestKeysAreCheckedWhenRead(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.pem")
	if err := os.WriteFile(junk, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPrivateKey(junk); err == nil || err.Error() != junk+` holds no PEM "PRIVATE KEY" block` {
		t.Errorf("junk: %v", err)
	}
	_, _, pub := keyPair(t)
	if _, err := LoadPrivateKey(pub); err == nil || err.Error() != pub+` holds no PEM "PRIVATE KEY" block` {
		t.Errorf("a public key as a signing key: %v", err)
	}
}
