package contract

import (
	"fmt"
	"slices"
	"strings"
)

// Release is an OpenShift release line the suite judges a router against
// (-openshift-release): Kubernetes conformance is versioned with
// Kubernetes, and a vendor certifies against the OpenShift release its
// customers run. The behaviour a spec asserts is upstream's on that line.
type Release string

// ReleaseInfo is one tracked release line: the openshift/router branch
// whose behaviour it names.
type ReleaseInfo struct {
	Release Release `json:"release"`
	Branch  string  `json:"branch"`
}

// Releases are the tracked lines, oldest first; master is upstream's
// development head, newer than every line.
var Releases = []ReleaseInfo{
	{"4.20", "release-4.20"},
	{"4.21", "release-4.21"},
	{"4.22", "release-4.22"},
	{"4.23", "release-4.23"},
	{"5.0", "release-5.0"},
	{"5.1", "release-5.1"},
	{"master", "master"},
}

// DefaultRelease is the newest release line the suite tracks (master is
// no release a customer runs).
const DefaultRelease Release = "5.1"

// ReleaseNames lists the tracked lines, oldest first.
func ReleaseNames() []string {
	out := make([]string, len(Releases))
	for i, r := range Releases {
		out[i] = string(r.Release)
	}
	return out
}

// ParseRelease returns the tracked line s names, or an error that lists
// the tracked ones.
func ParseRelease(s string) (Release, error) {
	if i := releaseIndex(Release(s)); i >= 0 {
		return Releases[i].Release, nil
	}
	return "", fmt.Errorf("no release line this suite tracks: pick one of %s (the line your customers run)", strings.Join(ReleaseNames(), ", "))
}

func releaseIndex(r Release) int {
	return slices.IndexFunc(Releases, func(i ReleaseInfo) bool { return i.Release == r })
}

// AtLeast says r is the line since or a newer one. Both must be tracked.
func (r Release) AtLeast(since Release) bool {
	i, j := releaseIndex(r), releaseIndex(since)
	if i < 0 || j < 0 {
		panic(fmt.Sprintf("Release.AtLeast(%q, %q): not a tracked release (contract/releases.go)", r, since))
	}
	return i >= j
}

// Change is an upstream behaviour a spec asserts that differs between
// tracked release lines, by a stable name.
type Change string

// The behaviour changes of the table below.
const (
	ChangeRedirectDropsHostPort Change = "redirect-drops-host-port"
)

// ChangeInfo is one row of the behaviour-change table: the first tracked
// line that behaves the new way, the upstream commit and where it
// changed, and both behaviours.
type ChangeInfo struct {
	Change Change  `json:"change"`
	Since  Release `json:"since"`
	// Commit is the upstream commit on master (its backports have other
	// hashes); Source the file and the part of it that changed.
	Commit string `json:"commit"`
	Source string `json:"source"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// Changes is every behaviour a spec asserts that differs between the
// tracked lines. Read from openshift/router's history between
// release-4.20 and master of images/router/haproxy/conf/haproxy-config.template,
// pkg/router/crl and pkg/router/template, and pkg/router/controller
// (unique_host.go unchanged): the X-SSL* filtering (openshift/router#787,
// OCPBUGS-86718) was backported to release-4.20 and is the same on every
// tracked line; the HSTS rendering, header actions, mutual TLS binds and
// the CRL download (crl.go: a refactor of a select only) are unchanged;
// the redirect is the one difference.
var Changes = []ChangeInfo{
	{
		Change: ChangeRedirectDropsHostPort, Since: "4.22",
		Commit: "823a6fd5f (openshift/router, \"Fix HAProxy redirect: strip port from Host header and preserve query strings\")",
		Source: "images/router/haproxy/conf/haproxy-config.template, frontend public: the secure_redirect redirect",
		Before: "`redirect scheme https if secure_redirect`: Location is https:// and the (lowercased) Host header as sent, its port kept, then the path and query",
		After:  "`http-request redirect location https://%[req.hdr(host),regsub(:[0-9]+$,,)]%[url] code 302 if secure_redirect`: the Host's port dropped, path and query kept",
	},
}

// LookupChange returns the table's row for c.
func LookupChange(c Change) (ChangeInfo, bool) {
	i := slices.IndexFunc(Changes, func(ci ChangeInfo) bool { return ci.Change == c })
	if i < 0 {
		return ChangeInfo{}, false
	}
	return Changes[i], true
}

// ByRelease is a gated spec's expectation: before on lines older than the
// change, after from the change's line on. An unknown change is an
// error, never a default.
func ByRelease[T any](r Release, c Change, before, after T) (T, error) {
	info, ok := LookupChange(c)
	if !ok {
		var zero T
		return zero, fmt.Errorf("behaviour change %q is not in contract/releases.go's Changes", c)
	}
	if r.AtLeast(info.Since) {
		return after, nil
	}
	return before, nil
}

// FeatureInRelease says the release line has the feature: its upstream
// shipped it there (FeatureInfo.OpenShiftSince; empty: every tracked
// line, or a feature that is no OpenShift API).
func FeatureInRelease(f FeatureInfo, r Release) bool {
	return f.OpenShiftSince == "" || r.AtLeast(f.OpenShiftSince)
}

// ChangeLabelPrefix marks a spec that asserts a behaviour of the table:
// "changes:<name>" (framework.Gated).
const ChangeLabelPrefix = "changes:"

// ChangesOf returns the behaviour changes a spec's labels name.
func ChangesOf(labels []string) []Change {
	var out []Change
	for _, l := range labels {
		if rest, ok := strings.CutPrefix(l, ChangeLabelPrefix); ok {
			out = append(out, Change(rest))
		}
	}
	return out
}
