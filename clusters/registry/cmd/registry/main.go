// Command registry serves the in-memory OCI distribution registry of
// package registry on plain HTTP, without authentication: a run pushes
// its fixture images to it and a kind cluster pulls them from it. It
// writes nothing to disk, so it runs as any user in a FROM scratch image;
// what was pushed is gone when it stops.
//
//	registry -addr :5000
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/router-conformance/suite/clusters/registry"
)

func main() {
	addr := flag.String("addr", ":5000", "address to listen on (plain HTTP)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "registry: unexpected arguments %q; usage: registry [-addr :5000]\n", flag.Args())
		os.Exit(2)
	}
	// docker stop sends SIGTERM to PID 1, which has no default action for
	// it: without a handler the container would wait for SIGKILL.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, *addr); err != nil {
		log.Fatalf("registry: %v", err)
	}
}

func serve(ctx context.Context, addr string) error {
	quietLogs(os.Stderr)
	h, err := registry.New(ctx)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler: h,
		// No read or write timeout: a layer upload or download may take
		// minutes on a loaded machine.
		ReadHeaderTimeout: 30 * time.Second,
	}
	// Listen before saying so: the start line means the port is open.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Printf("registry: serving the OCI distribution API from memory on %s (plain HTTP, no authentication)", ln.Addr())
	select {
	case err := <-errc:
		return fmt.Errorf("serve on %s: %w", addr, err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}

// quietLogs keeps distribution's warnings and errors, less two kinds of
// noise: every request answered (info level), and the error line of a
// HEAD answered 404, which is how clients ask whether a blob or manifest
// is there before they push it (a push would log one "error" per blob).
func quietLogs(w io.Writer) {
	logrus.SetOutput(w)
	logrus.SetLevel(logrus.WarnLevel)
	logrus.SetFormatter(skipAbsentHeads{&logrus.TextFormatter{}})
}

type skipAbsentHeads struct{ logrus.Formatter }

func (f skipAbsentHeads) Format(e *logrus.Entry) ([]byte, error) {
	// The fields distribution's request logger carries.
	if e.Data["http.request.method"] == http.MethodHead && e.Data["http.response.status"] == http.StatusNotFound {
		return nil, nil
	}
	return f.Formatter.Format(e)
}
