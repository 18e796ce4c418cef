package trace

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

// Sentence is one unit of a design document's text, as the trace points
// at it: never stored, only its Fingerprint (the documents are not this
// project's to copy).
type Sentence struct {
	Text string
	// Line is where the sentence starts in the document (1-based).
	Line int
	// Fingerprint is the first 12 hex digits of the sha256 of Text
	// (whitespace already normalised).
	Fingerprint string
}

// Normative says whether the sentence falls under the rule that finds the
// documents' normative sentences (SentenceRule).
func (s Sentence) Normative() bool {
	return strings.HasPrefix(s.Text, "+") || normativeWords.MatchString(s.Text)
}

// normativeWords are the words that make a sentence normative: modal verbs
// of obligation and ability, and the verbs and adverbs of admission and
// refusal. A design document states its behaviour with them; a sentence
// without any describes, motivates or tells history.
var normativeWords = regexp.MustCompile(`(?i)\b(must|shall|should|will|won't|can|cannot|can't|may|only|never|always|required|requires?|refuse[sd]?|rejects?|rejected|allows?|allowed|den(y|ies|ied)|prevents?|prevented|ensures?|forbids?|forbidden)\b`)

// SentenceRule is the rule, in words, for the trace page.
const SentenceRule = "A document is cut into sentences thus: the front matter and headings are skipped; a paragraph or a list item is " +
	"its lines joined, cut after `.`, `?` or `!` (and any closing quote, bracket or emphasis) followed by a space and no lower-case " +
	"letter, but not after an abbreviation (e.g., i.e., etc., vs., cf.); a table row is one sentence, its cells joined; in a code " +
	"block only comments are prose, and an API marker comment run (`+kubebuilder:...`, `+optional`) with the code line it annotates " +
	"is one sentence. Whitespace is collapsed to one space. A sentence is **normative** when it is an API marker or holds one of the " +
	"words must, shall, should, will, won't, can, cannot, can't, may, only, never, always, require(s/d), refuse(s/d), reject(s/ed), " +
	"allow(s/ed), deny (denies, denied), prevent(s/ed), ensure(s), forbid(s/den), in any case."

// Fingerprint is how the trace names a sentence.
func Fingerprint(text string) string {
	sum := sha256.Sum256([]byte(normalise(text)))
	return hex.EncodeToString(sum[:])[:12]
}

func normalise(text string) string { return strings.Join(strings.Fields(text), " ") }

// Sentences cuts a design document into its sentences, in order, by
// SentenceRule.
func Sentences(doc string) []Sentence {
	var out []Sentence
	var para []string
	paraLine := 0
	flush := func() {
		if len(para) > 0 {
			for _, s := range splitSentences(strings.Join(para, " ")) {
				out = appendSentence(out, s, paraLine)
			}
		}
		para = nil
	}
	add := func(line string, n int) {
		if len(para) == 0 {
			paraLine = n
		}
		para = append(para, line)
	}
	lines := strings.Split(doc, "\n")
	i := 0
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i = 1; i < len(lines) && strings.TrimSpace(lines[i]) != "---"; i++ {
		}
		i++
	}
	for ; i < len(lines); i++ {
		n := i + 1
		trimmed := strings.TrimSpace(lines[i])
		switch {
		case strings.HasPrefix(trimmed, "```"):
			flush()
			i = codeBlock(lines, i+1, func(s string, line int) { out = appendSentence(out, s, line) }, func(c string, line int) {
				if c == "" {
					flush()
					return
				}
				add(c, line)
			}, flush)
		case trimmed == "":
			flush()
		case strings.HasPrefix(trimmed, "#"):
			flush()
		case strings.HasPrefix(trimmed, "|"):
			flush()
			if tableSeparator.MatchString(trimmed) {
				continue
			}
			var cells []string
			for _, c := range strings.Split(strings.Trim(trimmed, "|"), "|") {
				if c = strings.TrimSpace(c); c != "" {
					cells = append(cells, c)
				}
			}
			out = appendSentence(out, strings.Join(cells, " | "), n)
		case listItem.MatchString(trimmed):
			flush()
			add(listItem.ReplaceAllString(trimmed, ""), n)
		default:
			add(trimmed, n)
		}
	}
	flush()
	return out
}

var (
	tableSeparator = regexp.MustCompile(`^\|[\s:|-]+\|?$`)
	listItem       = regexp.MustCompile(`^([-*+]|[0-9]+[.)])\s+(\[[ xX]\]\s+)?`)
	commentLine    = regexp.MustCompile(`^(//|#)\s?`)
)

// codeBlock reads a fenced block from line start to its closing fence and
// returns the index of the fence. Comment runs are prose (comment, with ""
// ending a run); a run of API markers and the code line it annotates is
// one sentence (marker).
func codeBlock(lines []string, start int, marker func(string, int), comment func(string, int), end func()) int {
	var markers []string
	markerLine := 0
	i := start
	for ; i < len(lines); i++ {
		trimmed := strings.TrimSpace(lines[i])
		if strings.HasPrefix(trimmed, "```") {
			break
		}
		if loc := commentLine.FindStringIndex(trimmed); loc != nil {
			text := strings.TrimSpace(trimmed[loc[1]:])
			if strings.HasPrefix(text, "+") {
				comment("", 0)
				if len(markers) == 0 {
					markerLine = i + 1
				}
				markers = append(markers, text)
				continue
			}
			if len(markers) > 0 {
				marker(strings.Join(markers, " "), markerLine)
				markers = nil
			}
			comment(text, i+1)
			continue
		}
		comment("", 0)
		if len(markers) > 0 {
			marker(strings.Join(append(markers, trimmed), " "), markerLine)
			markers = nil
		}
	}
	if len(markers) > 0 {
		marker(strings.Join(markers, " "), markerLine)
	}
	end()
	return i
}

func appendSentence(out []Sentence, text string, line int) []Sentence {
	text = normalise(text)
	if text == "" {
		return out
	}
	return append(out, Sentence{Text: text, Line: line, Fingerprint: Fingerprint(text)})
}

var abbreviations = []string{"e.g.", "i.e.", "etc.", "vs.", "cf.", "Mr.", "Dr.", "No."}

// splitSentences cuts a paragraph after a sentence's end mark.
func splitSentences(p string) []string {
	var out []string
	start := 0
	for i := 0; i < len(p); i++ {
		if p[i] != '.' && p[i] != '?' && p[i] != '!' {
			continue
		}
		j := i + 1
		for j < len(p) && strings.IndexByte(`"')]*_`+"`", p[j]) >= 0 {
			j++
		}
		if j >= len(p) || p[j] != ' ' {
			continue
		}
		k := j
		for k < len(p) && p[k] == ' ' {
			k++
		}
		if k < len(p) && p[k] >= 'a' && p[k] <= 'z' {
			continue
		}
		if endsWithAbbreviation(p[start : i+1]) {
			continue
		}
		out = append(out, p[start:j])
		start = k
		i = k - 1
	}
	if start < len(p) {
		out = append(out, p[start:])
	}
	return out
}

func endsWithAbbreviation(s string) bool {
	for _, a := range abbreviations {
		if strings.HasSuffix(s, a) && (len(s) == len(a) || !isLetter(s[len(s)-len(a)-1])) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
