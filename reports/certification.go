package reports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
	// ImageID is the router image the rerun judged, by content;
	// ImageDigest the repository digest the bundle names that the
	// certifier's copy of the image has too ("" when it was not
	// compared: NotCompared says why).
	ImageID     string    `json:"imageID"`
	ImageDigest string    `json:"imageDigest,omitempty"`
	Date        time.Time `json:"date"`
	Result      Result    `json:"result"`
	// Same and Different count the specs compared with the bundle's.
	Same      int `json:"same"`
	Different int `json:"different"`
	// Compared and NotCompared are what the rerun held to the bundle's
	// record besides the specs (CompareRerun).
	Compared    []string `json:"compared,omitempty"`
	NotCompared []string `json:"notCompared,omitempty"`
}

// CertificationClaim is the predicate: the bundle's verdict and the
// rerun that reproduced it, or, with NotReproduced, a rerun that did not
// (a negative statement: it replaces whatever statement was beside the
// bundle, so that an earlier rerun's certificate does not outlive a
// later one that failed).
type CertificationClaim struct {
	Implementation Implementation `json:"implementation"`
	Result         Result         `json:"result"`
	Rerun          Rerun          `json:"rerun"`
	NotReproduced  []string       `json:"notReproduced,omitempty"`
}

// WriteCertification writes the certifier's signed statement about the
// bundle file whose sha256 is digest (the one read the rerun verified,
// Verified.Digest: never the file read again) beside it, and returns its
// path. A positive statement needs a rerun that matched every spec and
// judged the bundle's own image; a negative one (NotReproduced) says why
// the rerun did not reproduce it.
func WriteCertification(bundle, digest string, claim CertificationClaim, key *Key) (string, error) {
	switch {
	case key == nil:
		return "", errors.New("no certifier key: the certifier signs what it reran (SIGN_KEY)")
	case len(claim.NotReproduced) > 0:
	case claim.Rerun.Different > 0 || claim.Rerun.Same == 0:
		return "", fmt.Errorf("the rerun did not reproduce the bundle (%d same, %d different): nothing to certify", claim.Rerun.Same, claim.Rerun.Different)
	case claim.Rerun.ImageID != claim.Implementation.ImageID:
		return "", fmt.Errorf("the rerun judged image %s, the bundle %s: nothing to certify", claim.Rerun.ImageID, claim.Implementation.ImageID)
	}
	if len(digest) != 64 {
		return "", fmt.Errorf("certification: %q is not the sha256 of the bundle read", digest)
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

// RemoveCertification removes the statement beside a bundle whose rerun
// did not reproduce it (make reproduce without a key to sign a negative
// one): it reports whether there was one.
func RemoveCertification(bundle string) (bool, error) {
	err := os.Remove(CertificationPath(bundle))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// Certified is the certifier's statement that verified: whose key, and
// the rerun it records.
type Certified struct {
	KeyID string
	Rerun Rerun
}

// checkCertification: beside the bundle, a statement signed by the
// certifier's key, about the bundle as read (digest), of a rerun that
// reproduced it: the bundle's image (and its digest, when one was
// compared), every spec the same, the bundle's verdict, made from the
// bundle's commit, clean, and compiled to the bundle's suite binary
// byte for byte. A negative statement (a later rerun that did not
// reproduce) is refused with its date and reasons.
func checkCertification(bundle, digest string, key *Key, bundled Report) (Certified, error) {
	path := CertificationPath(bundle)
	data, err := os.ReadFile(path)
	if err != nil {
		return Certified{}, fmt.Errorf("not certified: no certifier's statement beside the bundle (%s): a certifier reruns it with make reproduce SIGN_KEY=<the certifier's key>", filepath.Base(path))
	}
	var env dsse.Envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return Certified{}, fmt.Errorf("not certified: %s: %v", filepath.Base(path), oneLine(err))
	}
	verifier, err := dsse.NewEnvelopeVerifier(key)
	if err != nil {
		return Certified{}, err
	}
	if _, err := verifier.Verify(context.Background(), &env); err != nil {
		return Certified{}, fmt.Errorf("not certified: %s is not signed by the certifier's key (key ID %s): %v", filepath.Base(path), key.id, oneLine(err))
	}
	payload, err := env.DecodeB64Payload()
	if err != nil {
		return Certified{}, fmt.Errorf("not certified: %s: %v", filepath.Base(path), err)
	}
	var s intoto.Statement
	if err := protojson.Unmarshal(payload, &s); err != nil || s.PredicateType != CertificationPredicateType || len(s.Subject) != 1 {
		return Certified{}, fmt.Errorf("not certified: %s holds no certifier's statement of one bundle", filepath.Base(path))
	}
	if got := s.Subject[0].GetDigest()["sha256"]; got != digest {
		return Certified{}, fmt.Errorf("not certified: the certifier's statement is about another bundle (sha256 %s, this one %s)", got, digest)
	}
	raw, err := protojson.Marshal(s.Predicate)
	if err != nil {
		return Certified{}, err
	}
	var claim CertificationClaim
	if err := json.Unmarshal(raw, &claim); err != nil {
		return Certified{}, fmt.Errorf("not certified: %s: %v", filepath.Base(path), oneLine(err))
	}
	rerun, suite := claim.Rerun, bundled.Suite
	when := rerun.Date.UTC().Format(time.RFC3339)
	switch {
	case len(claim.NotReproduced) > 0:
		return Certified{}, fmt.Errorf("not certified: the certifier's rerun of %s (key %s) did not reproduce the bundle: %s", when, key.id, strings.Join(claim.NotReproduced, "; "))
	case rerun.Different > 0 || rerun.Same == 0:
		return Certified{}, fmt.Errorf("not certified: the certifier's rerun did not reproduce the bundle (%d same, %d different)", rerun.Same, rerun.Different)
	case rerun.ImageID != bundled.Implementation.ImageID || claim.Implementation.ImageID != bundled.Implementation.ImageID:
		return Certified{}, fmt.Errorf("not certified: the certifier reran image %s, the bundle judged %s", rerun.ImageID, bundled.Implementation.ImageID)
	case rerun.ImageDigest != "" && rerun.ImageDigest != bundled.Implementation.ImageDigest:
		return Certified{}, fmt.Errorf("not certified: the certifier compared repository digest %s, the bundle names %s", rerun.ImageDigest, orNothing(bundled.Implementation.ImageDigest))
	case claim.Result != bundled.Result:
		return Certified{}, fmt.Errorf("not certified: the certifier's statement says %s, the bundle %s", claim.Result, bundled.Result)
	case rerun.Suite.Commit != suite.Commit:
		return Certified{}, fmt.Errorf("not certified: the certifier reran suite commit %s, the bundle's is %s", orNothing(rerun.Suite.Commit), suite.Commit)
	case rerun.Suite.Dirty:
		return Certified{}, errors.New("not certified: the certifier's rerun was built from a tree with uncommitted changes")
	}
	if note, same := CompareBinaries(suite.Binary, rerun.Suite.Binary); !same {
		return Certified{}, fmt.Errorf("not certified: the certifier's statement says %s", note)
	}
	return Certified{KeyID: key.id, Rerun: rerun}, nil
}
