package framework

import (
	"context"
	"encoding/json"
	"io"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/fixtures/echo"
)

// The echo backend reached without the router: from the host through a
// port mapping, or by its Service inside the cluster.

// GetEcho fetches url from the host with keep-alives off and decodes the
// echo backend's answer; one exchange is bounded by Timeouts.Request.
func (f *Framework) GetEcho(g Gomega, url string) echo.Response {
	client := &http.Client{Timeout: f.Opts.Timeouts.Request, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get(url)
	g.Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(resp.StatusCode).To(Equal(http.StatusOK), string(raw))
	var body echo.Response
	g.Expect(json.Unmarshal(raw, &body)).To(Succeed())
	return body
}

// DeployEchoService deploys an echo backend of its own (DeployTLSEcho)
// and returns its ClusterIP Service: one that selects its pod, so that the
// cluster's own endpoints, DNS and Service proxy are what a check of the
// platform reaches.
func (f *Framework) DeployEchoService(ctx context.Context, ns string) *corev1.Service {
	GinkgoHelper()
	backend := f.DeployTLSEcho(ctx, ns)
	svc, err := f.Clientset.CoreV1().Services(ns).Get(ctx, backend.Service, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	return svc
}
