package server

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Browsers. A browser sends requests on behalf of whatever page it shows, with the user's
// network reach; three rules keep other sites' pages from using the server through it:
//
//   - Writes from another origin are refused. A request with a method that may change
//     something (all but GET, HEAD and OPTIONS) sent by a page of another origin gets
//     403 (net/http.CrossOriginProtection reads Sec-Fetch-Site and Origin), unless
//     Config.Origins lists that origin. Without this, a page that the user of a keyless
//     server visits could add documents to it: a form or a no-cors fetch with a text/plain
//     body needs no preflight. Clients that are not browsers send neither header and are
//     not affected.
//   - CORS. A page of an origin that Config.Origins lists may call the API: its requests
//     get Access-Control-Allow-Origin, and its preflight OPTIONS gets 204 with the methods
//     and headers allowed. Keys still apply: such a page sends its key as any client does.
//   - Host names. A keyless server on a loopback address (Config.LoopbackHosts) answers
//     only requests whose Host is a loopback name or address, and 421 to others: a DNS
//     name that an attacker points at 127.0.0.1 (DNS rebinding) would otherwise make the
//     server the attacker's page's same origin.

// corsMethods and corsHeaders are what a preflight of an allowed origin may ask for.
const (
	corsMethods = "GET, HEAD, POST, PUT, DELETE"
	corsHeaders = "Authorization, Content-Type"
	corsMaxAge  = "600"
)

// browserRules is the state of the three rules: the origins allowed, by their
// serialization (scheme://host[:port], lower case), and the cross-origin check.
type browserRules struct {
	origins  map[string]bool
	cop      *http.CrossOriginProtection
	loopback bool
	hosts    map[string]bool // Config.AllowedHosts, lower case
}

// CheckOrigin returns origin in the form a browser's Origin header gives it
// (scheme://host[:port], lower case), or an error that says what is wrong with it: it must
// be http or https, with a host, and no path, query or fragment.
func CheckOrigin(origin string) (string, error) {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("origin %q: want scheme://host[:port], e.g. https://help.example.com, with no path", origin)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// newBrowserRules checks the origins of cfg and returns the rules.
func newBrowserRules(cfg *Config) (*browserRules, error) {
	b := &browserRules{origins: map[string]bool{}, cop: http.NewCrossOriginProtection(), loopback: cfg.LoopbackHosts, hosts: map[string]bool{}}
	for _, h := range cfg.AllowedHosts {
		b.hosts[hostName(h)] = true
	}
	for _, o := range cfg.Origins {
		norm, err := CheckOrigin(o)
		if err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
		if err := b.cop.AddTrustedOrigin(norm); err != nil {
			return nil, fmt.Errorf("server: origin %q: %w", o, err)
		}
		b.origins[norm] = true
	}
	b.cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			origin = "another site"
		}
		writeError(w, http.StatusForbidden, fmt.Sprintf(
			"%s %s from a page of %s is refused: a page of another origin may send this server no %s, which could change its documents (the operator may allow an origin with --cors-origin)",
			r.Method, r.URL.Path, origin, r.Method))
	}))
	return b, nil
}

// frameAncestors returns the Content-Security-Policy of the server's answers: the pages may
// be framed by the origins listed, by none when there are none.
func frameAncestors(origins []string) (string, error) {
	if len(origins) == 0 {
		return contentSecurityPolicy, nil
	}
	var list []string
	for _, o := range origins {
		norm, err := CheckOrigin(o)
		if err != nil {
			return "", fmt.Errorf("server: frame ancestor: %w", err)
		}
		list = append(list, norm)
	}
	return strings.TrimSuffix(contentSecurityPolicy, "'none'") + strings.Join(list, " "), nil
}

// handler applies the rules before next.
func (b *browserRules) handler(next http.Handler) http.Handler {
	protected := b.cop.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b.loopback && !b.hostAllowed(r.Host) {
			writeError(w, http.StatusMisdirectedRequest, fmt.Sprintf(
				"host %q is not this server's: a server without keys on a loopback address answers only localhost and loopback addresses, and the names of --allowed-hosts (a reverse proxy's)", r.Host))
			return
		}
		origin := r.Header.Get("Origin")
		preflight := origin != "" && r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
		switch {
		case origin != "" && b.origins[strings.ToLower(origin)]:
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			if preflight {
				h.Set("Access-Control-Allow-Methods", corsMethods)
				h.Set("Access-Control-Allow-Headers", corsHeaders)
				h.Set("Access-Control-Max-Age", corsMaxAge)
				w.WriteHeader(http.StatusNoContent)
				return
			}
			h.Set("Access-Control-Expose-Headers", "Retry-After, Location")
		case preflight:
			writeError(w, http.StatusForbidden, fmt.Sprintf(
				"origin %s may not call this server from its pages (the operator may allow it with --cors-origin)", origin))
			return
		}
		protected.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether a Host header names a loopback or one of the hosts allowed.
func (b *browserRules) hostAllowed(host string) bool {
	name := hostName(host)
	return loopbackName(name) || b.hosts[name]
}

// loopbackName reports whether host, a Host header's name or address as hostName gives
// it, names this machine's loopback: localhost, *.localhost or a loopback address.
func loopbackName(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hostName returns the name or address of a Host header without its port and brackets,
// in lower case, without a final dot.
func hostName(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
}
