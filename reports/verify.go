package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
	"sigs.k8s.io/yaml"

	"github.com/router-conformance/suite/contract"
)

// VerifyOptions are what a certifier decides about the bundles it
// accepts.
type VerifyOptions struct {
	// AllowDev accepts a bundle of a development build of the suite (a
	// version with a pre-release part: DevVersion); its line says so.
	AllowDev bool
	// Commit is the suite commit the bundle must have been made by; ""
	// is this verifier's own build's (SuiteCommit).
	Commit string
	// Version is the suite version the bundle must have been made by; ""
	// is this verifier's compiled one (SuiteVersion). A checkout of a
	// release tag is that release, though compiled as its development
	// version: the run path passes the version git describes.
	Version string
	// CertifierKey, when given, must have signed a certifier's statement
	// beside the bundle (checkCertification): the line then says
	// certified; without it a bundle that checks is only consistent.
	CertifierKey *Key
	// Key, when given, must have signed the bundle's attestation (its
	// DSSE envelope): who made it, as the certifier knows their key.
	Key *Key
}

// Verified is a bundle that verified: its verdict, derived from its
// report.json, and what the verdict judged.
type Verified struct {
	// Report is the verdict the suite writes for the bundle's report.json
	// (the bundle's conformance.yaml is exactly it).
	Report Report
	// DevBuild: the suite was a development build, accepted with
	// AllowDev.
	DevBuild bool
	// RouterSpecs and PlatformSpecs count the specs of the claimed
	// features (the harness apart) that ran, by what they judge.
	RouterSpecs, PlatformSpecs int
	// SignedBy is the ID of the key whose signature of the attestation
	// verified ("" when no key was given).
	SignedBy string
	// Certified is the certifier's statement of a matching rerun that
	// verified (nil when no certifier key was given: the bundle is then
	// consistent, not certified).
	Certified *Certified
	// Digest is the sha256 of the bundle file as the verifier read it,
	// once: what every check and the certifier's statement are about.
	Digest string
	// Ginkgo and Record are the bundle's report.json: Ginkgo's report and
	// the suite's record of the run (reproduction reruns what it records).
	Ginkgo types.Report
	Record RunRecord
}

// Verify checks a bundle as a certifier does. The error is the one line
// that says why the bundle is refused: incomplete, inconsistent, not
// certifiable, or made by another build of the suite. Every such check
// holds before the verdict is looked at, so a bundle that verifies is a
// consistent run's, whatever its verdict (Verified.ExitCode): its files
// agree with each other and with this suite. Files alone cannot tell a
// consistent forgery from a run; only a certifier's rerun certifies
// (CertifierKey, checkCertification).
//
// The checks, in order: the checksums (no file missing or unlisted); the
// suite that ran is this verifier's module and version (by the run record
// the suite wrote into report.json, ReadRunRecord); every file of a
// bundle present, and the record; the build named its commit, was clean,
// is this verifier's commit, and a release unless AllowDev; the
// certification rules (Certifiable) on the record
// and report.json's Ginkgo configuration; every spec ran once and no
// filter chose them; specs.json and report.json hold exactly the
// published specs; no spec passed in zero time, and every spec of an
// unclaimed feature was skipped by the suite for it; junit.xml and the
// console (e2e.log) say of every spec what report.json says;
// conformance.yaml, conformance.json and summary.md are exactly what the
// suite writes for report.json; every spec of a claimed feature ran
// (unless the run ended in error).
//
// The bundle is not signed: the checks prove it complete and consistent
// with itself and with the suite's build, not who made it.
func Verify(path string, o VerifyOptions) (Verified, error) {
	commit := o.Commit
	if commit == "" {
		commit = SuiteCommit
	}
	version := o.Version
	if version == "" {
		version = SuiteVersion
	}
	return verifier{published: PublishedSpecs(), suiteVersion: version, commit: commit, allowDev: o.AllowDev, key: o.Key, certifierKey: o.CertifierKey}.verify(path)
}

// verifier holds what the bundle is checked against: this suite's spec
// list, version and commit (tests set their own), and whether a
// development build is accepted.
type verifier struct {
	published    []PublishedSpec
	suiteVersion string
	commit       string
	allowDev     bool
	key          *Key
	certifierKey *Key
}

