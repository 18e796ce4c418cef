package conformance

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// invalidRootCase is a root made invalid one way, what its status says,
// and how to make it valid (returning a request its child then serves).
type invalidRootCase struct {
	root func(ns, host string, delegation irv1.Route) *irv1.IngressRoute
	why  func(ns string) contract.StatusDescription
	fix  func(ctx SpecContext, ns, host string) httpclient.Request
}

// describeDelegationStatus: the status a router writes of roots and
// vertices (orphaned children of an invalid root, connected vertices),
// and when it writes it.
func describeDelegationStatus(f *framework.Framework) {
	// As shipped Contour writes status (v1.0.1 internal/k8s/status.go,
	// CRDStatus.SetStatus, which compares currentStatus and description
	// before it updates): the router writes status only on change, so a
	// quiet object's resourceVersion stays put. What the API shows is that
	// nothing in the status churns (a timestamp, a reordered text): a write
	// of the same content is dropped by the API server unseen, so the
	// spec cannot tell it from no write.
	//
	// Document: the IngressRoute design document (Contour), section
	// "Reporting status" (silent on when status is written, so shipped
	// Contour decides)
	// Upstream: projectcontour/contour v1.0.1 internal/k8s/status.go
	// (CRDStatus.SetStatus and updateNeeded: compares currentStatus and
	// description before it updates)
	It("writes status only when it changes: a quiet root's status is not rewritten", framework.ID("delegation/status-written-on-change"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "ir-status")
		backend := f.DeployEcho(ctx, ns)
		host := f.Host(ns, "www")
		f.CreateIngressRoute(ctx, rootRoute(ns, "root", host, toService("/", backend.Service)))
		f.EventuallyIngressRouteStatus(ctx, ns, "root", expectValid)
		f.EventuallyResponds(ctx, f.HTTP(host, "/"), backend.Served)
		var rv string
		f.Eventually(ctx, func(g Gomega) { rv = f.GetIngressRoute(ctx, g, ns, "root").ResourceVersion }).Should(Succeed())

		By("other objects change meanwhile (another root in the namespace): the quiet root is not rewritten")
		f.CreateIngressRoute(ctx, rootRoute(ns, "neighbour", f.Host(ns, "neighbour"), toService("/", backend.Service)))
		f.EventuallyIngressRouteStatus(ctx, ns, "neighbour", expectValid)
		f.Consistently(ctx, f.Opts.Timeouts.Converge, func(g Gomega) {
			g.Expect(f.GetIngressRoute(ctx, g, ns, "root").ResourceVersion).To(Equal(rv))
		}).Should(Succeed())

		By("positive control: a change that alters its status is written")
		f.UpdateIngressRoute(ctx, ns, "root", func(ir *irv1.IngressRoute) { ir.Spec.Routes = []irv1.Route{toService("/", "absent")} })
		f.EventuallyIngressRouteStatus(ctx, ns, "root", framework.IngressRouteStatusIs(contract.IngressRouteServiceNotFound(ns, "absent", 8080)))
	})

	// IngressRoute design document, sections "Validation rules" (rule 1:
	// "the entire object is rejected") and "Delegation rules" (rules 3
	// and 4: a vertex no delegation reaches is orphaned and has no
	// effect), and "Reporting status" (orphaned: "present, but has no
	// active delegation"): a rejected root delegates nothing, so its
	// children are orphaned and unserved. Contour v1.0.1 agrees when the
	// root's secret is missing (computeIngressRoute returns before it
	// walks a route); with a bad route listed after the delegation it
	// would already have walked the delegation and served the child
	// (processIngressRoutes returns at the first bad route): the design
	// document decides.
	//
	// Document: the IngressRoute design document (Contour), sections
	// "Validation rules" (rule 1), "Delegation rules" (rules 3 and 4) and
	// "Reporting status" (orphaned)
	// Upstream: projectcontour/contour v1.0.1 internal/dag/builder.go
	// (computeIngressRoute returns before processIngressRoutes when the
	// root's secret is missing; processIngressRoutes returns at the first
	// bad route, a delegation listed before it already walked: there the
	// document decides)
	DescribeTable("the children of an invalid root are orphaned and not served",
		func(ctx SpecContext, c invalidRootCase) {
			rootNS := f.SpecNamespace(ctx, "ir-badroot")
			childNS := f.SpecNamespace(ctx, "ir-badroot-child")
			child := f.DeployEcho(ctx, childNS)
			host := f.Host(rootNS, "www")
			f.CreateIngressRoute(ctx, vertexRoute(childNS, "child", toService("/app", child.Service)))
			f.CreateIngressRoute(ctx, c.root(rootNS, host, delegateTo("/app", "child", childNS)))

			f.EventuallyIngressRouteStatus(ctx, rootNS, "root", framework.IngressRouteStatusIs(c.why(rootNS)))
			f.EventuallyIngressRouteStatus(ctx, childNS, "child", expectOrphaned)
			f.EventuallyResponds(ctx, f.HTTP(host, "/app"), framework.NotServed)
			f.EventuallyResponds(ctx, f.HTTPS(host, "/app"), framework.NotServed)

			By("positive control: the root made valid, the child is connected and served")
			req := c.fix(ctx, rootNS, host)
			f.EventuallyIngressRouteStatus(ctx, rootNS, "root", expectValid)
			f.EventuallyIngressRouteStatus(ctx, childNS, "child", expectConnected("root", rootNS, "/app"))
			f.EventuallyResponds(ctx, req, child.Served)
		},
		Entry("its TLS secret does not exist", framework.ID("delegation/invalid-root-missing-secret"), invalidRootCase{
			root: func(ns, host string, delegation irv1.Route) *irv1.IngressRoute {
				r := rootRoute(ns, "root", host, delegation)
				r.Spec.VirtualHost.TLS = &irv1.TLS{SecretName: "www-tls"}
				return r
			},
			why: func(ns string) contract.StatusDescription {
				return contract.IngressRouteTLSSecretNotFound(ns, "www-tls")
			},
			fix: func(ctx SpecContext, ns, host string) httpclient.Request {
				ca := framework.NewRootCA("IngressRoute CA " + ns)
				secret, _ := framework.TLSSecret(ca, ns, "www-tls", host)
				_, err := f.Clientset.CoreV1().Secrets(ns).Create(ctx, secret, metav1.CreateOptions{})
				Expect(err).NotTo(HaveOccurred())
				req := f.HTTPS(host, "/app")
				req.RootCAs = pki.Pool(ca)
				return req
			},
		}),
		Entry("a route listed after the delegation names a service its namespace does not have", framework.ID("delegation/invalid-root-missing-service"), invalidRootCase{
			root: func(ns, host string, delegation irv1.Route) *irv1.IngressRoute {
				return rootRoute(ns, "root", host, delegation, toService("/broken", "absent"))
			},
			why: func(ns string) contract.StatusDescription {
				return contract.IngressRouteServiceNotFound(ns, "absent", 8080)
			},
			fix: func(ctx SpecContext, ns, host string) httpclient.Request {
				f.UpdateIngressRoute(ctx, ns, "root", func(ir *irv1.IngressRoute) { ir.Spec.Routes = ir.Spec.Routes[:1] })
				return f.HTTP(host, "/app")
			},
		}),
	)

	// IngressRoute design document, section "Reporting status": a
	// connected vertex records its parent, prefix and connectedAt, the
	// time it was connected; while that delegation stands nothing about
	// the vertex changes. Shipped Contour writes status only when it
	// changes (v1.0.1 internal/k8s/status.go, CRDStatus.SetStatus and
	// updateNeeded). So while its parent changes elsewhere the vertex is
	// not rewritten: its resourceVersion, and with it connectedAt, hold.
	//
	// Document: the IngressRoute design document (Contour), section
	// "Reporting status" (connected: parent, prefix, connectedAt)
	// Upstream: projectcontour/contour v1.0.1 internal/k8s/status.go
	// (CRDStatus.SetStatus and updateNeeded: no write while currentStatus
	// and description stand)
	It("a connected vertex's status holds while its parent changes elsewhere", framework.ID("delegation/connected-status-holds"), func(ctx SpecContext) {
		ns := f.SpecNamespace(ctx, "ir-connected")
		b := f.DeployEchoes(ctx, framework.EchoIn(ns, "app"), framework.EchoIn(ns, "other"))
		app, other := b[0], b[1]
		host := f.Host(ns, "www")
		f.CreateIngressRoute(ctx, vertexRoute(ns, "app", toService("/app", app.Service)))
		f.CreateIngressRoute(ctx, rootRoute(ns, "root", host, delegateTo("/app", "app", "")))
		f.EventuallyIngressRouteStatus(ctx, ns, "app", expectConnected("root", ns, "/app"))
		f.EventuallyResponds(ctx, f.HTTP(host, "/app"), app.Served)
		var before *irv1.IngressRoute
		f.Eventually(ctx, func(g Gomega) { before = f.GetIngressRoute(ctx, g, ns, "app") }).Should(Succeed())

		By("the root gains a route elsewhere: once it is served, the vertex has not been rewritten")
		f.UpdateIngressRoute(ctx, ns, "root", func(ir *irv1.IngressRoute) {
			ir.Spec.Routes = append(ir.Spec.Routes, toService("/other", other.Service))
		})
		f.EventuallyResponds(ctx, f.HTTP(host, "/other"), other.Served)
		f.Consistently(ctx, f.Opts.Timeouts.Converge, func(g Gomega) {
			now := f.GetIngressRoute(ctx, g, ns, "app")
			g.Expect(now.ResourceVersion).To(Equal(before.ResourceVersion), "status now %+v, was %+v", now.Status, before.Status)
			g.Expect(now.Status.CurrentStatus).To(Equal(irv1.StatusValid))
		}).Should(Succeed())

		By("positive control: the delegation taken away is written: the vertex is orphaned")
		f.UpdateIngressRoute(ctx, ns, "root", func(ir *irv1.IngressRoute) {
			ir.Spec.Routes = []irv1.Route{toService("/other", other.Service)}
		})
		f.EventuallyIngressRouteStatus(ctx, ns, "app", expectOrphaned)
		f.EventuallyResponds(ctx, f.HTTP(host, "/app"), framework.NotServed)
	})
}
