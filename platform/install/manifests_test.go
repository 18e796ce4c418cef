package install

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/e2e-framework/klient/k8s"
	"sigs.k8s.io/yaml"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/platform/ingressoperator"
	"github.com/router-conformance/suite/platform/serviceca"
)

var testImages = Images{Router: "registry.test/router@sha256:1", Admission: "registry.test/route-admission:t", Reconciler: "registry.test/ingress-reconciler:t"}

// readManifests decodes every document of a file WriteManifests wrote,
// failing on one without apiVersion and kind.
func readManifests(t *testing.T, scheme *runtime.Scheme, path string) []k8s.Object {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	decoder := serializer.NewCodecFactory(scheme).UniversalDeserializer()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objs []k8s.Object
	for i := 0; ; i++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return objs
		}
		if err != nil {
			t.Fatalf("%s: document %d: %v", path, i, err)
		}
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil || tm.APIVersion == "" || tm.Kind == "" {
			t.Fatalf("%s: document %d has no apiVersion and kind (%v):\n%s", path, i, err, doc)
		}
		obj, _, err := decoder.Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("%s: document %d (%s): %v", path, i, tm.Kind, err)
		}
		objs = append(objs, obj.(k8s.Object))
	}
}

// sameObject: what kubectl would apply from the file is what Install
// applies (status is the cluster's and is not written).
func sameObject(t *testing.T, scheme *runtime.Scheme, want, got k8s.Object) bool {
	t.Helper()
	gvks, _, err := scheme.ObjectKinds(want)
	if err != nil {
		t.Fatal(err)
	}
	want = want.DeepCopyObject().(k8s.Object)
	want.GetObjectKind().SetGroupVersionKind(gvks[0])
	w, err := runtime.DefaultUnstructuredConverter.ToUnstructured(want)
	if err != nil {
		t.Fatal(err)
	}
	g, err := runtime.DefaultUnstructuredConverter.ToUnstructured(got)
	if err != nil {
		t.Fatal(err)
	}
	delete(w, "status")
	delete(g, "status")
	return equality.Semantic.DeepEqual(w, g)
}

