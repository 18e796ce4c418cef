// Command syslog is the access-log sidecar of the kind profile's ingress
// operator: it takes rsyslogd's command line as the operator writes it
// (-n -i PIDFILE -f CONFIG) and does what rsyslogd does with the
// operator's configuration (see package syslog).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/router-conformance/suite/platform/syslog"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "syslog:", err)
		os.Exit(1)
	}
}

func run() error {
	flag.Bool("n", false, "stay in the foreground (always: rsyslogd's flag, accepted)")
	pidFile := flag.String("i", "", "write the process ID to this file")
	config := flag.String("f", "/etc/rsyslog/rsyslog.conf", "the rsyslog configuration (the operator's rsyslog.conf)")
	flag.Parse()
	f, err := os.Open(*config)
	if err != nil {
		return err
	}
	c, err := syslog.ParseConfig(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", *config, err)
	}
	if *pidFile != "" {
		// Best effort: the image has no /tmp, where the operator puts it,
		// and nothing reads it.
		if err := os.WriteFile(*pidFile, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "syslog: no process ID file:", err)
		}
	}
	return syslog.Serve(c, os.Stdout, func() {
		fmt.Fprintf(os.Stderr, "syslog: receiving on %s, writing to standard output\n", c.Socket)
	})
}
