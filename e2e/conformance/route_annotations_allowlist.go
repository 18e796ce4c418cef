package conformance

import (
	"fmt"
	"net"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/e2e/framework"
	"github.com/router-conformance/suite/e2e/httpclient"
)

// allowlistCase is one pair of routes of the allowlist specs: the
// annotation that lists this client's source address (given it) and one
// that does not, on routes of the termination.
type allowlistCase struct {
	termination routev1.TLSTerminationType
	listing     func(source string) string
	notListing  string
}

// otherAddress, otherAddress2 and otherNet are addresses of TEST-NET-1..3 (RFC 5737): never a
// client's.
const (
	otherAddress  = "192.0.2.1"
	otherAddress2 = "198.51.100.7"
	otherNet      = "203.0.113.0/24"
)

// overInlineLimit is one more address than the router writes into its
// configuration inline (upstream's 61): the rest goes to a file.
const overInlineLimit = 62

// manyOthers are n addresses of 198.51.100.0/24 and 203.0.113.0/24,
// blank-separated.
func manyOthers(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s.%d", []string{"198.51.100", "203.0.113"}[i%2], i/2+1)
	}
	return strings.Join(out, " ")
}

// sourceNet is the /24 (IPv4) or /64 (IPv6) around the source address.
func sourceNet(source string) string {
	GinkgoHelper()
	bits, size := 24, 32
	if net.ParseIP(source).To4() == nil {
		bits, size = 64, 128
	}
	_, n, err := net.ParseCIDR(fmt.Sprintf("%s/%d", source, size))
	Expect(err).NotTo(HaveOccurred(), "source address %q", source)
	n.IP = n.IP.Mask(net.CIDRMask(bits, size))
	n.Mask = net.CIDRMask(bits, size)
	return n.String()
}

