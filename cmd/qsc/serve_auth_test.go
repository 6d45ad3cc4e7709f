package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeRefusesOpen: serving one's own documents without a key on an address that
// others can reach is refused at start, with a message that names the ways out, before
// anything listens; the demo collection, loopback, a key or --insecure-open pass.
func TestServeRefusesOpen(t *testing.T) {
	docs := filepath.Join(t.TempDir(), "docs.jsonl")
	if err := os.WriteFile(docs, []byte(`{"id":"a","text":"Dogs bark."}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:8080"} {
		code, _, errs := runQSC(t, "serve", "--addr", addr, "--docs", docs)
		if code != 2 {
			t.Errorf("--addr %s --docs without a key: exit %d, want 2\n%s", addr, code, errs)
		}
		for _, want := range []string{"refusing to serve your documents (--index/--docs) on " + addr + " without a key",
			"--api-key KEY (or QSC_API_KEY)", "--keys FILE", "--addr 127.0.0.1:PORT", "--insecure-open"} {
			if !strings.Contains(errs, want) {
				t.Errorf("--addr %s: the message lacks %q:\n%s", addr, want, errs)
			}
		}
		if strings.Contains(errs, "msg=listening") {
			t.Errorf("--addr %s: it listened before refusing:\n%s", addr, errs)
		}
	}
	ctx := context.Background()
	for _, c := range []struct {
		o    serveOptions
		keys bool
		ok   bool
	}{
		{serveOptions{addr: "0.0.0.0:8080", docs: docs}, false, false},
		{serveOptions{addr: "0.0.0.0:8080", index: "idx"}, false, false},
		{serveOptions{addr: "0.0.0.0:8080"}, false, true}, // the demo collection
		{serveOptions{addr: "0.0.0.0:8080", noDemo: true}, false, true},
		{serveOptions{addr: "0.0.0.0:8080", docs: docs}, true, true},
		{serveOptions{addr: "0.0.0.0:8080", docs: docs, insecureOpen: true}, false, true},
		{serveOptions{addr: "127.0.0.1:8080", docs: docs}, false, true},
		{serveOptions{addr: "127.8.9.10:8080", docs: docs}, false, true},
		{serveOptions{addr: "[::1]:8080", docs: docs}, false, true},
		{serveOptions{addr: "localhost:8080", docs: docs}, false, true},
	} {
		if err := checkOpen(ctx, c.o, c.keys); (err == nil) != c.ok {
			t.Errorf("%+v, keys %v: %v", c.o, c.keys, err)
		}
	}
	if code, _, errs := runQSC(t, "serve", "--insecure-open", "--api-key", "admin-key-0123456789abcdef"); code != 2 || !strings.Contains(errs, "cannot go with --api-key") || !strings.Contains(errs, "--open-search") {
		t.Errorf("--insecure-open with a key: %d %s", code, errs)
	}
	if code, _, errs := runQSC(t, "serve", "--open-search", "--search-key", "search-key-0123456789abcdef"); code != 2 || !strings.Contains(errs, "admin key") {
		t.Errorf("--open-search without an admin key: %d %s", code, errs)
	}
	if code, _, errs := runQSC(t, "serve", "--base-url", "https://help.example.com/"); code != 2 || !strings.Contains(errs, "--docs FOLDER") {
		t.Errorf("--base-url without --docs: %d %s", code, errs)
	}
	if code, _, errs := runQSC(t, "serve", "--docs", ".", "--base-url", "help.example.com"); code != 2 || !strings.Contains(errs, "absolute http or https URL") {
		t.Errorf("--base-url not a URL: %d %s", code, errs)
	}
	if code, _, errs := runQSC(t, "serve", "--cors-origin", "help.example.com"); code != 2 || !strings.Contains(errs, "--cors-origin") || !strings.Contains(errs, "scheme://host") {
		t.Errorf("--cors-origin without a scheme: %d %s", code, errs)
	}
}

// TestServeKeyErrors: a bad key or keys file stops qsc serve at start with a message
// that names the flag, the file and the line.
func TestServeKeyErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "keys.txt")
	if err := os.WriteFile(bad, []byte("admin admin-key-0123456789abcdef\n\nsearch tooshort\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--api-key", "short"}, "--api-key (or QSC_API_KEY): the key is 5 characters; a key needs at least 16"},
		{[]string{"--search-key", "has space 0123456789abcdef"}, "--search-key (or QSC_SEARCH_KEY)"},
		{[]string{"--keys", bad}, bad + ":3: the key is 8 characters"},
		{[]string{"--keys", filepath.Join(dir, "none.txt")}, "--keys: open"},
		{[]string{"--api-key", "same-key-0123456789abcdef", "--search-key", "same-key-0123456789abcdef"}, "--search-key is the same key as --api-key"},
		{[]string{"--tls-cert", bad}, "--tls-cert and --tls-key go together"},
		{[]string{"--tls-cert", bad, "--tls-key", bad}, "--tls-cert " + bad + ", --tls-key " + bad},
		{[]string{"--rate-limit", "-1"}, "--rate-limit and --rate-burst must be 0 or positive"},
		{[]string{"--max-ingests", "0"}, "--max-ingests at least 1"},
	} {
		code, _, errs := runQSC(t, append([]string{"serve", "--addr", "127.0.0.1:0", "--no-demo"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, want 2 and %q:\n%s", c.args, code, c.want, errs)
		}
	}
}

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key to dir, and
// returns their paths and a pool that trusts the certificate.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "qsc test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestBinaryServeTLS: qsc serve with --tls-cert and --tls-key (a certificate made here)
// and keys from the environment and a keys file serves HTTPS, over HTTP/1.1 and HTTP/2,
// and nothing in clear: the keys work as over HTTP, and the log names keys, never
// shows them.
func TestBinaryServeTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, pool := selfSigned(t, dir)
	const admin, search, reader = "admin-key-0123456789abcdef", "search-key-0123456789abcdef", "reader-key-0123456789abcdef"
	keys := filepath.Join(dir, "keys.txt")
	if err := os.WriteFile(keys, []byte("# team\nsearch "+reader+" name=reader rate=1000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startServeEnv(t, []string{"QSC_API_KEY=" + admin, "QSC_SEARCH_KEY=" + search, "QSC_KEYS=" + keys},
		"--no-demo", "--tls-cert", certFile, "--tls-key", keyFile, "--log-format", "text", "--log-level", "debug") // probes are logged at debug
	if !strings.HasPrefix(s.base, "https://127.0.0.1:") {
		t.Fatalf("listening on %s", s.base)
	}
	for _, h2 := range []bool{false, true} {
		tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: h2}
		client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
		get := func(path, key string) (int, string, int) {
			req, _ := http.NewRequest("GET", s.base+path, nil)
			if key != "" {
				req.Header.Set("Authorization", "Bearer "+key)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b), resp.ProtoMajor
		}
		for _, c := range []struct {
			path, key string
			want      int
		}{
			{"/livez", "", 200}, {"/healthz", "", 401}, {"/healthz", search, 200}, {"/healthz", reader, 200},
			{"/healthz", admin, 200}, {"/metrics", "", 200},
		} {
			code, body, proto := get(c.path, c.key)
			if code != c.want {
				t.Errorf("h2 %v: GET %s with %q: %d %s, want %d", h2, c.path, c.key, code, body, c.want)
			}
			if wantProto := map[bool]int{false: 1, true: 2}[h2]; proto != wantProto {
				t.Errorf("HTTP/%d, want HTTP/%d", proto, wantProto)
			}
		}
		tr.CloseIdleConnections()
	}
	// In clear: net/http's 400, nothing served.
	resp, err := http.Get(strings.Replace(s.base, "https://", "http://", 1) + "/livez")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "HTTPS") {
		t.Errorf("plain HTTP to the TLS port: %d %s", resp.StatusCode, b)
	}
	s.stop(t)
	log := strings.Join(s.seen, "\n")
	for _, k := range []string{admin, search, reader} {
		if strings.Contains(log, k) {
			t.Errorf("the log shows a key:\n%s", log)
		}
	}
	for _, want := range []string{"keys=3", "key=search-key", "key=reader", "key=api-key", "the keys file may be read by other users"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "a key on the command line") {
		t.Errorf("keys from the environment were taken for the command line:\n%s", log)
	}
}

// TestLoopbackOnly: the addresses that accept connections from this machine only.
func TestLoopbackOnly(t *testing.T) {
	ctx := context.Background()
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "127.0.0.2:1": true, "[::1]:8080": true, "localhost:8080": true,
		":8080": false, "0.0.0.0:8080": false, "[::]:8080": false, "192.168.1.5:8080": false, "8080": false,
	} {
		if got := loopbackOnly(ctx, addr); got != want {
			t.Errorf("loopbackOnly(%q) = %v", addr, got)
		}
	}
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"--api-key", "x"}, true}, {[]string{"-api-key=x"}, true}, {[]string{"--api-keys", "x"}, false},
		{[]string{"--", "--api-key"}, false}, {[]string{"--search-key", "x"}, false},
	} {
		if got := onCommandLine(c.args, "api-key"); got != c.want {
			t.Errorf("onCommandLine(%q) = %v", c.args, got)
		}
	}
}
