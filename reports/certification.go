package reports

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	intoto "github.com/in-toto/attestation/go/v1"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
)

// A bundle's files are the vendor's: whoever holds them can write a
// consistent set (every check of files alone passes a consistent
// forgery). What certifies is a rerun the certifier controls: make
// reproduce reruns the bundle's run on the certifier's machine and, when
// every spec matches, writes the certifier's statement beside the bundle
// — an in-toto Statement whose subject is the bundle file by digest and
// whose predicate is the rerun's own record — signed with the certifier's
// key (a DSSE envelope). make verify CERTIFIER_KEY=<the certifier's public
// key> then says certified, and only then.
const (
	// CertificationPredicateType is the certifier's statement's predicate.
	CertificationPredicateType = "https://github.com/router-conformance/suite/certification/v1"
	// CertificationSuffix names the statement beside its bundle.
	CertificationSuffix = ".certification.json"
)

// CertificationPath is where the certifier's statement of a bundle is.
func CertificationPath(bundle string) string { return bundle + CertificationSuffix }

// Rerun is the certifier's rerun of a bundle, as its own record says.
type Rerun struct {
	// Suite is the build that reran (the certifier's checkout or kit).
	Suite Suite `json:"suite"`
	// ImageID is the router image the rerun judged, by content.
	ImageID string    `json:"imageID"`
	Date    time.Time `json:"date"`
	Result  Result    `json:"result"`
	// Same and Different count the specs compared with the bundle's.
	Same      int `json:"same"`
	Different int `json:"different"`
}

// CertificationClaim is the predicate: the bundle's verdict and the
// rerun that reproduced it.
type CertificationClaim struct {
	Implementation Implementation `json:"implementation"`
	Result         Result         `json:"result"`
	Rerun          Rerun          `json:"rerun"`
}

// WriteCertification writes the certifier's signed statement beside the
// bundle and returns its path. Only a rerun that matched every spec and
// judged the bundle's own image certifies.
func WriteCertification(bundle string, claim CertificationClaim, key *Key) (string, error) {
	switch {
	case key == nil:
		return "", errors.New("no certifier key: the certifier signs what it reran (SIGN_KEY)")
	case claim.Rerun.Different > 0 || claim.Rerun.Same == 0:
		return "", fmt.Errorf("the rerun did not reproduce the bundle (%d same, %d different): nothing to certify", claim.Rerun.Same, claim.Rerun.Different)
	case claim.Rerun.ImageID != claim.Implementation.ImageID:
		return "", fmt.Errorf("the rerun judged image %s, the bundle %s: nothing to certify", claim.Rerun.ImageID, claim.Implementation.ImageID)
	}
	digest, err := fileDigest(bundle)
	if err != nil {
		return "", err
	}
	data, err := json.Marshal(claim)
	if err != nil {
		return "", err
	}
	var predicate structpb.Struct
	if err := protojson.Unmarshal(data, &predicate); err != nil {
		return "", err
	}
	s := &intoto.Statement{
		Type:          intoto.StatementTypeUri,
		Subject:       []*intoto.ResourceDescriptor{{Name: filepath.Base(bundle), Digest: map[string]string{"sha256": digest}}},
		PredicateType: CertificationPredicateType,
		Predicate:     &predicate,
	}
	if err := s.Validate(); err != nil {
		return "", fmt.Errorf("certification: %w", err)
	}
	statement, err := MarshalStatement(s)
	if err != nil {
		return "", err
	}
	env, err := SignStatement(statement, key)
	if err != nil {
		return "", err
	}
	path := CertificationPath(bundle)
	return path, os.WriteFile(path, env, 0o644)
}

// checkCertification: beside the bundle, a statement signed by the
// certifier's key, about this bundle file (by digest), of a rerun that
// judged the bundle's image with every spec the same and the bundle's
// verdict. It returns the certifier's key ID.
func checkCertification(bundle string, key *Key, bundled Report) (string, error) {
	path := CertificationPath(bundle)
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("not certified: no certifier's statement beside the bundle (%s): a certifier reruns it with make reproduce SIGN_KEY=<the certifier's key>", filepath.Base(path))
	}
	var env dsse.Envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return "", fmt.Errorf("not certified: %s: %v", filepath.Base(path), oneLine(err))
	}
	verifier, err := dsse.NewEnvelopeVerifier(key)
	if err != nil {
		return "", err
	}
	if _, err := verifier.Verify(context.Background(), &env); err != nil {
		return "", fmt.Errorf("not certified: %s is not signed by the certifier's key (key ID %s): %v", filepath.Base(path), key.id, oneLine(err))
	}
	payload, err := env.DecodeB64Payload()
	if err != nil {
		return "", fmt.Errorf("not certified: %s: %v", filepath.Base(path), err)
	}
	var s intoto.Statement
	if err := protojson.Unmarshal(payload, &s); err != nil || s.PredicateType != CertificationPredicateType || len(s.Subject) != 1 {
		return "", fmt.Errorf("not certified: %s holds no certifier's statement of one bundle", filepath.Base(path))
	}
	digest, err := fileDigest(bundle)
	if err != nil {
		return "", err
	}
	if got := s.Subject[0].GetDigest()["sha256"]; got != digest {
		return "", fmt.Errorf("not certified: the certifier's statement is about another bundle (sha256 %s, this one %s)", got, digest)
	}
	raw, err := protojson.Marshal(s.Predicate)
	if err != nil {
		return "", err
	}
	var claim CertificationClaim
	if err := json.Unmarshal(raw, &claim); err != nil {
		return "", fmt.Errorf("not certified: %s: %v", filepath.Base(path), oneLine(err))
	}
	switch {
	case claim.Rerun.Different > 0 || claim.Rerun.Same == 0:
		return "", fmt.Errorf("not certified: the certifier's rerun did not reproduce the bundle (%d same, %d different)", claim.Rerun.Same, claim.Rerun.Different)
	case claim.Rerun.ImageID != bundled.Implementation.ImageID || claim.Implementation.ImageID != bundled.Implementation.ImageID:
		return "", fmt.Errorf("not certified: the certifier reran image %s, the bundle judged %s", claim.Rerun.ImageID, bundled.Implementation.ImageID)
	case claim.Result != bundled.Result:
		return "", fmt.Errorf("not certified: the certifier's statement says %s, the bundle %s", claim.Result, bundled.Result)
	}
	return key.id, nil
}

// fileDigest is a file's sha256, in hex.
func fileDigest(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}
