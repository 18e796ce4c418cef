// Package install puts the reference router on a cluster: the OpenShift
// CRDs from the github.com/openshift/api module and the IngressRoute CRD,
// the router, its route admission webhook and the IngressController
// reconciler, all as typed objects.
package install

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/e2e-framework/klient/k8s"
	"sigs.k8s.io/e2e-framework/klient/k8s/resources"
	"sigs.k8s.io/yaml"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/internal/kubeapply"
	"github.com/router-conformance/suite/platform/ingressoperator"
	"github.com/router-conformance/suite/platform/serviceca"
)

// Images of the three components.
type Images struct {
	Router, Admission, Reconciler string
	// Syslog is the access-log sidecar the reconciler runs beside a
	// router whose IngressController logs to a container (package
	// platform/syslog); empty, the router image, as upstream's operator
	// does (its router image has rsyslog built in).
	Syslog string
}

// Options of an install.
type Options struct {
	// RepoRoot locates the openshift/api module (go list) for the CRDs.
	RepoRoot string
	Images   Images
	// Domain of the IngressController and the Ingress config.
	Domain string
	// PullPolicy of the route admission and reconciler containers; ""
	// is Never, for the kind profile, which loads the images into the
	// node. Images in a registry need IfNotPresent. The router's is the
	// operator's (IfNotPresent) whatever this says.
	PullPolicy corev1.PullPolicy
	// Timeouts: ClusterReady bounds each wait, ProvisionPoll paces it
	// (zero: contract.DefaultTimeouts()).
	Timeouts contract.Timeouts
	Logf     func(format string, args ...any)
	// Fault is the fault a fault build's router, webhook and reconciler
	// switch on (faults.Env; make mutants), "" for none.
	Fault string
}

