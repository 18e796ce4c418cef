package framework

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
)

// ClientTLSJig is what a client-TLS spec or container shares: an
// IngressController of its own, a namespace it serves, the edge route the
// clients call and its echo backend, and the client certificates by name.
type ClientTLSJig struct {
	IC        *IngressController
	Namespace string
	Host      string // the edge route's, set by the container
	Echo      *Echo  // behind Host, set by the container
	Leaves    map[string]*pki.Leaf
	Certs     map[string]*tls.Certificate
	// CRLs, when set, publishes the CRLs this jig's router downloads: a
	// wait of the jig that fails then says what the router is known to
	// hold (each CRL published, its nextUpdate, what it revokes) and what
	// the jig last saw it do, so that a refusal or an unexpected EOF at a
	// CRL step is read against the router's state.
	CRLs     *Publisher
	lastSeen string
	f        *Framework
}

// NewClientTLSJig gives the spec (or the Ordered container, when called
// in BeforeAll) its own IngressController and a namespace that it serves.
// The IngressController is pending (PendingIngressController): the first
// Configure or RequireClientTLS creates it with that clientTLS, one
// rollout where creating it first would take two; a spec that needs it
// before clientTLS calls jig.IC.Start.
func NewClientTLSJig(ctx context.Context, f *Framework, prefix string) *ClientTLSJig {
	GinkgoHelper()
	ic := f.PendingIngressController(ctx)
	return &ClientTLSJig{
		f: f, IC: ic,
		Namespace: f.SpecNamespaceWithLabels(ctx, prefix, ic.NamespaceLabels),
		Leaves:    map[string]*pki.Leaf{},
		Certs:     map[string]*tls.Certificate{},
	}
}

// NewEdgeClientTLSJig is NewClientTLSJig with a crlserver in the namespace
// and an echo backend behind the edge route the clients call.
func NewEdgeClientTLSJig(ctx context.Context, f *Framework, prefix string) (*ClientTLSJig, *CRLServer) {
	GinkgoHelper()
	j := NewClientTLSJig(ctx, f, prefix)
	server := f.DeployCRLServer(ctx, j.Namespace)
	j.Echo = f.DeployEcho(ctx, j.Namespace)
	route := f.RouteTo(j.Echo, "mtls", EchoHTTPPort)
	route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
	j.Host = f.CreateRoute(ctx, route).Spec.Host
	return j, server
}

// ClientSubject is the subject of the client certificate called cn.
func ClientSubject(cn string) pki.Subject {
	return pki.Subject{Country: "US", Organization: "Example", OrganizationalUnit: "Eng", CommonName: cn}
}

// Issue issues the client certificate name of ca.
func (j *ClientTLSJig) Issue(name string, ca *pki.CA, window pki.Window) {
	GinkgoHelper()
	j.issue(name, ca, pki.ClientOptions{Subject: ClientSubject(name), Window: window})
}

// IssueNamingCRL issues the client certificate name of ca, naming the CRL
// at crlURL as its distribution point.
func (j *ClientTLSJig) IssueNamingCRL(name string, ca *pki.CA, crlURL string) {
	GinkgoHelper()
	j.issue(name, ca, pki.ClientOptions{Subject: ClientSubject(name), CRLDistributionPoint: crlURL})
}

func (j *ClientTLSJig) issue(name string, ca *pki.CA, opts pki.ClientOptions) {
	GinkgoHelper()
	leaf, err := ca.IssueClient(opts)
	Expect(err).NotTo(HaveOccurred())
	cert, err := leaf.TLSCertificate()
	Expect(err).NotTo(HaveOccurred())
	j.Leaves[name], j.Certs[name] = leaf, &cert
}

// Request is a request to the edge route with client's certificate, with
// SNI.
func (j *ClientTLSJig) Request(client string) httpclient.Request {
	return j.RequestOver(WithSNI, client)
}

// RequestOver is a request to the edge route over c with client's
// certificate; client "" sends none.
func (j *ClientTLSJig) RequestOver(c Connection, client string) httpclient.Request {
	return c.Over(WithCert(j.IC.HTTPS(j.Host, "/"), j.Certs[client]))
}

// EventuallyServed waits until the echo backend answers the client (with
// SNI).
func (j *ClientTLSJig) EventuallyServed(ctx context.Context, client string) {
	GinkgoHelper()
	j.EventuallyServedOver(ctx, WithSNI, client)
}

