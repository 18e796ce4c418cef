package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/router-conformance/suite/router/haproxy"
)

// accessLog reads the access-log part of upstream's environment contract
// (upstream: openshift/router pkg/cmd/infra/router/template.go, flags
// --capture-http-request-headers, --capture-http-response-headers and
// --capture-http-cookie, parseCaptureHeaders and parseCaptureCookie; and
// images/router/haproxy/conf/haproxy-config.template, which reads
// ROUTER_SYSLOG_ADDRESS, ROUTER_LOG_MAX_LENGTH, ROUTER_LOG_FACILITY,
// ROUTER_LOG_LEVEL, ROUTER_SYSLOG_FORMAT and ROUTER_DONT_LOG_NULL
// itself). A capture that does not parse stops the router, as upstream's
// Complete does.
func accessLog(cfg *haproxy.Config) error {
	if addr := getenv("ROUTER_SYSLOG_ADDRESS"); addr != "" {
		l := &haproxy.Logging{Address: addr, Facility: getenv("ROUTER_LOG_FACILITY"), Level: getenv("ROUTER_LOG_LEVEL"), Format: getenv("ROUTER_SYSLOG_FORMAT")}
		if v := getenv("ROUTER_LOG_MAX_LENGTH"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return fmt.Errorf("ROUTER_LOG_MAX_LENGTH=%q is not a positive number", v)
			}
			l.MaxLength = n
		}
		cfg.Log = l
	}
	var err error
	if cfg.CaptureRequestHeaders, err = captureHeaders(getenv("ROUTER_CAPTURE_HTTP_REQUEST_HEADERS")); err != nil {
		return fmt.Errorf("ROUTER_CAPTURE_HTTP_REQUEST_HEADERS: %w", err)
	}
	if cfg.CaptureResponseHeaders, err = captureHeaders(getenv("ROUTER_CAPTURE_HTTP_RESPONSE_HEADERS")); err != nil {
		return fmt.Errorf("ROUTER_CAPTURE_HTTP_RESPONSE_HEADERS: %w", err)
	}
	if cfg.CaptureCookie, err = captureCookie(getenv("ROUTER_CAPTURE_HTTP_COOKIE")); err != nil {
		return fmt.Errorf("ROUTER_CAPTURE_HTTP_COOKIE: %w", err)
	}
	cfg.DontLogNull = parseBool(getenv("ROUTER_DONT_LOG_NULL"))
	return nil
}

// captureHeaders parses "name:maxLength[,name:maxLength...]".
func captureHeaders(v string) ([]haproxy.CaptureHeader, error) {
	if v == "" {
		return nil, nil
	}
	var out []haproxy.CaptureHeader
	for _, spec := range strings.Split(v, ",") {
		name, length, ok := strings.Cut(spec, ":")
		if !ok || strings.Contains(length, ":") {
			return nil, fmt.Errorf("invalid HTTP header capture specification: %v", spec)
		}
		n, err := strconv.Atoi(length)
		if err != nil {
			return nil, err
		}
		out = append(out, haproxy.CaptureHeader{Name: name, MaxLength: n})
	}
	return out, nil
}

// captureCookie parses "name[=]:maxLength": with "=", an exact match of
// the name, else a prefix.
func captureCookie(v string) (*haproxy.CaptureCookie, error) {
	if v == "" {
		return nil, nil
	}
	name, length, ok := strings.Cut(v, ":")
	if !ok || strings.Contains(length, ":") {
		return nil, fmt.Errorf("invalid HTTP cookie capture specification: %v", v)
	}
	n, err := strconv.Atoi(length)
	if err != nil {
		return nil, err
	}
	c := &haproxy.CaptureCookie{Name: name, MaxLength: n}
	if strings.HasSuffix(name, "=") {
		c.Name, c.Exact = strings.TrimSuffix(name, "="), true
	}
	return c, nil
}
