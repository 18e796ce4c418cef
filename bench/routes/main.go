// Command routes measures convergence on the hermetic cluster: for each of
// N objects, the time from the create call to the first correct answer
// (the echo backend, the object's own path) through the router's
// 127.0.0.1 mapping. Scenarios: edge Routes, and IngressRoute vertices
// delegated to by a root (issue 10's figure), and a component route moved
// to a custom host (issue 11's figure). Writes <out>.json and
// <out>.md.
package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/onsi/gomega"
	configv1 "github.com/openshift/api/config/v1"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/e2e/profile"
	"github.com/router-conformance/suite/pki"
)

// scenario creates its i-th object and returns the request that the object
// serves; prepare runs once before.
type scenario struct {
	name, what string
	prepare    func(ctx context.Context, f *framework.Framework, ns string, backend *framework.Echo) error
	create     func(ctx context.Context, f *framework.Framework, ns string, backend *framework.Echo, i int) (httpclient.Request, error)
}

var scenarios = []scenario{
	{
		name: "route", what: "edge Route created → its path served",
		prepare: func(context.Context, *framework.Framework, string, *framework.Echo) error { return nil },
		create: func(ctx context.Context, f *framework.Framework, ns string, backend *framework.Echo, i int) (httpclient.Request, error) {
			name := fmt.Sprintf("r%d", i)
			route := f.RouteTo(backend, name, framework.EchoHTTPPort)
			route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
			_, err := f.Routes.RouteV1().Routes(ns).Create(ctx, route, metav1.CreateOptions{})
			return f.HTTPS(route.Spec.Host, "/"+name), err
		},
	},
	{
		// The root delegates /v0../v<N-1> up front: each vertex is served
		// once it exists (issue 10: vertex created → its path served).
		name: "ingressroute-vertex", what: "IngressRoute vertex created (its root already delegates to it) → its path served",
		prepare: func(ctx context.Context, f *framework.Framework, ns string, backend *framework.Echo) error {
			root := &irv1.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "root"},
				Spec: irv1.Spec{VirtualHost: &irv1.VirtualHost{Fqdn: f.Host(ns, "ir")}}}
			for i := 0; i < *count; i++ {
				root.Spec.Routes = append(root.Spec.Routes, irv1.Route{Match: fmt.Sprintf("/v%d", i), Delegate: &irv1.Delegate{Name: fmt.Sprintf("v%d", i)}})
			}
			return f.Resources.Create(ctx, root)
		},
		create: func(ctx context.Context, f *framework.Framework, ns string, backend *framework.Echo, i int) (httpclient.Request, error) {
			path := fmt.Sprintf("/v%d", i)
			vertex := &irv1.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("v%d", i)},
				Spec: irv1.Spec{Routes: []irv1.Route{{Match: path, Services: []irv1.Service{{Name: backend.Service, Port: 8080}}}}}}
			return f.HTTP(f.Host(ns, "ir"), path), f.Resources.Create(ctx, vertex)
		},
	},
	{
		// One fixture component; each sample gives it a new custom host
		// (issue 11: spec entry → the new host serving the Secret's
		// certificate). The client trusts only the Secret's CA, so the
		// router's default certificate is no answer.
		name: "component-route", what: "component route spec entry set → the custom host serving the Secret's certificate",
		prepare: prepareComponent,
		create: func(ctx context.Context, f *framework.Framework, ns string, backend *framework.Echo, i int) (httpclient.Request, error) {
			host := f.Host(ns, fmt.Sprintf("custom%d", i))
			err := setComponentEntry(ctx, f, configv1.ComponentRouteSpec{Namespace: ns, Name: "console", Hostname: configv1.Hostname(host),
				ServingCertKeyPairSecret: configv1.SecretNameReference{Name: componentSecret(ns)}})
			req := f.HTTPS(host, "/custom")
			req.RootCAs = componentCAs
			return req, err
		},
	},
}

var (
	count = flag.Int("routes", 20, "how many objects to measure per scenario")
	only  = flag.String("scenarios", "route,ingressroute-vertex,component-route", "comma-separated scenarios")
)

func main() {
	out := flag.String("out", "_output/bench-router", "output prefix")
	flags := framework.RegisterFlags(flag.CommandLine)
	flag.Parse()
	opts, err := flags.Options()
	if err != nil {
		log.Fatalf("options: %v", err)
	}
	// The framework's helpers assert with Gomega: a failure ends the bench.
	gomega.RegisterFailHandler(func(message string, _ ...int) { log.Fatal(message) })
	if err := run(opts, *out); err != nil {
		log.Fatal(err)
	}
}

type result struct {
	Scenario, What     string
	N                  int
	P50, P99, Min, Max int64 // milliseconds
}

func run(o framework.Options, out string) error {
	ctx := context.Background()
	o.Timeouts.Converge = max(o.Timeouts.Converge, time.Minute)
	p, err := profile.New(o)
	if err != nil {
		return err
	}
	framework.Complete(&o, p.Capabilities())
	cluster, env, err := profile.KindUp(ctx, o, log.Printf)
	if err != nil {
		return err
	}
	if !o.Keep {
		defer cluster.Down(context.Background(), false)
	}
	f := framework.New(o, p.Capabilities())
	if err := f.Connect(env.Marshal()); err != nil {
		return err
	}
	var results []result
	for _, s := range scenarios {
		if !strings.Contains(","+*only+",", ","+s.name+",") {
			continue
		}
		r, err := measure(ctx, f, s)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		results = append(results, r)
	}
	return write(results, out)
}

