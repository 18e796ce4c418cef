package haproxy

import (
	"regexp"

	"github.com/router-conformance/suite/faults"
)

// hstsLine is a route backend's Strict-Transport-Security rule in the
// rendered configuration (template.go).
var hstsLine = regexp.MustCompile(`(?m)^(  http-response) set-header (Strict-Transport-Security .*)$`)

// hstsRenderFaults returns the rendered configuration, changed only by a
// test-only fault of the route backends' HSTS rule (faults.On).
func hstsRenderFaults(config []byte) []byte {
	if faults.On("hsts.backend-header-kept-beside") {
		return hstsLine.ReplaceAll(config, []byte("${1} add-header ${2}"))
	}
	if faults.On("hsts.header-tls-only") {
		return hstsLine.ReplaceAll(config, []byte("${1} set-header ${2} if { ssl_fc }"))
	}
	return config
}