func (v verifier) verify(file string) (Verified, error) {
	contents, digest, err := readBundle(file)
	if err != nil {
		return Verified{}, fmt.Errorf("bundle: %w", err)
	}
	if err := checkSums(contents); err != nil {
		return Verified{}, err
	}
	g, record, recordErr := readRecord(contents)
	// The suite's version first: a bundle of another version has another
	// schema, other files and another spec list, and the line should say
	// which verifier it needs.
	if s, ok := bundleSuite(contents, record, recordErr); ok {
		if err := v.checkSuite(s); err != nil {
			return Verified{}, err
		}
	}
	for _, name := range bundleRequired {
		if _, ok := contents[name]; !ok {
			return Verified{}, fmt.Errorf("the bundle lacks %s", name)
		}
	}
	if recordErr != nil {
		return Verified{}, recordErr
	}
	if err := v.checkBuild(record.Suite); err != nil {
		return Verified{}, err
	}
	if _, err := contract.ParseRelease(string(record.OpenShiftRelease)); err != nil {
		return Verified{}, fmt.Errorf("the run was judged against OpenShift %q: %v", record.OpenShiftRelease, err)
	}

	// The run: certifiable, every spec once, no filter.
	specs, run := FromGinkgo(g)
	derived := Build(record.Meta, record.Claimed, specs, run)
	if err := certifiable(g, record, derived.Result); err != nil {
		return Verified{}, err
	}
	if err := oneAttemptEach(g, record.Options); err != nil {
		return Verified{}, err
	}
	if run.Filtered() {
		return Verified{}, fmt.Errorf("the run was filtered: %s", run.Filters())
	}

	// report.json's specs: the published ones, as a run leaves them.
	bundled, err := parsePublished(contents[SpecsJSON])
	if err != nil {
		return Verified{}, fmt.Errorf("%v", oneLine(err))
	}
	if err := sameSpecs(bundled, v.published, SpecsJSON, "the published list of suite "+v.suiteVersion, false); err != nil {
		return Verified{}, err
	}
	// A run that ended in error reports only the specs it reached (none,
	// when a parallel set-up failed): its verdict is error whatever it
	// lacks, and it may hold nothing the list does not.
	if err := sameSpecs(publish(specs), v.published, ReportJSON, "the published list", run.Error); err != nil {
		return Verified{}, err
	}
	if err := specsAsRun(specs, record.Claimed, run); err != nil {
		return Verified{}, err
	}

	// The run's other records agree with report.json, spec by spec.
	if err := checkJUnit(contents[JUnitXML], specs, g); err != nil {
		return Verified{}, err
	}
	if err := checkConsole(contents[E2ELog], g, specs); err != nil {
		return Verified{}, err
	}

	// The views are exactly what the suite writes for report.json.
	if err := checkViews(contents, derived); err != nil {
		return Verified{}, err
	}
	if err := checkJUnitProperties(contents[JUnitXML], derived.JUnitProperties()); err != nil {
		return Verified{}, err
	}
	signedBy, err := v.checkAttestation(contents, derived)
	if err != nil {
		return Verified{}, err
	}
	out := verified(derived, DevVersion(record.Suite.Version))
	out.SignedBy, out.Ginkgo, out.Record, out.Digest = signedBy, g, record, digest
	if v.certifierKey != nil {
		// The certifier is not the vendor: a key that signed the bundle's
		// attestation certifies nothing of it.
		if envelope, signed := contents[EnvelopeFile]; signed && checkEnvelope(envelope, contents[StatementFile], v.certifierKey) == nil {
			return Verified{}, fmt.Errorf("not certified: the certifier's key (key ID %s) signed the bundle's attestation too: a bundle is certified by a rerun of someone other than who made it", v.certifierKey.id)
		}
		certified, err := checkCertification(file, digest, v.certifierKey, derived)
		if err != nil {
			return Verified{}, err
		}
		out.Certified = &certified
	}
	return out, nil
}

// readRecord reads report.json (one Ginkgo suite) and the suite's run
// record in it.
func readRecord(contents map[string][]byte) (types.Report, RunRecord, error) {
	data, ok := contents[ReportJSON]
	if !ok {
		return types.Report{}, RunRecord{}, fmt.Errorf("the bundle lacks %s", ReportJSON)
	}
	var suites []types.Report
	if err := json.Unmarshal(data, &suites); err != nil {
		return types.Report{}, RunRecord{}, fmt.Errorf("%s: %v", ReportJSON, oneLine(err))
	}
	if len(suites) != 1 {
		return types.Report{}, RunRecord{}, fmt.Errorf("%s holds %d suites, not 1", ReportJSON, len(suites))
	}
	record, err := ReadRunRecord(suites[0])
	if err != nil {
		return suites[0], RunRecord{}, errors.New(oneLine(err))
	}
	return suites[0], record, nil
}

// bundleSuite is the suite build that made the bundle: the run record's
// or, in a bundle without one (a suite before the record), what its
// conformance.yaml says; false when neither says.
func bundleSuite(contents map[string][]byte, record RunRecord, recordErr error) (Suite, bool) {
	if recordErr == nil {
		return record.Suite, true
	}
	var peek struct {
		Suite Suite `json:"suite"`
	}
	if err := yaml.Unmarshal(contents[ConformanceYAML], &peek); err != nil || peek.Suite.Version == "" {
		return Suite{}, false
	}
	return peek.Suite, true
}

