package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/reports"
)

// Reproduce reruns a bundle's run on this machine, through the one run
// path, and compares it spec by spec: what a certifier does with a
// vendor's bundle. The bundle must verify against this build (the same
// suite commit: the run is rerun with the same specs); its router image
// must be in the local Docker engine by the bundle's image ID (the
// certifier `docker load`s the vendor's image: a tag pointing elsewhere
// is not the image judged); its claims, implementation and profile are
// the bundle's. A router that passed once in twenty tries does not
// reproduce.
func Reproduce(ctx context.Context, b Binaries, bundle string, allowDev bool, o Options, stdout, stderr io.Writer) int {
	refuse := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "reproduce: "+format+"\n", args...)
		return ExitUsage
	}
	v, err := reports.Verify(bundle, reports.VerifyOptions{AllowDev: allowDev, Commit: b.Build.Commit, Version: b.Build.Version})
	if err != nil {
		return refuse("the bundle does not verify against this build: %v", err)
	}
	rec := v.Record
	id := rec.Implementation.ImageID
	if id == "" {
		return refuse("the bundle names no router image ID: nothing to rerun")
	}
	if err := b.prepare(ctx, o); err != nil {
		return refuse("%v", err)
	}
	var flags []string
	switch rec.Profile {
	case framework.KindProfile:
		// The image by its ID, tagged for the run: a tag pointing at
		// another image is not the image judged.
		ref, err := images.TagByID(ctx, "reproduce", id)
		if err != nil {
			return refuse("the router image %s (%s in the bundle) is not in the local Docker engine: docker load the vendor's image (%v)", id, rec.Implementation.Image, err)
		}
		flags = append(reproduceFlags(rec), "-router-image="+ref)
	case framework.ExistingProfile:
		// The cluster is the certifier's to name; its router must run the
		// bundle's image (checked after the run, as the profile reads it).
		if !slices.ContainsFunc(o.Suite, func(f string) bool {
			return strings.HasPrefix(f, "-kubeconfig=") || strings.HasPrefix(f, "-in-cluster")
		}) {
			return refuse("the bundle was made on the existing profile: name the cluster whose router runs %s after the bundle, as its run did: reproduce <bundle> -kubeconfig=... -http-addr=... -https-addr=... -domain=... -image-repository=... [-allow-disruptive]", id)
		}
		flags = append(reproduceFlags(rec), "-profile="+framework.ExistingProfile)
	default:
		return refuse("the bundle's profile %q is none this suite knows", rec.Profile)
	}
	certifierKey := o.SignKey
	o.Name, o.Certify, o.Repeat, o.SignKey, o.Reproducible = "reproduce", false, 1, nil, true
	o.Suite = append(flags, o.Suite...)
	status := Run(ctx, Binaries{Ginkgo: b.Ginkgo, Suite: b.Suite, Compile: b.Compile, Dir: b.Dir, RepoRoot: b.RepoRoot, Images: b.Images, Build: b.Build},
		o, stdout, stderr)

	reportDir, _ := filepath.Abs(o.ReportDir)
	original := filepath.Join(reportDir, "bundle-report.json")
	if err := writeReport(original, v.Ginkgo); err != nil {
		return refuse("%v", err)
	}
	c, err := reports.CompareFiles("bundle", original, "reproduction", filepath.Join(reportDir, reports.ReportJSON), filepath.Join(reportDir, "reproduce.md"), stdout)
	if err != nil {
		fmt.Fprintln(stdout, "NOT REPRODUCED:", err)
		return ExitNotPass
	}
	var problems []string
	if n := c.Count(reports.Different); n > 0 {
		problems = append(problems, fmt.Sprintf("%d specs differ", n))
	}
	rerun, again, err := reports.ReadRun(filepath.Join(reportDir, reports.ReportJSON))
	if err != nil {
		problems = append(problems, "the rerun recorded nothing: "+err.Error())
	} else if again.Implementation.ImageID != id {
		problems = append(problems, fmt.Sprintf("the rerun judged image %s, not the bundle's %s", again.Implementation.ImageID, id))
	} else if note, differs := reports.CompareBinaries(rec.Suite.Binary, again.Suite.Binary); differs {
		problems = append(problems, note)
	} else {
		fmt.Fprintln(stdout, note)
	}
	impl := rec.Implementation
	if len(problems) > 0 {
		fmt.Fprintf(stdout, "NOT REPRODUCED: %s %s: %s\n", impl.Project, impl.Version, strings.Join(problems, "; "))
		return ExitNotPass
	}
	fmt.Fprintf(stdout, "REPRODUCED: %s %s: %s (%d same)\n", impl.Project, impl.Version, v.Report.Result, c.Count(reports.Same))
	if status != ExitPassed && v.Report.Passed() {
		return ExitNotPass
	}
	if certifierKey != nil {
		specs, run := reports.FromGinkgo(rerun)
		claim := reports.CertificationClaim{Implementation: impl, Result: v.Report.Result, Rerun: reports.Rerun{
			Suite: again.Suite, ImageID: again.Implementation.ImageID, Date: again.Date, Result: reports.Build(again.Meta, again.Claimed, specs, run).Result,
			Same: c.Count(reports.Same), Different: c.Count(reports.Different)}}
		path, err := reports.WriteCertification(bundle, claim, certifierKey)
		if err != nil {
			fmt.Fprintln(stdout, "NOT CERTIFIED:", err)
			return ExitNotPass
		}
		fmt.Fprintf(stdout, "certifier's statement: %s (make verify BUNDLE=%s CERTIFIER_KEY=<the certifier's public key>)\n", path, bundle)
	}
	return ExitPassed
}

// reproduceFlags are the suite flags of the bundle's run: its claims and
// its implementation.
func reproduceFlags(rec reports.RunRecord) []string {
	impl := rec.Implementation
	var flags []string
	var claims []string
	for _, f := range rec.Claimed {
		claims = append(claims, string(f))
	}
	flags = append(flags, "-features="+strings.Join(claims, ","), "-openshift-release="+string(rec.OpenShiftRelease))
	for flag, v := range map[string]string{"implementation-organization": impl.Organization, "implementation-project": impl.Project,
		"implementation-url": impl.URL, "implementation-version": impl.Version} {
		if v != "" {
			flags = append(flags, "-"+flag+"="+v)
		}
	}
	for _, c := range impl.Contact {
		flags = append(flags, "-implementation-contact="+c)
	}
	return flags
}

func writeReport(path string, g types.Report) error {
	data, err := json.Marshal([]types.Report{g})
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
