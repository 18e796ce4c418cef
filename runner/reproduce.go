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
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/images"
	"github.com/router-conformance/suite/reports"
)

// Reproduce reruns a bundle's run on this machine, through the one run
// path, and compares it spec by spec: what a certifier does with a
// vendor's bundle. The bundle is read once (reports.Verify): what the
// rerun compares and what the certifier's statement is about are that
// read, whatever the file holds later. It must verify against this
// build (the same suite commit: the run is rerun with the same specs);
// its router image must be in the local Docker engine by the bundle's
// image ID (the certifier `docker load`s the vendor's image: a tag
// pointing elsewhere is not the image judged). The rerun is a
// certification (every rule of make certify, its images built afresh)
// with the bundle's claims, implementation, release and profile; only the
// cluster is the certifier's to name (rerunFlags). Its record is held to
// the bundle's (reports.CompareRerun). A rerun that does not reproduce
// leaves no earlier certificate standing: with the certifier's key it
// signs a negative statement, without one it removes the statement.
func Reproduce(ctx context.Context, b Binaries, bundle string, allowDev bool, o Options, stdout, stderr io.Writer) int {
	refuse := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "reproduce: "+format+"\n", args...)
		return ExitUsage
	}
	if err := rerunFlags(o.Suite); err != nil {
		return refuse("%v", err)
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
	var flags []string
	var repoDigests []string
	switch rec.Profile {
	case framework.KindProfile:
		if slices.ContainsFunc(o.Suite, func(f string) bool { return !kindRerunFlags[flagName(f)] }) {
			return refuse("the bundle was made on the kind profile: its rerun takes no cluster of the certifier's (%s)", strings.Join(o.Suite, " "))
		}
		// The image by its ID, tagged for the run: a tag pointing at
		// another image is not the image judged.
		ref, err := images.TagByID(ctx, "reproduce", id)
		if err != nil {
			return refuse("the router image %s (%s in the bundle) is not in the local Docker engine: docker load the vendor's image (%v)", id, rec.Implementation.Image, err)
		}
		if repoDigests, err = images.RepoDigests(ctx, id); err != nil {
			return refuse("%v", err)
		}
		flags = append(reproduceFlags(rec), "-router-image="+ref)
	case framework.ExistingProfile:
		// The cluster is the certifier's to name; its router must run the
		// bundle's image (compared after the run, as the profile reads it).
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
	o.Name, o.Certify, o.Rerun, o.Repeat, o.SignKey = "reproduce", true, true, 1, nil
	o.Suite = append(flags, o.Suite...)
	Run(ctx, b, o, stdout, stderr) // its verdict is compared below, with its record

	impl := rec.Implementation
	notReproduced := func(rerun reports.Rerun, problems []string) int {
		fmt.Fprintf(stdout, "NOT REPRODUCED: %s %s: %s\n", impl.Project, impl.Version, strings.Join(problems, "; "))
		if certifierKey != nil {
			claim := reports.CertificationClaim{Implementation: impl, Result: v.Report.Result, Rerun: rerun, NotReproduced: problems}
			if path, err := reports.WriteCertification(bundle, v.Digest, claim, certifierKey); err != nil {
				fmt.Fprintln(stderr, "reproduce: the certifier's negative statement:", err)
			} else {
				fmt.Fprintf(stdout, "certifier's statement: %s says the rerun did not reproduce the bundle\n", path)
			}
		} else if removed, err := reports.RemoveCertification(bundle); err != nil {
			fmt.Fprintln(stderr, "reproduce: the earlier certifier's statement stays:", err)
		} else if removed {
			fmt.Fprintf(stdout, "the earlier certifier's statement %s is removed: this rerun did not reproduce the bundle\n", reports.CertificationPath(bundle))
		}
		return ExitNotPass
	}
	reportDir, _ := filepath.Abs(o.ReportDir)
	original := filepath.Join(reportDir, "bundle-report.json")
	if err := writeReport(original, v.Ginkgo); err != nil {
		return refuse("%v", err)
	}
	rerunReport := filepath.Join(reportDir, reports.ReportJSON)
	c, err := reports.CompareFiles("bundle", original, "reproduction", rerunReport, filepath.Join(reportDir, "reproduce.md"), stdout)
	if err != nil {
		return notReproduced(reports.Rerun{Date: time.Now().UTC()}, []string{"the rerun recorded no comparable report: " + err.Error()})
	}
	rerunGinkgo, again, err := reports.ReadRun(rerunReport)
	if err != nil {
		return notReproduced(reports.Rerun{Date: time.Now().UTC()}, []string{"the rerun recorded nothing: " + err.Error()})
	}
	specs, run := reports.FromGinkgo(rerunGinkgo)
	result := reports.Build(again.Meta, again.Claimed, specs, run).Result
	compared := reports.CompareRerun(rec, again, repoDigests)
	rerun := reports.Rerun{Suite: again.Suite, ImageID: again.Implementation.ImageID, ImageDigest: compared.ImageDigest, Date: again.Date, Result: result,
		Same: c.Count(reports.Same), Different: c.Count(reports.Different), Compared: compared.Compared, NotCompared: compared.NotCompared}
	var problems []string
	if rerun.Different > 0 {
		problems = append(problems, fmt.Sprintf("%d specs differ (%s)", rerun.Different, filepath.Join(reportDir, "reproduce.md")))
	}
	if result != v.Report.Result {
		problems = append(problems, fmt.Sprintf("the rerun's verdict is %s, the bundle's %s", result, v.Report.Result))
	}
	problems = append(problems, compared.Differences...)
	if len(problems) > 0 {
		return notReproduced(rerun, problems)
	}
	line := fmt.Sprintf("REPRODUCED: %s %s: %s (%d same; compared: %s", impl.Project, impl.Version, v.Report.Result, rerun.Same, strings.Join(compared.Compared, ", "))
	if len(compared.NotCompared) > 0 {
		line += "; not compared: " + strings.Join(compared.NotCompared, ", ")
	}
	fmt.Fprintln(stdout, line+")")
	if certifierKey != nil {
		claim := reports.CertificationClaim{Implementation: impl, Result: v.Report.Result, Rerun: rerun}
		path, err := reports.WriteCertification(bundle, v.Digest, claim, certifierKey)
		if err != nil {
			fmt.Fprintln(stdout, "NOT CERTIFIED:", err)
			return ExitNotPass
		}
		fmt.Fprintf(stdout, "certifier's statement: %s (make verify BUNDLE=%s CERTIFIER_KEY=<the certifier's public key>)\n", path, bundle)
	}
	// The bundle reproduced: the status is its verdict's, as verify's (0
	// for passed, 2 for the rest), so that 1 means NOT REPRODUCED alone.
	return v.ExitCode()
}

// The suite flags a certifier's rerun takes: the cluster's, never what
// changes the run (images, waits by -config, reuse, another release,
// claims or implementation: those are the bundle's).
var (
	kindRerunFlags     = map[string]bool{"cluster-name": true, "keep": true}
	existingRerunFlags = map[string]bool{"kubeconfig": true, "in-cluster": true, "http-addr": true, "https-addr": true, "domain": true,
		"image-repository": true, "images-pushed": true, "shard-addrs": true, "allow-disruptive": true, "cluster-name": true, "keep": true}
)

// rerunFlags refuses, in one line, every suite flag a rerun does not
// take from the certifier.
func rerunFlags(suite []string) error {
	var refused []string
	for _, f := range suite {
		if !existingRerunFlags[flagName(f)] {
			refused = append(refused, f)
		}
	}
	if len(refused) > 0 {
		return fmt.Errorf("%s: a rerun runs under the certification rules with the bundle's own options; only the cluster is the certifier's to name (kind: -cluster-name, -keep; existing: -kubeconfig, -in-cluster, -http-addr, -https-addr, -domain, -image-repository, -images-pushed, -shard-addrs, -allow-disruptive)", strings.Join(refused, " "))
	}
	return nil
}

// flagName is the name of a flag as ParseFlags passes it on (-name=value).
func flagName(f string) string {
	name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
	return name
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
