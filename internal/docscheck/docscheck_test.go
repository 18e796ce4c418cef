package docscheck

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// generated pages are written by make specs and checked by their own
// tests (e2e/conformance, trace): their backticks hold upstream paths.
var generated = map[string]bool{
	"docs/conformance-specs.md": true,
	"docs/trace.md":             true,
}

// sourceExtensions: a name in backticks with one of these, even without a
// slash, is a file of this repository (features.go, build.sh). Other bare
// names (summary.md, report.json, times.env) are the files of a run.
var sourceExtensions = []string{".go", ".sh", ".awk"}

// TestDocsNameWhatExists reads README.md, reports/README.md and the
// hand-written pages of docs/ and fails on:
//   - a `make <target>` (in a code span or a code block) whose target the
//     Makefile lacks;
//   - a make variable the Makefile neither sets nor reads: one given as
//     VAR=value on a make command line, or named in the first column of a
//     table whose first header is "variable";
//   - a relative link to a file that does not exist, or into a page at a
//     heading it lacks (GitHub's anchors);
//   - a repository path in backticks that does not exist: a span with a
//     slash (or a bare name ending in .go, .sh or .awk) and no space or
//     placeholder (<, *, {, :, =, $). Not paths: spec IDs
//     (reports/specs.json), domains and Go modules (a first segment with a
//     dot: github.com/..., kubernetes.io/tls), a run's outputs (_output/,
//     .cache/) and paths relative to a directory (./run). An upstream
//     file is written with its repository in the same span
//     (`openshift/router images/router/haproxy`), so it has a space.
func TestDocsNameWhatExists(t *testing.T) {
	root := moduleRoot(t)
	pages := docPages(t, root)
	targets, variables := makefile(t, root)
	specIDs := publishedSpecIDs(t, root)
	basenames := repoBasenames(t, root)

	var problems []string
	for _, page := range pages {
		doc := parse(t, root, page)
		bad := func(line int, format string, args ...any) {
			problems = append(problems, fmt.Sprintf("%s:%d: %s", page, line, fmt.Sprintf(format, args...)))
		}
		for _, c := range doc.commands {
			for _, cmd := range makeCommands(c.text) {
				if cmd.target != "" && !matchesAny(cmd.target, targets) {
					bad(c.line, "make %s: the Makefile has no target %q", cmd.target, cmd.target)
				}
				for _, v := range cmd.variables {
					if !variables[v] {
						bad(c.line, "make ... %s=: the Makefile has no variable %s", v, v)
					}
				}
			}
		}
		for _, v := range doc.tableVariables {
			if !variables[v.text] {
				bad(v.line, "variables table: the Makefile has no variable %s", v.text)
			}
		}
		for _, l := range doc.links {
			if msg := checkLink(root, page, l.text); msg != "" {
				bad(l.line, "link %s: %s", l.text, msg)
			}
		}
		for _, s := range doc.spans {
			p, ok := repoPath(s.text, specIDs)
			if !ok {
				continue
			}
			if !strings.Contains(p, "/") {
				if !basenames[p] {
					bad(s.line, "`%s`: no file of that name in the repository", s.text)
				}
				continue
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
				bad(s.line, "`%s`: no such file or directory in the repository", s.text)
			}
		}
	}
	if len(problems) > 0 {
		t.Errorf("the docs name what does not exist (fix the page, or the name):\n%s", strings.Join(problems, "\n"))
	}
}

// TestTheReadmeLayoutNamesEveryFolder: the README's layout block has a
// line "<folder>/  ..." for every top-level folder of the repository, and
// none for a folder that is gone (not .git, nor what .gitignore ignores).
func TestTheReadmeLayoutNamesEveryFolder(t *testing.T) {
	root := moduleRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, c := range parseText(string(data)).commands {
		if m := layoutLineRE.FindStringSubmatch(c.text); m != nil {
			named[m[1]] = true
		}
	}
	ignore, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	ignored := map[string]bool{".git": true}
	for _, line := range strings.Split(string(ignore), "\n") {
		if l := strings.Trim(strings.TrimSpace(line), "/"); l != "" && !strings.ContainsAny(l, "#*/") {
			ignored[l] = true
		}
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	folders := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() && !ignored[e.Name()] {
			folders[e.Name()] = true
			if !named[e.Name()] {
				t.Errorf("README.md's layout has no line for %s/", e.Name())
			}
		}
	}
	for n := range named {
		if !folders[n] {
			t.Errorf("README.md's layout names %s/, which is no folder of the repository", n)
		}
	}
}

