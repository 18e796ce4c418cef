// Package httpclient is the one client every spec and router test uses to
// talk to a router: it dials a fixed address (the router's 127.0.0.1
// mapping) for any route host, sets SNI and Host from the route, never
// reuses a connection, always sends the client certificate it is given,
// and reports a refusal as the exact TLS alert.
package httpclient

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/router-conformance/suite/fixtures/echo"
	"github.com/router-conformance/suite/internal/wirenames"
)

// Request is one request to a router.
type Request struct {
	// Addr is where to connect (host:port), whatever the route's host.
	Addr string
	// HTTPS selects TLS; SNI defaults to Host, NoSNI sends none.
	HTTPS bool
	Host  string
	Path  string
	SNI   string
	NoSNI bool
	// Header is sent as is (Host excluded), each key as written: a key in
	// lower case is no canonical key, so net/http neither merges it with
	// its own nor leaves it out (an empty "content-length").
	Header http.Header
	// ClientCertificate is sent whatever CAs the server asks for: Go would
	// otherwise silently send nothing for a certificate of a foreign CA.
	ClientCertificate *tls.Certificate
	// RootCAs verifies the router's certificate; nil skips verification
	// (the default certificate of a router under test is not ours).
	RootCAs *x509.CertPool
	// Timeout bounds the whole exchange (contract.Timeouts.Request);
	// required.
	Timeout time.Duration
}

// Response is what came back.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// Echo is the decoded body when the echo backend answered.
	Echo *echo.Response
	TLS  *tls.ConnectionState
	// CertificateRequested says the server sent a CertificateRequest in
	// the handshake (mutual TLS Required or Optional asks; none does not).
	CertificateRequested bool
	// HeaderNames are the response's header field names as they arrived,
	// spelled as sent, in order (Header's keys are canonical).
	HeaderNames []string
}

// Do sends the request on a fresh connection and reads the whole answer.
// With TLS 1.3 a server's refusal of the client certificate arrives only
// on the first read, so a finished handshake is never taken as acceptance.
func Do(ctx context.Context, r Request) (*Response, error) {
	scheme := "http"
	if r.HTTPS {
		scheme = "https"
	}
	if r.Timeout <= 0 {
		return nil, errors.New("httpclient: the request has no Timeout (contract.Timeouts.Request)")
	}
	var requested atomic.Bool
	var conn atomic.Pointer[wirenames.Conn]
	transport := newTransport(r, tlsConfig(r, &requested), &conn)
	defer transport.CloseIdleConnections()
	client := &http.Client{
		Transport:     transport,
		Timeout:       r.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s://%s%s", scheme, r.Host, r.Path), nil)
	if err != nil {
		return nil, err
	}
	// Keys as written: one that is not in canonical form is sent as is,
	// which is how a request carries a header net/http would otherwise
	// write itself or refuse to (an empty "content-length").
	for k, vs := range r.Header {
		req.Header[k] = append(req.Header[k], vs...)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, err
	}
	out := &Response{Status: resp.StatusCode, Header: resp.Header, Body: body, TLS: resp.TLS, CertificateRequested: requested.Load()}
	if c := conn.Load(); c != nil {
		out.HeaderNames = c.Names()
		// net/http reads the TLS state only off a *tls.Conn, which the
		// recording Conn hides.
		if tc, ok := c.Conn.(*tls.Conn); ok {
			cs := tc.ConnectionState()
			out.TLS = &cs
		}
	}
	var e echo.Response
	if json.Unmarshal(body, &e) == nil && e.Listener != "" {
		out.Echo = &e
	}
	return out, nil
}

// tlsConfig verifies the router against RootCAs (or not at all), sends
// SNI as asked, always offers the client certificate (none: an empty
// Certificate message, as Go sends by default), and notes in requested
// that the server asked for one.
func tlsConfig(r Request, requested *atomic.Bool) *tls.Config {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: r.RootCAs, InsecureSkipVerify: r.RootCAs == nil}
	switch {
	case r.NoSNI:
		// Go sends no SNI for an IP address; the name is still verified.
		cfg.ServerName = ""
	case r.SNI != "":
		cfg.ServerName = r.SNI
	default:
		cfg.ServerName = r.Host
	}
	cert := r.ClientCertificate
	if cert == nil {
		cert = &tls.Certificate{}
	}
	cfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
		requested.Store(true)
		return cert, nil
	}
	return cfg
}

