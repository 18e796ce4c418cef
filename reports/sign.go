package reports

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"

	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// The signed attestation: a DSSE envelope whose payload is the bundle's
// Statement, byte for byte. A signature says who ran it; reproduction says
// it is true (docs/certification.md).
const (
	EnvelopeFile = "attestation.intoto.dsse.json"
	// StatementPayloadType is the DSSE payload type of an in-toto
	// Statement.
	StatementPayloadType = "application/vnd.in-toto+json"
)

// Key is a signing or verifying key: ECDSA P-256 or Ed25519 from the
// standard library, in PEM (PKCS #8 "PRIVATE KEY", PKIX "PUBLIC KEY").
type Key struct {
	private crypto.Signer
	public  crypto.PublicKey
	id      string
}

// LoadPrivateKey reads a signing key.
func LoadPrivateKey(path string) (*Key, error) {
	block, err := readPEM(path, "PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("signing key %s: %v (want a PKCS #8 ECDSA P-256 or Ed25519 key)", path, err)
	}
	signer, ok := k.(crypto.Signer)
	if !ok || !supported(signer.Public()) {
		return nil, fmt.Errorf("signing key %s: %T is neither ECDSA P-256 nor Ed25519", path, k)
	}
	return newKey(signer, signer.Public())
}

// LoadPublicKey reads a verifying key.
func LoadPublicKey(path string) (*Key, error) {
	block, err := readPEM(path, "PUBLIC KEY")
	if err != nil {
		return nil, err
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	switch {
	case err != nil:
		return nil, fmt.Errorf("public key %s: not an ECDSA P-256 or Ed25519 PKIX key (%v)", path, err)
	case !supported(pub):
		return nil, fmt.Errorf("public key %s: a %T key, not ECDSA P-256 or Ed25519", path, pub)
	}
	return newKey(nil, pub)
}

// GenerateKey makes a P-256 key and writes it, and its public half, as
// PEM (tests, and a certifier's first key).
func GenerateKey(privatePath, publicPath string) error {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return err
	}
	pub, err := x509.MarshalPKIXPublicKey(k.Public())
	if err != nil {
		return err
	}
	if err := os.WriteFile(privatePath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		return err
	}
	return os.WriteFile(publicPath, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o644)
}

func readPEM(path, kind string) (*pem.Block, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != kind {
		return nil, fmt.Errorf("%s holds no PEM %q block", path, kind)
	}
	return block, nil
}

func supported(pub crypto.PublicKey) bool {
	switch p := pub.(type) {
	case *ecdsa.PublicKey:
		return p.Curve == elliptic.P256()
	case ed25519.PublicKey:
		return true
	}
	return false
}

func newKey(private crypto.Signer, public crypto.PublicKey) (*Key, error) {
	id, err := dsse.SHA256KeyID(public)
	if err != nil {
		return nil, err
	}
	return &Key{private: private, public: public, id: id}, nil
}

// The dsse.Signer and dsse.Verifier of a Key: ECDSA signs SHA-256 of the
// message (ASN.1), Ed25519 the message itself.
func (k *Key) KeyID() (string, error)   { return k.id, nil }
func (k *Key) Public() crypto.PublicKey { return k.public }

func (k *Key) Sign(_ context.Context, data []byte) ([]byte, error) {
	if k.private == nil {
		return nil, errors.New("a public key cannot sign")
	}
	if _, ok := k.public.(ed25519.PublicKey); ok {
		return k.private.Sign(rand.Reader, data, crypto.Hash(0))
	}
	sum := sha256.Sum256(data)
	return k.private.Sign(rand.Reader, sum[:], crypto.SHA256)
}

func (k *Key) Verify(_ context.Context, data, sig []byte) error {
	switch p := k.public.(type) {
	case ed25519.PublicKey:
		if ed25519.Verify(p, data, sig) {
			return nil
		}
	case *ecdsa.PublicKey:
		sum := sha256.Sum256(data)
		if ecdsa.VerifyASN1(p, sum[:], sig) {
			return nil
		}
	}
	return errors.New("the signature does not verify")
}

// SignStatement is the DSSE envelope of the Statement's bytes.
func SignStatement(statement []byte, k *Key) ([]byte, error) {
	signer, err := dsse.NewEnvelopeSigner(k)
	if err != nil {
		return nil, err
	}
	env, err := signer.SignPayload(context.Background(), StatementPayloadType, statement)
	if err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(env, "", "  ")
	return append(data, '\n'), err
}

// checkEnvelope: the envelope's payload is the bundle's Statement, byte
// for byte, and, when a key is given, a signature of it verifies with that
// key.
func checkEnvelope(data, statement []byte, key *Key) error {
	var env dsse.Envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return fmt.Errorf("%s: %v", EnvelopeFile, oneLine(err))
	}
	payload, err := env.DecodeB64Payload()
	if err != nil {
		return fmt.Errorf("%s: %v", EnvelopeFile, err)
	}
	if env.PayloadType != StatementPayloadType || string(payload) != string(statement) {
		return fmt.Errorf("%s signs another statement than %s", EnvelopeFile, StatementFile)
	}
	if key == nil {
		return nil
	}
	verifier, err := dsse.NewEnvelopeVerifier(key)
	if err != nil {
		return err
	}
	if _, err := verifier.Verify(context.Background(), &env); err != nil {
		return fmt.Errorf("%s: no signature verifies with the given key (key ID %s): %v", EnvelopeFile, key.id, oneLine(err))
	}
	return nil
}
