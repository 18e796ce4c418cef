package framework

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/reports"
)

// CatalogueEntry is one spec of the catalogue (docs/conformance-specs.md):
// the whole plan on one screen, as knative's ingress conformance shows it.
type CatalogueEntry struct {
	ID       contract.SpecID
	Feature  contract.Feature
	Level    contract.Level
	Judges   contract.Judged
	Changes  []contract.Change // behaviour changes between releases it asserts
	Checks   string            // the spec's text: what it checks
	Document string            // the design document and section it follows
	Upstream string            // the upstream file and function it follows
	File     string            // where it is declared, file:line from the module root
}

// Citation markers: a spec cites what it follows in the comment right
// above it, or above a container it is in (the innermost wins), with a
// line starting "Document:" and one starting "Upstream:" (each may
// continue on the next comment lines, up to a blank comment line or the
// next marker).
const (
	documentMarker = "Document:"
	upstreamMarker = "Upstream:"
)

// Catalogue reads the spec tree and the citations in the spec files
// (root is the module root, for the File column). A spec without both
// citations is a problem.
func Catalogue(report types.Report, root string) ([]CatalogueEntry, error) {
	comments := map[string][]string{} // file → its lines
	var entries []CatalogueEntry
	var problems []string
	for _, s := range report.SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			continue
		}
		labels := s.Labels()
		features := contract.FeaturesOf(labels)
		if len(features) == 0 {
			continue // CheckSpecTree names it
		}
		info, _ := contract.LookupFeature(string(features[0]))
		e := CatalogueEntry{ID: contract.SpecIDOf(labels), Feature: features[0], Level: info.Level,
			Judges: contract.JudgedBy(labels), Changes: contract.ChangesOf(labels), Checks: withinFeature(s)}
		if info.Harness {
			e.Level = "harness"
		}
		rel, err := filepath.Rel(root, sourceFile(root, s.LeafNodeLocation.FileName))
		if err != nil {
			rel = s.LeafNodeLocation.FileName
		}
		e.File = fmt.Sprintf("%s:%d", filepath.ToSlash(rel), s.LeafNodeLocation.LineNumber)
		// Innermost first: the leaf, then its containers inside out.
		locations := []types.CodeLocation{s.LeafNodeLocation}
		for i := len(s.ContainerHierarchyLocations) - 1; i >= 0; i-- {
			locations = append(locations, s.ContainerHierarchyLocations[i])
		}
		for _, loc := range locations {
			file := sourceFile(root, loc.FileName)
			lines, ok := comments[file]
			if !ok {
				if lines, err = readLines(file); err != nil {
					return nil, err
				}
				comments[file] = lines
			}
			doc, up := citations(lines, loc.LineNumber)
			if e.Document == "" {
				e.Document = doc
			}
			if e.Upstream == "" {
				e.Upstream = up
			}
		}
		if e.Document == "" || e.Upstream == "" {
			problems = append(problems, fmt.Sprintf("%s (%s): no %q or %q line in the comment above it or its containers", e.ID, e.File, documentMarker, upstreamMarker))
		}
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b CatalogueEntry) int { return strings.Compare(string(a.ID), string(b.ID)) })
	if len(problems) > 0 {
		slices.Sort(problems)
		return entries, fmt.Errorf("%d spec(s) without citations:\n%s", len(problems), strings.Join(problems, "\n"))
	}
	return entries, nil
}

// withinFeature is the spec's text under its feature's title.
func withinFeature(s types.SpecReport) string {
	texts := slices.Clone(s.ContainerHierarchyTexts)
	if len(texts) > 0 {
		texts = texts[1:]
	}
	return strings.Join(append(texts, s.LeafNodeText), " ")
}

func readLines(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, sc.Err()
}

// citations reads the comment block right above line (1-based) for the
// two markers.
func citations(lines []string, line int) (document, upstream string) {
	start := line - 1 // index of the node's line
	for start > 0 && strings.HasPrefix(strings.TrimSpace(lines[start-1]), "//") {
		start--
	}
	var current *string
	for _, l := range lines[start : line-1] {
		text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "//"))
		switch {
		case strings.HasPrefix(text, documentMarker):
			current = &document
			*current = strings.TrimSpace(strings.TrimPrefix(text, documentMarker))
		case strings.HasPrefix(text, upstreamMarker):
			current = &upstream
			*current = strings.TrimSpace(strings.TrimPrefix(text, upstreamMarker))
		case text == "":
			current = nil
		case current != nil:
			*current += " " + text
		}
	}
	return document, upstream
}

