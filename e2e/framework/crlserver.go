package framework

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto"
	"fmt"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/router-conformance/suite/crlserver"
	"github.com/router-conformance/suite/pki"
)

// CRLServer is a crlserver pod of a spec's namespace behind Service "crl"
// (port 80): the distribution point the router downloads from. The
// Service's port 81 leads to a port of the pod where nothing listens: a
// distribution point that refuses connections (UnreachableURL), inside the
// cluster.
type CRLServer struct {
	Namespace string
	// stopped is when Stop took every distribution point away.
	stopped time.Time
	f       *Framework
}

const (
	crlConfigMap = "crls"
	// The Service port whose target port nothing in the pod listens on:
	// the pod's kernel resets the connection at once.
	crlClosedPort       = 81
	crlClosedTargetPort = 8081
)

// DeployCRLServer starts the CRL distribution point in ns.
func (f *Framework) DeployCRLServer(ctx context.Context, ns string) *CRLServer {
	GinkgoHelper()
	cs := f.Clientset
	_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: crlConfigMap, Namespace: ns}}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	_, err = cs.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "crlserver", Namespace: ns}}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	_, err = cs.RbacV1().Roles(ns).Create(ctx, &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: "crlserver", Namespace: ns},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, ResourceNames: []string{crlConfigMap}, Verbs: []string{"get"}}},
	}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	_, err = cs.RbacV1().RoleBindings(ns).Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "crlserver", Namespace: ns},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "crlserver"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "crlserver", Namespace: ns}},
	}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())

	labels := map[string]string{"app": "crlserver"}
	c := f.ScratchContainer("crlserver", f.Image("crlserver"), "-listen", ":8080", "-configmaps", crlConfigMap)
	c.Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}
	c.ReadinessProbe = HTTPReadiness(crlserver.HealthzPath, 8080)
	f.CreateDeployment(ctx, OneReplica(ns, "crlserver", corev1.PodSpec{ServiceAccountName: "crlserver", Containers: []corev1.Container{c}}))
	_, err = cs.CoreV1().Services(ns).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "crl", Namespace: ns},
		Spec: corev1.ServiceSpec{Selector: labels, Ports: []corev1.ServicePort{
			{Name: "http", Port: 80, TargetPort: intstr.FromString("http")},
			{Name: "closed", Port: crlClosedPort, TargetPort: intstr.FromInt32(crlClosedTargetPort)},
		}},
	}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	return &CRLServer{Namespace: ns, f: f}
}

// URL is the distribution point of a key, as the router resolves it
// (cluster DNS).
func (s *CRLServer) URL(key string) string { return "http://crl." + s.Namespace + ".svc/" + key }

// UnreachableURL is a distribution point of key on the Service's closed
// port: every connection is refused, whatever is published.
func (s *CRLServer) UnreachableURL(key string) string {
	return fmt.Sprintf("http://crl.%s.svc:%d/%s", s.Namespace, crlClosedPort, key)
}

// StatusURL is a distribution point that always answers code (an error
// status), whatever is published.
func (s *CRLServer) StatusURL(code int) string {
	return "http://crl." + s.Namespace + ".svc" + crlserver.StatusPath(code)
}

// NotACRLURL is a distribution point that answers 200 with a body that is
// not a CRL (the server's health check, "ok").
func (s *CRLServer) NotACRLURL() string {
	return "http://crl." + s.Namespace + ".svc" + crlserver.HealthzPath
}

