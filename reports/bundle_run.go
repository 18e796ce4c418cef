package reports

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// BundleRun packs the certification run in dir into
// <dir>/<organization>-<project>-<version>.tar.gz (WriteBundle; signed
// with key when one is given) and returns its path.
func BundleRun(dir string, key *Key) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, ConformanceJSON))
	if err != nil {
		return "", fmt.Errorf("%w (the bundle is made from a finished run: make certify)", err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return "", fmt.Errorf("%s: %w", ConformanceJSON, err)
	}
	files := slices.Clone(bundleRequired)
	if _, err := os.Stat(filepath.Join(dir, "failures")); err == nil {
		files = append(files, "failures")
	}
	impl := r.Implementation
	name := strings.Join([]string{slug(impl.Organization), slug(impl.Project), slug(impl.Version)}, "-") + ".tar.gz"
	out := filepath.Join(dir, name)
	return out, WriteBundle(dir, out, files, key)
}

var unsafeInName = regexp.MustCompile(`[^A-Za-z0-9._]+`)

// slug keeps a name safe as part of a file name.
func slug(s string) string {
	if s = strings.Trim(unsafeInName.ReplaceAllString(s, "_"), "_"); s == "" {
		return "unknown"
	}
	return s
}
