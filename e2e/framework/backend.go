package framework

import (
	"context"
	"crypto/x509"
	"fmt"
	"net/http"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
	"github.com/router-conformance/suite/pki"
)

// Echo is an echo backend of a spec: Service Service in the spec's
// namespace with ports http (8080) and wire-names (8081: plain HTTP that
// also reports the header names as the router spelled them), and on a
// backend of its own (DeployTLSEcho) https (8443, serving a certificate of
// CA for <service>.<ns>.svc and the extra hosts).
type Echo struct {
	Namespace string
	Service   string
	// CA signed the https port's certificate; nil where there is no https
	// port (a lease on the echo pool) or no spec holds the CA's key
	// (DeployServingCertEcho).
	CA *pki.CA
	// Pods are the names of the pods that answer for it, so that an
	// answer can be traced to this spec's backend and no other.
	Pods []string
	// podNamespace is where those pods run: the spec's namespace, or the
	// echo pool's for a lease.
	podNamespace string
	// leased are a lease's ports on the pool's pods by listener (nil for
	// a backend of its own): they tell this backend from the other
	// leases on the same pods.
	leased map[string]int32
	// endpoints are the pods' addresses (for ServicePerBackend).
	endpoints []discoveryv1.Endpoint
}

// Served checks that resp is a 200 from this very backend (Answered, as
// the Gateway API suite's CompareRoundTrip checks the backend): a stale
// route or another spec's backend is no success.
func (e *Echo) Served(g Gomega, resp *httpclient.Response) {
	g.ExpectWithOffset(1, resp.Status).To(Equal(http.StatusOK), "body: %s", resp.Body)
	g.ExpectWithOffset(1, resp.Echo).NotTo(BeNil(), "the echo backend did not answer: %s", resp.Body)
	g.ExpectWithOffset(1, e.Answered(resp.Echo)).To(BeTrue(), "answered by pod %s/%s on its %s port %d, which is not backend %s",
		resp.Echo.Namespace, resp.Echo.Pod, resp.Echo.Listener, resp.Echo.Port, e)
}

// ServedPresenting checks that e answered over a TLS connection on which
// the router presented exactly cert.
func (e *Echo) ServedPresenting(cert *x509.Certificate) func(Gomega, *httpclient.Response) {
	return func(g Gomega, resp *httpclient.Response) {
		e.Served(g, resp)
		g.Expect(resp.TLS).NotTo(BeNil(), "not over TLS")
		got := resp.TLS.PeerCertificates[0]
		g.Expect(got.Equal(cert)).To(BeTrue(), "want the certificate %s serial %s, the router presented %s serial %s",
			cert.Subject, cert.SerialNumber, got.Subject, got.SerialNumber)
	}
}

// Answered tells whether this backend gave the answer a: one of its pods,
// and on the echo pool its own port (another lease's port on the same pod
// is another spec's backend).
func (e *Echo) Answered(a *echo.Response) bool {
	if a == nil || a.Namespace != e.podNamespace || !slices.Contains(e.Pods, a.Pod) {
		return false
	}
	return e.leased == nil || int(e.leased[a.Listener]) == a.Port
}

// String names the backend and what may answer for it.
func (e *Echo) String() string {
	s := fmt.Sprintf("%s/%s (pods %s/%v", e.Namespace, e.Service, e.podNamespace, e.Pods)
	if e.leased != nil {
		s += fmt.Sprintf(", leased ports http %d, wire-names %d", e.leased[EchoHTTPPort], e.leased[EchoWireNamesPort])
	}
	return s + ")"
}

