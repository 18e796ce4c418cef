// Package serve runs the HTTP servers of the suite's small commands until
// SIGINT or SIGTERM, then shuts them down gracefully.
package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Main runs a command's body and exits 1 with "<name>: <error>" if it fails.
func Main(name string, run func() error) {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

// Until serves every server (TLS when its TLSConfig is set) on its Addr
// until a signal arrives or one of them fails, then shuts all of them
// down.
func Until(servers ...*http.Server) error {
	ls, err := Listen(servers...)
	if err != nil {
		return err
	}
	return UntilListening(ls...)
}

// Listen opens each server's Addr (TCP); on an error it closes what it
// opened.
func Listen(servers ...*http.Server) ([]Listening, error) {
	var ls []Listening
	for _, srv := range servers {
		l, err := net.Listen("tcp", srv.Addr)
		if err != nil {
			for _, opened := range ls {
				opened.Listener.Close()
			}
			return nil, err
		}
		ls = append(ls, Listening{Server: srv, Listener: l})
	}
	return ls, nil
}

// Listening is a server and the listener it serves, for a server whose
// listener its command opens itself (one that wraps each connection).
type Listening struct {
	Server   *http.Server
	Listener net.Listener
}

// UntilListening is Until on listeners the caller opened.
func UntilListening(ls ...Listening) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	errs := make(chan error, len(ls))
	for _, l := range ls {
		go func() {
			var err error
			if l.Server.TLSConfig != nil {
				err = l.Server.ServeTLS(l.Listener, "", "")
			} else {
				err = l.Server.Serve(l.Listener)
			}
			if !errors.Is(err, http.ErrServerClosed) {
				errs <- fmt.Errorf("%s: %w", l.Listener.Addr(), err)
			}
		}()
	}
	var err error
	select {
	case err = <-errs:
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, l := range ls {
		_ = l.Server.Shutdown(shutdown)
	}
	return err
}
