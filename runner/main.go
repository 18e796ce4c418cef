package runner

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/signal"

	"github.com/router-conformance/suite/reports"
)

// Usage is the run path's help; where names how it was called (make's
// go run, the kit's ./run).
func Usage(where string) string {
	return `usage: ` + where + ` <command> [flags]

  e2e          run the conformance specs on the profile (the kind profile
               brings up its hermetic cluster and deletes it after), write
               the reports
  smoke        the cluster's own checks only (the smoke label): its
               verdict is partial, its exit status 0 when they pass
  certify      a certification run, then its bundle, verified
  bench-router the convergence measurement (create -> first correct
               answer, per scenario) on the profile, one process: its
               figures in <reports>/bench-router.{json,md}, no verdict;
               exit status 0 when every scenario measured
  mutants      coverage proven by faults: the reference router and the
               platform stand-ins built with their fault points
               (faults/catalogue), a control run, then each fault
               switched on against the specs of its statements [-mutants
               IDs|document|feature|all|ci]; <reports>/mutants.{json,md};
               exit status 0 when every fault was killed or its survival
               is explained in the catalogue
  verify F     check a certification bundle [-allow-dev: accept a bundle
               of a development build; -key K: require its signature by K]
  reproduce F  rerun a bundle's run here (its router image loaded by ID,
               its claims, the same suite build) and compare spec by spec

e2e and certify take the run's flags (-procs, -focus, -repeat,
-flake-attempts, -reports) and every flag of the suite (-router-image,
-keep, -reuse, -cluster-name, -implementation-*, ...): ` + where + ` e2e -help.
Exit status: 0 when the verdict is passed (for a filtered run: when every
spec it chose ran and passed), 1 otherwise, 2 for bad usage; verify and
reproduce: 0 for a passed bundle, 2 for another verdict, 1 for FAIL or
NOT REPRODUCED.
`
}

// Main runs one command of the run path with the binaries b and returns
// the exit status. setByBinaries are suite flags b sets (the kit's
// -images).
func Main(where string, b Binaries, setByBinaries []string, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, Usage(where))
		return ExitUsage
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "e2e", "certify", "smoke", "bench-router", "mutants":
		o, err := ParseFlags(where+" "+cmd, args, setByBinaries, stderr)
		if errors.Is(err, flag.ErrHelp) {
			return ExitPassed
		}
		if err == nil {
			err = checkSuite(o, b.Images)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s %s: %v\n", where, cmd, err)
			return ExitUsage
		}
		// Ctrl-C and SIGTERM stop the run: Ginkgo is interrupted (ginkgo)
		// and runs the cleanups; the run path waits for it and still
		// reports.
		ctx, stop := signal.NotifyContext(context.Background(), interruptSignals...)
		defer stop()
		return Run(ctx, b, o, stdout, stderr)
	case "verify":
		fs := flag.NewFlagSet(where+" verify", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		allowDev := fs.Bool("allow-dev", false, "accept a bundle of a development build (a version with a pre-release part, e.g. v0.3.0-dev)")
		verbose := fs.Bool("v", false, "print the verdict feature by feature and the image")
		keyFile := fs.String("key", "", "require a signature of the bundle's attestation by this PEM public key (KEY)")
		certifierFile := fs.String("certifier-key", "", "require the certifier's statement of a matching rerun, signed by this PEM public key (CERTIFIER_KEY): only then certified")
		usage := fmt.Sprintf("%s verify: give one bundle: %s verify [-allow-dev] [-v] [-key <public key>] [-certifier-key <public key>] <organization>-<project>-<version>.tar.gz", where, where)
		if err := fs.Parse(args); err != nil {
			fmt.Fprintf(stderr, "%s (%v)\n", usage, err)
			return ExitUsage
		}
		if fs.NArg() != 1 {
			fmt.Fprintln(stderr, usage)
			return ExitUsage
		}
		keys := map[string]*reports.Key{}
		for flagName, file := range map[string]string{"key": *keyFile, "certifier-key": *certifierFile} {
			if file == "" {
				continue
			}
			k, err := reports.LoadPublicKey(file)
			if err != nil {
				fmt.Fprintf(stderr, "%s verify: -%s: %v\n", where, flagName, err)
				return ExitUsage
			}
			keys[flagName] = k
		}
		return verify(fs.Arg(0), b.Build, *allowDev, *verbose, keys["key"], keys["certifier-key"], stdout)
	case "reproduce":
		fs := flag.NewFlagSet(where+" reproduce", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		allowDev := fs.Bool("allow-dev", false, "accept a bundle of a development build")
		o := Options{Procs: 4, Repeat: 1}
		fs.IntVar(&o.Procs, "procs", 4, "parallel Ginkgo processes")
		fs.StringVar(&o.ReportDir, "reports", "_output/reproduce", "where the rerun's reports and the comparison go")
		signKey := fs.String("sign-key", "", "the certifier's PEM private key: a rerun that matches every spec writes the certifier's signed statement beside the bundle (SIGN_KEY)")
		usage := fmt.Sprintf("%s reproduce: give one bundle: %s reproduce [-allow-dev] [-procs N] [-reports DIR] [-sign-key <certifier's private key>] <bundle.tar.gz> [suite flags: the existing profile's cluster]", where, where)
		if err := fs.Parse(args); err != nil {
			fmt.Fprintf(stderr, "%s (%v)\n", usage, err)
			return ExitUsage
		}
		if fs.NArg() < 1 || o.Procs < 1 {
			fmt.Fprintln(stderr, usage)
			return ExitUsage
		}
		// After the bundle, the suite's flags (an existing cluster's),
		// checked as e2e checks them.
		suite, err := ParseFlags(where+" reproduce", fs.Args()[1:], setByBinaries, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "%s reproduce: %v\n", where, err)
			return ExitUsage
		}
		o.Suite = suite.Suite
		if *signKey != "" {
			if o.SignKey, err = reports.LoadPrivateKey(*signKey); err != nil {
				fmt.Fprintf(stderr, "%s reproduce: -sign-key: %v\n", where, err)
				return ExitUsage
			}
		}
		ctx, stop := signal.NotifyContext(context.Background(), interruptSignals...)
		defer stop()
		return Reproduce(ctx, b, fs.Arg(0), *allowDev, o, stdout, stderr)
	case "help", "-help", "--help", "-h":
		fmt.Fprint(stdout, Usage(where))
		return ExitPassed
	}
	fmt.Fprintf(stderr, "%s: unknown command %q\n%s", where, cmd, Usage(where))
	return ExitUsage
}
