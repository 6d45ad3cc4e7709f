package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/service/server"
)

// Keys, the safe default and TLS of qsc serve (docs/security.md).

// serveKeys returns the keys of o: --api-key (admin), --search-key (search) and the lines
// of --keys FILE. A bad key or file is a usage error that names it (and the line). It
// logs a warning for a keys file that others may read, and for a key given on the
// command line (the process list shows it).
func serveKeys(o serveOptions, args []string, log *slog.Logger) ([]server.Key, error) {
	var keys []server.Key
	seen := map[string]string{}
	add := func(flagName, secret string, scope server.Scope) error {
		if secret == "" {
			return nil
		}
		k, err := server.NewKey(flagName, scope, secret)
		if err != nil {
			return cli.Usagef("--%s (or %s): %v", flagName, envName(flagName), err)
		}
		if other, ok := seen[secret]; ok {
			return cli.Usagef("--%s is the same key as --%s: give each scope its own key", flagName, other)
		}
		seen[secret] = flagName
		keys = append(keys, k)
		if onCommandLine(args, flagName) {
			log.Warn("a key on the command line shows in the process list; prefer the environment variable or --keys FILE", "flag", "--"+flagName, "variable", envName(flagName))
		}
		return nil
	}
	if err := add("api-key", o.apiKey, server.ScopeAdmin); err != nil {
		return nil, err
	}
	if err := add("search-key", o.searchKey, server.ScopeSearch); err != nil {
		return nil, err
	}
	if o.keysFile != "" {
		f, err := os.Open(o.keysFile)
		if err != nil {
			return nil, cli.Usagef("--keys: %v", err)
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&0o077 != 0 {
			log.Warn("the keys file may be read by other users; chmod 600 it", "file", o.keysFile, "mode", fi.Mode().Perm().String())
		}
		fk, err := server.ParseKeys(f, o.keysFile)
		if err != nil {
			return nil, cli.Usagef("--keys: %v", err)
		}
		keys = append(keys, fk...)
	}
	return keys, nil
}

// onCommandLine reports whether args set the flag name (-name or --name, with or
// without =value).
func onCommandLine(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		a = strings.TrimLeft(a, "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// loopbackOnly reports whether the listen address addr (host:port) accepts connections
// from this machine only: a loopback IP, "localhost", or a name that resolves to
// loopback addresses only. An empty host (":8080") listens on every interface.
func loopbackOnly(ctx context.Context, addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil {
		return ip.IsLoopback()
	}
	if host == "localhost" {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil || len(ips) == 0 {
		return false
	}
	for _, ip := range ips {
		if !ip.IP.IsLoopback() {
			return false
		}
	}
	return true
}

// checkOpen refuses to serve the user's own documents without a key on an address that
// others can reach, unless --insecure-open says so. The demo collection alone may be
// served open.
func checkOpen(ctx context.Context, o serveOptions, haveKeys bool) error {
	own := o.index != "" || o.docs != ""
	if !own || haveKeys || o.insecureOpen || loopbackOnly(ctx, o.addr) {
		return nil
	}
	return cli.Usagef("refusing to serve your documents (--index/--docs) on %s without a key: anyone who reaches that address could read and search them all, and change or delete them through the document API.\n"+
		"Give a key: --api-key KEY (or QSC_API_KEY) for one admin key, or --keys FILE for keys with scopes (docs/security.md);\n"+
		"or listen on loopback only (--addr 127.0.0.1:PORT), e.g. behind a reverse proxy that checks who comes in;\n"+
		"or, on a network where everyone may read every document, say so with --insecure-open", o.addr)
}

// certFiles serves a certificate and key from files, read again when either file
// changes (checked at most every certCheck), so that a renewed certificate is served
// without a restart.
type certFiles struct {
	certFile, keyFile string
	log               *slog.Logger

	mu      sync.Mutex
	cert    *tls.Certificate
	mod     time.Time // the later modification time of the two files when cert was read
	checked time.Time
}

const certCheck = 10 * time.Second

// loadCert reads the certificate and key; an error names the files.
func loadCert(certFile, keyFile string, log *slog.Logger) (*certFiles, error) {
	c := &certFiles{certFile: certFile, keyFile: keyFile, log: log}
	if err := c.read(); err != nil {
		return nil, err
	}
	return c, nil
}

// modTime returns the later modification time of the two files.
func (c *certFiles) modTime() (time.Time, error) {
	var t time.Time
	for _, name := range []string{c.certFile, c.keyFile} {
		fi, err := os.Stat(name)
		if err != nil {
			return t, err
		}
		if fi.ModTime().After(t) {
			t = fi.ModTime()
		}
	}
	return t, nil
}

// read reads the pair; c.mu is held or c is not shared yet.
func (c *certFiles) read() error {
	mod, err := c.modTime()
	if err != nil {
		return fmt.Errorf("--tls-cert, --tls-key: %w", err)
	}
	cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("--tls-cert %s, --tls-key %s: %w", c.certFile, c.keyFile, err)
	}
	c.cert, c.mod, c.checked = &cert, mod, time.Now()
	return nil
}

// get is tls.Config.GetCertificate: the pair, read again if the files changed.
func (c *certFiles) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.checked) >= certCheck {
		c.checked = time.Now()
		if mod, err := c.modTime(); err == nil && mod.After(c.mod) {
			if err := c.read(); err != nil {
				c.log.Error("reading the renewed certificate failed; serving the previous one", "error", err.Error())
			} else {
				c.log.Info("certificate read again", "file", c.certFile)
			}
		}
	}
	return c.cert, nil
}

// tlsConfig returns the TLS configuration of --tls-cert and --tls-key (nil for none).
func tlsConfig(o serveOptions, log *slog.Logger) (*tls.Config, error) {
	if o.tlsCert == "" && o.tlsKey == "" {
		return nil, nil
	}
	if o.tlsCert == "" || o.tlsKey == "" {
		return nil, cli.Usagef("--tls-cert and --tls-key go together: the certificate (chain) and its private key, PEM")
	}
	c, err := loadCert(o.tlsCert, o.tlsKey, log)
	if err != nil {
		return nil, cli.Usagef("%v", err)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: c.get}, nil
}