// newTransport dials r.Addr whatever the URL says, never keeps a
// connection alive (a kept one can reach a draining HAProxy after a
// reload), and does the handshake itself so that it can send no SNI. The
// connection it dials (one per request) is kept in conn, for the
// response's header names.
func newTransport(r Request, tlsConfig *tls.Config, conn *atomic.Pointer[wirenames.Conn]) *http.Transport {
	dialer := &net.Dialer{Timeout: r.Timeout}
	return &http.Transport{
		DisableKeepAlives: true,
		TLSClientConfig:   tlsConfig,
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			c, err := dialer.DialContext(ctx, network, r.Addr)
			if err != nil {
				return nil, err
			}
			conn.Store(wirenames.NewConn(c))
			return conn.Load(), nil
		},
		DialTLSContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			raw, err := dialer.DialContext(ctx, network, r.Addr)
			if err != nil {
				return nil, err
			}
			cfg := tlsConfig.Clone()
			if r.NoSNI {
				// Verification against Host while sending no SNI.
				cfg.ServerName = ""
				if !cfg.InsecureSkipVerify {
					cfg.InsecureSkipVerify = true
					roots, host := cfg.RootCAs, r.Host
					cfg.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error { return verify(raw, roots, host) }
				}
			}
			tlsConn := tls.Client(raw, cfg)
			if err := tlsConn.HandshakeContext(ctx); err != nil {
				raw.Close()
				return nil, err
			}
			conn.Store(wirenames.NewConn(tlsConn))
			return conn.Load(), nil
		},
	}
}

func verify(raw [][]byte, roots *x509.CertPool, host string) error {
	if len(raw) == 0 {
		return errors.New("no server certificate")
	}
	certs := make([]*x509.Certificate, 0, len(raw))
	for _, b := range raw {
		c, err := x509.ParseCertificate(b)
		if err != nil {
			return err
		}
		certs = append(certs, c)
	}
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	_, err := certs[0].Verify(x509.VerifyOptions{DNSName: host, Roots: roots, Intermediates: inter})
	return err
}

var alertPattern = regexp.MustCompile(`remote error: tls: ([a-z ]+)`)

// ClosedWithoutAnswer is what Alert reports when the server closed the
// connection with neither a TLS alert nor an HTTP answer: upstream's
// HAProxy does so in or right after the TLS handshake while it holds no
// usable CRL for the client's chain, and for a source a route's allowlist
// does not list (`tcp-request content reject`), over plain HTTP too.
const ClosedWithoutAnswer = "closed without an answer"

