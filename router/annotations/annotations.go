// Package annotations reads the route annotations of the router's
// per-route settings as upstream's template reads them (openshift/router
// images/router/haproxy/conf/haproxy-config.template and its helpers in
// pkg/router/template/template_helper.go): a value is used only when it
// matches upstream's pattern whole (firstMatch), and a value that does not
// is ignored without a word, never refused, so the route keeps the
// router's default.
package annotations

import (
	"math/big"
	"net"
	"regexp"
	"strconv"
	"strings"

	"github.com/router-conformance/suite/contract"
)

// timeSpec is upstream's $timeSpecPattern, whole: a positive number with
// an optional unit, milliseconds without one.
var timeSpec = regexp.MustCompile(`^([1-9][0-9]*)(us|ms|s|m|h|d)?$`)

// microseconds per unit; no unit is milliseconds.
var microseconds = map[string]int64{"us": 1, "ms": 1e3, "": 1e3, "s": 1e6, "m": 60e6, "h": 3600e6, "d": 86400e6}

// Timeout is the HAProxy timeout of an annotation value, as upstream's
// clipHAProxyTimeoutValue(firstMatch($timeSpecPattern, value)): the value
// as written, contract.HAProxyMaxTimeout when it is longer than that, and false when it
// does not match (then the router's default stands).
func Timeout(value string) (string, bool) {
	m := timeSpec.FindStringSubmatch(value)
	if m == nil {
		return "", false
	}
	n, _ := new(big.Int).SetString(m[1], 10)
	us := n.Mul(n, big.NewInt(microseconds[m[2]]))
	if us.Cmp(big.NewInt(2147483647e3)) > 0 {
		return contract.HAProxyMaxTimeout, true
	}
	return value, true
}

// Rewrite is the backend's `http-request replace-path` of a route with a
// rewrite-target annotation: Pattern and Replacement go into single quotes.
type Rewrite struct {
	Pattern, Replacement string
}

// RewriteTarget is the path rewrite of a route with path and the
// rewrite-target annotation value target, as upstream's template writes
// it: only a target that starts with "/" and is one line; "/" replaces
// the route's path and one "/" after it, any other target the route's
// path alone, and the rest of the request path follows the target. The
// route's path is a regular expression as written, as upstream's (only a
// single quote is escaped, CR and LF dropped).
func RewriteTarget(path, target string) (Rewrite, bool) {
	if !strings.HasPrefix(target, "/") || strings.Contains(target, "\n") {
		return Rewrite{}, false
	}
	pattern := "^" + escapeSingleQuotes(path) + "(.*)$"
	if target == "/" {
		pattern = "^" + escapeSingleQuotes(path) + "/?(.*)$"
	}
	return Rewrite{Pattern: pattern, Replacement: replacement(target)}, true
}

// escapeSingleQuotes is upstream's rewritetarget.EscapeSingleQuotes: a
// single quote closes, escapes and reopens HAProxy's quoting.
func escapeSingleQuotes(s string) string {
	s = strings.NewReplacer("\r", "", "\n", "").Replace(s)
	return strings.ReplaceAll(s, "'", `'\''`)
}

// replacement is the target as upstream's rewritetarget.SanitizeInput
// leaves it for a single-quoted HAProxy string, followed by the rest of
// the path (\1): an unescaped "#" ends the target and drops the rest, an
// unescaped double or single quote is dropped, a lone "%" is doubled
// (HAProxy's log-format escape) and a lone backslash is dropped. Escaped
// quotes are not carried: the reference router drops them with the
// backslash.
func replacement(target string) string {
	var b strings.Builder
	escaped, cut := false, false
	for _, c := range target {
		switch {
		case c == '#' && !escaped:
			cut = true
		case c == '\\' && !escaped:
			escaped = true
			continue
		case c == '"' || c == '\'':
		case c == '%':
			b.WriteString("%%")
		default:
			b.WriteRune(c)
		}
		escaped = false
		if cut {
			break
		}
	}
	if cut {
		return b.String()
	}
	return b.String() + `\1`
}

// MaxInlineAllowlist is how many addresses upstream writes into the
// backend's acl line; a longer list goes to a file the acl reads
// (HAPROXY_MAX_ALLOWLIST_LENGTH, util/haproxy/allowlist.go).
const MaxInlineAllowlist = 61

// Allowlist is the route's allowlist, as upstream's
// parseIPList(firstMatch(".+", ip_allowlist, ip_whitelist)): the first of
// the two annotations that is a non-empty single line; nil (no allowlist:
// every source served) when that value has a leading or trailing blank or
// holds no address, otherwise its blank-separated IP addresses and CIDR
// ranges, an entry that is neither dropped alone.
func Allowlist(allowlist, whitelist string) []string {
	value := ""
	for _, v := range []string{allowlist, whitelist} {
		if v != "" && !strings.Contains(v, "\n") {
			value = v
			break
		}
	}
	if strings.TrimSpace(value) != value {
		return nil
	}
	var out []string
	for _, f := range strings.Fields(value) {
		if net.ParseIP(f) != nil {
			out = append(out, f)
		} else if _, _, err := net.ParseCIDR(f); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// Count is a limit annotation's value as upstream's isInteger
// (strconv.Atoi) reads it, for the reference router only when it is not
// negative (a negative value would not load); false leaves the limit off.
func Count(value string) (string, bool) {
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 {
		return "", false
	}
	return strconv.Itoa(n), true
}

// On is upstream's isTrue of an annotation: strconv.ParseBool.
func On(value string) bool {
	on, _ := strconv.ParseBool(value)
	return on
}
