package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestCrossOriginWrites checks that a page of another origin cannot change the collection
// of a server without keys (a no-cors POST needs no preflight), that clients that are not
// browsers and the server's own page can, and that an origin of Config.Origins gets CORS.
func TestCrossOriginWrites(t *testing.T) {
	_, ts, _ := keyServer(t, Config{Keys: []Key{}, Origins: []string{"https://help.example.com"}})
	doc := `{"id":"planted","title":"Refunds","text":"Refunds are now instant."}`
	post := func(headers map[string]string) (int, http.Header, string) {
		req, err := http.NewRequest(http.MethodPost, ts.URL+"/v1/documents", strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "text/plain")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		return roundTrip(t, req)
	}
	code, _, body := post(map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
	if code != http.StatusForbidden || !strings.Contains(body, "https://evil.example") || !strings.Contains(body, "--cors-origin") {
		t.Errorf("cross-site POST: %d %s", code, body)
	}
	code, _, body = post(map[string]string{"Origin": "https://evil.example"}) // an older browser: Origin alone
	if code != http.StatusForbidden {
		t.Errorf("cross-origin POST without Sec-Fetch-Site: %d %s", code, body)
	}
	code, h, body := post(map[string]string{"Origin": "https://help.example.com", "Sec-Fetch-Site": "cross-site"})
	if code/100 != 2 || h.Get("Access-Control-Allow-Origin") != "https://help.example.com" {
		t.Errorf("POST from an allowed origin: %d %q %s", code, h.Get("Access-Control-Allow-Origin"), body)
	}
	if code, _, body := post(map[string]string{"Sec-Fetch-Site": "same-origin"}); code/100 != 2 {
		t.Errorf("same-origin POST: %d %s", code, body)
	}
	if code, _, body := post(nil); code/100 != 2 {
		t.Errorf("POST of a client that is not a browser: %d %s", code, body)
	}
	// Reads from another origin are answered, without CORS headers: the browser keeps
	// the answer from the page.
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/v1/search?q=police", nil)
	req.Header.Set("Origin", "https://evil.example")
	if code, h, _ := roundTrip(t, req); code != http.StatusOK || h.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("cross-origin GET: %d, Access-Control-Allow-Origin %q", code, h.Get("Access-Control-Allow-Origin"))
	}
	// Preflights.
	preflight := func(origin string) (int, http.Header, string) {
		req, _ := http.NewRequest(http.MethodOptions, ts.URL+"/v1/snippets", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type")
		return roundTrip(t, req)
	}
	code, h, body = preflight("https://help.example.com")
	if code != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "https://help.example.com" ||
		!strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Errorf("preflight of an allowed origin: %d %v %s", code, h, body)
	}
	if code, h, body := preflight("https://evil.example"); code != http.StatusForbidden || h.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight of another origin: %d %v %s", code, h, body)
	}
}

// TestLoopbackHosts checks that a server with LoopbackHosts answers localhost, loopback
// addresses and AllowedHosts, and 421 to another name (DNS rebinding).
func TestLoopbackHosts(t *testing.T) {
	_, ts, _ := keyServer(t, Config{Keys: []Key{}, LoopbackHosts: true, AllowedHosts: []string{"search.internal"}})
	for host, want := range map[string]int{
		"":                      http.StatusOK, // the test server's own 127.0.0.1:port
		"localhost:8080":        http.StatusOK,
		"LOCALHOST.":            http.StatusOK,
		"app.localhost":         http.StatusOK,
		"[::1]:8080":            http.StatusOK,
		"search.internal:443":   http.StatusOK,
		"attacker.example":      http.StatusMisdirectedRequest,
		"attacker.example:8080": http.StatusMisdirectedRequest,
		"127.0.0.1.nip.io":      http.StatusMisdirectedRequest,
	} {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/v1/search?q=police", nil)
		if host != "" {
			req.Host = host
		}
		code, _, body := roundTrip(t, req)
		if code != want {
			t.Errorf("Host %q: %d, want %d: %s", host, code, want, body)
		}
		if code == http.StatusMisdirectedRequest && !strings.Contains(body, "--allowed-hosts") {
			t.Errorf("Host %q: %s", host, body)
		}
	}
}

// TestOpenSearch checks that OpenSearch opens the routes of scope search to requests
// without a key, keeps the writes behind one, and still refuses a wrong key.
func TestOpenSearch(t *testing.T) {
	_, ts, _ := keyServer(t, Config{OpenSearch: true})
	get := func(path, key string) int {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		code, _, _ := roundTrip(t, req)
		return code
	}
	if c := get("/v1/search?q=police", ""); c != http.StatusOK {
		t.Errorf("search without a key: %d", c)
	}
	if c := get("/", ""); c != http.StatusOK {
		t.Errorf("the page without a key: %d", c)
	}
	if c := get("/v1/search?q=police", "no-such-key-0123456789"); c != http.StatusUnauthorized {
		t.Errorf("search with an unknown key: %d", c)
	}
	if c := get("/v1/tasks/x", ""); c != http.StatusUnauthorized {
		t.Errorf("an admin route without a key: %d", c)
	}
	req, _ := http.NewRequest(http.MethodDelete, ts.URL+"/v1/documents/d1", nil)
	if code, _, body := roundTrip(t, req); code != http.StatusUnauthorized {
		t.Errorf("delete without a key: %d %s", code, body)
	}
}

// TestFrameAncestors checks the Content-Security-Policy of the pages: no frame by
// default, the origins of Config.FrameAncestors when given, and a bad origin refused.
func TestFrameAncestors(t *testing.T) {
	for _, c := range []struct {
		origins []string
		want    string
	}{
		{nil, "frame-ancestors 'none'"},
		{[]string{"https://help.example.com", "HTTPS://Docs.Example.com:8443"}, "frame-ancestors https://help.example.com https://docs.example.com:8443"},
	} {
		_, ts, _ := keyServer(t, Config{Keys: []Key{}, FrameAncestors: c.origins})
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/", nil)
		code, h, _ := roundTrip(t, req)
		if csp := h.Get("Content-Security-Policy"); code != http.StatusOK || !strings.HasSuffix(csp, c.want) || !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%v: %d %q", c.origins, code, csp)
		}
	}
	if _, err := New(Config{Engine: nil, FrameAncestors: []string{"help.example.com/path"}}); err == nil {
		t.Error("New took a frame ancestor that is no origin")
	}
	for _, bad := range []string{"help.example.com", "https://help.example.com/docs", "ftp://x", "https://", "https://u@h"} {
		if _, err := CheckOrigin(bad); err == nil {
			t.Errorf("CheckOrigin(%q) took it", bad)
		}
	}
}
