package server

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Access control. Each route is registered with a Scope (the route table in New); when
// the server has keys (Config.Keys), a request to a route that is not open must carry
// one in its Authorization header, "Bearer KEY", whose scope allows the route:
//
//   - no key, an unknown key or another scheme: 401, with WWW-Authenticate;
//   - a known key whose scope does not allow the route: 403;
//   - a key in the URL (?key=, ?api_key=, ?access_token=, ?token=): 400, on every route
//     (a URL ends up in logs, histories and Referer headers; keys never go there).
//
// A key is known by the SHA-256 of its text: the server keeps only the hashes, and
// compares the hash of the presented key with every stored one in constant time
// (crypto/subtle), so neither the length nor the first differing byte of a key shows
// in the time of an answer. The request log names the key (Key.Name), never its text.
//
// Without keys every route is open.

// Scope is what a key may reach, and what a route needs.
type Scope uint8

const (
	// ScopeOpen routes answer without a key: /livez, /readyz, the API description, the
	// page's icon, script and style sheet (they hold no data).
	ScopeOpen Scope = iota
	// ScopeSearch reads: the search page, /v1/search, /v1/snippets, /v1/compress,
	// /healthz and the documents (/v1/documents/{id}, /doc/{id}).
	ScopeSearch
	// ScopeMetrics reads /metrics when Config.MetricsAuth puts it behind a key, and
	// nothing else (for a Prometheus scraper).
	ScopeMetrics
	// ScopeAdmin reaches everything: the routes of the other scopes and the routes that
	// change the collection.
	ScopeAdmin
)

// String returns the scope's name, as the keys file spells it.
func (s Scope) String() string {
	switch s {
	case ScopeOpen:
		return "open"
	case ScopeSearch:
		return "search"
	case ScopeMetrics:
		return "metrics"
	case ScopeAdmin:
		return "admin"
	}
	return "scope(" + strconv.Itoa(int(s)) + ")"
}

// ParseScope returns the scope a keys file names: search, metrics or admin.
func ParseScope(name string) (Scope, error) {
	switch name {
	case "search":
		return ScopeSearch, nil
	case "metrics":
		return ScopeMetrics, nil
	case "admin":
		return ScopeAdmin, nil
	}
	return 0, fmt.Errorf("unknown scope %q: want search, admin or metrics", name)
}

// allows reports whether a key of scope k may use a route of scope route.
func (k Scope) allows(route Scope) bool {
	return route == ScopeOpen || k == ScopeAdmin || k == route
}

// MinKeyLength is the shortest key accepted, in characters: 16 random base64
// characters are 96 bits.
const MinKeyLength = 16

// Limits are the limits of one key (limits.go). A zero field takes the server's default
// (Config.KeyLimits); a negative one means none.
type Limits struct {
	// Rate is the requests per second the key may make, on average (token bucket).
	Rate float64
	// Burst is the requests the key may make at once above the rate (the bucket's size).
	Burst int
	// Ingests is the document ingests the key may run at once (Server.ingestSlot).
	Ingests int
}

// Key is an API key: its scope, a name for the log, its limits, and the SHA-256 of its
// text (the text itself is not kept).
type Key struct {
	Name   string
	Scope  Scope
	Limits Limits
	hash   [sha256.Size]byte
}

// NewKey returns the key secret of scope, named name in the log. A secret is at least
// MinKeyLength printable ASCII characters without spaces (what fits in a Bearer
// header), or "sha256:" and the 64 hex digits of the SHA-256 of such a key, so that a
// keys file need not hold the keys themselves.
func NewKey(name string, scope Scope, secret string) (Key, error) {
	k := Key{Name: name, Scope: scope}
	if scope == ScopeOpen {
		return k, errors.New("a key needs a scope: search, admin or metrics")
	}
	if h, ok := strings.CutPrefix(secret, "sha256:"); ok {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != sha256.Size {
			return k, errors.New("sha256: must be followed by 64 hex digits (the SHA-256 of the key, as sha256sum prints it)")
		}
		copy(k.hash[:], b)
		return k, nil
	}
	for i := range len(secret) {
		if c := secret[i]; c <= ' ' || c > '~' {
			return k, fmt.Errorf("the key holds a character that is not printable ASCII or is a space, at byte %d", i)
		}
	}
	if len(secret) < MinKeyLength {
		return k, fmt.Errorf("the key is %d characters; a key needs at least %d (make one with: openssl rand -base64 32)", len(secret), MinKeyLength)
	}
	k.hash = sha256.Sum256([]byte(secret))
	return k, nil
}

// ParseKeys reads a keys file: one key per line, as
//
//	SCOPE KEY [name=NAME] [rate=N] [burst=N] [ingests=N]
//
// with SCOPE search, admin or metrics, KEY the key or sha256:HEX, and the optional
// fields in any order (rate in requests per second, 0 or "none" for no limit). Blank
// lines and lines starting with # are skipped. A key's name defaults to FILE:LINE.
// Errors name the file and the line. The same key or the same name twice is an error.
func ParseKeys(r io.Reader, file string) ([]Key, error) {
	var keys []Key
	seen := map[[sha256.Size]byte]int{}
	names := map[string]int{}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		where := fmt.Sprintf("%s:%d", file, line)
		k, err := parseKeyLine(text, where)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if prev, ok := seen[k.hash]; ok {
			return nil, fmt.Errorf("%s: the same key as line %d", where, prev)
		}
		if prev, ok := names[k.Name]; ok {
			return nil, fmt.Errorf("%s: name %q is the name of line %d already", where, k.Name, prev)
		}
		seen[k.hash], names[k.Name] = line, line
		keys = append(keys, k)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", file, line+1, err)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: no key (want lines of: SCOPE KEY [name=NAME] [rate=N] [burst=N] [ingests=N])", file)
	}
	return keys, nil
}