// publish replaces the served CRLs: key -> PEM, and key -> DER for the
// keys in binary (stored gzipped: a ConfigMap holds at most 1 MiB, and a
// large CRL is more). It returns an error rather than asserting: the
// Publisher's goroutine calls it outside any spec, where a failed
// assertion would fail whichever spec happens to run. A conflict is
// retried; any other error is returned at once (the Publisher's next tick
// publishes again).
func (s *CRLServer) publish(ctx context.Context, crls map[string][]byte, binary map[string][]byte) error {
	data := map[string]string{}
	for k, v := range crls {
		data[k] = string(v)
	}
	gz := map[string][]byte{}
	for k, v := range binary {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		if _, err := zw.Write(v); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		gz[k+crlserver.GzipSuffix] = buf.Bytes()
	}
	_, err := Update(ctx, s.f.Clientset.CoreV1().ConfigMaps(s.Namespace), crlConfigMap, func(cm *corev1.ConfigMap) {
		cm.Data, cm.BinaryData = data, gz
	})
	if err != nil {
		return fmt.Errorf("publish CRLs to %s/%s: %w", s.Namespace, crlConfigMap, err)
	}
	return nil
}

// Stop takes the crlserver pod away and waits until it is gone: from
// then on every distribution point of the server refuses connections
// (the Service has no endpoint left), whatever was published.
func (s *CRLServer) Stop(ctx context.Context) {
	GinkgoHelper()
	_, err := Update(ctx, s.f.Clientset.AppsV1().Deployments(s.Namespace), "crlserver", func(d *appsv1.Deployment) {
		d.Spec.Replicas = ptr.To[int32](0)
	})
	Expect(err).NotTo(HaveOccurred(), "scale the crlserver of %s to 0", s.Namespace)
	s.f.Eventually(ctx, func(g Gomega) {
		pods, err := s.f.Clientset.CoreV1().Pods(s.Namespace).List(ctx, metav1.ListOptions{LabelSelector: "app=crlserver"})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(pods.Items).To(BeEmpty(), "crlserver pods of %s", s.Namespace)
	}).WithTimeout(s.f.Opts.Timeouts.PodReady).Should(Succeed())
	s.stopped = time.Now()
}

// Fetches are the successful downloads per path, read through the API
// server's service proxy.
func (s *CRLServer) Fetches(ctx context.Context) (map[string]int64, error) {
	raw, err := s.f.Clientset.CoreV1().Services(s.Namespace).ProxyGet("http", "crl", "80", crlserver.FetchesPath, nil).Stream(ctx)
	if err != nil {
		return nil, err
	}
	defer raw.Close()
	return crlserver.DecodeFetches(raw)
}

// CRLAuthority is a CA whose CRL a spec publishes and changes.
type CRLAuthority struct {
	Key string // the CRL's key on the server
	CA  *pki.CA
	// Filler revokes that many random serials more: a large CRL, served
	// as DER.
	Filler int
	// NextUpdate, when set, is the fixed nextUpdate of every CRL issued
	// for this authority (a CA that publishes on its own schedule);
	// otherwise each publication is valid for the Publisher's Lifetime.
	NextUpdate time.Time
	// ThisUpdate, when set, is the fixed thisUpdate (before NextUpdate):
	// with both in the past, an expired CRL.
	ThisUpdate time.Time
	// SignedBy, when set, signs every CRL of this authority instead of
	// its CA: a CRL that names the CA but does not verify against it.
	SignedBy crypto.Signer
	revoked  []*pki.Leaf
	revCAs   []*pki.CA
	// last is what the last publication of this authority's CRL held.
	last publication
}

// publication is one CRL as published: when, its nextUpdate and what it
// revoked.
type publication struct {
	at, nextUpdate time.Time
	revoked        []string
}

// Publisher re-issues the CRLs of its authorities every few seconds with a
// short validity, as a real CA publishes before nextUpdate, so that the
// router's refreshes pick up a revocation within about Lifetime.
type Publisher struct {
	Server   *CRLServer
	Lifetime time.Duration
	mu       sync.Mutex
	cas      []*CRLAuthority
}

// Add registers an authority.
func (p *Publisher) Add(a *CRLAuthority) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cas = append(p.cas, a)
}

// SetRevoked replaces the revoked leaves and CAs of an authority and
// publishes at once.
func (p *Publisher) SetRevoked(ctx context.Context, a *CRLAuthority, leaves []*pki.Leaf, cas []*pki.CA) {
	GinkgoHelper()
	p.mu.Lock()
	a.revoked, a.revCAs = leaves, cas
	p.mu.Unlock()
	p.PublishNow(ctx)
}

