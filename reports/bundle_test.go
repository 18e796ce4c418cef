package reports

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
	"sigs.k8s.io/yaml"

	"github.com/router-conformance/suite/contract"
)

// The files a run leaves that go into its bundle.
var bundleFiles = []string{ConformanceYAML, ConformanceJSON, ReportJSON, JUnitXML, E2ELog, SummaryMD, "failures"}

// goodPublished is the published list the test suite's verifier holds.
func goodPublished() []PublishedSpec {
	specs, _ := FromGinkgo(goodSuite())
	return publish(specs)
}

// testVerifier is of the fixture's suite version and commit (goodMeta).
var testVerifier = verifier{published: goodPublished(), suiteVersion: "v0.3.0", commit: "0123abc"}

// runDir writes the report directory of a run as the suite does, from
// its Ginkgo report and the run record in it: report.json, junit.xml and
// the console (e2e.log) as Ginkgo writes them, the conformance report
// (Build, Write) from the record, and failures/.
func runDir(t *testing.T, g types.Report) string {
	t.Helper()
	dir := t.TempDir()
	writeRun(t, dir, g)
	writeViews(t, dir, g)
	failure := filepath.Join(dir, "failures", "client-tls-refuses", "router")
	if err := os.MkdirAll(failure, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"failures/client-tls-refuses/failure.txt": "refused\n", "failures/client-tls-refuses/router/haproxy.config": "global\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// writeRun writes what Ginkgo writes of a run into dir: report.json,
// junit.xml and its console, e2e.log.
func writeRun(t *testing.T, dir string, g types.Report) {
	t.Helper()
	writeReportJSON(t, dir, g)
	writeRunJUnit(t, dir, g)
	if err := os.WriteFile(filepath.Join(dir, E2ELog), consoleOf(g), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeReportJSON(t *testing.T, dir string, g types.Report) {
	t.Helper()
	j, err := json.Marshal([]types.Report{g})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ReportJSON), j, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeRunJUnit writes junit.xml as the suite does: Ginkgo's, with the
// conformance report's properties.
func writeRunJUnit(t *testing.T, dir string, g types.Report) {
	t.Helper()
	rec, err := ReadRunRecord(g)
	if err != nil {
		t.Fatal(err)
	}
	specs, run := FromGinkgo(g)
	if err := WriteJUnit(g, filepath.Join(dir, JUnitXML), Build(rec.Meta, rec.Claimed, specs, run).JUnitProperties()); err != nil {
		t.Fatal(err)
	}
}

// writeViews writes the conformance report of g as the suite does: built
// from the run record in g.
func writeViews(t *testing.T, dir string, g types.Report) {
	t.Helper()
	rec, err := ReadRunRecord(g)
	if err != nil {
		t.Fatal(err)
	}
	specs, run := FromGinkgo(g)
	if err := Build(rec.Meta, rec.Claimed, specs, run).Write(dir); err != nil {
		t.Fatal(err)
	}
}

// consoleOf is the console Ginkgo's default reporter prints for the run,
// in colour: the banner, each spec, the failures summarized, "Ran N of M
// Specs".
func consoleOf(g types.Report) []byte {
	var b bytes.Buffer
	r := reporters.NewDefaultReporter(types.ReporterConfig{}, &b)
	r.SuiteWillBegin(g)
	for _, s := range g.SpecReports {
		r.DidRun(s)
	}
	r.SuiteDidEnd(g)
	return b.Bytes()
}

// bundleOf is the bundle of a run.
func bundleOf(t *testing.T, g types.Report) string {
	t.Helper()
	return bundleOfDir(t, runDir(t, g))
}

// bundleOfDir bundles a report directory as it is (WriteBundle).
func bundleOfDir(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "bundle.tar.gz")
	if err := writeBundle(dir, out, bundleFiles, goodPublished(), nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// tamper rewrites a bundle's files; resum recomputes SHA256SUMS, as a
// forger would.
func tamper(t *testing.T, bundle string, resum bool, change func(map[string][]byte)) string {
	t.Helper()
	contents, _, err := readBundle(bundle)
	if err != nil {
		t.Fatal(err)
	}
	change(contents)
	if resum {
		contents[SHA256SUMS] = sha256sums(contents)
	}
	data, err := packBundle(contents)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "tampered.tar.gz")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// editGinkgo changes the bundle's report.json.
func editGinkgo(t *testing.T, change func(*types.Report)) func(map[string][]byte) {
	return func(c map[string][]byte) {
		var suites []types.Report
		if err := json.Unmarshal(c[ReportJSON], &suites); err != nil {
			t.Fatal(err)
		}
		change(&suites[0])
		data, err := json.Marshal(suites)
		if err != nil {
			t.Fatal(err)
		}
		c[ReportJSON] = data
	}
}

func TestWriteBundleIsDeterministicAndSumsEveryFile(t *testing.T) {
	dir := runDir(t, goodSuite())
	a, b := filepath.Join(t.TempDir(), "a.tar.gz"), filepath.Join(t.TempDir(), "b.tar.gz")
	for _, out := range []string{a, b} {
		if err := writeBundle(dir, out, bundleFiles, goodPublished(), nil); err != nil {
			t.Fatal(err)
		}
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Errorf("two bundles of one run differ")
	}
	names, contents := untar(t, a)
	want := []string{SHA256SUMS, StatementFile, ConformanceJSON, ConformanceYAML, E2ELog, "failures/client-tls-refuses/failure.txt",
		"failures/client-tls-refuses/router/haproxy.config", JUnitXML, ReportJSON, SpecsJSON, SummaryMD}
	if !slices.Equal(names, want) {
		t.Errorf("entries %v, want %v", names, want)
	}
	var sums strings.Builder
	for _, name := range want[1:] {
		sum := sha256.Sum256(contents[name])
		sums.WriteString(hex.EncodeToString(sum[:]) + "  " + name + "\n")
	}
	if got := string(contents[SHA256SUMS]); got != sums.String() {
		t.Errorf("SHA256SUMS:\n%s\nwant:\n%s", got, sums.String())
	}
	if published, err := parsePublished(contents[SpecsJSON]); err != nil || !sameJSON(published, goodPublished()) {
		t.Errorf("specs.json is not the published list (%v):\n%s", err, contents[SpecsJSON])
	}
	if fromDir, _ := os.ReadFile(filepath.Join(dir, ReportJSON)); !bytes.Equal(contents[ReportJSON], fromDir) {
		t.Errorf("report.json changed in the bundle")
	}
}

// untar lists a bundle's entries in order, with a plain tar reader.
func untar(t *testing.T, file string) ([]string, map[string][]byte) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if gz.Name != "" || !gz.ModTime.IsZero() {
		t.Errorf("gzip header carries %q %v", gz.Name, gz.ModTime)
	}
	tr := tar.NewReader(gz)
	var names []string
	contents := map[string][]byte{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return names, contents
		}
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Mode != 0o644 || hdr.ModTime.Unix() != 0 || hdr.Uid != 0 || hdr.Uname != "" {
			t.Errorf("%s: mode %o, time %v, owner %d %q", hdr.Name, hdr.Mode, hdr.ModTime, hdr.Uid, hdr.Uname)
		}
		names = append(names, hdr.Name)
		contents[hdr.Name], _ = io.ReadAll(tr)
	}
}

func TestWriteBundleRefusals(t *testing.T) {
	dir := runDir(t, goodSuite())
	out := filepath.Join(t.TempDir(), "b.tar.gz")
	for _, tc := range []struct{ file, err string }{
		{SpecsJSON, "bundle: specs.json is written by the bundle itself"},
		{SHA256SUMS, "bundle: SHA256SUMS is written by the bundle itself"},
		{"../secrets", `bundle: "../secrets" is not a path inside the report directory`},
		{"/etc/passwd", `bundle: "/etc/passwd" is not a path inside the report directory`},
	} {
		if err := writeBundle(dir, out, append(slices.Clone(bundleFiles), tc.file), nil, nil); err == nil || err.Error() != tc.err {
			t.Errorf("%s: error %v, want %q", tc.file, err, tc.err)
		}
	}
	if err := writeBundle(dir, out, append(slices.Clone(bundleFiles), "missing.log"), nil, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: error %v", err)
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "failures", "link")); err != nil {
		t.Fatal(err)
	}
	if err := writeBundle(dir, out, bundleFiles, nil, nil); err == nil || err.Error() != "bundle: failures/link is not a regular file" {
		t.Errorf("a link: error %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused bundle was written: %v", err)
	}
}

// A bundle holds every file the verifier holds to report.json: WriteBundle
// refuses to leave one out, or to bundle a run that lacks one.
func TestWriteBundleRefusesABundleWithoutAFileOfTheRun(t *testing.T) {
	const every = "every bundle holds report.json, junit.xml, e2e.log, conformance.yaml, conformance.json, summary.md"
	for _, name := range []string{JUnitXML, E2ELog, ReportJSON, ConformanceJSON} {
		t.Run(name, func(t *testing.T) {
			dir := runDir(t, goodSuite())
			out := filepath.Join(t.TempDir(), "b.tar.gz")
			without := slices.DeleteFunc(slices.Clone(bundleFiles), func(f string) bool { return f == name })
			want := "bundle: " + name + " is not among the files to bundle: " + every
			if err := writeBundle(dir, out, without, nil, nil); err == nil || err.Error() != want {
				t.Errorf("%s left out: error %v\nwant %q", name, err, want)
			}
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			want = "bundle: the report directory lacks " + name + ": " + every
			if err := writeBundle(dir, out, bundleFiles, nil, nil); err == nil || err.Error() != want {
				t.Errorf("%s missing: error %v\nwant %q", name, err, want)
			}
			if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a refused bundle was written: %v", err)
			}
		})
	}
}

func TestVerifyBundleOfAGoodRun(t *testing.T) {
	v, err := testVerifier.verify(bundleOf(t, goodSuite()))
	if err != nil {
		t.Fatalf("a good bundle: %v", err)
	}
	rep := v.Report
	if !rep.Passed() || v.ExitCode() != 0 || rep.Implementation.Project != "acme-router" || len(rep.Features) != len(contract.Features) {
		t.Errorf("report %s %+v", rep.Result, rep.Implementation)
	}
	// A consistent bundle of a failed run verifies: its verdict is failed.
	g := goodSuite()
	setSpec(&g, specRevoked, types.SpecStateFailed, "refused with the wrong alert")
	if v, err := testVerifier.verify(bundleOf(t, g)); err != nil || v.Report.Result != Failed || v.ExitCode() != 2 {
		t.Errorf("a failed run: %v %s", err, v.Report.Result)
	}
	// A claimed feature whose disruptive spec the run skipped (an existing
	// cluster without -allow-disruptive) is honestly not run: partial.
	skipped := goodSuite()
	setSpec(&skipped, specComponent, types.SpecStateSkipped, "disruptive: changes the cluster's Ingress config")
	if v, err := testVerifier.verify(bundleOf(t, skipped)); err != nil || v.Report.Result != Partial || v.ExitCode() != 2 {
		t.Errorf("a run that skipped a claimed feature's spec: %v %s", err, v.Report.Result)
	}
}

func TestVerifyBundleCatchesEveryTampering(t *testing.T) {
	failedRun := goodSuite()
	setSpec(&failedRun, specRevoked, types.SpecStateFailed, "refused with the wrong alert")
	filtered := goodSuite()
	filtered.SuiteConfig.LabelFilter = "!delegation"
	setSpec(&filtered, specDelegation, types.SpecStateSkipped, "")
	programmatic := goodSuite()
	programmatic.SuiteHasProgrammaticFocus = true
	dirty, oldSuite, noContact := goodSuite(), goodSuite(), goodSuite()
	editRecord(&dirty, func(r *RunRecord) { r.Suite.Dirty = true })
	editRecord(&oldSuite, func(r *RunRecord) { r.Suite.Version = "v0.1.9" })
	editRecord(&noContact, func(r *RunRecord) { r.Implementation.Contact = nil })

	good := bundleOf(t, goodSuite())
	notABundle, truncated := filepath.Join(t.TempDir(), "b.tar.gz"), filepath.Join(t.TempDir(), "cut.tar.gz")
	for _, tc := range []struct {
		name   string
		bundle func() string
		reason string
	}{
		{"an edited result in conformance.yaml", func() string {
			return tamper(t, good, true, func(c map[string][]byte) {
				c[ConformanceYAML] = regexp.MustCompile(`(?m)^result: passed$`).ReplaceAll(c[ConformanceYAML], []byte("result: failed"))
			})
		}, "conformance.yaml says failed, report.json gives passed"},
		{"a failed run's conformance.yaml made from doctored specs", func() string {
			return tamper(t, bundleOf(t, failedRun), true, func(c map[string][]byte) {
				specs, run := FromGinkgo(goodSuite())
				_, y, err := Build(goodRecord().Meta, allFeatures(), specs, run).marshal()
				if err != nil {
					t.Fatal(err)
				}
				c[ConformanceYAML] = y
			})
		}, "conformance.yaml says passed, report.json gives failed"},
		{"a spec's ID changed in conformance.yaml", func() string {
			return tamper(t, good, true, func(c map[string][]byte) {
				c[ConformanceYAML] = replaceOnce(t, c[ConformanceYAML], "- "+string(idEdge)+"\n", "- router/everything-served\n")
			})
		}, "feature router: conformance.yaml's specs differ from report.json's"},
		{"a failed spec's text changed in conformance.yaml", func() string {
			return tamper(t, bundleOf(t, failedRun), true, func(c map[string][]byte) {
				c[ConformanceYAML] = replaceOnce(t, c[ConformanceYAML], "name: "+specRevoked+"\n", "name: Client TLS accepts a revoked certificate\n")
			})
		}, "feature client-tls: conformance.yaml's specs differ from report.json's"},
		{"a comment added to conformance.yaml", func() string {
			return tamper(t, good, true, func(c map[string][]byte) {
				c[ConformanceYAML] = append(c[ConformanceYAML], "# certified\n"...)
			})
		}, "conformance.yaml is not what the suite writes for report.json"},
		{"an edited summary.md", func() string {
			return tamper(t, bundleOf(t, failedRun), true, func(c map[string][]byte) {
				c[SummaryMD] = replaceOnce(t, c[SummaryMD], "# Router conformance: FAILED\n", "# Router conformance: PASSED\n")
			})
		}, "summary.md is not what the suite writes for report.json"},
		{"a spec removed from report.json", func() string {
			return tamper(t, good, true, editGinkgo(t, func(r *types.Report) {
				r.SpecReports = slices.DeleteFunc(r.SpecReports, func(s types.SpecReport) bool { return s.FullText() == specHSTS })
			}))
		}, `report.json lacks spec hsts/edge-header-set of the published list`},
		{"a spec added to report.json", func() string {
			return tamper(t, good, true, editGinkgo(t, func(r *types.Report) {
				r.SpecReports = append(r.SpecReports, passed("HSTS per route", "is easy", []string{"hsts"}))
			}))
		}, `report.json has spec hsts/is-easy, which is not in the published list`},
		{"a failing spec moved to an unclaimed feature", func() string {
			return tamper(t, bundleOf(t, failedRun), true, editGinkgo(t, func(r *types.Report) {
				for i, s := range r.SpecReports {
					if s.FullText() == specRevoked {
						r.SpecReports[i].ContainerHierarchyLabels = [][]string{{"delegation"}}
					}
				}
			}))
		}, `spec client-tls/revoked-refused has features [delegation] judging the router in report.json, but [client-tls] judging the router in the published list`},
		{"a spec list that is not this suite's", func() string {
			out := filepath.Join(t.TempDir(), "b.tar.gz")
			published := slices.DeleteFunc(goodPublished(), func(s PublishedSpec) bool { return s.ID == idShard })
			if err := writeBundle(runDir(t, goodSuite()), out, bundleFiles, published, nil); err != nil {
				t.Fatal(err)
			}
			return out
		}, `specs.json lacks spec sharding/own-namespaces-only of the published list of suite v0.3.0`},
		{"a failure injected into a passed test case of junit.xml", func() string {
			return tamper(t, good, true, func(c map[string][]byte) {
				j := string(c[JUnitXML])
				at := strings.Index(j, `<testcase name="[It] `+specEdge)
				end := at + strings.Index(j[at:], ">")
				if !strings.Contains(j[at:end], `status="passed"`) {
					t.Fatalf("the edge spec's test case is not passed: %s", j[at:end])
				}
				if j[end-1] == '/' {
					j = j[:end-1] + `><failure message="injected" type="failed"></failure></testcase>` + j[end+1:]
				} else {
					j = j[:end+1] + `<failure message="injected" type="failed"></failure>` + j[end+1:]
				}
				c[JUnitXML] = []byte(j)
			})
		}, "junit.xml says spec router/edge-served passed, but its test case's elements say otherwise (failure true, error false, skipped false)"},
		{"junit.xml's image property naming another image", func() string {
			return tamper(t, good, true, func(c map[string][]byte) {
				j := string(c[JUnitXML])
				at := strings.Index(j, `name="conformance.implementation.imageID" value="`)
				if at < 0 {
					t.Fatalf("junit.xml has no image ID property:\n%s", j[:min(len(j), 2000)])
				}
				at += len(`name="conformance.implementation.imageID" value="`)
				end := at + strings.Index(j[at:], `"`)
				c[JUnitXML] = []byte(j[:at] + "sha256:" + strings.Repeat("f", 64) + j[end:])
			})
		}, `junit.xml's property conformance.implementation.imageID is "sha256:` + strings.Repeat("f", 64) + `", but report.json gives "sha256:` + strings.Repeat("e", 64) + `"`},
		{"a bad checksum", func() string {
			return tamper(t, good, false, func(c map[string][]byte) { c[SummaryMD] = []byte("# Router conformance: PASSED\n") })
		}, "checksum mismatch: summary.md"},
		{"an unlisted file", func() string {
			return tamper(t, good, false, func(c map[string][]byte) { c["failures/extra.txt"] = []byte("x") })
		}, "failures/extra.txt is in the bundle but not in SHA256SUMS"},
		{"a listed file removed", func() string {
			return tamper(t, good, false, func(c map[string][]byte) { delete(c, E2ELog) })
		}, "SHA256SUMS lists e2e.log, which the bundle lacks"},
		{"no SHA256SUMS", func() string {
			return tamper(t, good, false, func(c map[string][]byte) { delete(c, SHA256SUMS) })
		}, "the bundle has no SHA256SUMS"},
		{"no report.json", func() string {
			return tamper(t, good, true, func(c map[string][]byte) { delete(c, ReportJSON) })
		}, "the bundle lacks report.json"},
		{"no conformance.json", func() string {
			return tamper(t, good, true, func(c map[string][]byte) { delete(c, ConformanceJSON) })
		}, "the bundle lacks conformance.json"},
		{"no run record in report.json", func() string {
			return tamper(t, good, true, editGinkgo(t, dropRecord))
		}, "report.json holds no run record: it was not written by this suite's binary"},
		{"a filtered run", func() string { return bundleOf(t, filtered) },
			`the label filter "!delegation" chose the specs: a certification runs the whole claimed suite (drop FOCUS)`},
		{"a programmatically focused run", func() string { return bundleOf(t, programmatic) },
			`the run was filtered: focus "programmatic focus (FIt, FDescribe...)"`},
		{"a dirty suite", func() string { return bundleOf(t, dirty) },
			"the suite was built from a tree with uncommitted changes (commit 0123abc): commit or stash them"},
		{"another suite version", func() string { return bundleOf(t, oldSuite) },
			"the bundle was made by suite v0.1.9, this verifier is v0.3.0: verify it with the verifier of v0.1.9"},
		{"no implementation contact", func() string { return bundleOf(t, noContact) },
			"implementation: missing contact"},
		{"not a bundle", func() string {
			if err := os.WriteFile(notABundle, []byte("conformance: passed"), 0o644); err != nil {
				t.Fatal(err)
			}
			return notABundle
		}, "bundle: " + notABundle + " is not a whole bundle of make certify (a gzip-compressed tar): gzip: invalid header"},
		{"a truncated bundle (a download cut short)", func() string {
			data, err := os.ReadFile(good)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(truncated, data[:len(data)/2], 0o644); err != nil {
				t.Fatal(err)
			}
			return truncated
		}, "bundle: " + truncated + " is not a whole bundle of make certify (a gzip-compressed tar): unexpected EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := testVerifier.verify(tc.bundle())
			if err == nil || err.Error() != tc.reason {
				t.Errorf("error %v\nwant %q", err, tc.reason)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("the reason is not one line: %q", err)
			}
		})
	}
}

