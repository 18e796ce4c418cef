// Package syslog stands in for the rsyslogd that cluster-ingress-operator
// runs beside the router when an IngressController logs its access log to
// a container (spec.logging.access.destination.type Container): the
// sidecar container "logs", started as
// `rsyslogd -n -i /tmp/rsyslog.pid -f /etc/rsyslog/rsyslog.conf` with the
// operator's rsyslog.conf (upstream: cluster-ingress-operator
// pkg/operator/controller/ingress/deployment.go, desiredRouterDeployment,
// and rsyslog_configmap.go, rsyslogConfiguration). That configuration
// receives on a Unix datagram socket (imuxsock, $SystemLogSocketName) and
// writes every message to standard output (omstdout, whose default
// template is RSYSLOG_FileFormat), so that the access log is the
// container's log. This package reads the same configuration and does the
// same, with a Go binary the suite builds: the router image upstream's
// operator runs it from has rsyslog built in, and the suite's router
// images need not.
package syslog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// Config is what the operator's rsyslog.conf says.
type Config struct {
	// Socket is $SystemLogSocketName: the Unix datagram socket imuxsock
	// receives on.
	Socket string
	// MaxMessageSize is $MaxMessageSize in bytes (rsyslog's default,
	// 8096, when unset): a longer message is cut.
	MaxMessageSize int
}

// defaultMaxMessageSize is rsyslog's default $MaxMessageSize.
const defaultMaxMessageSize = 8096

// ParseConfig reads the legacy directives the operator's rsyslog.conf
// holds: `$ModLoad imuxsock`, `$SystemLogSocketName PATH`,
// `$ModLoad omstdout.so`, `$MaxMessageSize N[k|m]` and the rule
// `*.* :omstdout:`. Anything else is an error: this stand-in runs no
// other configuration, and says so rather than ignore it.
func ParseConfig(r io.Reader) (Config, error) {
	c := Config{MaxMessageSize: defaultMaxMessageSize}
	modules := map[string]bool{}
	stdout := false
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		switch {
		case strings.EqualFold(fields[0], "$ModLoad") && len(fields) == 2:
			mod := strings.TrimSuffix(fields[1], ".so")
			if mod != "imuxsock" && mod != "omstdout" {
				return c, fmt.Errorf("line %d: module %q: only imuxsock and omstdout are supported", n, fields[1])
			}
			modules[mod] = true
		case strings.EqualFold(fields[0], "$SystemLogSocketName") && len(fields) == 2:
			c.Socket = fields[1]
		case strings.EqualFold(fields[0], "$MaxMessageSize") && len(fields) == 2:
			size, err := parseSize(fields[1])
			if err != nil {
				return c, fmt.Errorf("line %d: $MaxMessageSize: %w", n, err)
			}
			c.MaxMessageSize = size
		case len(fields) == 2 && fields[0] == "*.*" && fields[1] == ":omstdout:":
			stdout = true
		default:
			return c, fmt.Errorf("line %d: %q is not supported", n, line)
		}
	}
	if err := sc.Err(); err != nil {
		return c, err
	}
	switch {
	case !modules["imuxsock"] || c.Socket == "":
		return c, errors.New("no input: the configuration needs $ModLoad imuxsock and $SystemLogSocketName")
	case !modules["omstdout"] || !stdout:
		return c, errors.New("no output: the configuration needs $ModLoad omstdout and the rule *.* :omstdout:")
	}
	return c, nil
}

// parseSize is rsyslog's size syntax: a number, optionally followed by k
// or m (binary multiples).
func parseSize(s string) (int, error) {
	mult := 1
	switch {
	case strings.HasSuffix(strings.ToLower(s), "k"):
		mult, s = 1024, s[:len(s)-1]
	case strings.HasSuffix(strings.ToLower(s), "m"):
		mult, s = 1024*1024, s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	return n * mult, nil
}

// Format is one received message as omstdout writes it with
// RSYSLOG_FileFormat: `TIMESTAMP HOSTNAME TAGMSG` and a newline, the
// timestamp RFC 3339 with microseconds. As imuxsock does by default, the
// timestamp is the time of reception and the host name the receiver's
// own; the sender's RFC 3164 header (`<PRI>Mmm dd hh:mm:ss [HOST ]`) is
// dropped, its tag (`haproxy[PID]:`) and message kept.
func Format(now time.Time, hostname string, datagram []byte) string {
	msg := strings.TrimRight(string(datagram), "\n\x00")
	if strings.HasPrefix(msg, "<") {
		if end := strings.IndexByte(msg, '>'); end > 0 && end <= 4 {
			msg = msg[end+1:]
		}
	}
	// RFC 3164 timestamp: "Mmm dd hh:mm:ss " (day space-padded).
	if len(msg) >= 16 && msg[3] == ' ' && msg[6] == ' ' && msg[9] == ':' && msg[12] == ':' && msg[15] == ' ' {
		msg = msg[16:]
		// A host name (HAProxy's log-send-hostname) precedes the tag: the
		// first word, when the second is the tag.
		if first, rest, ok := strings.Cut(msg, " "); ok && !isTag(first) {
			if second, _, _ := strings.Cut(rest, " "); isTag(second) {
				msg = rest
			}
		}
	}
	tag, body, ok := strings.Cut(msg, " ")
	if !ok || !isTag(tag) {
		tag, body = "", msg
	}
	// sp-if-no-1st-sp: the message starts with one space.
	if !strings.HasPrefix(body, " ") {
		body = " " + body
	}
	return now.Format("2006-01-02T15:04:05.000000-07:00") + " " + hostname + " " + tag + body + "\n"
}

// isTag reports whether word is a syslog tag, "name:" or "name[pid]:".
func isTag(word string) bool {
	return len(word) > 1 && strings.HasSuffix(word, ":") && !strings.ContainsAny(word[:len(word)-1], ":")
}

// Serve receives on c's socket until the listener fails, writing each
// message to out. The socket is made writable by everyone, as rsyslog's
// imuxsock makes it: the router runs as another user than the sidecar.
func Serve(c Config, out io.Writer, ready func()) error {
	if err := os.Remove(c.Socket); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove the old socket: %w", err)
	}
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: c.Socket, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := os.Chmod(c.Socket, 0o666); err != nil {
		return err
	}
	hostname, err := os.Hostname()
	if err != nil {
		hostname = "localhost"
	}
	if ready != nil {
		ready()
	}
	buf := make([]byte, c.MaxMessageSize+1)
	for {
		n, _, err := conn.ReadFromUnix(buf)
		if err != nil {
			return err
		}
		if n > c.MaxMessageSize {
			n = c.MaxMessageSize
		}
		if _, err := io.WriteString(out, Format(time.Now(), hostname, buf[:n])); err != nil {
			return err
		}
	}
}
