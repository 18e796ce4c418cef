package wirenames_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"reflect"
	"testing"

	"github.com/router-conformance/suite/internal/wirenames"
)

func TestParseKeepsSpellingAndOrder(t *testing.T) {
	head := "GET / HTTP/1.1\r\nhost: a\r\nX-Custom: 1\r\nx-custom: 2\r\n folded\r\nCONTENT-type: b\r\n\r\nbody: no\r\n"
	got := wirenames.Parse([]byte(head))
	want := []string{"host", "X-Custom", "x-custom", "CONTENT-type"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse = %q, want %q", got, want)
	}
}

// A server without keep-alives behind a Listener sees each request's
// names as the client wrote them; net/http's own view is canonical.
func TestListenerReportsRequestNamesAsSent(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []string, 1)
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got <- r.Context().Value(connKey{}).(*wirenames.Conn).Names()
		}),
		ConnContext: func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) },
	}
	srv.SetKeepAlivesEnabled(false)
	go func() { _ = srv.Serve(wirenames.Listener{Listener: l}) }()
	defer srv.Close()

	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\nx-lower: 1\r\nX-Custom: 2\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	want := []string{"Host", "x-lower", "X-Custom"}
	if names := <-got; !reflect.DeepEqual(names, want) {
		t.Errorf("names = %q, want %q", names, want)
	}
}

// A client Conn reports the response's names as the server wrote them.
func TestConnReportsResponseNames(t *testing.T) {
	server, client := net.Pipe()
	go func() {
		_, _ = io.WriteString(server, "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nX-Custom: 1\r\ncontent-length: 0\r\n\r\n")
		server.Close()
	}()
	c := wirenames.NewConn(client)
	if names := c.Names(); names != nil {
		t.Errorf("names before any read = %q, want nil", names)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	want := []string{"content-type", "X-Custom", "content-length"}
	if names := c.Names(); !reflect.DeepEqual(names, want) {
		t.Errorf("names = %q, want %q", names, want)
	}
}

type connKey struct{}
