package conformance

import (
	"fmt"
	"net"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/clusters/kind"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/profile"
)

// The smoke checks of the hermetic cluster itself: what every other spec
// relies on, and the proof that the cluster cannot reach outside.
func describeSmoke(f *framework.Framework) {
	framework.DescribeFeature(contract.FeatureSmoke, func() {
		// Document: none (a check of the test environment, not of the router)
		// Upstream: none: the suite's own kind profile, clusters/kind/cluster.go
		// (NodeReady: the kubelet's Ready condition of each node)
		It("has every node Ready", framework.ID("smoke/nodes-ready"), func(ctx SpecContext) {
			nodes, err := f.Clientset.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
			Expect(err).NotTo(HaveOccurred())
			Expect(nodes.Items).NotTo(BeEmpty())
			for _, n := range nodes.Items {
				Expect(kind.NodeReady(&n)).To(BeTrue(), "node %s Ready", n.Name)
			}
		})

		// Document: none (a check of the test environment, not of the router)
		// Upstream: none: the suite's own kind profile, clusters/kind/config.go
		// (ClusterConfig: kind extraPortMappings, listening on 127.0.0.1 only)
		// and clusters/kind/cluster.go (SmokeNodePort)
		It("serves a FROM scratch pod to the host through a 127.0.0.1 port mapping", framework.ID("smoke/host-port-mapping"), func(ctx SpecContext) {
			ns := f.SpecNamespace(ctx, "smoke-hostport")
			c := f.ScratchContainer("echo", f.Image("echo"), "-http", ":8080", "-https", "")
			c.Ports = []corev1.ContainerPort{{ContainerPort: 8080, HostPort: kind.SmokeNodePort}}
			c.ReadinessProbe = framework.HTTPReadiness("/", 8080)
			f.CreatePod(ctx, &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: "echo-hostport", Namespace: ns},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{c}},
			})
			Expect(f.SmokeAddr).To(HavePrefix(kind.Loopback+":"), "the smoke port is mapped to loopback only")
			// Three answers in a row from this pod: a single success is not convergence.
			f.Eventually(ctx, func(g Gomega) {
				for i := 0; i < 3; i++ {
					body := f.GetEcho(g, "http://"+f.SmokeAddr+"/smoke")
					g.Expect(body.Pod).To(Equal("echo-hostport"))
					g.Expect(body.Namespace).To(Equal(ns))
					g.Expect(body.Path).To(Equal("/smoke"))
				}
			}).Should(Succeed())
		})

		// Document: none (a check of the test environment, not of the router)
		// Upstream: none: the suite's own kind profile, clusters/kind/coredns.go
		// (Corefile: CoreDNS's kubernetes plugin answers cluster.local;
		// CoreDNSObjects)
		It("resolves a Service name from another pod", framework.ID("smoke/service-dns"), func(ctx SpecContext) {
			ns := f.SpecNamespace(ctx, "smoke-dns")
			svc := f.DeployEchoService(ctx, ns)
			p := f.DeployProbe(ctx, ns)
			fqdn := fmt.Sprintf("%s.%s.svc.cluster.local", svc.Name, ns)
			f.Eventually(ctx, func(g Gomega) {
				res, err := p.DNS(ctx, fqdn)
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(res.RCode).To(Equal("RCodeSuccess"), "answer for %s: %+v", fqdn, res)
				g.Expect(res.Answers).To(ConsistOf(svc.Spec.ClusterIP))
				got, err := p.HTTP(ctx, fmt.Sprintf("http://%s.%s.svc:8080/via-service", svc.Name, ns))
				g.Expect(err).NotTo(HaveOccurred())
				g.Expect(got.Error).To(BeEmpty())
				g.Expect(got.Status).To(Equal(http.StatusOK))
				g.Expect(got.Body).To(ContainSubstring(`"path": "/via-service"`))
			}).Should(Succeed())
		})

		// The seal: nothing of the cluster reaches outside it.
		Describe("the seal", Ordered, func() {
			var (
				decoy *profile.Decoy
				p     *framework.Probe
				ns    string
			)
			BeforeAll(func(ctx SpecContext) {
				var err error
				decoy, err = profile.StartDecoy(ctx)
				Expect(err).NotTo(HaveOccurred())
				DeferCleanup(decoy.Close)
				ns = f.SpecNamespace(ctx, "smoke-seal")
				p = f.DeployProbe(ctx, ns)
			})

			// Document: none (a check of the test environment, not of the router)
			// Upstream: none: the suite's own kind node image,
			// clusters/kind/nodeimage/base/files/egress-guard (the EGRESS-GUARD
			// chain: a pod's TCP outside the pod subnet and the node's network
			// gets a tcp-reset)
			It("refuses at once a pod's connection to a host outside the cluster", framework.ID("smoke/seal-pod-egress-refused"), func(ctx SpecContext) {
				By("positive control: the decoy answers the host")
				before := decoy.Accepted()
				conn, err := net.DialTimeout("tcp", decoy.Addr, f.Opts.Timeouts.Dial)
				Expect(err).NotTo(HaveOccurred(), "the host reaches its decoy %s", decoy.Addr)
				conn.Close()
				f.Eventually(ctx, decoy.Accepted).Should(Equal(before + 1))

				By("positive control: the pod reaches a Service in the cluster")
				svc := f.DeployEchoService(ctx, ns)
				f.Eventually(ctx, func(g Gomega) {
					res, err := p.Dial(ctx, net.JoinHostPort(svc.Spec.ClusterIP, "8080"), "2s")
					g.Expect(err).NotTo(HaveOccurred())
					g.Expect(res.Connected).To(BeTrue(), "%+v", res)
				}).Should(Succeed())

				By("the pod's connection to the decoy is refused by the node's egress guard")
				res, err := p.Dial(ctx, decoy.Addr, "5s")
				Expect(err).NotTo(HaveOccurred())
				Expect(res.Connected).To(BeFalse())
				Expect(res.Reason).To(Equal("connection refused"), "%+v", res)
				Expect(res.ElapsedMs).To(BeNumerically("<", 1000), "refused at once, not after a timeout")
				Expect(decoy.Accepted()).To(Equal(before+1), "nothing but the host's control reached the decoy")
			})

			// Document: none (a check of the test environment, not of the router)
			// Upstream: none: the suite's own kind profile, clusters/kind/network.go
			// (Network.Seal: the host's DOCKER-USER rule drops what leaves the
			// cluster's Docker network)
			It("drops at the host what the node itself sends outside", framework.ID("smoke/seal-node-egress-dropped"), func(ctx SpecContext) {
				By("positive control: the node reaches a pod")
				out, code, err := profile.NodeExec(ctx, f.NodeName, "curl", "-sS", "--max-time", "5", fmt.Sprintf("http://%s:8080/healthz", p.IP))
				Expect(err).NotTo(HaveOccurred())
				Expect(code).To(Equal(0), out)
				Expect(out).To(Equal("ok\n"))

				By("the node's connection to the decoy times out: the host's DOCKER-USER rule drops it")
				before := decoy.Accepted()
				out, code, err = profile.NodeExec(ctx, f.NodeName, "curl", "-sS", "--max-time", "3", "http://"+decoy.Addr+"/")
				Expect(err).NotTo(HaveOccurred())
				Expect(code).To(Equal(28), "curl exit 28 is a timeout; got %d: %s", code, out)
				Expect(decoy.Accepted()).To(Equal(before))
			})

			// Document: none (a check of the test environment, not of the router)
			// Upstream: none: the suite's own kind profile, clusters/kind/coredns.go
			// (Corefile: no forward plugin, every other name NXDOMAIN with the
			// DNSSealMarker SOA)
			It("answers names outside the cluster with NXDOMAIN from CoreDNS itself", framework.ID("smoke/seal-dns-nxdomain"), func(ctx SpecContext) {
				By("positive control: a cluster name resolves")
				res, err := p.DNS(ctx, "kubernetes.default.svc.cluster.local")
				Expect(err).NotTo(HaveOccurred())
				Expect(res.RCode).To(Equal("RCodeSuccess"), "%+v", res)
				Expect(res.Answers).NotTo(BeEmpty())

				By("a name outside the cluster is NXDOMAIN, with CoreDNS's own SOA: nothing was forwarded")
				res, err = p.DNS(ctx, "router-conformance-decoy.example.com")
				Expect(err).NotTo(HaveOccurred())
				Expect(res.RCode).To(Equal("RCodeNameError"), "%+v", res)
				Expect(res.Authority).To(ConsistOf("SOA " + kind.DNSSealMarker))
			})
		})
	})
}