// TestTheCheckCatchesWhatItShould runs the parsers on a page written to
// fail: each kind of mistake is found, and the lookalikes are not.
func TestTheCheckCatchesWhatItShould(t *testing.T) {
	page := "```\nmake e2e ROUTER_IMAGE=x \\\n  NO_SUCH_VAR=1   # a comment: make nothing\nkit/  make kit, its ./run\n```\n" +
		"Run `make no-such-target` or `make bench-*`, see [x](missing.md) and `contract/nosuch.go`;\n" +
		"`hsts/edge-max-age`, `github.com/onsi/ginkgo`, `_output/summary.md` and `summary.md` are no paths.\n\n" +
		"| variable | what |\n|---|---|\n| `NOPE` | x |\n"
	doc := parseText(page)
	var cmds []makeCommand
	for _, c := range doc.commands {
		cmds = append(cmds, makeCommands(c.text)...)
	}
	want := []makeCommand{
		{target: "e2e", variables: []string{"ROUTER_IMAGE", "NO_SUCH_VAR"}},
		{target: "kit"},
		{target: "no-such-target"},
		{target: "bench-*"},
	}
	if fmt.Sprint(cmds) != fmt.Sprint(want) {
		t.Errorf("make commands: got %v, want %v", cmds, want)
	}
	if !matchesAny("bench-*", map[string]bool{"bench-kit": true}) || matchesAny("no-such-target", map[string]bool{"e2e": true}) {
		t.Error("target matching is wrong")
	}
	if len(doc.links) != 1 || doc.links[0].text != "missing.md" {
		t.Errorf("links: got %v", doc.links)
	}
	if len(doc.tableVariables) != 1 || doc.tableVariables[0].text != "NOPE" {
		t.Errorf("table variables: got %v", doc.tableVariables)
	}
	var paths []string
	for _, s := range doc.spans {
		if p, ok := repoPath(s.text, map[string]bool{"hsts/edge-max-age": true}); ok {
			paths = append(paths, p)
		}
	}
	if fmt.Sprint(paths) != "[contract/nosuch.go]" {
		t.Errorf("repository paths: got %v, want [contract/nosuch.go]", paths)
	}
	if got := slug("When your test machine cannot reach the router: in-cluster runs"); got != "when-your-test-machine-cannot-reach-the-router-in-cluster-runs" {
		t.Errorf("slug: %s", got)
	}
	if got := slug("From another repository's `go test`"); got != "from-another-repositorys-go-test" {
		t.Errorf("slug: %s", got)
	}
}

// at is a piece of a page and the line it starts on.
type at struct {
	text string
	line int
}

type page struct {
	// commands: each code block line (continuations joined) and each
	// code span that may hold a make command line.
	commands []at
	// spans: the inline code spans outside code blocks.
	spans []at
	// links: relative link targets.
	links []at
	// tableVariables: first-column names of "variable" tables.
	tableVariables []at
	// headings: the page's heading texts, in order.
	headings []string
}

