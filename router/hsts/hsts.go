// Package hsts decides the Strict-Transport-Security header of a route
// from its haproxy.router.openshift.io/hsts_header annotation, the way the
// upstream router's template does.
package hsts

import (
	"regexp"

	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
)

// Annotation is the per-route HSTS annotation.
const Annotation = contract.HSTSAnnotation

// Upstream is "not fully compliant to RFC 6797 6.1 yet": it accepts the
// directives in any order around max-age, case-insensitively, with spaces
// around ';' and '=', and a quoted max-age; the whole value must match.
const optionalToken = `(?:includeSubDomains|preload)`

var pattern = regexp.MustCompile(`\A(?:(?i)(?:` + optionalToken + `\s*[;]\s*)*max-age\s*=\s*(?:\d+|"\d+")(?:\s*[;]\s*` + optionalToken + `)*)\z`)

// Valid reports whether an annotation value yields a header.
func Valid(value string) bool { return pattern.MatchString(value) }

// Header returns the Strict-Transport-Security value the router sends for
// a route with this termination and annotation, and whether it sends one:
// only on edge and reencrypt routes, and only when the annotation matches.
// The value is the annotation, verbatim.
func Header(termination routev1.TLSTerminationType, annotation string) (string, bool) {
	if termination != routev1.TLSTerminationEdge && (termination != routev1.TLSTerminationReencrypt || !onReencrypt) {
		return "", false
	}
	if !Valid(annotation) {
		return "", false
	}
	return annotation, true
}