// Alert returns the TLS alert the server sent ("certificate required",
// "revoked certificate", ...) or "" when err is no remote TLS alert. Go
// reports remote alerts as text only: errors.As with tls.AlertError does
// not match them.
func Alert(err error) string {
	if err == nil {
		return ""
	}
	if m := alertPattern.FindStringSubmatch(err.Error()); m != nil {
		return m[1]
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || strings.HasSuffix(err.Error(), ": EOF") {
		return ClosedWithoutAnswer
	}
	return ""
}

// SlowHead opens a plain connection to addr, sends the start of a request
// head for host and never finishes it, and returns the status line the
// server answers with (within timeout), "" when it closes the connection
// unanswered: what a server does with a client too slow to send its
// request.
func SlowHead(ctx context.Context, addr, host string, timeout time.Duration) (string, error) {
	conn, err := (&net.Dialer{Timeout: timeout}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(timeout)); err != nil {
		return "", err
	}
	if _, err := fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: %s\r\n", host); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if errors.Is(err, io.EOF) && line == "" {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// ErrTunnelClosed is what Tunnel.Echo reports when the server side closed
// the tunnel: nothing comes back.
var ErrTunnelClosed = errors.New("the tunnel was closed")

// Tunnel is an upgraded connection (101 Switching Protocols) through the
// router to a backend that sends back what it receives.
type Tunnel struct {
	conn   net.Conn
	reader *bufio.Reader
}

// OpenTunnel sends r as a WebSocket upgrade on a fresh connection (TLS as
// r says) and returns the tunnel once the answer is 101.
func OpenTunnel(ctx context.Context, r Request) (*Tunnel, error) {
	conn, err := dial(ctx, r)
	if err != nil {
		return nil, err
	}
	path := r.Path
	if path == "" {
		path = "/"
	}
	_ = conn.SetDeadline(time.Now().Add(r.Timeout))
	// A WebSocket handshake a router checks: its key and version (RFC 6455).
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", path, r.Host, webSocketKey); err != nil {
		conn.Close()
		return nil, err
	}
	reader := bufio.NewReader(conn)
	resp, err := http.ReadResponse(reader, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		conn.Close()
		return nil, fmt.Errorf("upgrade answered %s, want 101 Switching Protocols", resp.Status)
	}
	_ = conn.SetDeadline(time.Time{})
	return &Tunnel{conn: conn, reader: reader}, nil
}

// Echo sends payload and reads it back within timeout; ErrTunnelClosed
// when the other side closed the tunnel.
func (t *Tunnel) Echo(payload string, timeout time.Duration) error {
	_ = t.conn.SetDeadline(time.Now().Add(timeout))
	if _, err := io.WriteString(t.conn, payload); err != nil {
		return fmt.Errorf("%w: %v", ErrTunnelClosed, err)
	}
	got := make([]byte, len(payload))
	if _, err := io.ReadFull(t.reader, got); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
			return fmt.Errorf("%w: %v", ErrTunnelClosed, err)
		}
		return err
	}
	if string(got) != payload {
		return fmt.Errorf("the tunnel sent back %q, want %q", got, payload)
	}
	return nil
}

// dial opens a fresh connection to r.Addr, TLS as r says.
func dial(ctx context.Context, r Request) (net.Conn, error) {
	dialer := &net.Dialer{Timeout: r.Timeout}
	conn, err := dialer.DialContext(ctx, "tcp", r.Addr)
	if err != nil {
		return nil, err
	}
	if r.HTTPS {
		var requested atomic.Bool
		tlsConn := tls.Client(conn, tlsConfig(r, &requested))
		if err := tlsConn.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, err
		}
		conn = tlsConn
	}
	return conn, nil
}

// KeptAliveFor sends r's GET on a fresh connection (TLS as r says),
// reads the whole answer, which must be 200, and then how long the
// server keeps the connection open while it is idle: the time until it
// closes it. An error if it is still open after limit.
func KeptAliveFor(ctx context.Context, r Request, limit time.Duration) (time.Duration, error) {
	conn, err := dial(ctx, r)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	path := r.Path
	if path == "" {
		path = "/"
	}
	_ = conn.SetDeadline(time.Now().Add(r.Timeout))
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, r.Host); err != nil {
		return 0, err
	}
	reader := bufio.NewReader(conn)
	resp, err := http.ReadResponse(reader, nil)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK || resp.Close {
		return 0, fmt.Errorf("answered %s (Connection: close %v), want 200 on a connection kept alive", resp.Status, resp.Close)
	}
	idleSince := time.Now()
	_ = conn.SetDeadline(idleSince.Add(limit))
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	defer stop()
	_, err = reader.ReadByte()
	idle := time.Since(idleSince)
	switch {
	case err == nil:
		return idle, fmt.Errorf("the server sent data after %s on an idle connection", idle.Round(time.Millisecond))
	case errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET):
		return idle, nil
	case ctx.Err() != nil:
		return idle, ctx.Err()
	default:
		return idle, fmt.Errorf("still open after %s idle: %w", idle.Round(time.Millisecond), err)
	}
}

// webSocketKey is the handshake's Sec-WebSocket-Key: any 16 bytes, base64.
const webSocketKey = "cm91dGVyLWNvbmZvcm1hbg=="

// Close closes the tunnel.
func (t *Tunnel) Close() error { return t.conn.Close() }
