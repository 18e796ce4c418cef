package haproxy

import (
	"fmt"
	"strings"

	"github.com/router-conformance/suite/faults"
	"github.com/router-conformance/suite/router/headers"
)

// headerActionsModelFaults changes the model Render is about to render
// (its buffer sizes, where the IngressController's actions run) only
// under a test-only fault (faults.On); routes are Render's own copies.
func headerActionsModelFaults(cfg *Config, routes []Route) {
	if faults.On("header-actions.default-rewrite-space-raised") && cfg.BufSize == 32768 && cfg.MaxRewrite == 8192 {
		cfg.BufSize, cfg.MaxRewrite = 65536, 40000
	}
	if faults.On("header-actions.ingresscontroller-request-actions-in-backend") {
		for i := range routes {
			if routes[i].Termination != Passthrough {
				routes[i].RequestHeaders = append(append([]headers.Action(nil), routes[i].RequestHeaders...), cfg.RequestHeaders...)
			}
		}
		cfg.RequestHeaders = nil
	}
	if faults.On("header-actions.ingresscontroller-response-actions-before-route") {
		for i := range routes {
			if routes[i].Termination != Passthrough {
				routes[i].ResponseHeaders = append(append([]headers.Action(nil), cfg.ResponseHeaders...), routes[i].ResponseHeaders...)
			}
		}
		cfg.ResponseHeaders = nil
	}
}

// headerActionsRenderFaults changes the rendered configuration text only
// under a test-only fault (faults.On): a line of the HTTP frontends'
// prologue left out, the session cookie without nocache, append's
// X-Forwarded-For only where none is, the access log's request captures
// taken after the header actions.
func headerActionsRenderFaults(cfg Config, text []byte) []byte {
	s := string(text)
	if faults.On("header-actions.proxy-header-kept") {
		s = dropLines(s, func(line string) bool { return line == "  http-request del-header Proxy" })
	}
	if faults.On("header-actions.xssl-client-headers-kept") {
		s = dropLines(s, func(line string) bool { return strings.HasPrefix(line, "  http-request del-header X-SSL") })
	}
	if faults.On("header-actions.xssl-client-der-not-set") {
		s = dropLines(s, func(line string) bool { return strings.HasPrefix(line, "  http-request set-header X-SSL-Client-DER ") })
	}
	if faults.On("header-actions.cookie-nocache-dropped") {
		s = strings.ReplaceAll(s, " insert indirect nocache httponly", " insert indirect httponly")
	}
	if faults.On("header-actions.append-xff-if-none") {
		s = strings.ReplaceAll(s, "\n  option forwardfor\n", "\n  option forwardfor if-none\n")
	}
	if faults.On("header-actions.access-log-captures-after-actions") && len(cfg.CaptureRequestHeaders) > 0 {
		s = capturesAfterActions(s, cfg.CaptureRequestHeaders)
	}
	return []byte(s)
}

// dropLines is s without the lines drop reports.
func dropLines(s string, drop func(string) bool) string {
	lines := strings.Split(s, "\n")
	kept := lines[:0]
	for _, line := range lines {
		if !drop(line) {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// capturesAfterActions turns each HTTP frontend's `capture request
// header` lines into `http-request capture` rules placed after its header
// actions, just before its first use_backend or default_backend.
func capturesAfterActions(s string, captures []CaptureHeader) string {
	declared := map[string]bool{}
	var rules []string
	for _, c := range captures {
		declared[fmt.Sprintf("  capture request header %s len %d", c.Name, c.MaxLength)] = true
		rules = append(rules, fmt.Sprintf("  http-request capture req.hdr(%s) len %d", c.Name, c.MaxLength))
	}
	var out []string
	httpFrontend, placed := false, false
	for _, line := range strings.Split(s, "\n") {
		if line != "" && !strings.HasPrefix(line, " ") {
			httpFrontend = line == "frontend public" || line == "frontend fe_sni" || line == "frontend fe_no_sni"
			placed = false
		}
		if httpFrontend && declared[line] {
			continue
		}
		if httpFrontend && !placed && (strings.HasPrefix(line, "  use_backend ") || strings.HasPrefix(line, "  default_backend ")) {
			out = append(out, rules...)
			placed = true
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