// httpPort is where the backend's pods serve its plain HTTP.
func (e *Echo) httpPort() int32 {
	if e.leased != nil {
		return e.leased[EchoHTTPPort]
	}
	return echoHTTPContainerPort
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

// DeployEcho gives ns an echo backend, Service "echo", as a lease on the
// echo pool (echo_pool.go): plain HTTP and wire-names, no https port. A
// route that reaches the backend's own TLS needs DeployTLSEcho or
// DeployEchoFor.
func (f *Framework) DeployEcho(ctx context.Context, ns string) *Echo {
	GinkgoHelper()
	return f.DeployEchoes(ctx, EchoIn(ns, "echo"))[0]
}

// EchoRef names an echo backend: its namespace, and its Service's (and a
// backend of its own's Deployment's) name.
type EchoRef struct{ Namespace, Name string }

// EchoIn is the echo backend name in namespace ns.
func EchoIn(ns, name string) EchoRef { return EchoRef{Namespace: ns, Name: name} }

// DeployEchoes gives each ref an echo backend as DeployEcho does, for
// specs that need several.
func (f *Framework) DeployEchoes(ctx context.Context, refs ...EchoRef) []*Echo {
	GinkgoHelper()
	var echoes []*Echo
	for _, r := range refs {
		echoes = append(echoes, f.leaseEcho(ctx, r))
	}
	return echoes
}

// DeployEchoFor is the echo backend a route of termination needs: a lease
// on the pool where the router speaks plain HTTP to it ("", edge), a
// backend of its own with its TLS (DeployTLSEcho, with extraHosts) for
// reencrypt and passthrough.
func (f *Framework) DeployEchoFor(ctx context.Context, ns string, termination routev1.TLSTerminationType, extraHosts ...string) *Echo {
	GinkgoHelper()
	if termination == routev1.TLSTerminationReencrypt || termination == routev1.TLSTerminationPassthrough {
		return f.DeployTLSEcho(ctx, ns, extraHosts...)
	}
	return f.DeployEcho(ctx, ns)
}

// DeployTLSEcho runs an echo backend of its own in ns: one replica behind
// Service "echo" (selecting it), with an https port serving a certificate
// of a CA of its own for echo.<ns>.svc and extraHosts, ready. It is for
// routes that reach the backend's TLS (reencrypt, passthrough) and specs
// that need a Service backed by pods the cluster selects.
func (f *Framework) DeployTLSEcho(ctx context.Context, ns string, extraHosts ...string) *Echo {
	GinkgoHelper()
	return f.DeployTLSEchoNamed(ctx, ns, "echo", extraHosts...)
}

// DeployTLSEchoNamed is DeployTLSEcho behind Service name, for a spec
// that needs two such backends in one namespace (a route's alternate
// backends); each has a CA of its own.
func (f *Framework) DeployTLSEchoNamed(ctx context.Context, ns, name string, extraHosts ...string) *Echo {
	GinkgoHelper()
	return f.DeployEchoReplicasNamed(ctx, ns, name, 1, extraHosts...)
}

// DeployEchoReplicas is DeployTLSEcho with replicas pods behind its
// Service: a backend of as many endpoints, each answering with its own
// pod's name (Echo.Pods), for the specs of how a route's requests are
// spread among them.
func (f *Framework) DeployEchoReplicas(ctx context.Context, ns string, replicas int32, extraHosts ...string) *Echo {
	GinkgoHelper()
	return f.DeployEchoReplicasNamed(ctx, ns, "echo", replicas, extraHosts...)
}

// DeployEchoReplicasNamed is DeployEchoReplicas behind Service name, for
// a spec that needs several such backends in one namespace.
func (f *Framework) DeployEchoReplicasNamed(ctx context.Context, ns, name string, replicas int32, extraHosts ...string) *Echo {
	GinkgoHelper()
	e := f.createEcho(ctx, ns, name, replicas, extraHosts)
	f.waitEcho(ctx, e)
	Expect(e.Pods).To(HaveLen(int(replicas)), "ready pods of %s", e)
	return e
}

// waitEcho waits until e's Deployment is ready and records its pods.
func (f *Framework) waitEcho(ctx context.Context, e *Echo) {
	GinkgoHelper()
	f.WaitDeploymentReady(ctx, e.Namespace, e.Service)
	e.Pods, e.endpoints = f.readyPods(ctx, e.Namespace, e.Service)
	e.podNamespace = e.Namespace
}

// createEcho creates the echo backend's Secret, Deployment and Service,
// without waiting.
func (f *Framework) createEcho(ctx context.Context, ns, name string, replicas int32, extraHosts []string) *Echo {
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
	f.createEchoDeployment(ctx, ns, name, name+"-tls", replicas)
	f.createEchoService(ctx, echoService(ns, name, true, nil))
	return &Echo{Namespace: ns, Service: name, CA: ca}
}

// createEchoDeployment creates the echo backend's Deployment ns/name,
// serving Secret secret (kubernetes.io/tls) on its https port, without
// waiting.
func (f *Framework) createEchoDeployment(ctx context.Context, ns, name, secret string, replicas int32) {
	GinkgoHelper()
	c := f.ScratchContainer("echo", f.Image("echo"), "-http", fmt.Sprintf(":%d", echoHTTPContainerPort), "-https", ":8443", "-cert", "/tls/tls.crt", "-key", "/tls/tls.key",
		"-wire-names", fmt.Sprintf(":%d", echoWireNamesContainerPort))
	c.Ports = []corev1.ContainerPort{
		{Name: EchoHTTPPort, ContainerPort: echoHTTPContainerPort},
		{Name: EchoHTTPSPort, ContainerPort: 8443},
		{Name: EchoWireNamesPort, ContainerPort: echoWireNamesContainerPort},
	}
	c.ReadinessProbe = HTTPReadiness("/", echoHTTPContainerPort)
	c.VolumeMounts = []corev1.VolumeMount{{Name: "tls", MountPath: "/tls", ReadOnly: true}}
	d := OneReplica(ns, name, corev1.PodSpec{
		Containers: []corev1.Container{c},
		Volumes:    []corev1.Volume{{Name: "tls", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: secret}}}},
	})
	d.Spec.Replicas = ptr.To(replicas)
	_, err := f.Clientset.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create deployment %s/%s", ns, name)
}

