package framework

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/router-conformance/suite/e2e/httpclient"
)

// EventuallyResponds polls req until Consecutive() responses in a row pass
// check.
func (f *Framework) EventuallyResponds(ctx context.Context, req httpclient.Request, check func(g Gomega, resp *httpclient.Response)) {
	GinkgoHelper()
	f.EventuallyRespondsWithin(ctx, f.Opts.Timeouts.Converge, req, check)
}

// EventuallyRespondsWithin is EventuallyResponds with its own timeout, for
// changes that take effect on a schedule (a CRL refresh, a retry backoff).
func (f *Framework) EventuallyRespondsWithin(ctx context.Context, timeout time.Duration, req httpclient.Request, check func(g Gomega, resp *httpclient.Response)) {
	GinkgoHelper()
	f.Eventually(ctx, func(g Gomega) {
		for i := 0; i < f.Consecutive(); i++ {
			resp, err := Do(ctx, req)
			g.Expect(err).NotTo(HaveOccurred(), "request to %s%s", req.Host, req.Path)
			check(g, resp)
		}
	}).WithTimeout(timeout).Should(Succeed())
}

// EventuallyRefused polls req until Consecutive() attempts in a row are
// refused in the TLS handshake with exactly alert ("certificate required",
// "revoked certificate", ...). An answer, or any other error, is no refusal.
func (f *Framework) EventuallyRefused(ctx context.Context, req httpclient.Request, alert string) {
	GinkgoHelper()
	f.EventuallyRefusedWithin(ctx, f.Opts.Timeouts.Converge, req, alert)
}

// EventuallyRefusedWithin is EventuallyRefused with its own timeout, and
// any of several exact refusals where upstream and the reference router
// refuse the same client differently (an alert, or a bare close).
func (f *Framework) EventuallyRefusedWithin(ctx context.Context, timeout time.Duration, req httpclient.Request, alerts ...string) {
	GinkgoHelper()
	f.Eventually(ctx, func(g Gomega) {
		for i := 0; i < f.Consecutive(); i++ {
			expectRefused(ctx, g, req, alerts)
		}
	}).WithTimeout(timeout).Should(Succeed())
}

// ConsistentlyRefused holds a refusal for the whole window: every attempt,
// one per Poll, is refused in the TLS handshake with one of alerts. The
// first answer, or any other error, fails the spec.
func (f *Framework) ConsistentlyRefused(ctx context.Context, window time.Duration, req httpclient.Request, alerts ...string) {
	GinkgoHelper()
	f.Consistently(ctx, window, func(g Gomega) { expectRefused(ctx, g, req, alerts) }).Should(Succeed())
}

// expectRefused sends req once and checks that it is refused with one of
// alerts, never answered.
func expectRefused(ctx context.Context, g Gomega, req httpclient.Request, alerts []string) {
	resp, err := Do(ctx, req)
	if err == nil {
		g.ExpectWithOffset(1, resp.Status).To(Equal(-1), "want a refusal %q, got an HTTP %d answer", alerts, resp.Status)
	}
	g.ExpectWithOffset(1, alerts).To(ContainElement(httpclient.Alert(err)), "want a refusal %q; got %v", alerts, err)
}

// Answers sends req n times, one after another, each on a connection of
// its own (so each is balanced anew), and returns the answers in order;
// a request that gets no answer fails g. For the specs that look at how
// a sample of requests spread among backends.
func Answers(ctx context.Context, g Gomega, req httpclient.Request, n int) []*httpclient.Response {
	out := make([]*httpclient.Response, 0, n)
	for range n {
		resp, err := Do(ctx, req)
		g.ExpectWithOffset(1, err).NotTo(HaveOccurred(), "request to %s%s", req.Host, req.Path)
		out = append(out, resp)
	}
	return out
}