// parseKeyLine parses one line of a keys file.
func parseKeyLine(text, where string) (Key, error) {
	f := strings.Fields(text)
	if len(f) < 2 {
		return Key{}, errors.New("want SCOPE KEY [name=NAME] [rate=N] [burst=N] [ingests=N]")
	}
	scope, err := ParseScope(f[0])
	if err != nil {
		if len(f[0]) > len("metrics") { // not echoed: it may be a key written first
			return Key{}, errors.New("the line must start with its scope: search, admin or metrics")
		}
		return Key{}, err
	}
	k, err := NewKey(where, scope, f[1])
	if err != nil {
		return Key{}, err
	}
	for i, field := range f[2:] {
		name, v, ok := strings.Cut(field, "=")
		if !ok || v == "" {
			// Not echoed: it may be a key written in the wrong place.
			return Key{}, fmt.Errorf("field %d is not name=NAME, rate=N, burst=N or ingests=N (the key goes second, after the scope)", i+3)
		}
		switch name {
		case "name":
			k.Name = v
		case "rate":
			if v == "none" || v == "0" {
				k.Limits.Rate = -1
				continue
			}
			r, err := strconv.ParseFloat(v, 64)
			if err != nil || r <= 0 || r > 1e9 {
				return Key{}, fmt.Errorf("rate=%s: want requests per second, a positive number (or none)", v)
			}
			k.Limits.Rate = r
		case "burst", "ingests":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return Key{}, fmt.Errorf("%s=%s: want a whole number of at least 1", name, v)
			}
			if name == "burst" {
				k.Limits.Burst = n
			} else {
				k.Limits.Ingests = n
			}
		default:
			return Key{}, fmt.Errorf("unknown field %q: want name, rate, burst or ingests", name)
		}
	}
	return k, nil
}

// keyParams are the query parameters that look like a key; a request with one is
// refused (400) before anything else.
var keyParams = []string{"key", "api_key", "apikey", "api-key", "access_token", "token", "auth", "authorization"}

// bearer returns the key of an Authorization header "Bearer KEY" (the scheme in any
// case), or false.
func bearer(h string) (string, bool) {
	scheme, key, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	key = strings.TrimSpace(key)
	return key, key != ""
}

// keyring holds the server's keys, each with its limits.
type keyring struct {
	keys []*principal
}

// find returns the principal of the key text, or nil. It hashes the text and compares
// the hash with every stored one, in constant time, without stopping at a match.
func (kr *keyring) find(text string) *principal {
	h := sha256.Sum256([]byte(text))
	var found *principal
	for _, p := range kr.keys {
		if subtle.ConstantTimeCompare(h[:], p.key.hash[:]) == 1 {
			found = p
		}
	}
	return found
}

// principalKey is the context key of the request's principal.
type principalKey struct{}

// principalOf returns the principal a request was authorized as: its key's, or the
// server's open principal when the server has no keys or the route is open.
func (s *Server) principalOf(r *http.Request) *principal {
	if p, ok := r.Context().Value(principalKey{}).(*principal); ok {
		return p
	}
	return s.open
}

// realm is the WWW-Authenticate challenge of a 401.
const realm = `Bearer realm="qsc"`

// guard is the access control and the per-key rate of one route of scope (see the top
// of this file, and admit.go for the rate). locked, when not nil, is the HTML answered
// with the 401 instead of the JSON error: a page that asks for the key (a browser that
// navigates to a page sends no Authorization header).
func (s *Server) guard(scope Scope, locked []byte, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "" {
			q := r.URL.Query()
			for _, name := range keyParams {
				if q.Has(name) {
					writeError(w, http.StatusBadRequest, fmt.Sprintf("parameter %s: keys go in the Authorization header (Bearer), never in the URL; the URL is logged and kept in histories, so replace that key", name))
					return
				}
			}
		}
		if s.keys == nil || scope == ScopeOpen || (scope == ScopeMetrics && !s.cfg.MetricsAuth) ||
			(scope == ScopeSearch && s.cfg.OpenSearch && r.Header.Get("Authorization") == "") {
			next.ServeHTTP(w, r)
			return
		}
		auth := r.Header.Get("Authorization")
		text, ok := bearer(auth)
		var p *principal
		if ok {
			p = s.keys.find(text)
		}
		if p == nil {
			msg := "this server needs a key: send Authorization: Bearer KEY"
			challenge := realm
			switch {
			case ok:
				msg = "unknown key"
				challenge += `, error="invalid_token"`
			case auth != "":
				msg = "the Authorization header must be Bearer KEY"
			}
			w.Header().Set("WWW-Authenticate", challenge)
			if locked != nil {
				noteError(w, msg)
				writeHTML(w, http.StatusUnauthorized, locked)
				return
			}
			writeError(w, http.StatusUnauthorized, msg)
			return
		}
		if rec, ok := w.(*recorder); ok {
			rec.key = p.key.Name
		}
		if !p.key.Scope.allows(scope) {
			w.Header().Set("WWW-Authenticate", realm+`, error="insufficient_scope", scope="`+scope.String()+`"`)
			writeError(w, http.StatusForbidden, fmt.Sprintf("key %s has scope %s; %s %s needs scope %s", p.key.Name, p.key.Scope, r.Method, r.URL.Path, scope))
			return
		}
		if !s.allow(w, r, p) {
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, p)))
	})
}

// noteError notes msg as the error of the answer for the request log.
func noteError(w http.ResponseWriter, msg string) {
	if rec, ok := w.(*recorder); ok {
		rec.err = msg
	}
}
