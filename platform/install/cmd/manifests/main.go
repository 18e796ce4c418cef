// Command manifests renders the platform install (`make manifests`): the
// CRDs and the router, route admission webhook and IngressController
// reconciler as plain YAML an operator applies with kubectl, every
// certificate and password minted fresh:
//
//	manifests -dir DIR -router-image R -admission-image A -reconciler-image C [-syslog-image S] [-domain D] [-pull-policy P]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"

	"github.com/router-conformance/suite/platform/install"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "manifests:", err)
		os.Exit(1)
	}
}

// imageHint says where the image references come from: the cluster
// pulls them, so local tags only do on nodes they were loaded into.
const imageHint = "the image reference the cluster pulls: `make images` prints the local tags (router=, route-admission=, ingress-reconciler=, syslog=); push them to a registry the cluster reaches, or load them into the nodes and pass -pull-policy Never"

func run(args []string) error {
	fs := flag.NewFlagSet("manifests", flag.ContinueOnError)
	dir := fs.String("dir", "", "where to write "+install.CRDsFile+" and "+install.PlatformFile+" (required; created if missing)")
	repo := fs.String("repo", ".", "the suite's checkout (locates the github.com/openshift/api module for the CRDs)")
	router := fs.String("router-image", "", "router image (required)")
	admission := fs.String("admission-image", "", "route-admission image (required)")
	reconciler := fs.String("reconciler-image", "", "ingress-reconciler image (required)")
	syslog := fs.String("syslog-image", "", "the access-log sidecar image (syslog) the reconciler runs beside a router whose IngressController logs to a container (optional: without it, the router image, as upstream's operator, which needs rsyslogd in it)")
	domain := fs.String("domain", install.DefaultDomain, "apps domain of the IngressController and the Ingress config")
	pull := fs.String("pull-policy", string(corev1.PullIfNotPresent), "image pull policy of the route-admission and ingress-reconciler containers: Never, IfNotPresent or Always")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil // -help: the usage is printed, nothing failed
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (flags only; -help lists them)", fs.Args())
	}
	if *dir == "" {
		return errors.New("-dir is required: the directory to write the manifests to")
	}
	for _, f := range []struct{ flag, value string }{
		{"-router-image", *router}, {"-admission-image", *admission}, {"-reconciler-image", *reconciler},
	} {
		if f.value == "" {
			return fmt.Errorf("%s is required: %s", f.flag, imageHint)
		}
	}
	policy, err := pullPolicy(*pull)
	if err != nil {
		return err
	}
	root, err := filepath.Abs(*repo)
	if err != nil {
		return err
	}
	crds, objs, err := install.Objects(context.Background(), nil, install.Options{
		RepoRoot:   root,
		Images:     install.Images{Router: *router, Admission: *admission, Reconciler: *reconciler, Syslog: *syslog},
		Domain:     *domain,
		PullPolicy: policy,
	})
	if err != nil {
		return err
	}
	files, err := install.WriteManifests(*dir, crds, objs)
	if err != nil {
		return err
	}
	for _, f := range files {
		fmt.Println(f)
	}
	fmt.Printf("apply with:\n  kubectl apply -f %s\n  kubectl wait --for=condition=Established crd --all\n  kubectl apply -f %s\n", files[0], files[1])
	return nil
}

// pullPolicy accepts exactly Kubernetes' spelling: the value goes into
// the manifests as is, and the API server takes nothing else.
func pullPolicy(s string) (corev1.PullPolicy, error) {
	switch p := corev1.PullPolicy(s); p {
	case corev1.PullNever, corev1.PullIfNotPresent, corev1.PullAlways:
		return p, nil
	}
	return "", fmt.Errorf("-pull-policy %q: want Never, IfNotPresent or Always", s)
}
