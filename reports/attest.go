package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	testresult "github.com/in-toto/attestation/go/predicates/test_result/v0"
	intoto "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// The bundle's attestation: an in-toto Statement v1 with the test-result
// predicate, whose subject is the router image and which names the suite
// build, so that supply-chain tooling reads a run as it reads any other
// attestation; signed, a DSSE envelope of it (sign.go).
const (
	StatementFile = "attestation.intoto.json"
	// TestResultPredicate is in-toto's test-result predicate.
	TestResultPredicate = "https://in-toto.io/attestation/test-result/v0.1"
	// SuiteDescriptorName names the suite build among the predicate's
	// configuration.
	SuiteDescriptorName = SuiteModule
)

// Statement is the run's attestation, derived from its report (as the
// verifier derives it again): the subject is the router image (its
// repository digest, else its content ID), the predicate's result PASSED
// only for a passed run, its configuration the suite build (commit,
// version, profile, claims) and the published spec list (specs.json by
// digest), its tests the spec IDs by outcome.
func Statement(r Report, specsJSON []byte) (*intoto.Statement, error) {
	digest := r.Implementation.ImageDigest
	if digest == "" {
		digest = r.Implementation.ImageID
	}
	algo, hexDigest, ok := strings.Cut(digest, ":")
	if !ok || algo != "sha256" || hexDigest == "" {
		return nil, fmt.Errorf("attestation: the router image has no sha256 digest or ID (%q): the run judged no image by content", digest)
	}
	claims := make([]any, len(r.Claimed))
	for i, f := range r.Claimed {
		claims[i] = string(f)
	}
	suiteNotes, err := structpb.NewStruct(map[string]any{
		"version": r.Suite.Version, "dirty": r.Suite.Dirty, "profile": r.Profile, "openshiftRelease": string(r.OpenShiftRelease), "platform": r.Platform, "claimed": claims,
	})
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(specsJSON)
	result := &testresult.TestResult{
		Result: "FAILED",
		Configuration: []*intoto.ResourceDescriptor{
			{Name: SuiteDescriptorName, Digest: map[string]string{"gitCommit": r.Suite.Commit}, Annotations: suiteNotes},
			{Name: SpecsJSON, Digest: map[string]string{"sha256": hex.EncodeToString(sum[:])}},
		},
	}
	if r.Passed() {
		result.Result = "PASSED"
	}
	for _, f := range r.Features {
		for _, c := range []SpecCounts{f.Router, f.Platform} {
			for _, id := range c.Passed {
				result.PassedTests = append(result.PassedTests, string(id))
			}
			for _, s := range c.Failed {
				result.FailedTests = append(result.FailedTests, string(s.ID))
			}
		}
		for _, s := range f.Flaked {
			result.WarnedTests = append(result.WarnedTests, string(s.ID))
		}
	}
	predicate, err := toStruct(result)
	if err != nil {
		return nil, err
	}
	s := &intoto.Statement{
		Type:          intoto.StatementTypeUri,
		Subject:       []*intoto.ResourceDescriptor{{Name: r.Implementation.Image, Digest: map[string]string{algo: hexDigest}}},
		PredicateType: TestResultPredicate,
		Predicate:     predicate,
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("attestation: %w", err)
	}
	return s, nil
}

// toStruct is a predicate as the Statement carries it.
func toStruct(m proto.Message) (*structpb.Struct, error) {
	data, err := protojson.Marshal(m)
	if err != nil {
		return nil, err
	}
	var s structpb.Struct
	return &s, protojson.Unmarshal(data, &s)
}

// MarshalStatement is the Statement as the bundle holds it (JSON).
func MarshalStatement(s *intoto.Statement) ([]byte, error) {
	data, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(s)
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// checkStatement: the bundle's Statement says what the run says
// (compared as messages: protojson's spacing is not stable).
func checkStatement(data []byte, derived Report, specsJSON []byte) error {
	var got intoto.Statement
	if err := protojson.Unmarshal(data, &got); err != nil {
		return fmt.Errorf("%s: %v", StatementFile, oneLine(err))
	}
	want, err := Statement(derived, specsJSON)
	if err != nil {
		return err
	}
	if !proto.Equal(&got, want) {
		return fmt.Errorf("%s does not say what report.json says (subject, result, suite build or tests differ)", StatementFile)
	}
	return nil
}

// attest adds the run's Statement to a bundle's contents, and with a key
// its DSSE envelope. A run that judged no image by content (its set-up
// failed first) has nothing to attest: a key then is an error.
func attest(contents map[string][]byte, key *Key) error {
	var r Report
	if err := json.Unmarshal(contents[ConformanceJSON], &r); err != nil {
		return fmt.Errorf("%s: %v", ConformanceJSON, err)
	}
	if r.Implementation.ImageDigest == "" && r.Implementation.ImageID == "" {
		if key != nil {
			return errors.New("nothing to sign: the run judged no router image by content")
		}
		return nil
	}
	s, err := Statement(r, contents[SpecsJSON])
	if err != nil {
		return err
	}
	data, err := MarshalStatement(s)
	if err != nil {
		return err
	}
	contents[StatementFile] = data
	if key != nil {
		env, err := SignStatement(data, key)
		if err != nil {
			return err
		}
		contents[EnvelopeFile] = env
	}
	return nil
}

// checkAttestation: a run that judged an image by content carries its
// Statement, which says what report.json says; a DSSE envelope, when
// there is one, signs exactly that Statement; with the verifier's key, a
// signature by it is required. It returns the key ID that signed.
func (v verifier) checkAttestation(contents map[string][]byte, derived Report) (string, error) {
	statement, ok := contents[StatementFile]
	judged := derived.Implementation.ImageDigest != "" || derived.Implementation.ImageID != ""
	switch {
	case !ok && judged:
		return "", fmt.Errorf("the bundle lacks %s", StatementFile)
	case ok:
		if err := checkStatement(statement, derived, contents[SpecsJSON]); err != nil {
			return "", err
		}
	}
	envelope, signed := contents[EnvelopeFile]
	switch {
	case !signed && v.key != nil:
		return "", fmt.Errorf("the bundle is not signed (no %s): a key was given, make certify SIGN_KEY=<key> signs it", EnvelopeFile)
	case signed:
		if err := checkEnvelope(envelope, statement, v.key); err != nil {
			return "", err
		}
	}
	if v.key == nil {
		return "", nil
	}
	return v.key.id, nil
}
