package framework

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/router-conformance/suite/contract"
)

// LogToContainer is an IngressController change: its access log goes to
// the sidecar container the ingress operator runs beside the router
// (spec.logging.access.destination type Container), with these request
// headers captured (spec.logging.access.httpCaptureHeaders.request), in
// HAProxy's httplog format (no httpLogFormat).
func LogToContainer(captureRequestHeaders ...operatorv1.IngressControllerCaptureHTTPHeader) func(*operatorv1.IngressController) {
	return LogToContainerCapturing(operatorv1.IngressControllerCaptureHTTPHeaders{Request: captureRequestHeaders})
}

// LogToContainerCapturing is LogToContainer with request and response
// headers captured (spec.logging.access.httpCaptureHeaders).
func LogToContainerCapturing(captures operatorv1.IngressControllerCaptureHTTPHeaders) func(*operatorv1.IngressController) {
	return func(ic *operatorv1.IngressController) {
		ic.Spec.Logging = &operatorv1.IngressControllerLogging{Access: &operatorv1.AccessLogging{
			Destination:        operatorv1.LoggingDestination{Type: operatorv1.ContainerLoggingDestinationType},
			HTTPCaptureHeaders: captures,
		}}
	}
}

// AccessLog is what the router of an IngressController logging to a
// container has logged so far: every line of the access-log container
// (operatorv1.ContainerLoggingSidecarContainerName, "logs") of each of
// its router pods.
type AccessLog struct {
	Lines []string
}

// AccessLog reads the access log of this IngressController's router pods
// through the Kubernetes API (the sidecar's container log). Every pod of
// the IngressController must have the access-log container.
func (ic *IngressController) AccessLog(ctx context.Context) (AccessLog, error) {
	var out AccessLog
	cs := ic.f.Clientset
	pods, err := cs.CoreV1().Pods(contract.RouterNamespace).List(ctx, metav1.ListOptions{LabelSelector: contract.RouterDeploymentLabel + "=" + ic.Name})
	if err != nil {
		return out, err
	}
	if len(pods.Items) == 0 {
		return out, fmt.Errorf("IngressController %s has no router pod", ic.Name)
	}
	for _, p := range pods.Items {
		if p.DeletionTimestamp != nil {
			continue
		}
		has := false
		for _, c := range p.Spec.Containers {
			has = has || c.Name == operatorv1.ContainerLoggingSidecarContainerName
		}
		if !has {
			return out, fmt.Errorf("router pod %s of IngressController %s has no %q container (is spec.logging.access a Container destination?)", p.Name, ic.Name, operatorv1.ContainerLoggingSidecarContainerName)
		}
		raw, err := cs.CoreV1().Pods(p.Namespace).GetLogs(p.Name, &corev1.PodLogOptions{Container: operatorv1.ContainerLoggingSidecarContainerName}).DoRaw(ctx)
		if err != nil {
			return out, fmt.Errorf("the access log of router pod %s: %w", p.Name, err)
		}
		for _, l := range strings.Split(string(raw), "\n") {
			if l != "" {
				out.Lines = append(out.Lines, l)
			}
		}
	}
	return out, nil
}

// EventuallyAccessLog polls the IngressController's access log until check
// passes on it.
func (ic *IngressController) EventuallyAccessLog(ctx context.Context, check func(g Gomega, log AccessLog)) {
	GinkgoHelper()
	ic.f.Eventually(ctx, func(g Gomega) {
		log, err := ic.AccessLog(ctx)
		g.Expect(err).NotTo(HaveOccurred())
		check(g, log)
	}).Should(Succeed(), "the access log of IngressController %s", ic.Name)
}

// HTTPLogEntry is one request of an access log in HAProxy's httplog
// format (option httplog, the router's format without httpLogFormat):
// `... [accept date] frontend backend/server timers status bytes ...
// {captured request headers} {captured response headers} "METHOD PATH
// PROTO"`.
type HTTPLogEntry struct {
	// Frontend is the frontend that logged it (`~` marks a TLS one).
	Frontend string
	// Captures are the {...} blocks before the request line, in order,
	// each split at `|`: the request headers' values, then the
	// response headers', as the IngressController lists them (a header
	// the message lacks is "").
	Captures     [][]string
	Method, Path string
	Line         string
}

var (
	httpLogFrontend = regexp.MustCompile(`\[\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2}\.\d{3}\] (\S+) \S+/\S+ `)
	httpLogTail     = regexp.MustCompile(`((?: \{[^{}]*\})*) "(\S+) (\S+) (\S+)"\s*$`)
	httpLogCapture  = regexp.MustCompile(`\{([^{}]*)\}`)
)

// ParseHTTPLog reads one line of the access log; false for a line that is
// no HTTP request (a tcplog line, HAProxy's own messages).
func ParseHTTPLog(line string) (HTTPLogEntry, bool) {
	fe := httpLogFrontend.FindStringSubmatch(line)
	tail := httpLogTail.FindStringSubmatch(line)
	if fe == nil || tail == nil {
		return HTTPLogEntry{}, false
	}
	e := HTTPLogEntry{Frontend: fe[1], Method: tail[2], Path: tail[3], Line: line}
	for _, c := range httpLogCapture.FindAllStringSubmatch(tail[1], -1) {
		e.Captures = append(e.Captures, strings.Split(c[1], "|"))
	}
	return e, true
}

// Requests are the log's entries of HTTP requests for path.
func (l AccessLog) Requests(path string) []HTTPLogEntry {
	var out []HTTPLogEntry
	for _, line := range l.Lines {
		if e, ok := ParseHTTPLog(line); ok && e.Path == path {
			out = append(out, e)
		}
	}
	return out
}