var (
	spanRE       = regexp.MustCompile("`([^`]+)`")
	layoutLineRE = regexp.MustCompile(`^(\.?[a-z0-9_-]+)/\s`)
	linkRE       = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	headingRE    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

func parse(t *testing.T, root, rel string) page {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return parseText(string(data))
}

// parseText splits a Markdown page into code blocks, paragraphs and table
// rows. A paragraph's lines are joined, so a code span may wrap.
func parseText(text string) page {
	var p page
	lines := strings.Split(text, "\n")
	var para []string
	paraStart := 0
	flush := func() {
		if len(para) == 0 {
			return
		}
		joined := strings.Join(para, " ")
		for _, m := range spanRE.FindAllStringSubmatch(joined, -1) {
			p.spans = append(p.spans, at{m[1], paraStart})
			p.commands = append(p.commands, at{m[1], paraStart})
		}
		for _, m := range linkRE.FindAllStringSubmatch(spanRE.ReplaceAllString(joined, ""), -1) {
			p.links = append(p.links, at{m[1], paraStart})
		}
		para = nil
	}
	inFence, variableTable := false, false
	var cont strings.Builder
	contStart := 0
	for i, line := range lines {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			flush()
			inFence = !inFence
			continue
		}
		if inFence {
			if cont.Len() == 0 {
				contStart = n
			}
			if strings.HasSuffix(line, "\\") {
				cont.WriteString(strings.TrimSuffix(line, "\\") + " ")
				continue
			}
			cont.WriteString(line)
			p.commands = append(p.commands, at{cont.String(), contStart})
			cont.Reset()
			continue
		}
		if h := headingRE.FindStringSubmatch(line); h != nil {
			flush()
			p.headings = append(p.headings, h[1])
			continue
		}
		if strings.HasPrefix(trimmed, "|") {
			flush()
			cells := strings.Split(strings.Trim(trimmed, "|"), "|")
			first := strings.TrimSpace(cells[0])
			switch {
			case strings.EqualFold(first, "variable"):
				variableTable = true
			case strings.Trim(first, "-: ") == "":
			case variableTable:
				for _, m := range spanRE.FindAllStringSubmatch(first, -1) {
					name, _, _ := strings.Cut(m[1], "=")
					p.tableVariables = append(p.tableVariables, at{name, n})
				}
			}
			row := at{trimmed, n}
			for _, m := range spanRE.FindAllStringSubmatch(row.text, -1) {
				p.spans = append(p.spans, at{m[1], n})
				p.commands = append(p.commands, at{m[1], n})
			}
			for _, m := range linkRE.FindAllStringSubmatch(spanRE.ReplaceAllString(row.text, ""), -1) {
				p.links = append(p.links, at{m[1], n})
			}
			continue
		}
		variableTable = false
		if trimmed == "" {
			flush()
			continue
		}
		if len(para) == 0 {
			paraStart = n
		}
		para = append(para, trimmed)
	}
	flush()
	return p
}

type makeCommand struct {
	target    string
	variables []string
}

var (
	makeRE       = regexp.MustCompile(`(?:^|[\s;&|(])make\s+(.*)$`)
	variableRE   = regexp.MustCompile(`^([A-Z][A-Z0-9_]*)=`)
	targetWordRE = regexp.MustCompile(`^[a-z][a-z0-9*-]*$`)
)

// makeCommands finds the make command lines in a code block line or a
// code span: the target is the first word after make that is no
// VARIABLE=value and no option; every VARIABLE=value is a variable.
func makeCommands(text string) []makeCommand {
	var out []makeCommand
	for _, part := range strings.Split(text, "&&") {
		if i := strings.Index(part, " #"); i >= 0 {
			part = part[:i]
		}
		m := makeRE.FindStringSubmatch(part)
		if m == nil {
			continue
		}
		var c makeCommand
		decided := false
		for _, word := range strings.Fields(m[1]) {
			if v := variableRE.FindStringSubmatch(word); v != nil {
				c.variables = append(c.variables, v[1])
				continue
			}
			if decided || strings.HasPrefix(word, "-") {
				continue
			}
			// The first other word: the target, if it looks like one
			// ("make kit, its ./run" in prose names kit).
			decided = true
			if word = strings.TrimRight(word, ",;.:)'"); targetWordRE.MatchString(word) {
				c.target = word
			}
		}
		if c.target != "" || len(c.variables) > 0 {
			out = append(out, c)
		}
	}
	return out
}

func matchesAny(pattern string, targets map[string]bool) bool {
	for t := range targets {
		if ok, _ := path.Match(pattern, t); ok {
			return true
		}
	}
	return false
}

var pathRE = regexp.MustCompile(`^[A-Za-z0-9_.][A-Za-z0-9_.\-/]*$`)

