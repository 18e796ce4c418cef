package v1alpha1_test

import (
	"reflect"
	"testing"

	. "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/apis/contour/v1alpha1/irtest"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// The design document's two examples, as written there.
const designRoot = `
apiVersion: contour.heptio.com/v1alpha1
kind: IngressRoute
metadata:
  name: google
  namespace: prod
spec:
  virtualhost:
    fqdn: www.google.com
    aliases:
      - www.google.com.au
      - google.com
    tls:
      secretName: google-tls
  routes:
  - match: /static
    service:
    - name: google-static
      port: 9000
  - match: /finance
    delegate:
      name: google-finance
      namespace: finance
  - match: /ads
    service:
    - name: ads-red
      port: 9090
    - name: ads-blue
      port: 9090
status:
  delegationStatuses:
  - state:
      orphaned:
        lastParent:
          name: p
          namespace: q
  - state:
      connected:
        parent:
          name: p
          namespace: q
          prefix: /finance
        connectedAt: "2024-05-06T07:08:09Z"
`

func TestDesignDocumentExampleDecodes(t *testing.T) {
	var ir IngressRoute
	if err := yaml.UnmarshalStrict([]byte(designRoot), &ir); err != nil {
		t.Fatal(err)
	}
	want := irtest.WithTLS(irtest.WithAliases(irtest.Root("prod", "google", "www.google.com",
		irtest.Svc("/static", "google-static:9000"),
		irtest.Del("/finance", "finance", "google-finance"),
		irtest.Svc("/ads", "ads-red:9090", "ads-blue:9090")), "www.google.com.au", "google.com"), "google-tls")
	if !reflect.DeepEqual(ir.Spec, want.Spec) {
		t.Errorf("spec\n got %+v\nwant %+v", ir.Spec, want.Spec)
	}
	ds := ir.Status.DelegationStatuses
	if len(ds) != 2 || ds[0].State.Orphaned.LastParent.Name != "p" ||
		ds[1].State.Connected.Parent.Prefix != "/finance" || !ds[1].State.Connected.ConnectedAt.Equal(&now) {
		t.Errorf("status %+v", ir.Status)
	}
	// And back: the same document.
	out, err := yaml.Marshal(&ir)
	if err != nil {
		t.Fatal(err)
	}
	var again IngressRoute
	if err := yaml.UnmarshalStrict(out, &again); err != nil || !reflect.DeepEqual(again.Spec, ir.Spec) ||
		!equality.Semantic.DeepEqual(again.Status, ir.Status) {
		t.Errorf("round trip: %v\n%s", err, out)
	}
}

func TestDeepCopy(t *testing.T) {
	var ir IngressRoute
	if err := yaml.UnmarshalStrict([]byte(designRoot), &ir); err != nil {
		t.Fatal(err)
	}
	list := &IngressRouteList{Items: []IngressRoute{ir}}
	c := list.DeepCopyObject().(*IngressRouteList)
	if !reflect.DeepEqual(c, list) {
		t.Fatal("copy differs")
	}
	// Every pointer and slice of the copy is its own.
	x := &c.Items[0]
	x.Spec.VirtualHost.Aliases[0] = "changed"
	x.Spec.VirtualHost.TLS.SecretName = "changed"
	x.Spec.Routes[0].Services[0].Name = "changed"
	x.Spec.Routes[1].Delegate.Name = "changed"
	x.Status.DelegationStatuses[0].State.Orphaned.LastParent.Name = "changed"
	x.Status.DelegationStatuses[1].State.Connected.Parent.Name = "changed"
	if !reflect.DeepEqual(list.Items[0], ir) {
		t.Error("changing the copy changed the original")
	}
}

func TestAddToScheme(t *testing.T) {
	s := runtime.NewScheme()
	if err := AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	for kind, obj := range map[string]runtime.Object{Kind: &IngressRoute{}, ListKind: &IngressRouteList{}} {
		gvks, _, err := s.ObjectKinds(obj)
		if err != nil || len(gvks) != 1 || gvks[0] != GroupVersion.WithKind(kind) {
			t.Errorf("%s: %v %v", kind, gvks, err)
		}
	}
}
