// Command routes measures route convergence on the hermetic cluster: for
// each of N edge routes, the time from the create call to the first
// correct answer (the echo backend, the route's own path) through the
// router's 127.0.0.1 mapping. Writes <out>.json and <out>.md.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/e2e/framework"
)

func main() {
	n := flag.Int("routes", 20, "how many routes to measure")
	out := flag.String("out", "reports/bench-router", "output prefix")
	framework.RegisterFlags(flag.CommandLine)
	flag.Parse()
	// The framework's helpers assert with Gomega: a failure ends the bench.
	gomega.RegisterFailHandler(func(message string, _ ...int) { log.Fatal(message) })
	if err := run(*n, *out); err != nil {
		log.Fatal(err)
	}
}

func run(n int, out string) error {
	ctx := context.Background()
	o := framework.Opts
	if o.Timeouts.Converge < time.Minute {
		o.Timeouts.Converge = time.Minute
	}
	framework.Opts = o
	cluster, env, err := framework.KindUp(ctx, o, log.Printf)
	if err != nil {
		return err
	}
	if !o.Keep {
		defer cluster.Down(context.Background(), false)
	}
	if framework.E, err = framework.Connect(env.Marshal()); err != nil {
		return err
	}
	ns, err := framework.E.Clientset.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "bench-routes-"}}, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	defer framework.E.Clientset.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{})
	backend := framework.DeployEcho(ctx, ns.Name)

	var samples []time.Duration
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("r%d", i)
		route := framework.RouteTo(backend, name, framework.EchoHTTPPort)
		route.Spec.TLS = &routev1.TLSConfig{Termination: routev1.TLSTerminationEdge}
		req := framework.HTTPS(route.Spec.Host, "/"+name)
		start := time.Now()
		if _, err := framework.E.Routes.RouteV1().Routes(ns.Name).Create(ctx, route, metav1.CreateOptions{}); err != nil {
			return err
		}
		for {
			resp, err := framework.Do(ctx, req)
			if err == nil && resp.Status == http.StatusOK && resp.Echo != nil && resp.Echo.Path == "/"+name {
				break
			}
			if time.Since(start) > time.Minute {
				return fmt.Errorf("route %s did not converge within a minute (last: %v)", name, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		samples = append(samples, time.Since(start))
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	pct := func(p float64) time.Duration { return samples[int(p*float64(len(samples)-1)+0.5)] }
	result := map[string]any{
		"date": time.Now().UTC().Format(time.RFC3339), "routes": n,
		"p50_ms": pct(0.50).Milliseconds(), "p99_ms": pct(0.99).Milliseconds(),
		"min_ms": samples[0].Milliseconds(), "max_ms": samples[len(samples)-1].Milliseconds(),
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(result, "", "  ")
	if err := os.WriteFile(out+".json", append(b, '\n'), 0o644); err != nil {
		return err
	}
	md := fmt.Sprintf("# Route convergence (%s)\n\nEdge routes created one after another; time from the create call to the first correct answer through the router.\n\n| routes | p50 | p99 | min | max |\n|---|---|---|---|---|\n| %d | %d ms | %d ms | %d ms | %d ms |\n",
		time.Now().UTC().Format("2006-01-02"), n, pct(0.5).Milliseconds(), pct(0.99).Milliseconds(), samples[0].Milliseconds(), samples[len(samples)-1].Milliseconds())
	fmt.Print(md)
	return os.WriteFile(out+".md", []byte(md), 0o644)
}
