package conformance

import (
	"net"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// describeRouterAnswering: the canary of every run. The addresses a run
// is given (-http-addr on the existing profile, the port mappings on
// kind) must lead to the default IngressController's router pods, the
// ones whose image the run recorded (the profile reads their image IDs
// at the start and again at the end), and not to another proxy in front
// of them that would be judged in their name.
func describeRouterAnswering(f *framework.Framework) {
	framework.DescribeFeature(contract.FeatureRouter, func() {
		// Document: none (the run's own record: the router judged is the
		// default IngressController's router pods, whose image the report
		// names)
		// Upstream: cluster-ingress-operator pkg/operator/controller/ingress/deployment.go
		// (desiredRouterDeployment: the router pods labelled
		// ingresscontroller.operator.openshift.io/deployment-ingresscontroller=<name>);
		// openshift/router images/router/haproxy/conf/haproxy-config.template
		// (a route backend's server line names the endpoint and no source:
		// the router connects from its own pod address)
		It("answers through the default IngressController's router pods, the ones the run recorded", framework.ID("router/answered-by-the-recorded-router-pods"), framework.JudgesPlatform, func(ctx SpecContext) {
			ns := f.SpecNamespace(ctx, "router-canary")
			host := f.Host(ns, "canary")
			backend := f.DeployEcho(ctx, ns, host)
			f.CreateRoute(ctx, f.RouteTo(backend, "canary", framework.EchoHTTPPort))

			// Every answer of the converged run of answers (new connections:
			// behind a load balancer, each replica in turn) tells the
			// address the router connected to the backend from.
			sources := map[string]bool{}
			f.EventuallyResponds(ctx, f.HTTP(host, "/"), func(g Gomega, resp *httpclient.Response) {
				backend.Served(g, resp)
				ip, _, err := net.SplitHostPort(resp.Echo.RemoteAddr)
				g.Expect(err).NotTo(HaveOccurred(), "the backend's remoteAddr %q", resp.Echo.RemoteAddr)
				sources[ip] = true
			})

			routerIPs := podIPs(ctx, f, contract.RouterNamespace, contract.RouterDeploymentLabel+"="+contract.DefaultIngressController)
			Expect(routerIPs).NotTo(BeEmpty(), "no running router pod of the default IngressController in %s", contract.RouterNamespace)
			for ip := range sources {
				Expect(routerIPs).To(HaveKey(ip), "an answer came through %s, which is none of the default IngressController's router pods (%v): the run's addresses reach another proxy than the router it records", ip, routerIPs)
			}
			// Control: the comparison tells pods apart (the backend's own
			// pod is no router pod).
			backendIPs := podIPs(ctx, f, ns, "")
			Expect(backendIPs).NotTo(BeEmpty())
			for ip := range backendIPs {
				Expect(routerIPs).NotTo(HaveKey(ip), "the backend pod's address %s counts as a router pod's", ip)
			}
		})
	})
}

// podIPs are the addresses of the running pods of ns that selector
// selects ("" every pod), to the pods' names.
func podIPs(ctx SpecContext, f *framework.Framework, ns, selector string) map[string]string {
	GinkgoHelper()
	pods, err := f.Clientset.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	Expect(err).NotTo(HaveOccurred(), "list the pods of %s (%s)", ns, selector)
	out := map[string]string{}
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil && p.Status.Phase == corev1.PodRunning && p.Status.PodIP != "" {
			out[p.Status.PodIP] = p.Name
		}
	}
	return out
}