// replaceOnce replaces old, which must occur once, in data.
func replaceOnce(t *testing.T, data []byte, old, replacement string) []byte {
	t.Helper()
	if n := bytes.Count(data, []byte(old)); n != 1 {
		t.Fatalf("%q occurs %d times, not once, in:\n%s", old, n, data)
	}
	return bytes.Replace(data, []byte(old), []byte(replacement), 1)
}

// The verifier compares spec lists by ID: a spec is named by its ID when
// it is missing, added or labelled otherwise, a spec without one is
// refused, and a spec's text, prose that may be reworded, is not
// compared.
func TestVerifyBundleComparesSpecListsByID(t *testing.T) {
	good := bundleOf(t, goodSuite())
	for _, tc := range []struct {
		name   string
		bundle func() string
		reason string
	}{
		{"a spec without an ID added to report.json", func() string {
			return tamper(t, good, true, editGinkgo(t, func(r *types.Report) {
				extra := passed("HSTS per route", "sets the header on reencrypt routes", []string{"hsts"})
				extra.LeafNodeLabels = withoutIDs(extra.LeafNodeLabels)
				r.SpecReports = append(r.SpecReports, extra)
			}))
		}, "report.json has a spec without an ID: it was written by a suite older than v0.3.0"},
		{"a published spec's ID taken off in report.json", func() string {
			return tamper(t, good, true, editGinkgo(t, func(r *types.Report) { dropID(r, specHSTS) }))
		}, "report.json lacks spec hsts/edge-header-set of the published list"},
		{"a published spec's ID changed in report.json", func() string {
			return tamper(t, good, true, editGinkgo(t, func(r *types.Report) {
				s := specNamed(r, specShard)
				s.LeafNodeLabels = append(withoutIDs(s.LeafNodeLabels), idLabel("sharding/every-namespace-served"))
			}))
		}, "report.json lacks spec sharding/own-namespaces-only of the published list"},
		{"every ID taken off in report.json", func() string {
			return tamper(t, good, true, editGinkgo(t, func(r *types.Report) {
				for _, name := range []string{specEdge, specBadHost, specHSTS, specHeaders, specShard, specPolicy, specRevoked,
					specComponent, specDelegation, specClusterNode} {
					dropID(r, name)
				}
			}))
		}, "report.json lacks spec client-tls/revoked-refused of the published list"},
		{"a bundled specs.json without IDs", func() string {
			out := filepath.Join(t.TempDir(), "b.tar.gz")
			published := goodPublished()
			for i := range published {
				published[i].ID = ""
			}
			if err := writeBundle(runDir(t, goodSuite()), out, bundleFiles, published, nil); err != nil {
				t.Fatal(err)
			}
			return out
		}, "specs.json lacks spec client-tls/revoked-refused of the published list of suite v0.3.0"},
		{"a bundled specs.json with an ID of its own", func() string {
			out := filepath.Join(t.TempDir(), "b.tar.gz")
			published := append(goodPublished(), PublishedSpec{ID: "hsts/is-easy", Name: "HSTS per route is easy",
				Features: []contract.Feature{contract.FeatureHSTS}, Judges: contract.JudgesRouter})
			if err := writeBundle(runDir(t, goodSuite()), out, bundleFiles, published, nil); err != nil {
				t.Fatal(err)
			}
			return out
		}, "specs.json has spec hsts/is-easy, which is not in the published list of suite v0.3.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := testVerifier.verify(tc.bundle()); err == nil || err.Error() != tc.reason {
				t.Errorf("error %v\nwant %q", err, tc.reason)
			}
		})
	}

	// A spec reworded since the list was published is the same spec: the
	// bundle verifies, whether the spec passed or failed.
	reworded := goodSuite()
	reword(&reworded, specHSTS, "sends Strict-Transport-Security on edge routes")
	if v, err := testVerifier.verify(bundleOf(t, reworded)); err != nil || !v.Report.Passed() {
		t.Errorf("a reworded spec: %v %s", err, v.Report.Result)
	}
	setSpec(&reworded, "HSTS per route sends Strict-Transport-Security on edge routes", types.SpecStateFailed, "no header")
	v, err := testVerifier.verify(bundleOf(t, reworded))
	if err != nil || v.Report.Result != Failed {
		t.Fatalf("a reworded spec that failed: %v %s", err, v.Report.Result)
	}
	hsts, _ := v.Report.Feature(contract.FeatureHSTS)
	if want := []NamedSpec{{idHSTS, "HSTS per route sends Strict-Transport-Security on edge routes", "no header"}}; !reflect.DeepEqual(hsts.Router.Failed, want) {
		t.Errorf("hsts failed %+v, want %+v", hsts.Router.Failed, want)
	}
}