// checkSuite: the bundle is of this verifier's module and version.
func (v verifier) checkSuite(s Suite) error {
	switch {
	case s.Module != SuiteModule:
		return fmt.Errorf("the suite is %s, not %s", s.Module, SuiteModule)
	case s.Version != v.suiteVersion:
		return fmt.Errorf("the bundle was made by suite %s, this verifier is %s: verify it with the verifier of %s", s.Version, v.suiteVersion, s.Version)
	}
	return nil
}

// checkBuild: the suite build names its commit and was clean
// (CertifiableBuild), is the build of this verifier's commit, and is a
// release unless development builds are allowed.
func (v verifier) checkBuild(s Suite) error {
	if err := CertifiableBuild(s); err != nil {
		return err
	}
	switch {
	case v.commit == "" || v.commit == "unknown":
		return fmt.Errorf("the bundle was made by suite commit %s, this verifier names no commit: build it from a checkout of %s with the suite's LDFLAGS (reports.SuiteCommit)", s.Commit, s.Commit)
	case s.Commit != v.commit:
		return fmt.Errorf("the bundle was made by suite commit %s, this verifier was built from %s: verify it with the verifier built from %s", s.Commit, v.commit, s.Commit)
	case DevVersion(s.Version) && !v.allowDev:
		return fmt.Errorf("the bundle was made by suite %s, which is a development build: verify it with -allow-dev to accept it", s.Version)
	}
	return nil
}

// certifiable applies the certification rules to the run record and
// report.json's Ginkgo configuration. A run that judged the router names
// its image by ID; a run that ended in error before the router image was
// known (the record names no image ID) is held to the rules as the suite
// held it before the image was known: the image ID, and the version that
// may come from the image, are not required of it.
func certifiable(g types.Report, record RunRecord, result Result) error {
	c := record.Certification(g.SuiteConfig)
	c.ImageKnown = false
	if err := Certifiable(c); err != nil {
		return err
	}
	if result == Error && record.Implementation.ImageID == "" {
		return nil
	}
	if record.Implementation.Image == "" && record.Implementation.ImageID == "" {
		return errors.New("the run record names no router image: a run that judged a router names its image by ID")
	}
	c.ImageKnown = true
	return Certifiable(c)
}

// specsAsRun: what only a run that ran its specs leaves in report.json.
// No spec passed in zero time (a dry run, a report written by hand), and
// every spec of a feature the run does not claim was skipped by the suite
// for that reason (or never started, in a run that ended in error).
func specsAsRun(specs []SpecResult, claimed []contract.Feature, run RunOutcome) error {
	sorted := slices.SortedFunc(slices.Values(specs), func(a, b SpecResult) int { return strings.Compare(string(a.ID), string(b.ID)) })
	for _, s := range sorted {
		if s.State == Passed && s.Duration <= 0 {
			return fmt.Errorf("spec %s passed in zero time: no run of it is recorded in %s", s.ID, ReportJSON)
		}
	}
	for _, s := range sorted {
		features := contract.FeaturesOf(s.Labels)
		if len(features) == 0 || slices.Contains(claimed, features[0]) {
			continue
		}
		var want string
		for _, f := range features {
			if !slices.Contains(claimed, f) {
				want = NeedsFeatureReason(f)
				break
			}
		}
		switch {
		case s.State != Skipped:
			return fmt.Errorf("spec %s of unclaimed feature %s %s: the suite skips every spec of a feature the run does not claim", s.ID, features[0], s.State)
		case s.Reason == want, s.Reason == ReasonPending, run.Error && s.Reason == ReasonNeverStarted:
		default:
			return fmt.Errorf("spec %s of unclaimed feature %s was skipped with %q, not the suite's %q", s.ID, features[0], s.Reason, want)
		}
	}
	return nil
}

// NeedsFeatureReason is the suite's Skip message for a spec that needs a
// feature the run does not claim (framework.SkipUnrunnable): the verifier
// holds every spec of an unclaimed feature to it.
func NeedsFeatureReason(f contract.Feature) string {
	return "needs feature " + string(f) + ", which this run does not claim: reported as unsupported"
}

