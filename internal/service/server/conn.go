package server

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"strconv"
)

// net/http answers some requests itself, before any handler runs: header fields over
// MaxHeaderBytes (431), a malformed request line or header (400), an unsupported transfer
// encoding (501). It writes those answers straight to the connection, in one write, as
//
//	"HTTP/1.1 " + status + cannedHeaders + text
//
// as text/plain without the security headers. jsonErrors rewrites exactly that write into
// the server's JSON error answer with the security headers, so that every answer of the
// server, not only the handlers', is JSON. No handler's answer can match: net/http gives
// those a Date header (and ours are JSON, HTML, YAML, JavaScript or CSS).
// TestGoErrorsAreJSON pins the format: if a new Go release changes it, the test fails.
const cannedHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// jsonErrors is a listener whose connections turn net/http's own error answers into JSON.
type jsonErrors struct {
	net.Listener
	maxHeaderBytes int
}

// Accept wraps the next connection.
func (l jsonErrors) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &jsonErrorConn{Conn: c, maxHeaderBytes: l.maxHeaderBytes}, nil
}

// jsonErrorConn is a connection of jsonErrors.
type jsonErrorConn struct {
	net.Conn
	maxHeaderBytes int
}

// Write writes p, or the JSON form of p when p is one of net/http's own error answers.
func (c *jsonErrorConn) Write(p []byte) (int, error) {
	status, text, ok := cannedError(p)
	if !ok {
		return c.Conn.Write(p)
	}
	msg := text
	switch {
	case status == http.StatusRequestHeaderFieldsTooLarge:
		msg = fmt.Sprintf("the request's header fields are larger than %d bytes", c.maxHeaderBytes)
	case text == "400 Bad Request":
		msg = "400 Bad Request: the request line or a header field is malformed"
	}
	if _, err := c.Conn.Write(cannedJSON(status, msg)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite shuts down the writing side of the connection, as net/http does after its
// 431 answer (so that the client reads the answer before the connection is reset).
func (c *jsonErrorConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// cannedError reports whether p is one of net/http's own error answers, and returns its
// status and text.
func cannedError(p []byte) (status int, text string, ok bool) {
	rest, found := bytes.CutPrefix(p, []byte("HTTP/1.1 "))
	if !found || len(rest) < 4 || rest[3] != ' ' {
		return 0, "", false
	}
	line, body, found := bytes.Cut(rest, []byte(cannedHeaders))
	if !found || bytes.Contains(line, []byte("\r\n")) {
		return 0, "", false
	}
	status, err := strconv.Atoi(string(rest[:3]))
	if err != nil || status < 400 || status > 599 {
		return 0, "", false
	}
	return status, string(body), true
}

// cannedJSON is the full HTTP answer of an error that no handler saw: the JSON error, the
// security headers, and the connection closed after it, as net/http closes it.
func cannedJSON(status int, msg string) []byte {
	body := encodeJSON(errorBody{Error: msg})
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	h := http.Header{}
	setSecurityHeaders(h, csp)
	h["Content-Type"] = jsonContentType
	h["Cache-Control"] = noStore
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Connection", "close")
	h.Write(&b)
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}
