package install

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/e2e-framework/klient/k8s"
	"sigs.k8s.io/yaml"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
)

// The files WriteManifests writes, in the order they are applied.
const (
	CRDsFile     = "00-crds.yaml"
	PlatformFile = "10-platform.yaml"
)

// crdsHeader and platformHeader open the two files: the CRDs must be
// Established before the API server accepts the custom resources of
// the second file, so one kubectl call cannot apply both.
const (
	crdsHeader = `# The CRDs the router conformance platform needs: Route, IngressController,
# Ingress (config) and IngressRoute. Apply this file first, then wait:
#   kubectl apply -f ` + CRDsFile + `
#   kubectl wait --for=condition=Established crd --all
#   kubectl apply -f ` + PlatformFile + `
`
	platformHeader = `# The router conformance platform: namespaces, cluster configuration, the
# router, its route admission webhook and the IngressController reconciler.
# Apply after ` + CRDsFile + ` is Established:
#   kubectl apply -f ` + CRDsFile + `
#   kubectl wait --for=condition=Established crd --all
#   kubectl apply -f ` + PlatformFile + `
# The Secrets hold private keys and a password minted when this file was
# rendered: keep it private. A new render mints new ones; applied over a
# running install it needs
#   kubectl -n openshift-ingress rollout restart deployment
# (the webhook reads its certificate only at start).
`
)

// manifestScheme knows every type Objects returns: client-go's and the
// ones kubeapply.Resources adds to its client.
func manifestScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		clientgoscheme.AddToScheme, apiextensionsv1.AddToScheme, routev1.Install, operatorv1.Install, configv1.Install, irv1.AddToScheme,
	} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// WriteManifests writes crds to dir/00-crds.yaml and objs, in order, to
// dir/10-platform.yaml, as multi-document YAML kubectl applies (see the
// files' headers), and returns the two paths. It creates dir.
func WriteManifests(dir string, crds []*apiextensionsv1.CustomResourceDefinition, objs []k8s.Object) ([]string, error) {
	scheme, err := manifestScheme()
	if err != nil {
		return nil, err
	}
	crdObjs := make([]k8s.Object, len(crds))
	for i, crd := range crds {
		crdObjs[i] = crd
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("manifests directory: %w", err)
	}
	var paths []string
	for _, f := range []struct {
		name, header string
		objs         []k8s.Object
		// perm: the platform file carries private keys.
		perm os.FileMode
	}{
		{CRDsFile, crdsHeader, crdObjs, 0o644},
		{PlatformFile, platformHeader, objs, 0o600},
	} {
		data, err := renderYAML(scheme, f.header, f.objs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, data, f.perm); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// renderYAML is header and then objs as YAML documents separated by
// "---". The header is comments only, so it joins the first document
// rather than making an empty one.
func renderYAML(scheme *runtime.Scheme, header string, objs []k8s.Object) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	for i, obj := range objs {
		doc, err := manifest(scheme, obj)
		if err != nil {
			return nil, fmt.Errorf("%T %s/%s: %w", obj, obj.GetNamespace(), obj.GetName(), err)
		}
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(doc)
	}
	return b.Bytes(), nil
}

// manifest is obj as YAML with its apiVersion and kind (typed objects
// carry none), without status (the cluster's to write) or the null
// creationTimestamps of unset metadata.
func manifest(scheme *runtime.Scheme, obj k8s.Object) ([]byte, error) {
	gvks, _, err := scheme.ObjectKinds(obj)
	if err != nil {
		return nil, fmt.Errorf("no apiVersion and kind for it (add its AddToScheme to manifestScheme): %w", err)
	}
	cp := obj.DeepCopyObject()
	cp.GetObjectKind().SetGroupVersionKind(gvks[0])
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cp)
	if err != nil {
		return nil, err
	}
	delete(m, "status")
	dropNullTimestamps(m)
	return yaml.Marshal(m)
}

// dropNullTimestamps removes every creationTimestamp that is null: the
// object's and those of templates (a Deployment's pod template).
func dropNullTimestamps(v any) {
	switch v := v.(type) {
	case map[string]any:
		if ts, ok := v["creationTimestamp"]; ok && ts == nil {
			delete(v, "creationTimestamp")
		}
		for _, e := range v {
			dropNullTimestamps(e)
		}
	case []any:
		for _, e := range v {
			dropNullTimestamps(e)
		}
	}
}
