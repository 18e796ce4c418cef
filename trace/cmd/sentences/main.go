// Command sentences lists a design document's sentences with their
// fingerprints, marks the normative ones (trace.SentenceRule) and says
// what answers each: the statement IDs that point at it, not-a-statement,
// or nothing. The text is printed, never stored: the documents are not
// this project's.
//
//	go run ./trace/cmd/sentences [-documents DIR] [-normative] [-unaccounted] <document>
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/router-conformance/suite/trace"
)

func main() {
	dir := flag.String("documents", os.Getenv(trace.DocumentsEnv), "the folder that holds the design documents (default $"+trace.DocumentsEnv+")")
	normativeOnly := flag.Bool("normative", false, "list only the normative sentences")
	unaccounted := flag.Bool("unaccounted", false, "list only the normative sentences nothing accounts for")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./trace/cmd/sentences [flags] <document>\n\nA document is one of %s.\n\n", strings.Join(designed(), ", "))
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(*dir, flag.Args(), *normativeOnly, *unaccounted); err != nil {
		fmt.Fprintln(os.Stderr, "sentences:", err)
		os.Exit(2)
	}
}

func designed() []string {
	docs, _ := trace.Load()
	var keys []string
	for _, d := range docs {
		if d.Designed() {
			keys = append(keys, d.Key)
		}
	}
	return keys
}

func run(dir string, args []string, normativeOnly, unaccounted bool) error {
	if dir == "" {
		return fmt.Errorf("say where the design documents are: -documents DIR or %s=DIR", trace.DocumentsEnv)
	}
	if len(args) != 1 {
		return fmt.Errorf("name one document: %s", strings.Join(designed(), ", "))
	}
	docs, err := trace.Load()
	if err != nil {
		return err
	}
	i := slices.IndexFunc(docs, func(d trace.Document) bool { return d.Key == args[0] && d.Designed() })
	if i < 0 {
		return fmt.Errorf("%q is no design document of the trace: name one of %s", args[0], strings.Join(designed(), ", "))
	}
	documents, err := trace.ReadDocuments(dir)
	if err != nil {
		return err
	}
	text, err := trace.DocumentText(docs[i], documents)
	if err != nil {
		return err
	}
	for _, a := range trace.Account(docs[i], text) {
		mark := "-"
		if a.Normative() {
			mark = "N"
		}
		if (normativeOnly || unaccounted) && !a.Normative() || unaccounted && len(a.By) > 0 {
			continue
		}
		by := strings.Join(a.By, ",")
		if by == "" {
			by = "·"
		}
		fmt.Printf("%s %s %4d %-16s %s\n", a.Fingerprint, mark, a.Line, by, a.Text)
	}
	return nil
}
