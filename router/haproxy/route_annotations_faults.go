package haproxy

import (
	"bytes"
	"regexp"

	"github.com/router-conformance/suite/faults"
)

// routeAnnotationsRenderFaults returns the rendered configuration,
// changed only by a test-only fault of the router's defaults that the
// route annotations' documentation lists (faults.On).
func routeAnnotationsRenderFaults(config []byte) []byte {
	if faults.On("route-annotations.hard-stop-after-ignored") {
		return hardStopAfter.ReplaceAll(config, nil)
	}
	if faults.On("route-annotations.keep-alive-60s") {
		return bytes.Replace(config, []byte("timeout http-keep-alive 300s"), []byte("timeout http-keep-alive 60s"), 1)
	}
	if faults.On("route-annotations.slow-head-waited-out") {
		return bytes.Replace(config, []byte("timeout http-request 10s"), []byte("timeout http-request 30s"), 1)
	}
	return config
}

// hardStopAfter is the global hard-stop-after line.
var hardStopAfter = regexp.MustCompile(`(?m)^  hard-stop-after .*\n`)
