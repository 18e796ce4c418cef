package framework

import (
	"net/http"
	"strings"
	"testing"

	"github.com/onsi/gomega"

	"github.com/router-conformance/suite/e2e/httpclient"
	"github.com/router-conformance/suite/fixtures/echo"
)

func TestEchoPoolLeasesEachPortOnceThenRefuses(t *testing.T) {
	p := &echoPool{}
	for want := 0; want < echoPoolSize; want++ {
		got, err := p.lease()
		if err != nil || got != want {
			t.Fatalf("lease %d = %d, %v", want, got, err)
		}
	}
	if _, err := p.lease(); err == nil || !strings.Contains(err.Error(), "all leased") {
		t.Errorf("a lease past the pool's size: want refused, got %v", err)
	}
}

func TestALeaseHasNoSelectorAndNoHTTPSPort(t *testing.T) {
	own, lease := echoService("ns", "echo", true, nil), echoService("ns", "echo", false, nil)
	if own.Spec.Selector["app"] != "echo" || len(own.Spec.Ports) != 3 {
		t.Errorf("a backend of its own: selector %v, ports %v", own.Spec.Selector, own.Spec.Ports)
	}
	if lease.Spec.Selector != nil || len(lease.Spec.Ports) != 2 {
		t.Errorf("a lease: selector %v, ports %v", lease.Spec.Selector, lease.Spec.Ports)
	}
	for _, p := range lease.Spec.Ports {
		if p.Name == EchoHTTPSPort {
			t.Errorf("a lease has an https port")
		}
	}
}

// Served on a lease: the pool's pod on the lease's own port passes,
// another lease's port (another spec's backend on the same pod) fails.
func TestServedOnALeaseChecksItsPort(t *testing.T) {
	e := &Echo{Namespace: "spec", Service: "echo", Pods: []string{"pool-0"}, podNamespace: "pool",
		leased: map[string]int32{EchoHTTPPort: 10007, EchoWireNamesPort: 20007}}
	answer := func(listener string, port int) *httpclient.Response {
		return &httpclient.Response{Status: http.StatusOK, Echo: &echo.Response{Pod: "pool-0", Namespace: "pool", Listener: listener, Port: port}}
	}
	for _, c := range []struct {
		resp *httpclient.Response
		ok   bool
	}{
		{answer("http", 10007), true},
		{answer("wire-names", 20007), true},
		{answer("http", 10008), false},
		{answer("wire-names", 10007), false},
		{answer("https", 8443), false},
	} {
		failed := false
		g := gomega.NewGomega(func(string, ...int) { failed = true })
		e.Served(g, c.resp)
		if failed == c.ok {
			t.Errorf("Served(%s on %d): failed=%v, want ok=%v", c.resp.Echo.Listener, c.resp.Echo.Port, failed, c.ok)
		}
	}
}