// repoPath says whether a code span names a path of this repository.
func repoPath(span string, specIDs map[string]bool) (string, bool) {
	if !pathRE.MatchString(span) || strings.HasPrefix(span, "./") || strings.HasPrefix(span, "../") {
		return "", false
	}
	p := strings.TrimSuffix(span, "/")
	if !strings.Contains(p, "/") {
		for _, ext := range sourceExtensions {
			if strings.HasSuffix(p, ext) && len(p) > len(ext) {
				return p, true
			}
		}
		return "", false
	}
	first, _, _ := strings.Cut(p, "/")
	if strings.Contains(strings.TrimPrefix(first, "."), ".") || specIDs[p] {
		return "", false
	}
	if first == "_output" || first == ".cache" {
		return "", false
	}
	return p, true
}

// checkLink says what is wrong with a link of page (relative to the
// module root), or "".
func checkLink(root, pagePath, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	file, anchor, _ := strings.Cut(target, "#")
	rel := pagePath
	if file != "" {
		rel = path.Join(path.Dir(pagePath), file)
	}
	full := filepath.Join(root, filepath.FromSlash(rel))
	if _, err := os.Stat(full); err != nil {
		return "no such file " + rel
	}
	if anchor == "" || !strings.HasSuffix(rel, ".md") {
		return ""
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return err.Error()
	}
	seen := map[string]int{}
	for _, h := range parseText(string(data)).headings {
		s := slug(h)
		if n := seen[s]; n > 0 {
			seen[fmt.Sprintf("%s-%d", s, n)] = 1
		}
		seen[s]++
	}
	if seen[anchor] == 0 {
		return fmt.Sprintf("%s has no heading #%s", rel, anchor)
	}
	return ""
}

// slug is GitHub's anchor of a heading: lower case, punctuation dropped,
// spaces as dashes.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// docPages are the pages checked, relative to the module root.
func docPages(t *testing.T, root string) []string {
	t.Helper()
	pages := []string{"README.md", "reports/README.md"}
	matches, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range matches {
		rel := "docs/" + filepath.Base(m)
		if !generated[rel] {
			pages = append(pages, rel)
		}
	}
	sort.Strings(pages[2:])
	return pages
}

var (
	targetRE      = regexp.MustCompile(`(?m)^([A-Za-z0-9][A-Za-z0-9_.-]*)\s*:(?:[^=]|$)`)
	definitionRE  = regexp.MustCompile(`(?m)^(?:override\s+|export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?=|:=|::=|\+=|=)`)
	referenceRE   = regexp.MustCompile(`\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`)
	exportLineRE  = regexp.MustCompile(`(?m)^export\s+([A-Za-z_][A-Za-z0-9_ ]*)$`)
	makeVariables = func(data string) map[string]bool {
		vars := map[string]bool{}
		for _, re := range []*regexp.Regexp{definitionRE, referenceRE} {
			for _, m := range re.FindAllStringSubmatch(data, -1) {
				vars[m[1]] = true
			}
		}
		for _, m := range exportLineRE.FindAllStringSubmatch(data, -1) {
			for _, v := range strings.Fields(m[1]) {
				vars[v] = true
			}
		}
		return vars
	}
)

// makefile returns the Makefile's targets and the variables it sets or reads.
func makefile(t *testing.T, root string) (targets, variables map[string]bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	targets = map[string]bool{}
	for _, m := range targetRE.FindAllStringSubmatch(string(data), -1) {
		if !strings.HasPrefix(m[1], ".") {
			targets[m[1]] = true
		}
	}
	if !targets["e2e"] || !targets["help"] {
		t.Fatalf("read no targets e2e and help from the Makefile: %v", targets)
	}
	variables = makeVariables(string(data))
	if !variables["ROUTER_IMAGE"] {
		t.Fatal("read no variable ROUTER_IMAGE from the Makefile")
	}
	return targets, variables
}

func publishedSpecIDs(t *testing.T, root string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "reports", "specs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var specs []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(data, &specs); err != nil {
		t.Fatalf("reports/specs.json: %v", err)
	}
	ids := map[string]bool{}
	for _, s := range specs {
		ids[s.ID] = true
	}
	return ids
}

// repoBasenames are the names of the repository's files (not under .git,
// _output or .cache).
func repoBasenames(t *testing.T, root string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "_output", ".cache":
				return filepath.SkipDir
			}
			return nil
		}
		names[d.Name()] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}
