package syslog

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/router-conformance/suite/internal/syncbuffer"
)

// The operator's configuration, as cluster-ingress-operator's
// rsyslog_configmap.go writes it.
const operatorConfig = "$ModLoad imuxsock\n$SystemLogSocketName /var/lib/rsyslog/rsyslog.sock\n$ModLoad omstdout.so\n$MaxMessageSize 10k\n*.* :omstdout:\n"

func TestParseConfigTakesTheOperatorsConfiguration(t *testing.T) {
	c, err := ParseConfig(strings.NewReader(operatorConfig))
	if err != nil {
		t.Fatal(err)
	}
	if c.Socket != "/var/lib/rsyslog/rsyslog.sock" || c.MaxMessageSize != 10240 {
		t.Fatalf("got %+v", c)
	}
}

func TestParseConfigRefusesWhatItCannotDo(t *testing.T) {
	for _, conf := range []string{
		"$ModLoad imuxsock\n$SystemLogSocketName /s\n",                                 // no output
		"$ModLoad omstdout\n*.* :omstdout:\n",                                          // no input
		operatorConfig + "*.* /var/log/messages\n",                                     // another action
		"$ModLoad imudp\n$SystemLogSocketName /s\n$ModLoad omstdout\n*.* :omstdout:\n", // another module
	} {
		if _, err := ParseConfig(strings.NewReader(conf)); err == nil {
			t.Errorf("accepted %q", conf)
		}
	}
}

func TestFormatIsRsyslogFileFormat(t *testing.T) {
	now := time.Date(2026, 11, 26, 14, 10, 2, 123456000, time.UTC)
	for _, c := range []struct{ in, want string }{
		// HAProxy with log-send-hostname.
		{"<134>Nov 26 14:10:02 router-1 haproxy[42]: 10.0.0.1:5 [26/Nov/2026:14:10:02.000] public be/s 0/0/0/1/1 200 1 - - ---- 1/1/0/0/0 0/0 {a|b} \"GET /p HTTP/1.1\"\n",
			"2026-11-26T14:10:02.123456+00:00 pod haproxy[42]: 10.0.0.1:5 [26/Nov/2026:14:10:02.000] public be/s 0/0/0/1/1 200 1 - - ---- 1/1/0/0/0 0/0 {a|b} \"GET /p HTTP/1.1\"\n"},
		// Without a host name, a space-padded day.
		{"<134>Nov  6 04:01:02 haproxy[7]: hello", "2026-11-26T14:10:02.123456+00:00 pod haproxy[7]: hello\n"},
		// No header at all.
		{"plain text", "2026-11-26T14:10:02.123456+00:00 pod  plain text\n"},
	} {
		if got := Format(now, "pod", []byte(c.in)); got != c.want {
			t.Errorf("Format(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestServeWritesEachDatagramAsALine(t *testing.T) {
	dir, err := os.MkdirTemp("", "syslog")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	c := Config{Socket: filepath.Join(dir, "s.sock"), MaxMessageSize: 48}
	out := &syncbuffer.Buffer{}
	ready := make(chan struct{})
	go Serve(c, out, func() { close(ready) }) //nolint:errcheck // ends with the test
	<-ready
	fi, err := os.Stat(c.Socket)
	if err != nil || fi.Mode().Perm() != 0o666 {
		t.Fatalf("socket %v mode %v", err, fi.Mode())
	}
	conn, err := net.Dial("unixgram", c.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, m := range []string{"<134>Nov 26 14:10:02 h haproxy[1]: first", "<134>Nov 26 14:10:02 h haproxy[1]: a message longer than forty-eight bytes in all"} {
		if _, err := conn.Write([]byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(out.String(), "\n") < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], " haproxy[1]: first") || strings.Contains(lines[1], "in all") || !strings.HasSuffix(lines[1], " haproxy[1]: a message lon") {
		t.Fatalf("got %q", out.String())
	}
}
