package framework

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// Echo is the echo backend of a spec's namespace: Service "echo" with
// ports http (8080), https (8443, serving a certificate of CA for
// echo.<ns>.svc and the extra hosts) and wire-names (8081: plain HTTP that
// also reports the header names as the router spelled them).
type Echo struct {
	Namespace string
	Service   string
	CA        *pki.CA
	// Pods are the names of the replicas, so that an answer can be traced
	// to this spec's backend and no other.
	Pods []string
}

// Served checks that resp is a 200 from this very backend (its namespace
// and one of its pods, as the Gateway API suite's CompareRoundTrip checks
// the backend): a stale route or another spec's backend is no success.
func (e *Echo) Served(g Gomega, resp *httpclient.Response) {
	g.ExpectWithOffset(1, resp.Status).To(Equal(http.StatusOK), "body: %s", resp.Body)
	g.ExpectWithOffset(1, resp.Echo).NotTo(BeNil(), "the echo backend did not answer: %s", resp.Body)
	g.ExpectWithOffset(1, resp.Echo.Namespace).To(Equal(e.Namespace), "answered by another namespace's backend")
	g.ExpectWithOffset(1, e.Pods).To(ContainElement(resp.Echo.Pod), "answered by a pod that is not this backend's")
}

// Echo ports, by Service port name.
const (
	EchoHTTPPort      = "http"
	EchoHTTPSPort     = "https"
	EchoWireNamesPort = "wire-names"
)

// EchoHTTPServicePort is the number of an echo Service's http port (an
// IngressRoute names a service port by number).
const EchoHTTPServicePort = 8080

// Where an echo pod serves plain HTTP, and plain HTTP with the header
// names as they arrived (one request per connection).
const (
	echoHTTPContainerPort      int32 = 8080
	echoWireNamesContainerPort int32 = 8081
)

// DeployEcho runs one echo replica in ns behind Service "echo" and waits
// until it is ready.
func (f *Framework) DeployEcho(ctx context.Context, ns string, extraHosts ...string) *Echo {
	GinkgoHelper()
	return f.DeployNamedEcho(ctx, ns, "echo", extraHosts...)
}

// DeployNamedEcho is DeployEcho with the Deployment's and the Service's
// name.
func (f *Framework) DeployNamedEcho(ctx context.Context, ns, name string, extraHosts ...string) *Echo {
	GinkgoHelper()
	return f.deployEchoes(ctx, []EchoRef{EchoIn(ns, name)}, extraHosts)[0]
}

// EchoRef names an echo backend: its namespace, and its Deployment's and
// Service's name.
type EchoRef struct{ Namespace, Name string }

// EchoIn is the echo backend name in namespace ns.
func EchoIn(ns, name string) EchoRef { return EchoRef{Namespace: ns, Name: name} }

// DeployEchoes runs one echo backend per ref, for specs that need several:
// all are created before any is waited for, so their pods start together.
func (f *Framework) DeployEchoes(ctx context.Context, refs ...EchoRef) []*Echo {
	GinkgoHelper()
	return f.deployEchoes(ctx, refs, nil)
}

func (f *Framework) deployEchoes(ctx context.Context, refs []EchoRef, extraHosts []string) []*Echo {
	GinkgoHelper()
	var echoes []*Echo
	for _, r := range refs {
		echoes = append(echoes, f.createEcho(ctx, r.Namespace, r.Name, extraHosts))
	}
	for _, e := range echoes {
		f.waitEcho(ctx, e)
	}
	return echoes
}

// waitEcho waits until e's Deployment is ready and records its pods.
func (f *Framework) waitEcho(ctx context.Context, e *Echo) {
	GinkgoHelper()
	f.WaitDeploymentReady(ctx, e.Namespace, e.Service)
	pods, err := f.Clientset.CoreV1().Pods(e.Namespace).List(ctx, metav1.ListOptions{LabelSelector: "app=" + e.Service})
	Expect(err).NotTo(HaveOccurred())
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil {
			e.Pods = append(e.Pods, p.Name)
		}
	}
}

// createEcho creates the echo backend's Secret, Deployment and Service,
// without waiting.
func (f *Framework) createEcho(ctx context.Context, ns, name string, extraHosts []string) *Echo {
	GinkgoHelper()
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "echo backend CA " + ns}})
	Expect(err).NotTo(HaveOccurred())
	cert, err := ca.IssueServer(pki.ServerOptions{Hosts: append([]string{name + "." + ns + ".svc"}, extraHosts...)})
	Expect(err).NotTo(HaveOccurred())
	_, err = f.Clientset.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name + "-tls", Namespace: ns},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{"tls.crt": cert.ChainPEM(), "tls.key": cert.KeyPEM},
	}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	f.createEchoDeployment(ctx, ns, name, name+"-tls")
	f.createEchoService(ctx, ns, name, nil)
	return &Echo{Namespace: ns, Service: name, CA: ca}
}

