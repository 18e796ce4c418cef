package conformance

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"path"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// Reencrypt to a backend whose certificate comes from the cluster's
// service CA, without destinationCACertificate: origin's "should support
// reencrypt to services backed by a serving certificate automatically"
// (test/extended/router/reencrypt.go). Three parties make it work: the
// service-ca operator writes the serving certificate of an annotated
// Service; cluster-ingress-operator mounts the service CA bundle into the
// router and names it DEFAULT_DESTINATION_CA_PATH; the router verifies a
// reencrypt backend without destinationCACertificate against that CA,
// for the Service's name (openshift/router haproxy-config.template, the
// reencrypt backend's server line: `verifyhost <service>.<namespace>.svc
// verify required ca-file <default destination CA>`). The first two are
// the platform's (router/service-ca-serving-certificate judges them: on
// the kind profile the suite's stand-ins, platform/serviceca and
// platform/ingressoperator), what is served is the router's.
func describeServiceCA(f *framework.Framework) {
	Describe("reencrypt to a backend of the service CA", func() {
		// Document: none (the Route API: spec.tls.destinationCACertificate,
		// documented in openshift/api route/v1 types.go, TLSConfig: without it
		// the router may provide its own destination CA and verify the short
		// service name, service.namespace.svc)
		// Upstream: openshift/origin test/extended/router/reencrypt.go ("should
		// support reencrypt to services backed by a serving certificate
		// automatically"); openshift/router images/router/haproxy/conf/haproxy-config.template
		// (the reencrypt route backend's server line: `ssl verifyhost
		// <service>.<namespace>.svc verify required ca-file
		// $defaultDestinationCA` when the route has no destinationCACertificate),
		// pkg/router/template/router.go (createServiceAliasConfig:
		// VerifyServiceHostname for such a route) and
		// pkg/cmd/infra/router/template.go (DEFAULT_DESTINATION_CA_PATH)
		DescribeTable("a reencrypt route without destinationCACertificate",
			func(ctx SpecContext, conn framework.Connection, serviceCA bool) {
				ns := f.SpecNamespace(ctx, "reencrypt-service-ca")
				name := "r"
				host := f.Host(ns, name)
				var backend *framework.Echo
				if serviceCA {
					backend, _ = f.DeployServingCertEcho(ctx, ns, "echo")
				} else {
					backend = f.DeployTLSEcho(ctx, ns)
				}
				route := f.RouteTo(backend, name, framework.EchoHTTPSPort)
				route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationReencrypt}
				f.CreateRoute(ctx, route)

				if serviceCA {
					By("served over HTTPS by the route's backend, reencrypted")
					f.EventuallyResponds(ctx, conn.Over(f.HTTPS(host, "/"+name)), func(g Gomega, resp *httpclient.Response) {
						backend.Served(g, resp)
						g.Expect(resp.Echo.Listener).To(Equal("https"))
						g.Expect(resp.Echo.Host).To(Equal(host))
					})
					return
				}
				// The positive control first, on the same backend: with its
				// CA as destinationCACertificate, a route created after the
				// one under test is served (its certificate is good, and
				// the router has loaded both routes).
				By("positive control: the same backend, its CA as destinationCACertificate, is served")
				control := f.TerminatedRouteTo(backend, "control", routev1.TLSTerminationReencrypt, "")
				f.CreateRoute(ctx, control)
				f.EventuallyResponds(ctx, conn.Over(f.HTTPS(control.Spec.Host, "/control")), func(g Gomega, resp *httpclient.Response) {
					backend.Served(g, resp)
				})
				By("without destinationCACertificate, a certificate of another CA than the service CA: the router's 503")
				f.EventuallyResponds(ctx, conn.Over(f.HTTPS(host, "/"+name)), framework.NotServed)
			},
			framework.BothConnections("to a backend serving its service CA certificate: served", "router/reencrypt-service-ca", true),
			framework.BothConnections("to a backend whose certificate is of another CA: not served (503)", "router/reencrypt-other-ca-not-served", false),
		)

		// Document: none (the Route API: spec.tls.destinationCACertificate,
		// documented in openshift/api route/v1 types.go, TLSConfig)
		// Upstream: openshift/service-ca-operator
		// pkg/controller/servingcert/controller/secret_creating_controller.go
		// (serviceServingCertController.generateCert: a kubernetes.io/tls Secret
		// named by the service.beta.openshift.io/serving-cert-secret-name
		// annotation; certSubjectsForService: <service>.<namespace>.svc and
		// its cluster.local name) and openshift/cluster-ingress-operator
		// pkg/manifests/assets/router/deployment.yaml (the service-ca-bundle
		// ConfigMap mounted, DEFAULT_DESTINATION_CA_PATH naming its
		// service-ca.crt) and pkg/operator/controller/ingress/serviceca_configmap.go
		It("the service CA signs an annotated Service's certificate, and the router is given that CA", framework.ID("router/service-ca-serving-certificate"), framework.JudgesPlatform, func(ctx SpecContext) {
			ns := f.SpecNamespace(ctx, "service-ca-cert")
			_, secret := f.DeployServingCertEcho(ctx, ns, "echo")

			By("the Secret's certificate is for the Service's names, and verifies against the router's service CA bundle")
			block, _ := pem.Decode(secret.Data[corev1.TLSCertKey])
			Expect(block).NotTo(BeNil(), "tls.crt holds no PEM certificate")
			cert, err := x509.ParseCertificate(block.Bytes)
			Expect(err).NotTo(HaveOccurred())
			roots := x509.NewCertPool()
			Expect(roots.AppendCertsFromPEM(f.ServiceCABundle(ctx))).To(BeTrue(), "the service CA bundle holds no certificate")
			for _, name := range []string{"echo." + ns + ".svc", "echo." + ns + ".svc.cluster.local"} {
				_, err := cert.Verify(x509.VerifyOptions{DNSName: name, Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
				Expect(err).NotTo(HaveOccurred(), "the serving certificate for %s", name)
			}

			By("the default router mounts that bundle as DEFAULT_DESTINATION_CA_PATH")
			d, err := f.Clientset.AppsV1().Deployments(contract.RouterNamespace).Get(ctx, contract.RouterDeploymentName(contract.DefaultIngressController), metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			Expect(routerTrustsServiceCABundle(d.Spec.Template.Spec)).To(Succeed())
		})
	})
}

// routerTrustsServiceCABundle checks that the router container's
// DEFAULT_DESTINATION_CA_PATH is the service CA key of a mounted
// service-ca-bundle ConfigMap.
func routerTrustsServiceCABundle(pod corev1.PodSpec) error {
	var router *corev1.Container
	for i := range pod.Containers {
		if pod.Containers[i].Name == contract.RouterContainer {
			router = &pod.Containers[i]
		}
	}
	if router == nil {
		return fmt.Errorf("no %s container", contract.RouterContainer)
	}
	var caPath string
	for _, e := range router.Env {
		if e.Name == "DEFAULT_DESTINATION_CA_PATH" {
			caPath = e.Value
		}
	}
	if caPath == "" {
		return fmt.Errorf("the router has no DEFAULT_DESTINATION_CA_PATH")
	}
	dir, file := path.Split(caPath)
	for _, m := range router.VolumeMounts {
		if path.Clean(m.MountPath) != path.Clean(dir) {
			continue
		}
		for _, v := range pod.Volumes {
			if v.Name != m.Name || v.ConfigMap == nil || v.ConfigMap.Name != contract.ServiceCABundleConfigMap {
				continue
			}
			if len(v.ConfigMap.Items) == 0 && file == contract.ServiceCABundleKey {
				return nil
			}
			for _, it := range v.ConfigMap.Items {
				if it.Key == contract.ServiceCABundleKey && it.Path == file {
					return nil
				}
			}
		}
	}
	return fmt.Errorf("DEFAULT_DESTINATION_CA_PATH %s is not the %s key of a mounted %s ConfigMap", caPath, contract.ServiceCABundleKey, contract.ServiceCABundleConfigMap)
}
