// Package hsts decides the Strict-Transport-Security header of a route
// from its haproxy.router.openshift.io/hsts_header annotation, the way the
// upstream router's template does.
package hsts

import (
	"regexp"
	"strings"

	routev1 "github.com/openshift/api/route/v1"

	"github.com/router-conformance/suite/contract"
	"github.com/router-conformance/suite/faults"
)

// Annotation is the per-route HSTS annotation.
const Annotation = contract.HSTSAnnotation

// Upstream is "not fully compliant to RFC 6797 6.1 yet": it accepts the
// directives in any order around max-age, case-insensitively, with spaces
// around ';' and '=', and a quoted max-age; the whole value must match.
const optionalToken = `(?:includeSubDomains|preload)`

var pattern = regexp.MustCompile(`\A(?:(?i)(?:` + optionalToken + `\s*[;]\s*)*max-age\s*=\s*(?:\d+|"\d+")(?:\s*[;]\s*` + optionalToken + `)*)\z`)

// Valid reports whether an annotation value yields a header.
func Valid(value string) bool {
	switch {
	case faults.On("hsts.max-age-not-required"):
		return pattern.MatchString(value) || regexp.MustCompile(`\A(?i)`+optionalToken+`(?:\s*[;]\s*`+optionalToken+`)*\z`).MatchString(value)
	case faults.On("hsts.unknown-directive-accepted"):
		anyToken := `(?:` + optionalToken + `|[a-z][a-z0-9-]*)`
		return regexp.MustCompile(`\A(?:(?i)(?:` + anyToken + `\s*[;]\s*)*max-age\s*=\s*(?:\d+|"\d+")(?:\s*[;]\s*` + anyToken + `)*)\z`).MatchString(value)
	case faults.On("hsts.space-separator-accepted"):
		sep := `(?:\s*[;]\s*|\s+)`
		return regexp.MustCompile(`\A(?:(?i)(?:` + optionalToken + sep + `)*max-age\s*=\s*(?:\d+|"\d+")(?:` + sep + optionalToken + `)*)\z`).MatchString(value)
	case faults.On("hsts.directives-case-sensitive"):
		return regexp.MustCompile(`\A(?:(?:` + optionalToken + `\s*[;]\s*)*max-age\s*=\s*(?:\d+|"\d+")(?:\s*[;]\s*` + optionalToken + `)*)\z`).MatchString(value)
	case faults.On("hsts.directives-before-max-age-refused"):
		return regexp.MustCompile(`\A(?:(?i)max-age\s*=\s*(?:\d+|"\d+")(?:\s*[;]\s*` + optionalToken + `)*)\z`).MatchString(value)
	case faults.On("hsts.quoted-max-age-refused"):
		return regexp.MustCompile(`\A(?:(?i)(?:` + optionalToken + `\s*[;]\s*)*max-age\s*=\s*\d+(?:\s*[;]\s*` + optionalToken + `)*)\z`).MatchString(value)
	}
	return pattern.MatchString(value)
}

// Header returns the Strict-Transport-Security value the router sends for
// a route with this termination and annotation, and whether it sends one:
// only on edge and reencrypt routes, and only when the annotation matches.
// The value is the annotation, verbatim.
func Header(termination routev1.TLSTerminationType, annotation string) (string, bool) {
	if faults.On("hsts.edge-header-dropped") && termination == routev1.TLSTerminationEdge {
		return "", false
	}
	if faults.On("hsts.reencrypt-header-dropped") && termination == routev1.TLSTerminationReencrypt {
		return "", false
	}
	if faults.On("hsts.plain-http-header-sent") && termination == "" {
		termination = routev1.TLSTerminationEdge
	}
	if termination != routev1.TLSTerminationEdge && (termination != routev1.TLSTerminationReencrypt || !onReencrypt) {
		return "", false
	}
	if !Valid(annotation) {
		return "", false
	}
	if faults.On("hsts.max-age-zero-dropped") && regexp.MustCompile(`(?i)max-age\s*=\s*"?0+"?\s*(?:;|\z)`).MatchString(annotation) {
		return "", false
	}
	if faults.On("hsts.optional-directives-stripped") {
		for _, token := range strings.Split(annotation, ";") {
			if strings.Contains(strings.ToLower(token), "max-age") {
				return strings.TrimSpace(token), true
			}
		}
	}
	return annotation, true
}