// EventuallyServedOver waits until the echo backend answers the client
// over c.
func (j *ClientTLSJig) EventuallyServedOver(ctx context.Context, c Connection, client string) {
	GinkgoHelper()
	j.EventuallyServedWithin(ctx, j.f.Opts.Timeouts.Converge, j.RequestOver(c, client))
}

// EventuallyServedWithin waits, for at most timeout, until
// Consecutive() requests in a row are answered by the echo backend.
func (j *ClientTLSJig) EventuallyServedWithin(ctx context.Context, timeout time.Duration, req httpclient.Request) {
	GinkgoHelper()
	j.f.Eventually(ctx, func(g Gomega) {
		for i := 0; i < j.f.Consecutive(); i++ {
			resp, err := Do(ctx, req)
			g.Expect(err).NotTo(HaveOccurred(), "request to %s%s (SNI %v)", req.Host, req.Path, !req.NoSNI)
			j.Echo.Served(g, resp)
		}
	}).WithTimeout(timeout).Should(Succeed(), j.state)
	j.saw(req, "served")
}

// EventuallyRefused waits until the client is refused in the TLS
// handshake with exactly alert (with SNI).
func (j *ClientTLSJig) EventuallyRefused(ctx context.Context, client, alert string) {
	GinkgoHelper()
	j.EventuallyRefusedWithin(ctx, j.f.Opts.Timeouts.Converge, j.Request(client), alert)
}

// EventuallyRefusedOver waits until the client is refused over c with
// exactly alert.
func (j *ClientTLSJig) EventuallyRefusedOver(ctx context.Context, c Connection, client, alert string) {
	GinkgoHelper()
	j.EventuallyRefusedWithin(ctx, j.f.Opts.Timeouts.Converge, j.RequestOver(c, client), alert)
}

// EventuallyRefusedWithin waits, for at most timeout, until Consecutive()
// attempts in a row are refused in the TLS handshake with one of alerts
// (Framework.EventuallyRefusedWithin, saying the router's state when it
// fails).
func (j *ClientTLSJig) EventuallyRefusedWithin(ctx context.Context, timeout time.Duration, req httpclient.Request, alerts ...string) {
	GinkgoHelper()
	j.f.Eventually(ctx, func(g Gomega) {
		for i := 0; i < j.f.Consecutive(); i++ {
			expectRefused(ctx, g, req, alerts)
		}
	}).WithTimeout(timeout).Should(Succeed(), j.state)
	j.saw(req, fmt.Sprintf("refused %q", alerts))
}

// ConsistentlyRefused holds the refusal for the whole window
// (Framework.ConsistentlyRefused, saying the router's state when it
// fails).
func (j *ClientTLSJig) ConsistentlyRefused(ctx context.Context, window time.Duration, req httpclient.Request, alerts ...string) {
	GinkgoHelper()
	j.f.Consistently(ctx, window, func(g Gomega) { expectRefused(ctx, g, req, alerts) }).Should(Succeed(), j.state)
	j.saw(req, fmt.Sprintf("refused %q for %s", alerts, window))
}

// saw records the last outcome the jig confirmed.
func (j *ClientTLSJig) saw(req httpclient.Request, outcome string) {
	client := "without a certificate"
	for name, c := range j.Certs {
		if req.ClientCertificate != nil && c == req.ClientCertificate {
			client = name
		}
	}
	j.lastSeen = fmt.Sprintf("at %s the client %q (SNI %v) was %s", time.Now().UTC().Format(time.TimeOnly), client, !req.NoSNI, outcome)
}

// state is what the jig knows of its router when a wait fails.
func (j *ClientTLSJig) state() string {
	var b strings.Builder
	fmt.Fprintf(&b, "now %s UTC", time.Now().UTC().Format(time.TimeOnly))
	if j.lastSeen != "" {
		fmt.Fprintf(&b, "; last confirmed: %s", j.lastSeen)
	}
	if j.CRLs != nil {
		fmt.Fprintf(&b, "; %s", j.CRLs.State())
	}
	return b.String()
}