// PublishNow issues and publishes every authority's CRL.
func (p *Publisher) PublishNow(ctx context.Context) {
	GinkgoHelper()
	Expect(p.publish(ctx)).To(Succeed())
}

func (p *Publisher) publish(ctx context.Context) error {
	p.mu.Lock()
	crls, large := map[string][]byte{}, map[string][]byte{}
	for _, a := range p.cas {
		var rev []pki.Revocation
		for _, l := range a.revoked {
			rev = append(rev, pki.Revoke(l.Cert)...)
		}
		for _, c := range a.revCAs {
			rev = append(rev, pki.Revoke(c.Cert)...)
		}
		opts := pki.CRLOptions{ThisUpdate: a.ThisUpdate, NextUpdate: a.NextUpdate, Revoked: rev, SignedBy: a.SignedBy}
		if opts.NextUpdate.IsZero() {
			opts.NextUpdate = time.Now().Add(p.Lifetime)
		}
		a.last = publication{at: time.Now(), nextUpdate: opts.NextUpdate}
		for _, l := range a.revoked {
			a.last.revoked = append(a.last.revoked, l.Cert.Subject.CommonName)
		}
		for _, c := range a.revCAs {
			a.last.revoked = append(a.last.revoked, "CA "+c.Cert.Subject.CommonName)
		}
		if a.Filler > 0 {
			crl, err := a.CA.IssueLargeCRL(a.Filler, opts)
			if err != nil {
				p.mu.Unlock()
				return err
			}
			large[a.Key] = crl.DER
			continue
		}
		crl, err := a.CA.IssueCRL(opts)
		if err != nil {
			p.mu.Unlock()
			return err
		}
		crls[a.Key] = crl.PEM()
	}
	p.mu.Unlock()
	return p.Server.publish(ctx, crls, large)
}

// Start publishes now and then every Lifetime/4 until the spec (or the
// Ordered container) ends. A failed republish is logged and tried again
// at the next tick; a CRL left to expire shows in the specs as refusals,
// with this log beside them.
func (p *Publisher) Start(ctx context.Context) {
	GinkgoHelper()
	p.PublishNow(ctx)
	background, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(p.Lifetime / 4)
		defer tick.Stop()
		for {
			select {
			case <-background.Done():
				return
			case <-tick.C:
				if err := p.publish(background); err != nil && background.Err() == nil {
					GinkgoWriter.Printf("CRL republish failed, retrying in %s: %v\n", p.Lifetime/4, err)
				}
			}
		}
	}()
	DeferCleanup(func() { cancel(); <-done })
}

// State says what the router can be holding: each CRL as last published
// (when, its nextUpdate, whether that has passed, what it revokes), and
// whether the distribution points were stopped. A CRL published but not
// yet fetched is not in force yet; one whose nextUpdate passed is
// expired wherever the router still holds it.
func (p *Publisher) State() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	var b strings.Builder
	b.WriteString("CRLs published (each in force once the router fetched it):")
	for _, a := range p.cas {
		l := a.last
		if l.at.IsZero() {
			fmt.Fprintf(&b, " [%s: never published]", a.Key)
			continue
		}
		validity := "valid " + l.nextUpdate.Sub(now).Round(time.Second).String() + " more"
		if !l.nextUpdate.After(now) {
			validity = "EXPIRED " + now.Sub(l.nextUpdate).Round(time.Second).String() + " ago"
		}
		fmt.Fprintf(&b, " [%s: published %s, nextUpdate %s (%s), revokes %q]", a.Key,
			l.at.UTC().Format(time.TimeOnly), l.nextUpdate.UTC().Format(time.TimeOnly), validity, l.revoked)
	}
	if !p.Server.stopped.IsZero() {
		fmt.Fprintf(&b, "; every distribution point unreachable since %s", p.Server.stopped.UTC().Format(time.TimeOnly))
	}
	return b.String()
}
