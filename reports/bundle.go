package reports

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// The files of a bundle besides the conformance report's (write.go).
const (
	SHA256SUMS = "SHA256SUMS"
	ReportJSON = "report.json" // Ginkgo's JSON report, with the suite's run record
	JUnitXML   = "junit.xml"   // Ginkgo's JUnit report, with the provenance as properties
	E2ELog     = "e2e.log"     // the run's console
)

// bundleRequired are the run's files every bundle holds, besides its own
// specs.json and SHA256SUMS (and failures/, when a spec failed): the
// verifier holds each to report.json.
var bundleRequired = []string{ReportJSON, JUnitXML, E2ELog, ConformanceYAML, ConformanceJSON, SummaryMD}

// maxBundleBytes caps what the verifier unpacks: a bundle is untrusted
// input.
const maxBundleBytes = 1 << 30

// WriteBundle packs the given files of reportDir (directories
// recursively: failures/) into the .tar.gz out, with specs.json (this
// suite's PublishedSpecs) and SHA256SUMS (sha256sum's format, every file
// but itself). Entries are sorted and carry no time, owner or mode of the
// machine, so one run's files always give the same bytes. Every listed
// path must exist, and the files must include report.json, junit.xml,
// e2e.log, conformance.yaml, conformance.json and summary.md: a bundle
// without one of them is refused. specs.json, SHA256SUMS and the
// attestation (the in-toto Statement of conformance.json's run, when it
// judged an image by content; with key, its DSSE envelope too) are the
// bundle's own.
func WriteBundle(reportDir, out string, files []string, key *Key) error {
	return writeBundle(reportDir, out, files, PublishedSpecs(), key)
}

// writeBundle is WriteBundle with the published list given (tests).
func writeBundle(reportDir, out string, files []string, published []PublishedSpec, key *Key) error {
	names := make([]string, len(files))
	for i, f := range files {
		name := filepath.ToSlash(filepath.Clean(f))
		if !fs.ValidPath(name) || name == "." {
			return fmt.Errorf("bundle: %q is not a path inside the report directory", f)
		}
		if name == SpecsJSON || name == SHA256SUMS || name == StatementFile || name == EnvelopeFile {
			return fmt.Errorf("bundle: %s is written by the bundle itself", name)
		}
		names[i] = name
	}
	for _, name := range bundleRequired {
		every := "every bundle holds " + strings.Join(bundleRequired, ", ")
		if !slices.Contains(names, name) {
			return fmt.Errorf("bundle: %s is not among the files to bundle: %s", name, every)
		}
		if _, err := os.Lstat(filepath.Join(reportDir, name)); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("bundle: the report directory lacks %s: %s", name, every)
		}
	}
	contents := map[string][]byte{}
	for _, name := range names {
		if err := addFiles(contents, reportDir, name); err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
	}
	specs, err := json.MarshalIndent(published, "", "  ")
	if err != nil {
		return err
	}
	contents[SpecsJSON] = append(specs, '\n')
	if err := attest(contents, key); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	contents[SHA256SUMS] = sha256sums(contents)
	data, err := packBundle(contents)
	if err != nil {
		return err
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}

// addFiles reads name (a file, or a directory's regular files) into
// contents. Links are refused: the bundle holds what the run wrote.
func addFiles(contents map[string][]byte, dir, name string) error {
	return filepath.WalkDir(filepath.Join(dir, filepath.FromSlash(name)), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", rel)
		}
		data, err := os.ReadFile(p)
		contents[filepath.ToSlash(rel)] = data
		return err
	})
}

// sha256sums is SHA256SUMS for every file but itself, sorted by name.
func sha256sums(contents map[string][]byte) []byte {
	var b bytes.Buffer
	for _, name := range sortedNames(contents) {
		if name != SHA256SUMS {
			sum := sha256.Sum256(contents[name])
			fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), name)
		}
	}
	return b.Bytes()
}

func sortedNames(contents map[string][]byte) []string {
	names := make([]string, 0, len(contents))
	for n := range contents {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// packBundle is the deterministic .tar.gz of contents.
func packBundle(contents map[string][]byte) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf) // no name, no time in its header
	tw := tar.NewWriter(gz)
	for _, name := range sortedNames(contents) {
		data := contents[name]
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: time.Unix(0, 0)}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readBundle reads a bundle file once and unpacks it into memory,
// refusing what a bundle never holds: links, paths outside it, a file
// twice. digest is the sha256 of the bytes read: everything the verifier
// says, and the certifier's statement, is about that one read (a file
// swapped between two reads, a named pipe serving two files, cannot
// have one checked and another hashed).
func readBundle(file string) (contents map[string][]byte, digest string, err error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBundleBytes+1))
	if err != nil {
		return nil, "", err
	}
	if len(data) > maxBundleBytes {
		return nil, "", fmt.Errorf("%s is larger than a bundle can be (%d bytes)", file, maxBundleBytes)
	}
	sum := sha256.Sum256(data)
	contents, err = unpackBundle(file, data)
	return contents, hex.EncodeToString(sum[:]), err
}

// unpackBundle unpacks a bundle's bytes (readBundle).
func unpackBundle(file string, data []byte) (map[string][]byte, error) {
	// A file that does not unpack (another file, a truncated copy) is
	// named as what it is not.
	notBundle := func(err error) error {
		return fmt.Errorf("%s is not a whole bundle of make certify (a gzip-compressed tar): %w", file, err)
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, notBundle(err)
	}
	tr := tar.NewReader(io.LimitReader(gz, maxBundleBytes))
	contents := map[string][]byte{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return contents, nil
		}
		if err != nil {
			return nil, notBundle(err)
		}
		if hdr.Typeflag == tar.TypeDir {
			continue
		}
		name := hdr.Name
		switch {
		case hdr.Typeflag != tar.TypeReg:
			return nil, fmt.Errorf("%s is not a regular file", name)
		case !fs.ValidPath(name) || path.Clean(name) != name:
			return nil, fmt.Errorf("%q is not a plain path inside the bundle", name)
		case contents[name] != nil:
			return nil, fmt.Errorf("%s is in the bundle twice", name)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, notBundle(err)
		}
		contents[name] = data
	}
}

var sumLine = regexp.MustCompile(`^([0-9a-f]{64}) [ *](.+)$`)

// checkSums: every file is listed in SHA256SUMS, every listed file is
// there, and every checksum matches.
func checkSums(contents map[string][]byte) error {
	sums, ok := contents[SHA256SUMS]
	if !ok {
		return errors.New("the bundle has no " + SHA256SUMS)
	}
	listed := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for n := 1; sc.Scan(); n++ {
		m := sumLine.FindStringSubmatch(sc.Text())
		if m == nil {
			return fmt.Errorf("%s line %d is not \"<sha256>  <file>\"", SHA256SUMS, n)
		}
		if _, dup := listed[m[2]]; dup {
			return fmt.Errorf("%s lists %s twice", SHA256SUMS, m[2])
		}
		listed[m[2]] = m[1]
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", SHA256SUMS, err)
	}
	for _, name := range slices.Sorted(maps.Keys(listed)) {
		data, ok := contents[name]
		if !ok {
			return fmt.Errorf("%s lists %s, which the bundle lacks", SHA256SUMS, name)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != listed[name] {
			return fmt.Errorf("checksum mismatch: %s", name)
		}
	}
	for _, name := range sortedNames(contents) {
		if _, ok := listed[name]; !ok && name != SHA256SUMS {
			return fmt.Errorf("%s is in the bundle but not in %s", name, SHA256SUMS)
		}
	}
	return nil
}