// BothConnections is a case of the TLS frontends as a pair of table
// entries: text with SNI (ID id, upstream's fe_sni) and text ", without
// SNI" (ID id-no-sni, fe_no_sni, each with its own bind, X-SSL* headers
// and actions). The table's function takes the Connection first, then
// args (decorators among args go to both entries). A case of client TLS
// has both unless a comment beside it says why not.
func BothConnections(text, id string, args ...any) []TableEntry {
	at := types.NewCodeLocation(1)
	entry := func(text, id string, c Connection) TableEntry {
		return Entry(text, append([]any{at, ID(id), c}, args...)...)
	}
	return []TableEntry{
		entry(text, id, WithSNI),
		entry(text+", without SNI", id+"-no-sni", WithoutSNI),
	}
}

// DryRunClientTLS asks the API server to take clientTLS, raw JSON that
// may break the IngressController's schema (a missing required field: the
// Go type always writes every field), as the default IngressController's
// spec.clientTLS, as a dry run (a merge patch; a null removes a field):
// nothing is stored, and the error is the API server's verdict.
func (f *Framework) DryRunClientTLS(ctx context.Context, clientTLS map[string]any) error {
	GinkgoHelper()
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"clientTLS": clientTLS}})
	Expect(err).NotTo(HaveOccurred())
	_, err = f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace).Patch(ctx, contract.DefaultIngressController, k8stypes.MergePatchType, patch, metav1.PatchOptions{DryRun: dryRun})
	return err
}

// ClientCAMap creates ConfigMap name in the config namespace holding the
// CA bundle, deleted when the spec (or the container) ends; it returns
// name.
func (j *ClientTLSJig) ClientCAMap(ctx context.Context, name, bundle string) string {
	GinkgoHelper()
	return j.ClientCAMapIn(ctx, contract.ConfigNamespace, name, bundle)
}

// ClientCAMapIn is ClientCAMap in another namespace: where the API does
// not look, for a spec that shows it does not.
func (j *ClientTLSJig) ClientCAMapIn(ctx context.Context, namespace, name, bundle string) string {
	GinkgoHelper()
	configMaps := j.f.Clientset.CoreV1().ConfigMaps(namespace)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace}, Data: map[string]string{contract.ClientCAKey: bundle}}
	_, err := configMaps.Create(ctx, cm, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func(ctx SpecContext) {
		Expect(configMaps.Delete(ctx, name, metav1.DeleteOptions{})).To(Succeed())
	})
	return name
}

// RequireClientTLS sets the IngressController's clientTLS and waits for
// the rollout (Configure).
func (j *ClientTLSJig) RequireClientTLS(ctx context.Context, policy operatorv1.ClientCertificatePolicy, caMap string, patterns ...string) {
	GinkgoHelper()
	j.Configure(ctx, func(ic *operatorv1.IngressController) {
		ic.Spec.ClientTLS = ClientTLS(policy, caMap, patterns...)
	})
}

// Configure makes change to the jig's IngressController and waits until
// its router runs it: created with it while pending, updated after.
func (j *ClientTLSJig) Configure(ctx context.Context, change func(*operatorv1.IngressController)) {
	GinkgoHelper()
	if j.IC.pending {
		j.IC.Start(ctx, change)
		return
	}
	j.IC.Update(ctx, change)
}

// ClientTLS is the clientTLS of policy with the CA bundle of ConfigMap
// caMap and the subject patterns.
func ClientTLS(policy operatorv1.ClientCertificatePolicy, caMap string, patterns ...string) operatorv1.ClientTLS {
	return operatorv1.ClientTLS{ClientCertificatePolicy: policy, ClientCA: configv1.ConfigMapNameReference{Name: caMap}, AllowedSubjectPatterns: patterns}
}

// NewCRLAuthority is a CA called cn (organization Example) whose own
// certificate names its own CRL, key on server, as its distribution
// point: a root when parent is nil, else an intermediate of parent.
func NewCRLAuthority(server *CRLServer, parent *pki.CA, cn, key string) *CRLAuthority {
	GinkgoHelper()
	opts := pki.CAOptions{Subject: pki.Subject{Organization: "Example", CommonName: cn}, CRLDistributionPoint: server.URL(key)}
	var ca *pki.CA
	var err error
	if parent == nil {
		ca, err = pki.NewRootCA(opts)
	} else {
		ca, err = parent.NewIntermediateCA(opts)
	}
	Expect(err).NotTo(HaveOccurred())
	return &CRLAuthority{Key: key, CA: ca}
}
