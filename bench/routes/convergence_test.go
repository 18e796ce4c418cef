//go:build e2e

package routes

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	irv1 "github.com/router-conformance/suite/apis/contour/v1alpha1"
	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/pki"
	"github.com/router-conformance/suite/reports"
)

// samples is how many objects each scenario creates, one after another.
const samples = 20

// figureEntry names the report entry that carries a scenario's figure.
const figureEntry = "convergence"

// figure is one scenario's convergence: create call → first correct
// answer through the router, in milliseconds.
type figure struct {
	Scenario, What     string
	N                  int
	P50, P99, Min, Max int64
}

// describeConvergence declares one spec per scenario. Each carries the
// feature it exercises, so a profile that does not claim it skips it
// (the conformance suite's feature gate).
func describeConvergence(f *framework.Framework) {
	Describe("Convergence", Label("bench"), func() {
		It("of edge Routes: created → its path served", Label(string(contract.FeatureRouter)), func(ctx SpecContext) {
			ns := f.SpecNamespace(ctx, "bench-route")
			backend := f.DeployEcho(ctx, ns)
			measure(ctx, "route", "edge Route created → its path served", func(i int) httpclient.Request {
				name := fmt.Sprintf("r%d", i)
				route := f.RouteTo(backend, name, framework.EchoHTTPPort)
				route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
				_, err := f.Routes.RouteV1().Routes(ns).Create(ctx, route, metav1.CreateOptions{})
				Expect(err).NotTo(HaveOccurred())
				return f.HTTPS(route.Spec.Host, "/"+name)
			})
		})

		// The root delegates /v0../v<N-1> up front: each vertex is served
		// once it exists (vertex created → its path served).
		It("of IngressRoute vertices: created (its root already delegates to it) → its path served", Label(string(contract.FeatureDelegation)), func(ctx SpecContext) {
			ns := f.SpecNamespace(ctx, "bench-ir")
			backend := f.DeployEcho(ctx, ns)
			host := f.Host(ns, "ir")
			root := &irv1.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "root"}, Spec: irv1.Spec{VirtualHost: &irv1.VirtualHost{Fqdn: host}}}
			for i := range samples {
				root.Spec.Routes = append(root.Spec.Routes, irv1.Route{Match: fmt.Sprintf("/v%d", i), Delegate: &irv1.Delegate{Name: fmt.Sprintf("v%d", i)}})
			}
			Expect(f.Resources.Create(ctx, root)).To(Succeed())
			measure(ctx, "ingressroute-vertex", "IngressRoute vertex created (its root already delegates to it) → its path served", func(i int) httpclient.Request {
				path := fmt.Sprintf("/v%d", i)
				vertex := &irv1.IngressRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("v%d", i)},
					Spec: irv1.Spec{Routes: []irv1.Route{{Match: path, Services: []irv1.Service{{Name: backend.Service, Port: framework.EchoHTTPServicePort}}}}}}
				Expect(f.Resources.Create(ctx, vertex)).To(Succeed())
				return f.HTTP(host, path)
			})
		})

		// One fixture component; each sample gives it a new custom host
		// (spec entry → the new host serving the Secret's certificate).
		// The client trusts only the Secret's CA, so the router's default
		// certificate is no answer.
		It("of component routes: spec entry set → the custom host serving the Secret's certificate", Label(string(contract.FeatureComponentRoutes)), func(ctx SpecContext) {
			component := framework.DeployComponentJig(ctx, f, "bench-component")
			ca := component.NewCA()
			hosts := make([]string, samples)
			for i := range hosts {
				hosts[i] = f.Host(component.Namespace, fmt.Sprintf("custom%d", i))
			}
			secret, _ := framework.TLSSecret(ca, contract.ConfigNamespace, "bench-component-"+component.Namespace, hosts...)
			component.CreateConfigSecret(ctx, secret)
			measure(ctx, "component-route", "component route spec entry set → the custom host serving the Secret's certificate", func(i int) httpclient.Request {
				component.SetSpec(ctx, hosts[i], secret.Name)
				req := f.HTTPS(hosts[i], "/custom")
				req.RootCAs = pki.Pool(ca)
				return req
			})
		})
	})
}

// measure times samples objects: create makes the i-th and returns the
// request it serves; the sample ends at the first correct answer. The
// figure goes into the spec's report entries.
func measure(ctx context.Context, scenario, what string, create func(i int) httpclient.Request) {
	GinkgoHelper()
	var took []time.Duration
	for i := range samples {
		start := time.Now()
		req := create(i)
		Expect(firstServed(ctx, req, start)).To(Succeed())
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	pct := func(p float64) int64 { return took[int(p*float64(len(took)-1)+0.5)].Milliseconds() }
	AddReportEntry(figureEntry, figure{Scenario: scenario, What: what, N: len(took), P50: pct(0.5), P99: pct(0.99),
		Min: took[0].Milliseconds(), Max: took[len(took)-1].Milliseconds()})
}

// firstServed polls req until the echo backend answers with req's path.
// It polls by hand, not with the suite's Eventually (its poll interval and
// consecutive answers), so that the sample ends at the first success.
func firstServed(ctx context.Context, req httpclient.Request, start time.Time) error {
	const cadence = 20 * time.Millisecond // the figures' resolution
	const bound = time.Minute             // a sample that takes longer is a failure, not a figure
	for {
		resp, err := httpclient.Do(ctx, req)
		if err == nil && resp.Status == http.StatusOK && resp.Echo != nil && resp.Echo.Path == req.Path {
			return nil
		}
		if time.Since(start) > bound {
			return fmt.Errorf("%s%s not served within %s (last: %v)", req.Host, req.Path, bound, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(cadence):
		}
	}
}

// writeFigures writes every scenario's figure (the report entries of the
// specs that ran) into <report dir>/bench-router.{json,md}.
func writeFigures(f *framework.Framework, report Report) {
	var figures []figure
	for _, s := range report.SpecReports {
		for _, e := range s.ReportEntries {
			if e.Name != figureEntry {
				continue
			}
			// In the process that ran the spec the entry holds the value;
			// from another process, its JSON.
			switch v := e.GetRawValue().(type) {
			case figure:
				figures = append(figures, v)
			case string:
				var fig figure
				Expect(json.Unmarshal([]byte(v), &fig)).To(Succeed(), "report entry %q", v)
				figures = append(figures, fig)
			default:
				Fail(fmt.Sprintf("report entry %s holds a %T", figureEntry, v))
			}
		}
	}
	date := time.Now().UTC()
	out := filepath.Join(f.Opts.ReportDir, reports.MeasurementFigures)
	data, err := json.MarshalIndent(map[string]any{"date": date.Format(time.RFC3339), "results": figures}, "", "  ")
	Expect(err).NotTo(HaveOccurred())
	Expect(os.WriteFile(out+".json", append(data, '\n'), 0o644)).To(Succeed())
	var md strings.Builder
	fmt.Fprintf(&md, "# Convergence (%s)\n\nObjects created one after another; time from the create call to the first correct answer through the router.\n\n"+
		"| scenario | n | p50 | p99 | min | max |\n|---|---|---|---|---|---|\n", date.Format("2006-01-02"))
	for _, r := range figures {
		fmt.Fprintf(&md, "| %s | %d | %d ms | %d ms | %d ms | %d ms |\n", r.What, r.N, r.P50, r.P99, r.Min, r.Max)
	}
	Expect(os.WriteFile(out+".md", []byte(md.String()), 0o644)).To(Succeed())
	GinkgoWriter.Print(md.String())
}