// sameSpecs compares a spec list with the published one by ID, as
// multisets: the first spec missing, added or labelled otherwise is
// named. Texts are prose, not compared.
func sameSpecs(got, published []PublishedSpec, gotName, publishedName string, partial bool) error {
	count := func(specs []PublishedSpec) map[contract.SpecID]int {
		m := map[contract.SpecID]int{}
		for _, s := range specs {
			m[s.ID]++
		}
		return m
	}
	g, p := count(got), count(published)
	for _, id := range slices.Sorted(maps.Keys(p)) {
		if g[id] < p[id] && !partial {
			return fmt.Errorf("%s lacks spec %s of %s", gotName, id, publishedName)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(g)) {
		switch {
		case id == "" && g[id] > p[id]:
			return fmt.Errorf("%s has a spec without an ID: it was written by a suite older than v0.3.0", gotName)
		case g[id] > p[id]:
			return fmt.Errorf("%s has spec %s, which is not in %s", gotName, id, publishedName)
		}
	}
	byID := map[contract.SpecID]PublishedSpec{}
	for _, s := range published {
		byID[s.ID] = s
	}
	for _, s := range got {
		want := byID[s.ID]
		if !slices.Equal(s.Features, want.Features) || s.Judges != want.Judges {
			return fmt.Errorf("spec %s has features %v judging the %s in %s, but %v judging the %s in %s",
				s.ID, s.Features, s.Judges, gotName, want.Features, want.Judges, publishedName)
		}
		if !slices.Equal(s.Changes, want.Changes) {
			return fmt.Errorf("spec %s is gated by the release changes %v in %s, but by %v in %s", s.ID, s.Changes, gotName, want.Changes, publishedName)
		}
	}
	return nil
}

// checkViews: conformance.yaml, conformance.json and summary.md are what
// the suite writes for the derived report (Report.Write), byte for byte;
// the first that is not is named, with its first difference when it
// parses.
func checkViews(contents map[string][]byte, derived Report) error {
	views, err := derived.views()
	if err != nil {
		return err
	}
	for _, w := range views {
		if !bytes.Equal(contents[w.name], w.data) {
			return viewDiffers(w.name, contents[w.name], derived)
		}
	}
	return nil
}

// viewDiffers says how a bundle's conformance.yaml or conformance.json
// differs from the report the suite writes for report.json.
func viewDiffers(name string, data []byte, derived Report) error {
	generic := fmt.Errorf("%s is not what the suite writes for %s", name, ReportJSON)
	var stated Report
	var err error
	switch name {
	case ConformanceYAML:
		err = yaml.UnmarshalStrict(data, &stated)
	case ConformanceJSON:
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err = dec.Decode(&stated)
	default:
		return generic
	}
	if err != nil {
		return fmt.Errorf("%s: %v", name, oneLine(err))
	}
	switch {
	case stated.APIVersion != derived.APIVersion || stated.Kind != derived.Kind:
		return fmt.Errorf("%s is %s %s, not %s %s", name, stated.Kind, stated.APIVersion, derived.Kind, derived.APIVersion)
	case !slices.Equal(stated.Claimed, derived.Claimed):
		return fmt.Errorf("%s claims %s, the run record in %s %s: %s is a view of the record, never an input",
			name, featureList(stated.Claimed), ReportJSON, featureList(derived.Claimed), name)
	case !sameJSON(stated.Implementation, derived.Implementation):
		return fmt.Errorf("%s's implementation differs from the run record's in %s", name, ReportJSON)
	case !sameJSON(stated.Suite, derived.Suite):
		return fmt.Errorf("%s's suite differs from the run record's in %s", name, ReportJSON)
	}
	if err := sameVerdict(name, stated, derived); err != nil {
		return err
	}
	return generic
}

// featureList is "[router, hsts]" ("[]" when none).
func featureList(features []contract.Feature) string {
	return "[" + joinFeatures(features) + "]"
}

// sameVerdict compares a stated report with the one derived from
// report.json, and names the first difference.
func sameVerdict(name string, stated, derived Report) error {
	if stated.Result != derived.Result {
		return fmt.Errorf("%s says %s, %s gives %s", name, stated.Result, ReportJSON, derived.Result)
	}
	if stated.Reason != derived.Reason {
		return fmt.Errorf("%s gives the reason %q, %s %q", name, stated.Reason, ReportJSON, derived.Reason)
	}
	if !sameJSON(stated.Run, derived.Run) {
		return fmt.Errorf("%s's run outcome differs from %s's", name, ReportJSON)
	}
	for _, d := range derived.Features {
		s, ok := stated.Feature(d.Feature)
		switch {
		case !ok:
			return fmt.Errorf("%s lacks feature %s", name, d.Feature)
		case s.Result != d.Result:
			return fmt.Errorf("feature %s: %s says %s, %s gives %s", d.Feature, name, s.Result, ReportJSON, d.Result)
		case !sameJSON(s, d):
			return fmt.Errorf("feature %s: %s's specs differ from %s's", d.Feature, name, ReportJSON)
		}
	}
	if !sameJSON(stated, derived) {
		return fmt.Errorf("%s differs from the report re-derived from %s", name, ReportJSON)
	}
	return nil
}

func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// oneLine keeps a parse error on the verifier's one line.
func oneLine(err error) string {
	return firstLine(err.Error())
}
