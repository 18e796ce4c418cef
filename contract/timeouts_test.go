package contract

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Every wait is a field of Timeouts: a duration written anywhere else in
// the code that runs a conformance run is a wait nobody can see, tune or
// hold to its certification value. Exempt: rounding a duration for a
// message, and a line that says why its duration is not a wait (a CRL's
// lifetime is data the router is given) with "// not a wait:".
var durationLiteral = regexp.MustCompile(`\btime\.(Nanosecond|Microsecond|Millisecond|Second|Minute|Hour)\b`)
var rounding = regexp.MustCompile(`\.(Round|Truncate)\(time\.(Nanosecond|Microsecond|Millisecond|Second|Minute|Hour)\)`)

func TestNoWaitOutsideTheTimeoutsTable(t *testing.T) {
	var found []string
	for _, dir := range []string{"e2e", "platform/install", "clusters/kind", "runner"} {
		err := filepath.WalkDir(filepath.Join("..", dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for n, line := range strings.Split(string(data), "\n") {
				code, comment, _ := strings.Cut(line, "//")
				if strings.HasPrefix(strings.TrimSpace(comment), "not a wait:") {
					continue
				}
				if durationLiteral.MatchString(rounding.ReplaceAllString(code, "")) {
					found = append(found, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(path), n+1, strings.TrimSpace(line)))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(found) > 0 {
		t.Errorf("durations outside contract/timeouts.go (make each wait a field of Timeouts, or say \"// not a wait: <why>\"):\n%s", strings.Join(found, "\n"))
	}
}

// The Makefile never calls Ginkgo itself: every run goes through the run
// path, which passes Ginkgo the run's -timeout-run as its --timeout.
func TestTheMakefileRunsGinkgoOnlyThroughTheRunPath(t *testing.T) {
	data, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?m)^\t.*\bginkgo\b.*$`).FindAll(data, -1); len(m) > 0 {
		t.Errorf("the Makefile calls Ginkgo outside the run path (go run ./runner/cmd/run): %q", m)
	}
	if n := regexp.MustCompile(`--timeout=[0-9]`).FindAll(data, -1); len(n) > 0 {
		t.Errorf("the Makefile passes Ginkgo a --timeout literal %d time(s)", len(n))
	}
}

// The certification values are the defaults, and Diff names a changed
// field.
func TestCertificationTimeoutsAreTheDefaults(t *testing.T) {
	if diff := CertificationTimeouts().Diff(DefaultTimeouts()); len(diff) > 0 {
		t.Errorf("certification timeouts differ from the defaults: %v", diff)
	}
	long := DefaultTimeouts()
	long.Poll = time.Hour
	long.Consecutive = 1
	want := []string{"-poll-interval 1h0m0s (want 250ms)", "-consecutive 1 (want 3)"}
	if got := long.Diff(CertificationTimeouts()); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Diff = %q, want %q", got, want)
	}
}

// Every field carries its flag, file key and usage, and is a duration or
// a count.
func TestEveryTimeoutFieldIsNamed(t *testing.T) {
	var tt Timeouts
	for _, f := range tt.Fields() {
		if f.Flag == "" || f.Key == "" || f.Usage == "" || (f.Duration == nil) == (f.Count == nil) {
			t.Errorf("field %+v: give it flag, key and usage tags, and make it a time.Duration or an int", f)
		}
	}
}