// defaults fills what the zero Options leaves out.
func (o *Options) defaults() {
	if o.Domain == "" {
		o.Domain = DefaultDomain
	}
	if o.PullPolicy == "" {
		o.PullPolicy = corev1.PullNever
	}
	if o.Timeouts == (contract.Timeouts{}) {
		o.Timeouts = contract.DefaultTimeouts()
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
}

// validate reports what would only fail later, on the cluster (a pod
// that never starts) or not at all (manifests nobody can apply).
func (o *Options) validate() error {
	for _, img := range []struct{ what, ref string }{
		{"Router", o.Images.Router}, {"Admission", o.Images.Admission}, {"Reconciler", o.Images.Reconciler},
	} {
		if img.ref == "" {
			return fmt.Errorf("install: Options.Images.%s is empty: set the image reference the cluster runs", img.what)
		}
	}
	switch o.PullPolicy {
	case corev1.PullNever, corev1.PullIfNotPresent, corev1.PullAlways:
		return nil
	}
	return fmt.Errorf("install: pull policy %q is none of %s, %s, %s", o.PullPolicy, corev1.PullNever, corev1.PullIfNotPresent, corev1.PullAlways)
}

// DefaultDomain is the apps domain of the hermetic cluster.
const DefaultDomain = "apps.router-conformance.test"

// CRDFiles are the CRDs the router needs, as paths inside the
// github.com/openshift/api module.
var CRDFiles = []string{
	"route/v1/zz_generated.crd-manifests/routes.crd.yaml",
	"operator/v1/zz_generated.crd-manifests/0000_50_ingress_00_ingresscontrollers.crd.yaml",
	"config/v1/zz_generated.crd-manifests/0000_10_config-operator_01_ingresses.crd.yaml",
}

// Objects are what an install applies: the CRDs, then everything else in
// apply order (namespaces first, the webhook configuration last, after
// the Service it calls). With a live cluster r, Secrets that already
// exist there are kept (see keepOrMint); a nil r mints every certificate
// and password fresh, for manifests rendered with no cluster at hand.
func Objects(ctx context.Context, r *resources.Resources, o Options) (crds []*apiextensionsv1.CustomResourceDefinition, objs []k8s.Object, err error) {
	o.defaults()
	if err := o.validate(); err != nil {
		return nil, nil, err
	}
	if crds, err = installedCRDs(o.RepoRoot); err != nil {
		return nil, nil, err
	}
	webhookObjects, err := admissionObjects(ctx, r, o)
	if err != nil {
		return nil, nil, err
	}
	secrets, err := routerSecrets(ctx, r, o)
	if err != nil {
		return nil, nil, err
	}
	objs = append(objs, baseObjects(o)...)
	objs = append(objs, secrets...)
	objs = append(objs, routerObjects(o)...)
	objs = append(objs, reconcilerObjects(o)...)
	objs = append(objs, webhookObjects...)
	return crds, objs, nil
}

// Install applies everything and waits until the router serves and the
// IngressController reports Available.
func Install(ctx context.Context, cfg *rest.Config, o Options) error {
	o.defaults()
	r, err := kubeapply.Resources(cfg)
	if err != nil {
		return err
	}
	crds, objs, err := Objects(ctx, r, o)
	if err != nil {
		return err
	}
	if err := crdFaults(crds, o.Fault); err != nil {
		return fmt.Errorf("fault %s: %w", o.Fault, err)
	}
	o.Logf("installing the Route, IngressController, Ingress and IngressRoute CRDs")
	for _, crd := range crds {
		if err := kubeapply.Apply(ctx, r, crd); err != nil {
			return fmt.Errorf("CRD %s: %w", crd.Name, err)
		}
	}
	for _, crd := range crds {
		if err := waitEstablished(ctx, r, crd.Name, o.Timeouts); err != nil {
			return err
		}
	}
	o.Logf("installing the reference router, its admission webhook and the IngressController reconciler")
	for _, obj := range objs {
		if err := kubeapply.Apply(ctx, r, obj); err != nil {
			return fmt.Errorf("%T %s/%s: %w", obj, obj.GetNamespace(), obj.GetName(), err)
		}
	}
	o.Logf("applied: waiting until the router, the webhook and the reconciler serve")
	return waitReady(ctx, cfg, r, o)
}

// WaitReady waits until an install applied by other means (kubectl and
// the manifests of WriteManifests) serves: the router rolled out, the
// webhook and reconciler running, the webhook reachable from the API
// server and the default IngressController Available. Only Domain and
// Timeout of o matter.
func WaitReady(ctx context.Context, cfg *rest.Config, o Options) error {
	o.defaults()
	r, err := kubeapply.Resources(cfg)
	if err != nil {
		return err
	}
	o.Logf("applied: waiting until the router, the webhook and the reconciler serve")
	return waitReady(ctx, cfg, r, o)
}

func waitReady(ctx context.Context, cfg *rest.Config, r *resources.Resources, o Options) error {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	if err := waitRouterReady(ctx, kube, contract.RouterDeploymentName(contract.DefaultIngressController), o.Timeouts); err != nil {
		return err
	}
	for _, d := range []struct{ ns, name string }{
		{ingressoperator.RouterNamespace, admissionName}, {ingressoperator.OperatorNamespace, reconcilerName},
	} {
		if err := waitDeployment(ctx, r, d.ns, d.name, o.Timeouts); err != nil {
			return err
		}
	}
	if err := waitWebhookServing(ctx, r, o.Domain, o.Timeouts); err != nil {
		return err
	}
	return WaitIngressControllerAvailable(ctx, r, "default", o.Timeouts)
}

// waitWebhookServing waits until the API server reaches the webhook: a
// ready pod is not enough, the Service must also be programmed on the
// node. A dry-run create runs the admission webhooks and stores nothing.
func waitWebhookServing(ctx context.Context, r *resources.Resources, domain string, t contract.Timeouts) error {
	var last error
	err := wait.PollUntilContextTimeout(ctx, t.ProvisionPoll, t.ClusterReady, true, func(ctx context.Context) (bool, error) {
		probe := &routev1.Route{
			ObjectMeta: metav1.ObjectMeta{Name: "webhook-probe", Namespace: ingressoperator.RouterNamespace},
			Spec:       routev1.RouteSpec{Host: "webhook-probe." + domain, To: routev1.RouteTargetReference{Kind: "Service", Name: "none"}},
		}
		last = r.Create(ctx, probe, func(o *metav1.CreateOptions) { o.DryRun = []string{metav1.DryRunAll} })
		return last == nil, nil
	})
	if err != nil {
		return fmt.Errorf("the route admission webhook does not answer the API server within %s: %v", t.ClusterReady, last)
	}
	return nil
}

// CRDCopyDir is where, under a suite root without Go (an air-gapped
// kit), copies of CRDFiles are kept, at the same relative paths.
const CRDCopyDir = "openshift-api"

// CRDSourceDir is the directory CRDFiles are read from: repoRoot's
// CRDCopyDir when it has one (a kit), else the github.com/openshift/api
// module the suite is built with (`go list -m`).
func CRDSourceDir(repoRoot string) (string, error) {
	if dir := filepath.Join(repoRoot, CRDCopyDir); isDir(dir) {
		return dir, nil
	}
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/openshift/api")
	cmd.Dir = repoRoot
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("locate the github.com/openshift/api module (go list -m): %w: %s", err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// LoadCRDs reads the CRDs of CRDFiles from CRDSourceDir.
func LoadCRDs(repoRoot string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	dir, err := CRDSourceDir(repoRoot)
	if err != nil {
		return nil, err
	}
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, f := range CRDFiles {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, fmt.Errorf("CRD file of the openshift/api module: %w (go mod download github.com/openshift/api)", err)
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.UnmarshalStrict(data, &crd); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		crds = append(crds, &crd)
	}
	return crds, nil
}

// installedCRDs are the openshift/api CRDs and the IngressRoute CRD of
// the design document (contour.heptio.com/v1alpha1), which the reference
// router serves beside Routes. A router that does not serve IngressRoutes
// ignores it.
func installedCRDs(repoRoot string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	crds, err := LoadCRDs(repoRoot)
	if err != nil {
		return nil, err
	}
	return append(crds, irv1.CRD()), nil
}

func waitEstablished(ctx context.Context, r *resources.Resources, name string, t contract.Timeouts) error {
	return poll(ctx, t, "CRD "+name+" Established", func(ctx context.Context) (bool, error) {
		var crd apiextensionsv1.CustomResourceDefinition
		if err := r.Get(ctx, name, "", &crd); err != nil {
			return false, nil
		}
		for _, c := range crd.Status.Conditions {
			if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	})
}

func waitDeployment(ctx context.Context, r *resources.Resources, ns, name string, t contract.Timeouts) error {
	return poll(ctx, t, fmt.Sprintf("Deployment %s/%s rolled out", ns, name), func(ctx context.Context) (bool, error) {
		var d appsv1.Deployment
		if err := r.Get(ctx, name, ns, &d); err != nil {
			return false, nil
		}
		return ingressoperator.RolledOut(&d), nil
	})
}

// WaitIngressControllerAvailable waits until the reconciler has seen the
// IngressController's current generation, the router runs it, and it is
// Available and not Progressing.
func WaitIngressControllerAvailable(ctx context.Context, r *resources.Resources, name string, t contract.Timeouts) error {
	return poll(ctx, t, "IngressController "+name+" Available", func(ctx context.Context) (bool, error) {
		var ic operatorv1.IngressController
		if err := r.Get(ctx, name, ingressoperator.OperatorNamespace, &ic); err != nil {
			return false, nil
		}
		return contract.IngressControllerSettled(&ic), nil
	})
}

// poll waits for cond, bounded by t.ClusterReady, every t.ProvisionPoll.
func poll(ctx context.Context, t contract.Timeouts, what string, cond wait.ConditionWithContextFunc) error {
	if err := wait.PollUntilContextTimeout(ctx, t.ProvisionPoll, t.ClusterReady, true, cond); err != nil {
		return fmt.Errorf("waiting for %s (%s): %w", what, t.ClusterReady, err)
	}
	return nil
}

func namespace(name string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

// baseObjects are the namespaces and the cluster-scoped configuration.
func baseObjects(o Options) []k8s.Object {
	return []k8s.Object{
		namespace(ingressoperator.RouterNamespace), namespace(ingressoperator.OperatorNamespace), namespace(ingressoperator.ConfigNamespace), namespace(serviceca.Namespace),
		&configv1.Ingress{ObjectMeta: metav1.ObjectMeta{Name: "cluster"}, Spec: configv1.IngressSpec{Domain: o.Domain}},
		&operatorv1.IngressController{
			ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: ingressoperator.OperatorNamespace},
			Spec:       operatorv1.IngressControllerSpec{Domain: o.Domain},
		},
	}
}