// ServiceWithoutPods creates Service "echo" in ns with the echo backend's
// ports and no pod behind it: for specs that check admission only, where
// a route must name a real Service but nothing needs to answer (Served
// always fails on it, so it cannot stand in for a backend by mistake).
func (f *Framework) ServiceWithoutPods(ctx context.Context, ns string) *Echo {
	GinkgoHelper()
	f.createEchoService(ctx, echoService(ns, "echo", true, nil))
	return &Echo{Namespace: ns, Service: "echo", podNamespace: ns}
}

// echoService is Service ns/name with the echo backend's ports: selecting
// the pods labelled app=name with the https port (a backend of its own),
// or without a selector or https port (a lease: the suite writes its
// EndpointSlice).
func echoService(ns, name string, own bool, annotations map[string]string) *corev1.Service {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Annotations: annotations},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{
			{Name: EchoHTTPPort, Port: EchoHTTPServicePort, TargetPort: intstr.FromString(EchoHTTPPort)},
			{Name: EchoWireNamesPort, Port: 8081, TargetPort: intstr.FromString(EchoWireNamesPort)},
		}},
	}
	if own {
		svc.Spec.Selector = map[string]string{"app": name}
		svc.Spec.Ports = append(svc.Spec.Ports, corev1.ServicePort{Name: EchoHTTPSPort, Port: 8443, TargetPort: intstr.FromString(EchoHTTPSPort)})
	}
	return svc
}

func (f *Framework) createEchoService(ctx context.Context, svc *corev1.Service) {
	GinkgoHelper()
	_, err := f.Clientset.CoreV1().Services(svc.Namespace).Create(ctx, svc, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create service %s/%s", svc.Namespace, svc.Name)
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
// reached. The backends must be in ns.
func (f *Framework) ServicePerBackend(ctx context.Context, ns, name string, ports ...PortTo) {
	GinkgoHelper()
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	for _, p := range ports {
		portName := fmt.Sprintf("port-%d", p.Port)
		svc.Spec.Ports = append(svc.Spec.Ports, corev1.ServicePort{Name: portName, Port: p.Port, TargetPort: intstr.FromInt32(p.Echo.httpPort())})
	}
	f.createEchoService(ctx, svc)
	for _, p := range ports {
		Expect(p.Echo.Namespace).To(Equal(ns), "backend %s of service %s/%s", p.Echo.Service, ns, name)
		portName := fmt.Sprintf("port-%d", p.Port)
		f.createEndpointSlice(ctx, ns, name, name+"-"+portName,
			[]discoveryv1.EndpointPort{{Name: ptr.To(portName), Port: ptr.To(p.Echo.httpPort()), Protocol: ptr.To(corev1.ProtocolTCP)}}, p.Echo.endpoints)
	}
}

// createEndpointSlice creates EndpointSlice ns/name of Service service
// (which has no selector): the suite's own, as a controller of
// selectorless Services writes them.
func (f *Framework) createEndpointSlice(ctx context.Context, ns, service, name string, ports []discoveryv1.EndpointPort, endpoints []discoveryv1.Endpoint) {
	GinkgoHelper()
	slice := &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{
			discoveryv1.LabelServiceName: service,
			discoveryv1.LabelManagedBy:   "router-conformance-e2e",
		}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Ports:       ports,
		Endpoints:   endpoints,
	}
	for _, ep := range endpoints {
		if strings.Contains(ep.Addresses[0], ":") {
			slice.AddressType = discoveryv1.AddressTypeIPv6
		}
	}
	_, err := f.Clientset.DiscoveryV1().EndpointSlices(ns).Create(ctx, slice, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "create EndpointSlice %s/%s", ns, name)
}

// podEndpoint is a ready pod as an EndpointSlice endpoint.
func podEndpoint(p *corev1.Pod) discoveryv1.Endpoint {
	return discoveryv1.Endpoint{
		Addresses:  []string{p.Status.PodIP},
		Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)},
		TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID},
	}
}