// A bundle of another suite version is named as such, before anything
// its version may do otherwise (its schema, its files, its spec list) or
// what else is wrong with it: the certifier needs that version's
// verifier. The version is the run record's; a bundle of a suite before
// the record has none, and its conformance.yaml names the version.
func TestVerifyBundleOfAnotherSuiteVersionNamesBothVersions(t *testing.T) {
	const wrongVersion = "the bundle was made by suite v0.2.0-dev, this verifier is v0.3.0: verify it with the verifier of v0.2.0-dev"
	good := bundleOf(t, goodSuite())
	// editReport changes the bundle's conformance.yaml as a Report.
	editReport := func(change func(*Report)) func(map[string][]byte) {
		return func(c map[string][]byte) {
			var rep Report
			if err := yaml.UnmarshalStrict(c[ConformanceYAML], &rep); err != nil {
				t.Fatal(err)
			}
			change(&rep)
			_, y, err := rep.marshal()
			if err != nil {
				t.Fatal(err)
			}
			c[ConformanceYAML] = y
		}
	}
	oldSuite := func(rep *Report) {
		rep.Suite.Version = "v0.2.0-dev"
		rep.APIVersion = "conformance.router-conformance.io/v1alpha2"
	}
	// oldBundle is a bundle as suite v0.2.0-dev wrote it: no run record,
	// no conformance.json.
	oldBundle := func(c map[string][]byte) {
		editReport(oldSuite)(c)
		editGinkgo(t, dropRecord)(c)
		delete(c, ConformanceJSON)
	}
	dirtyOld := goodSuite()
	editRecord(&dirtyOld, func(r *RunRecord) { r.Suite.Version, r.Suite.Dirty = "v0.2.0-dev", true })
	for _, tc := range []struct {
		name   string
		bundle func() string
		reason string
	}{
		{"suite v0.2.0-dev, schema v1alpha2", func() string {
			return tamper(t, good, true, oldBundle)
		}, wrongVersion},
		{"a whole bundle of suite v0.2.0-dev: no IDs in report.json and specs.json", func() string {
			return tamper(t, good, true, func(c map[string][]byte) {
				oldBundle(c)
				editGinkgo(t, func(r *types.Report) {
					for i := range r.SpecReports {
						r.SpecReports[i].LeafNodeLabels = withoutIDs(r.SpecReports[i].LeafNodeLabels)
					}
				})(c)
				published := goodPublished()
				for i := range published {
					published[i].ID = ""
				}
				specs, err := json.MarshalIndent(published, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				c[SpecsJSON] = specs
			})
		}, wrongVersion},
		{"suite v0.2.0-dev built from a dirty tree", func() string { return bundleOf(t, dirtyOld) }, wrongVersion},
		{"this suite version, schema v1alpha2", func() string {
			return tamper(t, good, true, editReport(func(rep *Report) { rep.APIVersion = "conformance.router-conformance.io/v1alpha2" }))
		}, "conformance.yaml is RouterConformanceReport conformance.router-conformance.io/v1alpha2, not RouterConformanceReport conformance.router-conformance.io/v1alpha3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := testVerifier.verify(tc.bundle()); err == nil || err.Error() != tc.reason {
				t.Errorf("error %v\nwant %q", err, tc.reason)
			}
		})
	}
}

func TestPublishedSpecsParse(t *testing.T) {
	// The embedded list must parse (the suite's test keeps it current).
	if _, err := parsePublished(specsJSON); err != nil {
		t.Fatal(err)
	}
	if _, err := parsePublished([]byte(`{"name": 1}`)); err == nil || !strings.HasPrefix(err.Error(), "specs.json: ") {
		t.Errorf("a broken list: %v", err)
	}
}
