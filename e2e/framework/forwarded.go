package framework

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
)

// ClientSource stands for the client's address as the router sees it in
// a contract.ForwardedRequest: the suite cannot know it (Docker's port
// mapping, a NAT or a load balancer sits between), so CheckForwarded
// takes any IP address where it stands, the same one everywhere in an
// answer.
const ClientSource = "\x00client-source\x00"

// CheckForwarded asserts that the backend saw exactly want of each
// forwarded header (contract.ForwardedHeaderNames; absent from want:
// none), every ClientSource one and the same IP address.
func CheckForwarded(g Gomega, got http.Header, want map[string][]string) {
	GinkgoHelper()
	var sources []string
	for _, name := range contract.ForwardedHeaderNames {
		values, wanted := got.Values(name), want[name]
		g.Expect(values).To(HaveLen(len(wanted)), "the backend saw %s %q, want %q", name, values, printable(wanted))
		for i, w := range wanted {
			parts := strings.Split(w, ClientSource)
			if len(parts) == 1 {
				g.Expect(values[i]).To(Equal(w), "the backend saw %s %q, want %q", name, values, wanted)
				continue
			}
			for j := range parts {
				parts[j] = regexp.QuoteMeta(parts[j])
			}
			m := regexp.MustCompile("^" + strings.Join(parts, "([^;,\" ]+)") + "$").FindStringSubmatch(values[i])
			g.Expect(m).NotTo(BeNil(), "the backend saw %s %q, want %q (the client's address where it says <source>)", name, values, printable(wanted))
			sources = append(sources, m[1:]...)
		}
	}
	for _, s := range sources {
		g.Expect(net.ParseIP(s)).NotTo(BeNil(), "the client's address %q in the forwarded headers is no IP address", s)
		g.Expect(s).To(Equal(sources[0]), "the forwarded headers name two client addresses, %q and %q", sources[0], s)
	}
}

func printable(values []string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = strings.ReplaceAll(v, ClientSource, "<source>")
	}
	return out
}

// RouterPorts are the ports this IngressController's router accepts
// HTTP and HTTPS on, as its X-Forwarded-Port reports them: a HostNetwork
// strategy's ports (upstream's defaults 80 and 443 where unset), else
// the router's container ports, 80 and 443.
func (ic *IngressController) RouterPorts(ctx context.Context) (httpPort, httpsPort string) {
	GinkgoHelper()
	live, err := ic.f.Operator.OperatorV1().IngressControllers(contract.OperatorNamespace).Get(ctx, ic.Name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred(), "read IngressController %s", ic.Name)
	eps := live.Status.EndpointPublishingStrategy
	if eps == nil {
		eps = live.Spec.EndpointPublishingStrategy
	}
	httpPort, httpsPort = "80", "443"
	if eps != nil && eps.Type == operatorv1.HostNetworkStrategyType && eps.HostNetwork != nil {
		if p := eps.HostNetwork.HTTPPort; p != 0 {
			httpPort = fmt.Sprint(p)
		}
		if p := eps.HostNetwork.HTTPSPort; p != 0 {
			httpsPort = fmt.Sprint(p)
		}
	}
	return httpPort, httpsPort
}