// CatalogueMarkdown is docs/conformance-specs.md: the plan on one screen
// (a row per feature), the trace's counts, then each feature's specs,
// grouped by what they cite, each with the trace statements it answers
// (statementsOf: trace.StatementsOf).
func CatalogueMarkdown(entries []CatalogueEntry, traceSummary string, statementsOf map[contract.SpecID][]string) string {
	var b strings.Builder
	b.WriteString("# Conformance specs\n\n")
	b.WriteString("Generated by `make specs` from the spec tree and the citations above each spec " +
		"(`Document:` and `Upstream:` comment lines); `make test` fails when it is stale. " +
		"A spec is known by its ID (`<feature>/<short-name>`): reports, history, compare and bundles key on it, " +
		"its text is prose. Features, levels and what a spec judges: `contract/features.go`.\n\n")
	byFeature := map[contract.Feature][]CatalogueEntry{}
	for _, e := range entries {
		byFeature[e.Feature] = append(byFeature[e.Feature], e)
	}
	b.WriteString("## The plan on one screen\n\n" +
		"| feature | level | judges | specs | files | trace statements answered |\n|---|---|---|---|---|---|\n")
	for _, info := range contract.Features {
		rows := byFeature[info.Feature]
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %d | %s | %s |\n", info.Name, info.Feature, levelOf(info), judgesOf(rows), len(rows), specFilesOf(rows), tracedOf(rows, statementsOf))
	}
	b.WriteString("\n## What the specs cover: the trace\n\n" +
		"Every testable statement of the design documents, every scenario of upstream's own tests and every upstream bug guarded, " +
		"answered by specs, by a reason no spec can, or counted as a gap (`trace/`, page: [trace.md](trace.md)):\n\n")
	b.WriteString(traceSummary)
	b.WriteString("\n")
	for _, info := range contract.Features {
		rows := byFeature[info.Feature]
		fmt.Fprintf(&b, "<a id=\"%s\"></a>\n\n## %s (`%s`, %s): %d specs\n\n%s.\n\n", info.Feature, info.Name, info.Feature, levelOf(info), len(rows), info.Description)
		for _, group := range byCitation(rows) {
			fmt.Fprintf(&b, "**Document:** %s  \n**Upstream:** %s\n\n", group[0].Document, group[0].Upstream)
			b.WriteString("| ID | judges | checks | trace |\n|---|---|---|---|\n")
			for _, e := range group {
				fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", e.ID, e.Judges, mdCell(e.Checks), strings.Join(statementsOf[e.ID], ", "))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString(releasesMarkdown(entries))
	return b.String()
}

func levelOf(info contract.FeatureInfo) string {
	if info.Harness {
		return "harness"
	}
	return string(info.Level)
}

// judgesOf counts a feature's specs by what they judge.
func judgesOf(rows []CatalogueEntry) string {
	counts := map[contract.Judged]int{}
	var order []contract.Judged
	for _, e := range rows {
		if counts[e.Judges] == 0 {
			order = append(order, e.Judges)
		}
		counts[e.Judges]++
	}
	var parts []string
	for _, j := range order {
		parts = append(parts, fmt.Sprintf("%s %d", j, counts[j]))
	}
	return strings.Join(parts, ", ")
}

// tracedOf is how many trace statements a feature's specs answer, and
// how many of its specs answer none.
func tracedOf(rows []CatalogueEntry, statementsOf map[contract.SpecID][]string) string {
	statements := map[string]bool{}
	untraced := 0
	for _, e := range rows {
		if len(statementsOf[e.ID]) == 0 {
			untraced++
		}
		for _, s := range statementsOf[e.ID] {
			statements[s] = true
		}
	}
	out := fmt.Sprint(len(statements))
	if untraced > 0 {
		out += fmt.Sprintf(" (untraced specs: %d)", untraced)
	}
	return out
}

// byCitation groups rows that cite the same document section and
// upstream code, in order of first appearance: a citation is written
// once per group.
func byCitation(rows []CatalogueEntry) [][]CatalogueEntry {
	var groups [][]CatalogueEntry
	index := map[[2]string]int{}
	for _, e := range rows {
		key := [2]string{e.Document, e.Upstream}
		i, ok := index[key]
		if !ok {
			i = len(groups)
			index[key] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], e)
	}
	return groups
}

// specFilesOf names the files a feature's rows are declared in, in order
// of first appearance.
func specFilesOf(rows []CatalogueEntry) string {
	var files []string
	for _, e := range rows {
		file, _, _ := strings.Cut(e.File, ":")
		if f := "`" + file + "`"; !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	return strings.Join(files, ", ")
}

// releasesMarkdown is the catalogue's last section: the tracked release
// lines and what changed between them, with the specs each change gates
// (contract/releases.go).
func releasesMarkdown(entries []CatalogueEntry) string {
	var b strings.Builder
	b.WriteString("## OpenShift releases: what changed between the tracked lines\n\n")
	fmt.Fprintf(&b, "A run asserts the upstream behaviour of one release line, `-openshift-release` (make: `OPENSHIFT_RELEASE=`): "+
		"%s; default `%s`, the newest. The report, the summary, the bundle and the verifier's line name it. "+
		"A spec that asserts a behaviour below carries `framework.Gated(<change>)` and reads the run's expectation from the table.\n\n",
		"`"+strings.Join(contract.ReleaseNames(), "`, `")+"`", contract.DefaultRelease)
	b.WriteString("| change | since | before | from then on | upstream | specs |\n|---|---|---|---|---|---|\n")
	for _, c := range contract.Changes {
		var ids []string
		for _, e := range entries {
			if slices.Contains(e.Changes, c.Change) {
				ids = append(ids, "`"+string(e.ID)+"`")
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s; %s | %s |\n", c.Change, c.Since, mdCell(c.Before), mdCell(c.After), mdCell(c.Commit), mdCell(c.Source), strings.Join(ids, ", "))
	}
	var missing []string
	for _, f := range contract.Features {
		if f.OpenShiftSince != "" {
			missing = append(missing, fmt.Sprintf("`%s` since %s", f.Feature, f.OpenShiftSince))
		}
	}
	if len(missing) == 0 {
		b.WriteString("\nEvery tracked line has every OpenShift feature of the table (`contract/features.go`, OpenShiftSince).\n")
	} else {
		b.WriteString("\nFeatures a line predates are unsupported there: " + strings.Join(missing, ", ") + ".\n")
	}
	return b.String()
}

// mdCell keeps a table cell on its row.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// sourceFile is a code location's file on disk: Go records it absolute,
// or under -trimpath (make test's builds, reused from any checkout) as
// the module path and the file's path in the module.
func sourceFile(root, name string) string {
	if rel, ok := strings.CutPrefix(name, reports.SuiteModule+"/"); ok && !filepath.IsAbs(name) {
		return filepath.Join(root, filepath.FromSlash(rel))
	}
	return name
}