func TestWriteManifests(t *testing.T) {
	o := Options{RepoRoot: "../..", Images: testImages, Domain: "apps.lab.test", PullPolicy: corev1.PullIfNotPresent}
	crds, objs, err := Objects(context.Background(), nil, o)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() + "/manifests" // created by WriteManifests
	files, err := WriteManifests(dir, crds, objs)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || !strings.HasSuffix(files[0], "/"+CRDsFile) || !strings.HasSuffix(files[1], "/"+PlatformFile) {
		t.Fatalf("files %v, want %s and %s in %s", files, CRDsFile, PlatformFile, dir)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"# ", "kubectl apply -f " + CRDsFile, "kubectl wait --for=condition=Established crd --all", "kubectl apply -f " + PlatformFile} {
			if !strings.HasPrefix(string(data), "# ") || !strings.Contains(string(data), want) {
				t.Errorf("%s: the header lacks %q", f, want)
			}
		}
		if strings.Contains(string(data), "creationTimestamp: null") || strings.Contains(string(data), "\nstatus:") {
			t.Errorf("%s holds status or null creationTimestamps", f)
		}
	}
	if fi, err := os.Stat(files[1]); err == nil && fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("%s (private keys) is mode %v", files[1], fi.Mode().Perm())
	}
	scheme, err := manifestScheme()
	if err != nil {
		t.Fatal(err)
	}

	gotCRDs := readManifests(t, scheme, files[0])
	var names []string
	for i, obj := range gotCRDs {
		crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
		if !ok {
			t.Fatalf("%s holds a %T", CRDsFile, obj)
		}
		names = append(names, crd.Name)
		if i < len(crds) && !sameObject(t, scheme, crds[i], crd) {
			t.Errorf("CRD %s does not survive the round trip through YAML", crd.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"ingresscontrollers.operator.openshift.io", "ingresses.config.openshift.io", "ingressroutes.contour.heptio.com", "routes.route.openshift.io"}; !slices.Equal(names, want) {
		t.Errorf("%s holds %v, want %v", CRDsFile, names, want)
	}

	got := readManifests(t, scheme, files[1])
	if len(got) != len(objs) {
		t.Fatalf("%s holds %d objects, want %d", PlatformFile, len(got), len(objs))
	}
	firstNamespaced := -1
	var webhook *admissionregistrationv1.ValidatingWebhookConfiguration
	secrets := map[string]*corev1.Secret{}
	deployments := map[string]*appsv1.Deployment{}
	for i, obj := range got {
		if !sameObject(t, scheme, objs[i], obj) {
			t.Errorf("%s document %d (%T %s) is not the object Install applies there", PlatformFile, i, obj, obj.GetName())
		}
		if obj.GetNamespace() != "" && firstNamespaced < 0 {
			firstNamespaced = i
		}
		switch o := obj.(type) {
		case *corev1.Namespace:
			if firstNamespaced >= 0 {
				t.Errorf("namespace %s comes after the namespaced object %s", o.Name, got[firstNamespaced].GetName())
			}
		case *admissionregistrationv1.ValidatingWebhookConfiguration:
			webhook = o
		case *corev1.Secret:
			secrets[o.Namespace+"/"+o.Name] = o
		case *appsv1.Deployment:
			deployments[o.Namespace+"/"+o.Name] = o
		}
	}
	serving := secrets[ingressoperator.RouterNamespace+"/"+admissionName+"-tls"]
	switch {
	case webhook == nil || len(webhook.Webhooks) != 1:
		t.Errorf("%s holds no ValidatingWebhookConfiguration with one webhook: %+v", PlatformFile, webhook)
	case serving == nil || len(serving.Data["ca.crt"]) == 0:
		t.Errorf("%s holds no route-admission serving Secret with a ca.crt", PlatformFile)
	case !bytes.Equal(webhook.Webhooks[0].ClientConfig.CABundle, serving.Data["ca.crt"]):
		t.Error("the webhook's caBundle is not the CA of the route-admission serving Secret")
	}
	for _, want := range []struct {
		key, image string
		policy     corev1.PullPolicy
	}{
		{ingressoperator.RouterNamespace + "/" + admissionName, testImages.Admission, corev1.PullIfNotPresent},
		{ingressoperator.OperatorNamespace + "/" + reconcilerName, testImages.Reconciler, corev1.PullIfNotPresent},
		// The router's policy is the operator's, whatever o says.
		{ingressoperator.RouterNamespace + "/" + contract.RouterDeploymentName(contract.DefaultIngressController), testImages.Router, corev1.PullIfNotPresent},
	} {
		d := deployments[want.key]
		if d == nil {
			t.Errorf("%s holds no Deployment %s", PlatformFile, want.key)
			continue
		}
		c := d.Spec.Template.Spec.Containers[0]
		if c.Image != want.image || c.ImagePullPolicy != want.policy {
			t.Errorf("Deployment %s runs %s (%s), want %s (%s)", want.key, c.Image, c.ImagePullPolicy, want.image, want.policy)
		}
	}
}

// With no cluster every render mints its own certificates and password;
// the default pull policy is the kind profile's Never.
func TestObjectsWithoutClusterMintFresh(t *testing.T) {
	render := func(o Options) map[string]*corev1.Secret {
		_, objs, err := Objects(context.Background(), nil, o)
		if err != nil {
			t.Fatal(err)
		}
		secrets := map[string]*corev1.Secret{}
		for _, obj := range objs {
			switch o := obj.(type) {
			case *corev1.Secret:
				secrets[o.Name] = o
			case *appsv1.Deployment:
				if c := o.Spec.Template.Spec.Containers[0]; (o.Name == admissionName || o.Name == reconcilerName) && c.ImagePullPolicy != corev1.PullNever {
					t.Errorf("Deployment %s pulls %s by default, want Never", o.Name, c.ImagePullPolicy)
				}
			}
		}
		return secrets
	}
	o := Options{RepoRoot: "../..", Images: testImages}
	a, b := render(o), render(o)
	if len(a) != 5 {
		t.Fatalf("%d Secrets, want 5: %v", len(a), a)
	}
	// The service CA keeps its key (the service-ca stand-in signs with it)
	// and is the metrics certificate's issuer.
	if signing := a[serviceca.SigningKeySecret]; signing == nil || len(signing.Data["tls.key"]) == 0 ||
		!bytes.Equal(a[ingressoperator.MetricsCertsSecretName("default")].Data["ca.crt"], signing.Data["tls.crt"]) {
		t.Errorf("the metrics certificate is not the kept service CA's: %v", a)
	}
	for name, s := range a {
		for key, v := range s.Data {
			if key == "statsUsername" {
				continue
			}
			if bytes.Equal(v, b[name].Data[key]) {
				t.Errorf("Secret %s: %s is the same in two renders", name, key)
			}
		}
	}
}

func TestObjectsRefuseBadOptions(t *testing.T) {
	for _, o := range []Options{
		{Images: testImages, PullPolicy: "Sometimes"},
		{Images: Images{Router: "r", Admission: "a"}},
	} {
		if _, _, err := Objects(context.Background(), nil, o); err == nil {
			t.Errorf("Objects(%+v) = nil error", o)
		}
	}
}
