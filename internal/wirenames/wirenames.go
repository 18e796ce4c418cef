// Package wirenames reads the header field names of an HTTP/1.1 message as
// they arrived on the wire. Go's net/http canonicalizes names on both
// sides ("x-custom" becomes "X-Custom"), so a check of how a router
// spells a name (HAProxy's h1-case-adjust) needs the bytes themselves: a
// Conn records what is read from it up to the end of the first header
// block, which is the whole message head when the connection carries one
// request (a server without keep-alives) or one response (a client that
// never reuses its connection).
package wirenames

import (
	"bytes"
	"net"
	"sync"
)

// maxHead bounds what a Conn keeps: more than any head the suite sends or
// a router may forward (HAProxy's tune.bufsize is 32 KiB by default).
const maxHead = 256 << 10

// Conn is a net.Conn that records the first message head read from it.
type Conn struct {
	net.Conn
	mu   sync.Mutex
	head bytes.Buffer
	done bool
}

// NewConn records the first head read from c.
func NewConn(c net.Conn) *Conn { return &Conn{Conn: c} }

func (c *Conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		if !c.done {
			c.head.Write(p[:n])
			if end := bytes.Index(c.head.Bytes(), []byte("\r\n\r\n")); end >= 0 {
				c.head.Truncate(end + 4)
				c.done = true
			} else if c.head.Len() > maxHead {
				c.done = true
			}
		}
		c.mu.Unlock()
	}
	return n, err
}

// Names are the header field names of the head read so far, as spelled
// on the wire, in order (repeated names repeat); nil before a whole head
// has arrived.
func (c *Conn) Names() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !bytes.HasSuffix(c.head.Bytes(), []byte("\r\n\r\n")) {
		return nil
	}
	return Parse(c.head.Bytes())
}

// Parse returns the field names of a message head: the start line (a
// request or status line) is skipped, a line folded onto the one before
// (starting with a space or tab) names nothing, and parsing stops at the
// empty line.
func Parse(head []byte) []string {
	lines := bytes.Split(head, []byte("\r\n"))
	names := []string{}
	for _, line := range lines[1:] {
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			continue
		}
		if name, _, ok := bytes.Cut(line, []byte(":")); ok {
			names = append(names, string(name))
		}
	}
	return names
}

// Listener records the first head of every connection it accepts.
type Listener struct{ net.Listener }

// Accept wraps the accepted connection in a Conn.
func (l Listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return NewConn(c), nil
}
