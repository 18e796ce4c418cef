package reports

import (
	"fmt"
	"slices"
	"strings"
)

// RerunComparison is what a certifier's rerun (make reproduce) compared
// of its own record with the bundle's, besides the specs: every item it
// could compare, every item it could not and why, and every difference.
// Only a rerun with no difference reproduces.
type RerunComparison struct {
	Compared    []string
	NotCompared []string
	Differences []string
	// ImageDigest is the repository digest compared ("" when the bundle
	// names none or the image here has none).
	ImageDigest string
}

// CompareRerun holds a rerun's record to the bundle's: the image (its
// content ID, and the repository digest the bundle names against the
// digests the certifier's copy has, repoDigests as docker lists them,
// repository@sha256:...), the profile and the platform, the release
// line, the claims and the implementation, and the rerun's own build:
// the bundle's commit, clean, under the certification rules, and
// compiled to the bundle's binary byte for byte.
func CompareRerun(bundle, rerun RunRecord, repoDigests []string) RerunComparison {
	var c RerunComparison
	same := func(what, want, got string) {
		if want == got {
			c.Compared = append(c.Compared, what)
			return
		}
		c.Differences = append(c.Differences, fmt.Sprintf("the rerun's %s is %s, the bundle's %s", what, orNothing(got), orNothing(want)))
	}
	same("image ID", bundle.Implementation.ImageID, rerun.Implementation.ImageID)
	if d := bundle.Implementation.ImageDigest; d != "" {
		var here []string
		for _, rd := range repoDigests {
			if _, digest, ok := strings.Cut(rd, "@"); ok {
				here = append(here, digest)
			}
		}
		switch {
		case len(here) == 0:
			c.NotCompared = append(c.NotCompared, "repository digest "+d+" (the image here has none: docker load keeps none; fetch it from its registry by that digest to compare it)")
		case slices.Contains(here, d):
			c.Compared = append(c.Compared, "repository digest "+d)
			c.ImageDigest = d
		default:
			c.Differences = append(c.Differences, fmt.Sprintf("the image here has repository digests %s, the bundle names %s", strings.Join(here, ", "), d))
		}
	}
	same("profile", bundle.Profile, rerun.Profile)
	same("platform", bundle.Platform, rerun.Platform)
	same("OpenShift release", string(bundle.OpenShiftRelease), string(rerun.OpenShiftRelease))
	same("claims", featureList(bundle.Claimed), featureList(rerun.Claimed))
	same("implementation", implementationName(bundle.Implementation), implementationName(rerun.Implementation))
	same("suite commit", bundle.Suite.Commit, rerun.Suite.Commit)
	if rerun.Suite.Dirty {
		c.Differences = append(c.Differences, "the rerun's suite build had uncommitted changes")
	}
	if !rerun.Certify {
		c.Differences = append(c.Differences, "the rerun was not made under the certification rules (-certify)")
	}
	if note, ok := CompareBinaries(bundle.Suite.Binary, rerun.Suite.Binary); ok {
		c.Compared = append(c.Compared, "suite binary")
	} else {
		c.Differences = append(c.Differences, note)
	}
	return c
}

// implementationName is every field that names an implementation, for
// comparing two.
func implementationName(i Implementation) string {
	return strings.Join(append([]string{i.Organization, i.Project, i.URL, i.Version}, i.Contact...), ", ")
}

func orNothing(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
