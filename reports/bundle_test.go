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
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
)

// The files a run leaves that go into its bundle.
var bundleFiles = []string{ConformanceYAML, ReportJSON, "junit.xml", "e2e.log", SummaryMD, "failures"}

// goodPublished is the published list the test suite's verifier holds.
func goodPublished() []PublishedSpec {
	specs, _ := FromGinkgo(goodSuite())
	return publish(specs)
}

var testVerifier = verifier{published: goodPublished(), suiteVersion: "v0.2.0"}

// runDir writes the report directory of a run as the suite does: Ginkgo's
// report.json and junit.xml, the conformance report, a log, failures/.
func runDir(t *testing.T, g types.Report, meta Meta) string {
	t.Helper()
	dir := t.TempDir()
	specs, run := FromGinkgo(g)
	if err := Build(meta, allFeatures(), specs, run).Write(dir); err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal([]types.Report{g})
	if err != nil {
		t.Fatal(err)
	}
	failure := filepath.Join(dir, "failures", "client-tls-refuses", "router")
	if err := os.MkdirAll(failure, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		ReportJSON: string(j), "junit.xml": "<testsuites></testsuites>\n", "e2e.log": "Ran 10 of 10 Specs\n",
		"failures/client-tls-refuses/failure.txt": "refused\n", "failures/client-tls-refuses/router/haproxy.config": "global\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// bundleOf is the bundle of a run.
func bundleOf(t *testing.T, g types.Report, meta Meta) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "bundle.tar.gz")
	if err := writeBundle(runDir(t, g, meta), out, bundleFiles, goodPublished()); err != nil {
		t.Fatal(err)
	}
	return out
}

// tamper rewrites a bundle's files; resum recomputes SHA256SUMS, as a
// forger would.
func tamper(t *testing.T, bundle string, resum bool, change func(map[string][]byte)) string {
	t.Helper()
	contents, err := readBundle(bundle)
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
	dir := runDir(t, goodSuite(), goodMeta())
	a, b := filepath.Join(t.TempDir(), "a.tar.gz"), filepath.Join(t.TempDir(), "b.tar.gz")
	for _, out := range []string{a, b} {
		if err := writeBundle(dir, out, bundleFiles, goodPublished()); err != nil {
			t.Fatal(err)
		}
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Errorf("two bundles of one run differ")
	}
	names, contents := untar(t, a)
	want := []string{SHA256SUMS, ConformanceYAML, "e2e.log", "failures/client-tls-refuses/failure.txt",
		"failures/client-tls-refuses/router/haproxy.config", "junit.xml", ReportJSON, SpecsJSON, SummaryMD}
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
	dir := runDir(t, goodSuite(), goodMeta())
	out := filepath.Join(t.TempDir(), "b.tar.gz")
	for _, tc := range []struct{ file, err string }{
		{SpecsJSON, "bundle: specs.json is written by the bundle itself"},
		{SHA256SUMS, "bundle: SHA256SUMS is written by the bundle itself"},
		{"../secrets", `bundle: "../secrets" is not a path inside the report directory`},
		{"/etc/passwd", `bundle: "/etc/passwd" is not a path inside the report directory`},
	} {
		if err := writeBundle(dir, out, []string{ConformanceYAML, tc.file}, nil); err == nil || err.Error() != tc.err {
			t.Errorf("%s: error %v, want %q", tc.file, err, tc.err)
		}
	}
	if err := writeBundle(dir, out, []string{"missing.log"}, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: error %v", err)
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "failures", "link")); err != nil {
		t.Fatal(err)
	}
	if err := writeBundle(dir, out, []string{"failures"}, nil); err == nil || err.Error() != "bundle: failures/link is not a regular file" {
		t.Errorf("a link: error %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused bundle was written: %v", err)
	}
}

func TestVerifyBundleOfAGoodRun(t *testing.T) {
	rep, err := testVerifier.verify(bundleOf(t, goodSuite(), goodMeta()))
	if err != nil {
		t.Fatalf("a good bundle: %v", err)
	}
	if !rep.Passed() || rep.Implementation.Project != "acme-router" || len(rep.Features) != len(contract.Features) {
		t.Errorf("report %s %+v", rep.Result, rep.Implementation)
	}
	// A consistent bundle of a failed run verifies: its verdict is failed.
	g := goodSuite()
	setSpec(&g, specRevoked, types.SpecStateFailed, "refused with the wrong alert")
	if rep, err := testVerifier.verify(bundleOf(t, g, goodMeta())); err != nil || rep.Result != Failed || rep.Passed() {
		t.Errorf("a failed run: %v %s", err, rep.Result)
	}
}

