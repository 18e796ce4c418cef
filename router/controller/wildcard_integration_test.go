package controller

import (
	"testing"
	"time"

	routev1 "github.com/openshift/api/route/v1"
	routefake "github.com/openshift/client-go/route/clientset/versioned/fake"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/router/haproxy"
	"github.com/router-conformance/suite/router/haproxy/haproxytest"
)

// A Subdomain route through the whole controller: refused with
// upstream's reason and message where wildcard routes are not allowed,
// served for every host one label under its parent where they are; the
// status entry carries the route's wildcardPolicy either way.
func TestWildcardRouteAdmission(t *testing.T) {
	for _, allow := range []bool{false, true} {
		t.Run(map[bool]string{false: "not allowed", true: "allowed"}[allow], func(t *testing.T) {
			c := newCluster()
			echoService(t, c, "in", "echo-in")
			var objs []runtime.Object
			for _, s := range c.services {
				objs = append(objs, s)
			}
			for _, ss := range c.slices {
				objs = append(objs, ss[0])
			}
			wild := shardRoute("in", "wild", "www.wild.test", "echo-in", nil)
			wild.Spec.WildcardPolicy = routev1.WildcardPolicySubdomain
			none := shardRoute("in", "none", "none.test", "echo-in", nil)
			none.Spec.WildcardPolicy = routev1.WildcardPolicyNone
			routes := routefake.NewClientset(wild, none)
			defaultCert, err := newCA(t, "default CA").IssueServer(pki.ServerOptions{Hosts: []string{"*.default.test"}})
			if err != nil {
				t.Fatal(err)
			}
			base := haproxy.Config{HTTPBind: haproxytest.FreeAddr(t), HTTPSBind: haproxytest.FreeAddr(t), StatsBind: haproxytest.FreeAddr(t), Dir: t.TempDir(), DefaultCertificate: defaultCert.HAProxyPEM()}
			proxy := &haproxy.Process{Binary: haproxytest.Binary(t), Dir: base.Dir, Output: &syncWriter{}}
			w := &shardWorld{base: base, routes: routes}
			ctrl := &Controller{
				Kube: kubefake.NewClientset(objs...), Routes: routes, Base: base, Proxy: proxy, RouterName: "r",
				AllowWildcardRoutes: allow, Coalesce: 20 * time.Millisecond, Logf: w.logs.logf,
			}
			runController(t, ctrl, proxy)
			w.eventually(t, "none.test served", func() bool { return w.answer("none.test") == "echo-in" })
			entry := func() *routev1.RouteIngress {
				r, err := routes.RouteV1().Routes("in").Get(t.Context(), "wild", metav1.GetOptions{})
				if err != nil || len(r.Status.Ingress) != 1 || len(r.Status.Ingress[0].Conditions) != 1 {
					return nil
				}
				return &r.Status.Ingress[0]
			}
			w.eventually(t, "the wildcard route's status", func() bool { return entry() != nil })
			got := entry()
			if got.WildcardPolicy != routev1.WildcardPolicySubdomain {
				t.Errorf("status wildcardPolicy %q, want Subdomain", got.WildcardPolicy)
			}
			cond := got.Conditions[0]
			if !allow {
				if cond.Status != corev1.ConditionFalse || cond.Reason != contract.ReasonRouteNotAdmitted || cond.Message != contract.WildcardRoutesNotAllowed {
					t.Errorf("condition %+v, want False %s %q", cond, contract.ReasonRouteNotAdmitted, contract.WildcardRoutesNotAllowed)
				}
				for _, host := range []string{"www.wild.test", "a.wild.test"} {
					if a := w.answer(host); a != "status 503" {
						t.Errorf("%s: %s, want 503", host, a)
					}
				}
				return
			}
			if cond.Status != corev1.ConditionTrue {
				t.Errorf("condition %+v, want admitted", cond)
			}
			for host, want := range map[string]string{"www.wild.test": "echo-in", "a.wild.test": "echo-in", "B.Wild.Test": "echo-in", "x.a.wild.test": "status 503", "a.other.test": "status 503"} {
				if a := w.answer(host); a != want {
					t.Errorf("%s: %s, want %s", host, a, want)
				}
			}
		})
	}
}