// describeAllowlist: haproxy.router.openshift.io/ip_whitelist and its
// successor ip_allowlist.
func describeAllowlist(f *framework.Framework) {
	// A route with an allowlist serves only the source addresses it lists
	// (blank-separated addresses and CIDR ranges): the router closes a
	// connection from any other unanswered, in every termination, the
	// allowlist's forms of the documentation's examples alike, and a list
	// longer than the router writes inline (61) is still enforced. The
	// client's source address, as the router sees it, is read first from
	// the X-Forwarded-For the router adds for it.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the Route annotations table (ip_whitelist), its note 2 (more than 61
	// entries), and the four examples "A route that allows ..."
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (every route backend: `acl allowlist src <list>`, or `-f <file>` when
	// validateHAProxyAllowlist finds more than 61 entries, then `tcp-request
	// content reject if !allowlist`), pkg/router/template/template_helper.go
	// (parseIPList, generateHAProxyAllowlistFile), pkg/router/router_test.go
	// (TestConfigTemplate: "Long allowlist of IPs", "Allowlist of mixed IPs")
	DescribeTable("ip_whitelist serves only the sources it lists and closes any other connection unanswered",
		func(ctx SpecContext, c allowlistCase) {
			source := clientSource(ctx, f)
			ns := f.SpecNamespace(ctx, "allowlist")
			backend := f.DeployEchoFor(ctx, ns, c.termination, f.Host(ns, "listed"), f.Host(ns, "unlisted"))
			listed := f.TerminatedRouteTo(backend, "listed", c.termination, "")
			listed.Annotations = map[string]string{contract.IPWhitelistAnnotation: c.listing(source)}
			f.CreateRoute(ctx, listed)
			unlisted := f.TerminatedRouteTo(backend, "unlisted", c.termination, "")
			unlisted.Annotations = map[string]string{contract.IPWhitelistAnnotation: c.notListing}
			f.CreateRoute(ctx, unlisted)

			By("positive control: the list with this client's source " + source + " serves it")
			f.EventuallyResponds(ctx, f.RequestTo(listed, backend, "/"), backend.Served)
			By("the list without it: the connection is closed unanswered")
			f.EventuallyRefused(ctx, f.RequestTo(unlisted, backend, "/"), httpclient.ClosedWithoutAnswer)
		},
		Entry("plain HTTP, one address", framework.ID("route-annotations/allowlist-one-address"),
			allowlistCase{listing: func(s string) string { return s }, notListing: otherAddress}),
		Entry("plain HTTP, several addresses", framework.ID("route-annotations/allowlist-several-addresses"),
			allowlistCase{listing: func(s string) string { return otherAddress + " " + s + " " + otherAddress2 }, notListing: otherAddress + " " + otherAddress2}),
		Entry("plain HTTP, a CIDR range", framework.ID("route-annotations/allowlist-cidr"),
			allowlistCase{listing: sourceNet, notListing: otherNet}),
		Entry("plain HTTP, addresses and CIDR ranges", framework.ID("route-annotations/allowlist-mixed"),
			allowlistCase{listing: func(s string) string { return otherAddress + " " + sourceNet(s) + " " + otherNet }, notListing: otherAddress + " " + otherNet}),
		Entry(fmt.Sprintf("plain HTTP, %d entries: beyond the inline limit", overInlineLimit+1), framework.ID("route-annotations/allowlist-over-inline-limit"),
			allowlistCase{listing: func(s string) string { return manyOthers(overInlineLimit) + " " + s }, notListing: manyOthers(overInlineLimit + 1)}),
		Entry("edge, one address", framework.ID("route-annotations/allowlist-edge"),
			allowlistCase{termination: routev1.TLSTerminationEdge, listing: func(s string) string { return s }, notListing: otherAddress}),
		Entry("reencrypt, one address", framework.ID("route-annotations/allowlist-reencrypt"),
			allowlistCase{termination: routev1.TLSTerminationReencrypt, listing: func(s string) string { return s }, notListing: otherAddress}),
		Entry("passthrough, one address", framework.ID("route-annotations/allowlist-passthrough"),
			allowlistCase{termination: routev1.TLSTerminationPassthrough, listing: func(s string) string { return s }, notListing: otherAddress}),
	)

	// A list the router cannot read is ignored without a word: every
	// source is served, as with no list at all. Beside each, the same
	// addresses written as the router reads them close the connection.
	// ip_allowlist, the annotation's current name, wins over ip_whitelist
	// when both are set.
	//
	// Document: OpenShift's documentation, "Route-specific annotations"
	// (openshift/openshift-docs modules/nw-route-specific-annotations.adoc):
	// the IMPORTANT note (a space-delimited list; any other delimiter
	// ignores the list)
	// Upstream: openshift/router pkg/router/template/template_helper.go
	// (parseIPList: a value with a leading or trailing blank is no list,
	// an entry that is no address or CIDR range is dropped,
	// TestParseIPList), images/router/haproxy/conf/haproxy-config.template
	// (firstMatch ".+" of ip_allowlist, then ip_whitelist: 242ad711b,
	// "Rename the allowlist route annotation")
	DescribeTable("an allowlist the router does not read",
		func(ctx SpecContext, ignored, read map[string]string) {
			ns := f.SpecNamespace(ctx, "allowlist-unread")
			backend := f.DeployEcho(ctx, ns)
			ignoredRoute := f.RouteTo(backend, "ignored", framework.EchoHTTPPort)
			ignoredRoute.Annotations = ignored
			f.CreateRoute(ctx, ignoredRoute)
			readRoute := f.RouteTo(backend, "read", framework.EchoHTTPPort)
			readRoute.Annotations = read
			f.CreateRoute(ctx, readRoute)

			By("positive control: the list as the router reads it closes the connection")
			f.EventuallyRefused(ctx, f.RequestTo(readRoute, backend, "/"), httpclient.ClosedWithoutAnswer)
			By("the list it does not read: served")
			f.EventuallyResponds(ctx, f.RequestTo(ignoredRoute, backend, "/"), backend.Served)
		},
		Entry("comma-delimited", framework.ID("route-annotations/allowlist-comma-ignored"),
			map[string]string{contract.IPWhitelistAnnotation: otherAddress + "," + otherAddress2},
			map[string]string{contract.IPWhitelistAnnotation: otherAddress + " " + otherAddress2}),
		Entry("a leading blank", framework.ID("route-annotations/allowlist-leading-blank-ignored"),
			map[string]string{contract.IPWhitelistAnnotation: " " + otherAddress},
			map[string]string{contract.IPWhitelistAnnotation: otherAddress}),
	)

	// ip_allowlist is read before ip_whitelist: a route with both follows
	// ip_allowlist alone.
	//
	// Document: none (upstream renamed the annotation after the
	// documentation's version: OpenShift's documentation names
	// ip_whitelist)
	// Upstream: openshift/router images/router/haproxy/conf/haproxy-config.template
	// (firstMatch ".+" of ip_allowlist, then ip_whitelist; 242ad711b),
	// pkg/router/router_test.go (TestConfigTemplate: "... using the old
	// annotation key")
	It("ip_allowlist wins over ip_whitelist", framework.ID("route-annotations/allowlist-wins-over-whitelist"), func(ctx SpecContext) {
		source := clientSource(ctx, f)
		ns := f.SpecNamespace(ctx, "allowlist-names")
		backend := f.DeployEcho(ctx, ns)
		allow := f.RouteTo(backend, "allow", framework.EchoHTTPPort)
		allow.Annotations = map[string]string{contract.IPAllowlistAnnotation: source}
		f.CreateRoute(ctx, allow)
		both := f.RouteTo(backend, "both", framework.EchoHTTPPort)
		both.Annotations = map[string]string{contract.IPAllowlistAnnotation: otherAddress, contract.IPWhitelistAnnotation: source}
		f.CreateRoute(ctx, both)

		By("positive control: ip_allowlist alone, listing this client's source, serves it")
		f.EventuallyResponds(ctx, f.RequestTo(allow, backend, "/"), backend.Served)
		By("ip_allowlist without it beside ip_whitelist with it: closed unanswered")
		f.EventuallyRefused(ctx, f.RequestTo(both, backend, "/"), httpclient.ClosedWithoutAnswer)
	})
}

// clientSource is this client's source address as the router sees it:
// the last X-Forwarded-For the router adds on a plain route of its own.
func clientSource(ctx SpecContext, f *framework.Framework) string {
	GinkgoHelper()
	ns := f.SpecNamespace(ctx, "source")
	backend := f.DeployEcho(ctx, ns)
	route := f.CreateRoute(ctx, f.RouteTo(backend, "source", framework.EchoHTTPPort))
	var source string
	f.EventuallyResponds(ctx, f.RequestTo(route, backend, "/"), func(g Gomega, resp *httpclient.Response) {
		backend.Served(g, resp)
		forwarded := resp.Echo.Headers["X-Forwarded-For"]
		g.Expect(forwarded).NotTo(BeEmpty(), "the router added no X-Forwarded-For")
		source = strings.TrimSpace(forwarded[len(forwarded)-1][strings.LastIndex(forwarded[len(forwarded)-1], ",")+1:])
		g.Expect(net.ParseIP(source)).NotTo(BeNil(), "X-Forwarded-For %q", forwarded)
	})
	return source
}