func TestVerifyBundleCatchesEveryTampering(t *testing.T) {
	failedRun := goodSuite()
	setSpec(&failedRun, specRevoked, types.SpecStateFailed, "refused with the wrong alert")
	filtered := goodSuite()
	filtered.SuiteConfig.LabelFilter = "!delegation"
	setSpec(&filtered, specDelegation, types.SpecStateSkipped, "")
	skipped := goodSuite()
	setSpec(&skipped, specComponent, types.SpecStateSkipped, "disruptive: changes the cluster's Ingress config")

	dirty, oldSuite, noContact := goodMeta(), goodMeta(), goodMeta()
	dirty.Suite.Dirty = true
	oldSuite.Suite.Version = "v0.1.9"
	noContact.Implementation.Contact = nil

	good := bundleOf(t, goodSuite(), goodMeta())
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
			return tamper(t, bundleOf(t, failedRun, goodMeta()), true, func(c map[string][]byte) {
				specs, run := FromGinkgo(goodSuite())
				_, y, err := Build(goodMeta(), allFeatures(), specs, run).marshal()
				if err != nil {
					t.Fatal(err)
				}
				c[ConformanceYAML] = y
			})
		}, "conformance.yaml says passed, report.json gives failed"},
		{"a spec renamed in conformance.yaml", func() string {
			return tamper(t, good, true, func(c map[string][]byte) {
				c[ConformanceYAML] = bytes.ReplaceAll(c[ConformanceYAML], []byte(specEdge), []byte("Router serves everything"))
			})
		}, "feature router: conformance.yaml's specs differ from report.json's"},
		{"a spec removed from report.json", func() string {
			return tamper(t, good, true, editGinkgo(t, func(r *types.Report) {
				r.SpecReports = slices.DeleteFunc(r.SpecReports, func(s types.SpecReport) bool { return s.FullText() == specHSTS })
			}))
		}, `report.json lacks spec "HSTS per route sets the header on edge routes" of the published list`},
		{"a spec added to report.json", func() string {
			return tamper(t, good, true, editGinkgo(t, func(r *types.Report) {
				r.SpecReports = append(r.SpecReports, passed("HSTS per route", "is easy", []string{"hsts"}))
			}))
		}, `report.json has spec "HSTS per route is easy", which is not in the published list`},
		{"a failing spec moved to an unclaimed feature", func() string {
			return tamper(t, bundleOf(t, failedRun, goodMeta()), true, editGinkgo(t, func(r *types.Report) {
				for i, s := range r.SpecReports {
					if s.FullText() == specRevoked {
						r.SpecReports[i].ContainerHierarchyLabels = [][]string{{"delegation"}}
					}
				}
			}))
		}, `spec "Client TLS refuses a revoked certificate" has features [delegation] judging the router in report.json, but [client-tls] judging the router in the published list`},
		{"a spec list that is not this suite's", func() string {
			out := filepath.Join(t.TempDir(), "b.tar.gz")
			published := slices.DeleteFunc(goodPublished(), func(s PublishedSpec) bool { return s.Name == specShard })
			if err := writeBundle(runDir(t, goodSuite(), goodMeta()), out, bundleFiles, published); err != nil {
				t.Fatal(err)
			}
			return out
		}, `specs.json lacks spec "IngressController sharding serves only its namespaces" of the published list of suite v0.2.0`},
		{"a bad checksum", func() string {
			return tamper(t, good, false, func(c map[string][]byte) { c[SummaryMD] = []byte("# Router conformance: PASSED\n") })
		}, "checksum mismatch: summary.md"},
		{"an unlisted file", func() string {
			return tamper(t, good, false, func(c map[string][]byte) { c["failures/extra.txt"] = []byte("x") })
		}, "failures/extra.txt is in the bundle but not in SHA256SUMS"},
		{"a listed file removed", func() string {
			return tamper(t, good, false, func(c map[string][]byte) { delete(c, "e2e.log") })
		}, "SHA256SUMS lists e2e.log, which the bundle lacks"},
		{"no SHA256SUMS", func() string {
			return tamper(t, good, false, func(c map[string][]byte) { delete(c, SHA256SUMS) })
		}, "the bundle has no SHA256SUMS"},
		{"no report.json", func() string {
			return tamper(t, good, true, func(c map[string][]byte) { delete(c, ReportJSON) })
		}, "the bundle lacks report.json"},
		{"a focused run", func() string { return bundleOf(t, filtered, goodMeta()) },
			`the run was filtered: label filter "!delegation"`},
		{"a skipped spec of a claimed feature", func() string { return bundleOf(t, skipped, goodMeta()) },
			`claimed feature component-routes has a spec that did not run: "Component routes moves the route to its custom host": disruptive: changes the cluster's Ingress config`},
		{"a dirty suite", func() string { return bundleOf(t, goodSuite(), dirty) },
			"the suite was built from a dirty or unknown tree (commit 0123abc)"},
		{"another suite version", func() string { return bundleOf(t, goodSuite(), oldSuite) },
			"the suite is v0.1.9, this verifier is v0.2.0"},
		{"no implementation contact", func() string { return bundleOf(t, goodSuite(), noContact) },
			"implementation: missing contact"},
		{"not a bundle", func() string {
			p := filepath.Join(t.TempDir(), "b.tar.gz")
			if err := os.WriteFile(p, []byte("conformance: passed"), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}, "bundle: gzip: invalid header"},
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

func TestPublishedSpecsParse(t *testing.T) {
	// The embedded list must parse (the suite's test keeps it current).
	if _, err := parsePublished(specsJSON); err != nil {
		t.Fatal(err)
	}
	if _, err := parsePublished([]byte(`{"name": 1}`)); err == nil || !strings.HasPrefix(err.Error(), "specs.json: ") {
		t.Errorf("a broken list: %v", err)
	}
}
