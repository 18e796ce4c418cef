package trace

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DocumentsEnv names the folders (a path list, as PATH) that hold the
// texts the trace points into: the five design documents and the public
// documentation traced beside them, under any file names (each is found
// by its digest). None is this project's, so none is in the repository;
// make test passes DOCUMENTS from the Makefile, and without it the trace's
// test looks in ../shared/seeds beside the checkout and in PublicTexts.
const DocumentsEnv = "TRACE_DOCUMENTS"

// PublicTexts is where a machine keeps the public documentation the trace
// points into besides the design documents (OpenShift's documentation),
// each file copied from its home at the commit its trace names:
// <user cache>/router-conformance/documents.
func PublicTexts() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "router-conformance", "documents")
}

// ReadDocuments reads every file of each folder of the path list dirs
// that exists, keyed by its digest ("sha256:<hex>"); it fails when none
// exists.
func ReadDocuments(dirs string) (map[string]string, error) {
	out := map[string]string{}
	found := false
	for _, dir := range filepath.SplitList(dirs) {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("the documents' folder %s: %w", dir, err)
		}
		found = true
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, err
			}
			out[Digest(data)] = string(data)
		}
	}
	if !found {
		return nil, fmt.Errorf("no documents' folder among %q (set %s to the folders that hold them)", dirs, DocumentsEnv)
	}
	return out, nil
}

// Digest is how a trace file names its document's text.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Accounted is one sentence of a design document and what answers it.
type Accounted struct {
	Sentence
	// By are the statement IDs that point at the sentence, or
	// "not-a-statement" when the trace says it is none.
	By []string
}

// Account pairs every sentence of the document's text with what answers it.
func Account(d Document, text string) []Accounted {
	by := map[string][]string{}
	for _, s := range d.Statements {
		for _, fp := range s.Sentences {
			by[fp] = append(by[fp], s.ID)
		}
	}
	for _, n := range d.NotStatements {
		by[n.Sentence] = append(by[n.Sentence], "not-a-statement")
	}
	var out []Accounted
	for _, s := range Sentences(text) {
		out = append(out, Accounted{Sentence: s, By: by[s.Fingerprint]})
	}
	return out
}

// CheckAgainst says what is wrong between a design document's trace and
// the document's text: a fingerprint that is no sentence of it, a
// normative sentence answered by no statement and not listed as none, a
// normative count the trace file gets wrong.
func CheckAgainst(d Document, text string) error {
	var errs []error
	accounted := Account(d, text)
	present := map[string]bool{}
	normative := 0
	for _, a := range accounted {
		present[a.Fingerprint] = true
		if !a.Normative() {
			continue
		}
		normative++
		if len(a.By) == 0 {
			errs = append(errs, fmt.Errorf("trace/%s.yaml: the normative sentence %s (line %d) is accounted for by no statement and no not-a-statement: %q", d.Key, a.Fingerprint, a.Line, a.Text))
		}
	}
	named := func(where, fp string) {
		if !present[fp] {
			errs = append(errs, fmt.Errorf("trace/%s.yaml %s: sentence %s is in no sentence of the document (go run ./trace/cmd/sentences %s)", d.Key, where, fp, d.Key))
		}
	}
	for _, s := range d.Statements {
		for _, fp := range s.Sentences {
			named(s.ID, fp)
		}
	}
	for _, n := range d.NotStatements {
		named("not-a-statement", n.Sentence)
	}
	if normative != d.Normative {
		errs = append(errs, fmt.Errorf("trace/%s.yaml: normative is %d, the document has %d normative sentences", d.Key, d.Normative, normative))
	}
	return errors.Join(errs...)
}

// DocumentText finds a design document's text among the documents by its
// digest.
func DocumentText(d Document, documents map[string]string) (string, error) {
	text, ok := documents[d.Digest]
	if !ok {
		return "", fmt.Errorf("trace/%s.yaml: no file among the design documents has digest %s (is it %s? a changed document needs its trace read again)", d.Key, d.Digest, strings.TrimSpace(d.Home))
	}
	return text, nil
}