// createEchoDeployment creates the echo backend's Deployment ns/name,
// serving Secret secret (kubernetes.io/tls) on its https port, without
// waiting.
func (f *Framework) createEchoDeployment(ctx context.Context, ns, name, secret string) {
	GinkgoHelper()
	labels := map[string]string{"app": name}
	c := f.ScratchContainer("echo", f.Image("echo"), "-http", fmt.Sprintf(":%d", echoHTTPContainerPort), "-https", ":8443", "-cert", "/tls/tls.crt", "-key", "/tls/tls.key",
		"-wire-names", fmt.Sprintf(":%d", echoWireNamesContainerPort))
	c.Ports = []corev1.ContainerPort{
		{Name: EchoHTTPPort, ContainerPort: echoHTTPContainerPort},
		{Name: EchoHTTPSPort, ContainerPort: 8443},
		{Name: EchoWireNamesPort, ContainerPort: echoWireNamesContainerPort},
	}
	c.ReadinessProbe = HTTPReadiness("/", 8080)
	c.VolumeMounts = []corev1.VolumeMount{{Name: "tls", MountPath: "/tls", ReadOnly: true}}
	_, err := f.Clientset.AppsV1().Deployments(ns).Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{c},
					Volumes:    []corev1.Volume{{Name: "tls", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: secret}}}},
				},
			},
		},
	}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create deployment %s/%s", ns, name)
}

// ServiceWithoutPods creates Service "echo" in ns with the echo backend's
// ports and no pod behind it: for specs that check admission only, where
// a route must name a real Service but nothing needs to answer (Served
// always fails on it, so it cannot stand in for a backend by mistake).
func (f *Framework) ServiceWithoutPods(ctx context.Context, ns string) *Echo {
	GinkgoHelper()
	f.createEchoService(ctx, ns, "echo", nil)
	return &Echo{Namespace: ns, Service: "echo"}
}

// createEchoService creates Service ns/name for the pods labelled
// app=name, with the echo backend's ports and annotations.
func (f *Framework) createEchoService(ctx context.Context, ns, name string, annotations map[string]string) {
	GinkgoHelper()
	_, err := f.Clientset.CoreV1().Services(ns).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Annotations: annotations},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": name}, Ports: []corev1.ServicePort{
			{Name: EchoHTTPPort, Port: EchoHTTPServicePort, TargetPort: intstr.FromString(EchoHTTPPort)},
			{Name: EchoHTTPSPort, Port: 8443, TargetPort: intstr.FromString(EchoHTTPSPort)},
			{Name: EchoWireNamesPort, Port: 8081, TargetPort: intstr.FromString(EchoWireNamesPort)},
		}},
	}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create service %s/%s", ns, name)
}

// PortTo is one port of a ServicePerBackend and the echo backend behind it.
type PortTo struct {
	Port int32
	Echo *Echo
}

// ServicePerBackend creates Service ns/name without a selector, with one
// port per backend ("port-<n>"), and for each port an EndpointSlice
// holding that backend's pods alone (their plain HTTP port): a Service
// whose ports answer differently, so a request is traced to the port it
// reached. The backends must be ready and in ns.
func (f *Framework) ServicePerBackend(ctx context.Context, ns, name string, ports ...PortTo) {
	GinkgoHelper()
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	for _, p := range ports {
		portName := fmt.Sprintf("port-%d", p.Port)
		svc.Spec.Ports = append(svc.Spec.Ports, corev1.ServicePort{Name: portName, Port: p.Port, TargetPort: intstr.FromInt32(echoHTTPContainerPort)})
	}
	_, err := f.Clientset.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create service %s/%s", ns, name)
	for _, p := range ports {
		Expect(p.Echo.Namespace).To(Equal(ns), "backend %s of service %s/%s", p.Echo.Service, ns, name)
		portName := fmt.Sprintf("port-%d", p.Port)
		slice := &discoveryv1.EndpointSlice{
			ObjectMeta: metav1.ObjectMeta{Name: name + "-" + portName, Namespace: ns, Labels: map[string]string{
				discoveryv1.LabelServiceName: name,
				discoveryv1.LabelManagedBy:   "router-conformance-e2e",
			}},
			AddressType: discoveryv1.AddressTypeIPv4,
			Ports:       []discoveryv1.EndpointPort{{Name: ptr.To(portName), Port: ptr.To(echoHTTPContainerPort), Protocol: ptr.To(corev1.ProtocolTCP)}},
		}
		pods, err := f.Clientset.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + p.Echo.Service})
		Expect(err).NotTo(HaveOccurred())
		for _, pod := range pods.Items {
			if !slices.Contains(p.Echo.Pods, pod.Name) {
				continue
			}
			Expect(pod.Status.PodIP).NotTo(BeEmpty(), "pod %s/%s has no IP", ns, pod.Name)
			if strings.Contains(pod.Status.PodIP, ":") {
				slice.AddressType = discoveryv1.AddressTypeIPv6
			}
			slice.Endpoints = append(slice.Endpoints, discoveryv1.Endpoint{
				Addresses:  []string{pod.Status.PodIP},
				Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)},
				TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: pod.Name, UID: pod.UID},
			})
		}
		Expect(slice.Endpoints).To(HaveLen(len(p.Echo.Pods)), "pods of backend %s/%s", ns, p.Echo.Service)
		_, err = f.Clientset.DiscoveryV1().EndpointSlices(ns).Create(ctx, slice, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred(), "create EndpointSlice %s/%s", ns, slice.Name)
	}
}
