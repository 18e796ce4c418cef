package ingressroute_test

import (
	"encoding/json"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/router/ingressroute"
)

// The platform installs apis/contour/v1alpha1's CRD and the suite writes
// its types; the router reads and writes this package's. They must be the
// same API.
func TestSameAPIAsTheInstalledOne(t *testing.T) {
	if !equality.Semantic.DeepEqual(ingressroute.CRD(), irv1.CRD()) {
		t.Error("ingressroute.CRD() differs from apis/contour/v1alpha1.CRD(), which platform/install installs")
	}
	at := metav1.NewTime(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC))
	ir := ingressroute.IngressRoute{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "n"},
		Spec: ingressroute.Spec{
			VirtualHost: &ingressroute.VirtualHost{Fqdn: "a.test", Aliases: []string{"b.test"}, TLS: &ingressroute.TLS{SecretName: "s"}},
			Routes: []ingressroute.Route{
				{Match: "/", Services: []ingressroute.Service{{Name: "svc", Port: 80}}},
				{Match: "/d", Delegate: &ingressroute.Delegate{Name: "d", Namespace: "o"}},
			},
		},
		Status: ingressroute.Status{CurrentStatus: ingressroute.StatusValid, Description: "x", DelegationStatuses: []ingressroute.DelegationStatus{
			{State: ingressroute.DelegationState{Connected: &ingressroute.Connected{Parent: ingressroute.Parent{Name: "p", Namespace: "ns", Prefix: "/d"}, ConnectedAt: at}}},
			{State: ingressroute.DelegationState{Orphaned: &ingressroute.Orphaned{LastParent: &ingressroute.ObjectRef{Name: "q", Namespace: "ns"}}}},
		}},
	}
	ours, err := json.Marshal(&ir)
	if err != nil {
		t.Fatal(err)
	}
	var theirs irv1.IngressRoute
	if err := json.Unmarshal(ours, &theirs); err != nil {
		t.Fatal(err)
	}
	back, err := json.Marshal(&theirs)
	if err != nil {
		t.Fatal(err)
	}
	if string(back) != string(ours) {
		t.Errorf("the JSON forms differ:\n ours   %s\n theirs %s", ours, back)
	}
}
