package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/router-conformance/suite/contract"
)

// HistoryJSONL is the file each run appends its HistoryEntry to, in the
// report directory: a nightly job carries it from one night to the next,
// and `make trend` draws it.
const HistoryJSONL = "history.jsonl"

// HistoryEntry is one run in a line: when, which suite judged which
// router, the verdict, and per feature its spec counts and time.
type HistoryEntry struct {
	Date         time.Time `json:"date"`
	SuiteVersion string    `json:"suiteVersion"`
	SuiteCommit  string    `json:"suiteCommit"`
	SuiteDirty   bool      `json:"suiteDirty,omitempty"`
	// RouterImage is the image judged (its reference; its content ID
	// apart), Implementation "project version".
	RouterImage    string `json:"routerImage,omitempty"`
	RouterImageID  string `json:"routerImageID,omitempty"`
	Implementation string `json:"implementation,omitempty"`
	Result         Result `json:"result"`
	Reason         string `json:"reason,omitempty"`
	// Seconds is the run's wall time.
	Seconds float64 `json:"seconds"`
	// Flaked counts the specs that failed, then passed on a retry.
	Flaked   int              `json:"flaked"`
	Features []FeatureHistory `json:"features"`
}

// FeatureHistory is one feature in a run: its specs by outcome (router
// and platform together) and the time they took.
type FeatureHistory struct {
	Feature contract.Feature `json:"feature"`
	Claimed bool             `json:"claimed"`
	Result  Result           `json:"result"`
	// Passed includes the flaked specs, which passed on a retry.
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Flaked  int `json:"flaked"`
	Skipped int `json:"skipped"`
	// Seconds is the sum of its specs' run times (retries included); the
	// specs run in parallel, so it is spec time, not wall time.
	Seconds float64 `json:"seconds"`
	// FailedSpecs and FlakedSpecs are spec IDs.
	FailedSpecs []contract.SpecID `json:"failedSpecs,omitempty"`
	FlakedSpecs []contract.SpecID `json:"flakedSpecs,omitempty"`
}

// PassRate is passed / (passed + failed), and false when no spec ran.
func (f FeatureHistory) PassRate() (float64, bool) {
	if f.Passed+f.Failed == 0 {
		return 0, false
	}
	return float64(f.Passed) / float64(f.Passed+f.Failed), true
}

// NewHistoryEntry is a run's line: the report, and the specs it was
// built from for their times.
func NewHistoryEntry(r Report, specs []SpecResult) HistoryEntry {
	e := HistoryEntry{
		Date: r.Date.UTC(), SuiteVersion: r.Suite.Version, SuiteCommit: r.Suite.Commit, SuiteDirty: r.Suite.Dirty,
		RouterImage: r.Implementation.Image, RouterImageID: r.Implementation.ImageID,
		Implementation: strings.TrimSpace(r.Implementation.Project + " " + r.Implementation.Version),
		Result:         r.Result, Reason: r.Reason, Seconds: seconds(time.Duration(r.Duration)), Flaked: r.Flaked,
	}
	spent := map[contract.Feature]time.Duration{}
	for _, s := range specs {
		if features := contract.FeaturesOf(s.Labels); len(features) > 0 && s.State != Skipped {
			spent[features[0]] += s.Duration
		}
	}
	for _, f := range r.Features {
		h := FeatureHistory{
			Feature: f.Feature, Claimed: f.Claimed, Result: f.Result,
			Passed:  len(f.Router.Passed) + len(f.Platform.Passed),
			Failed:  len(f.Router.Failed) + len(f.Platform.Failed),
			Skipped: len(f.Router.Skipped) + len(f.Platform.Skipped),
			Flaked:  len(f.Flaked),
			Seconds: seconds(spent[f.Feature]),
		}
		for _, s := range slices.Concat(f.Router.Failed, f.Platform.Failed) {
			h.FailedSpecs = append(h.FailedSpecs, s.ID)
		}
		slices.Sort(h.FailedSpecs)
		for _, s := range f.Flaked {
			h.FlakedSpecs = append(h.FlakedSpecs, s.ID)
		}
		e.Features = append(e.Features, h)
	}
	return e
}

// seconds rounds to a tenth.
func seconds(d time.Duration) float64 {
	return float64(d.Round(100*time.Millisecond).Milliseconds()) / 1000
}

// AppendHistory adds the entry as one line to dir/history.jsonl.
func AppendHistory(dir string, e HistoryEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, HistoryJSONL), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReadHistory reads history files (each a history.jsonl) into one
// history in date order; a run found in several files (a night's file
// carries the nights before it) counts once.
func ReadHistory(files ...string) ([]HistoryEntry, error) {
	var out []HistoryEntry
	seen := map[string]bool{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 16<<20)
		for n := 1; sc.Scan(); n++ {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			// Fields a later suite adds are ignored: a history outlives
			// suite versions.
			var e HistoryEntry
			if err := json.Unmarshal(line, &e); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, n, err)
			}
			key, _ := json.Marshal(e)
			if seen[string(key)] {
				continue
			}
			seen[string(key)] = true
			out = append(out, e)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
	}
	slices.SortStableFunc(out, func(a, b HistoryEntry) int { return a.Date.Compare(b.Date) })
	return out, nil
}