// measure runs one scenario in a namespace of its own.
func measure(ctx context.Context, f *framework.Framework, s scenario) (result, error) {
	ns, err := f.Clientset.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "bench-" + s.name + "-"}}, metav1.CreateOptions{})
	if err != nil {
		return result{}, err
	}
	defer f.Clientset.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{})
	defer func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i](context.Background())
		}
		cleanups = nil
	}()
	backend := f.DeployEcho(ctx, ns.Name)
	if err := s.prepare(ctx, f, ns.Name, backend); err != nil {
		return result{}, err
	}
	var samples []time.Duration
	for i := 0; i < *count; i++ {
		start := time.Now()
		req, err := s.create(ctx, f, ns.Name, backend, i)
		if err != nil {
			return result{}, err
		}
		if err := awaitServed(ctx, req, start); err != nil {
			return result{}, err
		}
		samples = append(samples, time.Since(start))
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	pct := func(p float64) int64 { return samples[int(p*float64(len(samples)-1)+0.5)].Milliseconds() }
	return result{Scenario: s.name, What: s.what, N: len(samples), P50: pct(0.5), P99: pct(0.99), Min: samples[0].Milliseconds(), Max: samples[len(samples)-1].Milliseconds()}, nil
}

// awaitServed polls req until the echo backend answers with req's path;
// polling by hand (not Eventually) so that the sample is the first success.
func awaitServed(ctx context.Context, req httpclient.Request, start time.Time) error {
	for {
		resp, err := httpclient.Do(ctx, req)
		if err == nil && resp.Status == http.StatusOK && resp.Echo != nil && resp.Echo.Path == req.Path {
			return nil
		}
		if time.Since(start) > time.Minute {
			return fmt.Errorf("%s%s not served within a minute (last: %v)", req.Host, req.Path, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func write(results []result, out string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(map[string]any{"date": time.Now().UTC().Format(time.RFC3339), "results": results}, "", "  ")
	if err := os.WriteFile(out+".json", append(b, '\n'), 0o644); err != nil {
		return err
	}
	md := fmt.Sprintf("# Convergence (%s)\n\nObjects created one after another; time from the create call to the first correct answer through the router.\n\n| scenario | n | p50 | p99 | min | max |\n|---|---|---|---|---|---|\n", time.Now().UTC().Format("2006-01-02"))
	for _, r := range results {
		md += fmt.Sprintf("| %s | %d | %d ms | %d ms | %d ms | %d ms |\n", r.What, r.N, r.P50, r.P99, r.Min, r.Max)
	}
	fmt.Print(md)
	return os.WriteFile(out+".md", []byte(md), 0o644)
}

// componentCAs trusts the component Secret's CA only.
var componentCAs *x509.CertPool

func componentSecret(ns string) string { return "bench-component-" + ns }

// prepareComponent deploys the component's Route and the fixture
// component, and one Secret in openshift-config whose certificate names
// every custom host the samples use.
func prepareComponent(ctx context.Context, f *framework.Framework, ns string, backend *framework.Echo) error {
	ca, err := pki.NewRootCA(pki.CAOptions{Subject: pki.Subject{CommonName: "bench component CA"}})
	if err != nil {
		return err
	}
	var hosts []string
	for i := 0; i < *count; i++ {
		hosts = append(hosts, f.Host(ns, fmt.Sprintf("custom%d", i)))
	}
	leaf, err := ca.IssueServer(pki.ServerOptions{Hosts: hosts})
	if err != nil {
		return err
	}
	componentCAs = pki.Pool(ca)
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: contract.ConfigNamespace, Name: componentSecret(ns)}, Type: corev1.SecretTypeTLS,
		Data: map[string][]byte{corev1.TLSCertKey: leaf.ChainPEM(), corev1.TLSPrivateKeyKey: leaf.KeyPEM}}
	if _, err := f.Clientset.CoreV1().Secrets(contract.ConfigNamespace).Create(ctx, secret, metav1.CreateOptions{}); err != nil {
		return err
	}
	cleanups = append(cleanups, func(ctx context.Context) {
		_ = f.Clientset.CoreV1().Secrets(contract.ConfigNamespace).Delete(ctx, secret.Name, metav1.DeleteOptions{})
	})
	route := f.RouteTo(backend, "console", framework.EchoHTTPPort)
	route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
	f.CreateRoute(ctx, route)
	_, stop := f.StartComponentOperator(ctx, ns, "console", "console", route.Spec.Host)
	cleanups = append(cleanups, stop)
	return nil
}

// setComponentEntry replaces the spec entry of the component.
func setComponentEntry(ctx context.Context, f *framework.Framework, entry configv1.ComponentRouteSpec) error {
	ingresses := f.ConfigAPI.ConfigV1().Ingresses()
	for {
		live, err := ingresses.Get(ctx, contract.IngressConfig, metav1.GetOptions{})
		if err != nil {
			return err
		}
		var kept []configv1.ComponentRouteSpec
		for _, e := range live.Spec.ComponentRoutes {
			if e.Namespace != entry.Namespace || e.Name != entry.Name {
				kept = append(kept, e)
			}
		}
		live.Spec.ComponentRoutes = append(kept, entry)
		if _, err = ingresses.Update(ctx, live, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
			return err
		}
	}
}

// cleanups run, last first, when a scenario ends.
var cleanups []func(context.Context)
