package reports

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/router-conformance/suite/contract"
)

// verified is the Verified of a derived report.
func verified(r Report, dev bool) Verified {
	v := Verified{Report: r, DevBuild: dev}
	for _, f := range r.Features {
		if !f.Claimed || f.Harness {
			continue
		}
		v.RouterSpecs += len(f.Router.Passed) + len(f.Router.Failed)
		v.PlatformSpecs += len(f.Platform.Passed) + len(f.Platform.Failed)
	}
	return v
}

// ExitCode is the verifier's exit status for a bundle that verified: 0
// for a passed verdict, 2 for any other (failed, partial, error): nothing
// but passed is passing. (A bundle that does not verify exits 1.)
func (v Verified) ExitCode() int {
	if v.Report.Passed() {
		return 0
	}
	return 2
}

// Line is the verifier's one line for a bundle that verified: its level
// (CONSISTENT: its files agree; CERTIFIED: a certifier's signed rerun
// matched it), the implementation and its verdict (why, when not passed; a development
// build said), what was claimed, what is unsupported or not judged, how
// many specs judged the router and the platform (and who the platform
// was), and the image judged by its digest or ID.
func (v Verified) Line() string {
	r := v.Report
	level := "CONSISTENT"
	if v.Certified != nil {
		level = "CERTIFIED"
	}
	head := fmt.Sprintf("%s: %s %s: %s against OpenShift %s", level, r.Implementation.Project, r.Implementation.Version, r.Result, r.OpenShiftRelease)
	var notes []string
	if v.DevBuild {
		notes = append(notes, "development build")
	}
	if r.Reason != "" {
		notes = append(notes, r.Reason)
	}
	if len(notes) > 0 {
		head += " (" + strings.Join(notes, "; ") + ")"
	}
	var claimed, unsupported []contract.Feature
	for _, f := range r.Features {
		switch {
		case f.Harness:
		case f.Claimed:
			claimed = append(claimed, f.Feature)
		case f.Result == Unsupported:
			unsupported = append(unsupported, f.Feature)
		}
	}
	parts := []string{"claimed " + orNone(claimed), "unsupported: " + orNone(unsupported)}
	if nj := r.NotJudged(); len(nj) > 0 {
		parts = append(parts, "not judged: "+joinFeatures(nj)+" (every spec of them judges the platform)")
	}
	parts = append(parts, fmt.Sprintf("judged %d router specs and %d platform specs (%s)", v.RouterSpecs, v.PlatformSpecs, platformName(r.Platform)))
	parts = append(parts, imageName(r.Implementation))
	if v.SignedBy != "" {
		parts = append(parts, "signature OK (key "+v.SignedBy+")")
	}
	if c := v.Certified; c != nil {
		// What the certifier compared, and what not: the one line a
		// customer compares with the image they run.
		rerun := fmt.Sprintf("rerun by the certifier (key %s) on %s, which compared the image ID %s", c.KeyID, c.Rerun.Date.UTC().Format(time.DateOnly), c.Rerun.ImageID)
		switch {
		case c.Rerun.ImageDigest != "":
			rerun += " and the repository digest " + c.Rerun.ImageDigest
		case r.Implementation.ImageDigest != "":
			rerun += ", not the repository digest " + r.Implementation.ImageDigest + " (the certifier's copy of the image had none)"
		}
		parts = append(parts, rerun)
	} else {
		parts = append(parts, "not certified: the files agree, no certifier's rerun was checked (CERTIFIER_KEY)")
	}
	line := head + " — " + strings.Join(parts, "; ")
	return strings.Join(strings.Fields(line), " ")
}

func orNone(features []contract.Feature) string {
	if len(features) == 0 {
		return "none"
	}
	return joinFeatures(features)
}

// platformName says who answered the specs that judge the platform.
func platformName(p string) string {
	switch p {
	case PlatformStandIns:
		return "the suite's own stand-ins"
	case PlatformCluster:
		return "the cluster's own"
	case "":
		return "the platform not named"
	}
	return p
}

// imageName is the image judged: by its repository digest when it has
// one, else by its content ID.
func imageName(impl Implementation) string {
	switch {
	case impl.ImageDigest != "":
		return "image " + impl.ImageDigest
	case impl.ImageID != "":
		return "image " + impl.ImageID
	case impl.Image != "":
		return "image " + impl.Image + " (not by ID: the run ended before the router image was known)"
	}
	return "no image: the run ended before the router image was known"
}

// Table is the verdict feature by feature (claimed?, result, the router's
// and the platform's specs passed/failed/skipped), then the image: what
// the verifier's -v prints below its line.
func (v Verified) Table() string {
	r := v.Report
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "feature\tclaimed\tresult\trouter passed/failed/skipped\tplatform passed/failed/skipped")
	for _, f := range r.Features {
		claimed := "no"
		if f.Claimed {
			claimed = "yes"
		}
		name := string(f.Feature)
		if f.Harness {
			name += " (harness)"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", name, claimed, f.Result, f.Router.tally(), f.Platform.tally())
	}
	w.Flush()
	impl := r.Implementation
	fmt.Fprintf(&b, "image: %s\n", orUnknown(impl.Image))
	fmt.Fprintf(&b, "image digest: %s\n", orUnknown(impl.ImageDigest))
	fmt.Fprintf(&b, "image ID: %s\n", orUnknown(impl.ImageID))
	fmt.Fprintf(&b, "platform: %s\n", orUnknown(r.Platform))
	return b.String()
}

func orUnknown(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
