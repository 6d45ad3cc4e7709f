package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/internal/service/servicetest"
)

// words returns a text of n tokens: words and commas, ending with a period.
func words(n int) string {
	w := []string{"the", "police", "arrested", "two", "men", "in", "Syracuse", "on", "Tuesday", ","}
	var b strings.Builder
	for i := range n - 1 {
		b.WriteString(w[i%len(w)])
		b.WriteByte(' ')
	}
	b.WriteString(".")
	return b.String()
}

// TestHostileHTTP is the table of hostile requests of docs/reliability.md through the
// HTTP API: each gets its status and a JSON answer, an error naming the problem for a
// 4xx; every exchange is checked against openapi.yaml.
func TestHostileHTTP(t *testing.T) {
	ts, _ := newServer(t, Config{})
	const s = `"text":"Police in Syracuse arrested two men.","query":["Syracuse"]`
	mb := words(200000)
	mb = mb[len(mb)-1_000_000:] // 1,000,000 bytes of words, about 150,000 tokens
	word := strings.Repeat("a", 1_000_000)
	cases := []struct {
		name, path, body string
		status           int
		msg              string // in "error", or in the body of a 200
	}{
		{"empty body", "/v1/compress", ``, 400, "the body is empty; send a JSON object"},
		{"whitespace body", "/v1/compress", " \r\n\t ", 400, "the body is empty"},
		{"empty text", "/v1/compress", `{"id":"a","text":"","query":["a"],"budget":5}`, 400, "no sentence: the text is empty or blank, and no tokens are given"},
		{"whitespace text", "/v1/compress", `{"id":"a","text":" \t\n ","query":["a"],"budget":5}`, 400, "no sentence: the text is empty or blank, and no tokens are given"},
		{"1 MB sentence", "/v1/compress", `{"id":"a","text":"` + mb + `","query":["Syracuse"],"budget":100}`, 400, "text is 1000000 bytes, more than the maximum of 65536"},
		{"10,000-token sentence", "/v1/compress", `{"id":"a","text":"` + words(10000) + `","query":["Syracuse"],"budget":100}`, 400, "the sentence has 10000 tokens, more than the maximum of 2000"},
		{"1 MB word", "/v1/compress", `{"id":"a","text":"` + word + `","query":["a"],"budget":1000000}`, 400, "text is 1000000 bytes, more than the maximum of 65536"},
		{"64 KiB word", "/v1/compress", `{"id":"a","text":"` + word[:qsc.MaxSentenceBytes] + `","query":["` + word[:qsc.MaxSentenceBytes] + `"],"budget":65536}`, 200, `"compression":"aaaa`},
		{"body over 2 MiB", "/v1/compress", `{"id":"a","text":"` + mb + mb + mb + `","query":["a"],"budget":5}`, 413, "the body is larger than 2097152 bytes"},
		{"invalid UTF-8 becomes U+FFFD", "/v1/compress", "{\"id\":\"u\",\"text\":\"caf\xe9 bar\",\"query_ids\":[1,2],\"budget\":5}", 200, `"compression":"caf�"`}, // cut from the text: "caf" and U+FFFD are one word
		{"escaped control characters", "/v1/compress", `{"id":"c","text":"a\u0000b\u001b c","query":["a","b","c"],"budget":5}`, 200, `"compression":"a b c"`},
		{"raw control character", "/v1/compress", "{\"id\":\"c\",\"text\":\"a\x01b\",\"query\":[\"a\"],\"budget\":5}", 400, `invalid character '\x01' in string literal`},
		{"query term absent", "/v1/compress", `{"id":"a","text":"Dogs bark.","query":["cats"],"budget":20}`, 422, `query term "cats" is not in the sentence`},
		{"duplicate query terms", "/v1/compress", `{"id":"a","text":"Dogs bark.","query":["dogs","DOGS"],"budget":4}`, 200, `"compression":"Dogs"`},
		{"duplicate query ids", "/v1/compress", `{"id":"a","text":"Dogs bark.","query_ids":[1,1],"budget":4}`, 200, `"compression":"Dogs"`},
		{"budget 0", "/v1/compress", `{"id":"a",` + s + `,"budget":0}`, 400, "budget is required (budget must be a positive number of characters)"},
		{"budget negative", "/v1/compress", `{"id":"a",` + s + `,"budget":-9223372036854775808}`, 400, "budget must be a positive"},
		{"budget below the query", "/v1/compress", `{"id":"a",` + s + `,"budget":5}`, 422, "the query is longer than the budget: 8 characters, the budget 5"},
		{"budget above the sentence", "/v1/compress", `{"id":"a",` + s + `,"budget":1000}`, 200, `"compression":"`},
		{"budget int64 max, ILP", "/v1/compress", `{"id":"a",` + s + `,"budget":9223372036854775807,"method":"ilp"}`, 200, `"compression":"`},
		{"budget over int64", "/v1/compress", `{"id":"a",` + s + `,"budget":1e30}`, 400, `field "budget" must be an integer, not number 1e30`},
		{"empty compression", "/v1/compress", `{"id":"e","text":"Police arrested Syracuse burglars","query":[],"budget":3,"method":"ilp"}`, 200, `{"id":"e","kept":[],"compression":"","compression_ellipsis":"","lang":"en","method":"ilp"}`},
		{"unknown method", "/v1/compress", `{"id":"a",` + s + `,"budget":25,"method":"bert"}`, 400, `unknown method "bert"`},
		{"malformed JSON", "/v1/compress", `{"id":"a",` + s, 400, "unexpected EOF"},
		{"not an object", "/v1/compress", `"x"`, 400, "the body must be a JSON object"},
		{"wrong types", "/v1/compress", `{"id":"a","text":["Dogs"],"query":["dogs"],"budget":5}`, 400, `field "text" must be a string, not array`},
		{"snippets: 1 MB sentence", "/v1/snippets", `{"document":"` + mb + `","query":["Syracuse"],"budget":100}`, 200, `"method":"window"`},
		{"snippets: empty document", "/v1/snippets", `{"document":"","query":["dogs"],"budget":20}`, 200, `{"snippets":[]}`},
		{"snippets: no document", "/v1/snippets", `{"query":["dogs"],"budget":20}`, 400, `"document" is required`},
		{"snippets: null document", "/v1/snippets", `{"document":null,"query":["dogs"],"budget":20}`, 200, `{"snippets":[]}`},
		{"snippets: unknown field", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":20,"bugdet":3}`, 400, `bad request: unknown field "bugdet"`},
		{"snippets: not an object", "/v1/snippets", `[1]`, 400, `bad request: the body must be a JSON object`},
		{"snippets: query term absent", "/v1/snippets", `{"document":"Dogs bark.","query":["cats"],"budget":20}`, 200, `{"snippets":[]}`},
		{"snippets: budget int64 max, ILP", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":9223372036854775807,"method":"ilp"}`, 200, `"text":"Dogs`},
		{"snippets: n negative", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":20,"n":-1}`, 400, "n must be a positive number of snippets, got -1"},
		{"snippets: wrong types", "/v1/snippets", `{"document":"Dogs bark.","query":"dogs","budget":20}`, 400, `field "query" must be a list of strings, not string; give a list: "query": [`},
		// The mistakes a new user makes most get a hint that says how to mend them.
		{"snippets: text for document", "/v1/snippets", `{"text":"Dogs bark.","query":["dogs"],"budget":20}`, 400, `unknown field "text"; a snippets request takes the text as "document"`},
		{"compress: document for text", "/v1/compress", `{"id":"a","document":"Dogs bark.","query":["dogs"],"budget":20}`, 400, `unknown field "document"; this record takes the text as "text"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ex := do(t, ts, "POST", c.path, c.body, false)
			var ans struct {
				Error string `json:"error"`
			}
			if err := json.Unmarshal(ex.body, &ans); err != nil {
				t.Fatalf("%d answer %.200q is not JSON: %v", ex.status, ex.body, err)
			}
			got := ans.Error
			if ex.status == http.StatusOK {
				got = string(ex.body)
			}
			if ex.status != c.status || !strings.Contains(got, c.msg) {
				t.Errorf("%d %.300s, want %d with %q", ex.status, got, c.status, c.msg)
			}
		})
	}
}

// TestConcurrentMatchesSerial sends many different requests at once, from 16 clients in
// a shuffled order, and checks that every answer is byte for byte the answer the same
// request got alone.
func TestConcurrentMatchesSerial(t *testing.T) {
	ts, _ := newServer(t, Config{})
	texts := []string{
		"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.",
		"Five people have been taken to hospital with minor injuries following a crash on the A17 near Sleaford this morning.",
		"Several school districts in Hampton Roads are holding classes this Presidents' Day to make up for days missed because of the snow.",
		"A woman was injured by a falling tree in the Gresham neighborhood, according to the Chicago Fire Department.",
	}
	queries := [][]string{{"police", "Syracuse"}, {"hospital"}, {"districts", "snow"}, {"tree"}}
	type exchange struct{ path, body, want string }
	var all []exchange
	for i, text := range texts {
		q, _ := json.Marshal(queries[i])
		tq, _ := json.Marshal(text)
		for _, m := range []string{"lr", "ablated", "ilp"} {
			for _, b := range []int{40, 60, 90} {
				all = append(all, exchange{path: "/v1/compress?tokens=true",
					body: fmt.Sprintf(`{"id":"%d-%s-%d","text":%s,"query":%s,"budget":%d,"method":"%s"}`, i, m, b, tq, q, b, m)})
			}
		}
		all = append(all, exchange{path: "/v1/snippets",
			body: fmt.Sprintf(`{"document":%s,"query":%s,"budget":50,"n":2}`, quote(text+" "+text), q)})
	}
	all = append(all, exchange{path: "/v1/snippets", body: `{"document":` + quote(strings.Join(texts, " ")) + `,"query":["police","tree","snow","hospital"],"budget":60,"n":4}`})
	post := func(e exchange) (string, error) {
		resp, err := ts.Client().Post(ts.URL+e.path, "application/json", strings.NewReader(e.body))
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		var buf bytes.Buffer
		buf.ReadFrom(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("%s: %d %s", e.body, resp.StatusCode, buf.String())
		}
		return buf.String(), nil
	}
	for i := range all {
		ans, err := post(all[i])
		if err != nil {
			t.Fatal(err)
		}
		all[i].want = ans
	}
	const clients, rounds = 16, 3
	var wg sync.WaitGroup
	errs := make(chan error, clients*rounds*len(all))
	for g := range clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for range rounds {
				for _, k := range rng.Perm(len(all)) {
					got, err := post(all[k])
					if err == nil && got != all[k].want {
						err = fmt.Errorf("%s: concurrent answer\n%s\nserial answer\n%s", all[k].body, got, all[k].want)
					}
					if err != nil {
						errs <- err
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestQueueDeadline checks that a request waiting for its turn to compress (every slot
// taken) gets 503 at its deadline, and is served once a slot is free.
func TestQueueDeadline(t *testing.T) {
	s, err := New(Config{Engine: servicetest.Engine(t), Index: index(t), MaxInFlight: 1, RequestTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	body := `{"id":"q","text":"Dogs bark.","query":["dogs"],"budget":4}`
	if err := s.acquire(context.Background(), small); err != nil { // the only slot
		t.Fatal(err)
	}
	for _, path := range []string{"/v1/compress", "/v1/snippets", "/v1/search?q=dogs"} {
		method, b := "POST", body
		if path == "/v1/snippets" {
			b = `{"document":"Dogs bark.","query":["dogs"],"budget":6}` // "Dogs …"
		}
		if strings.HasPrefix(path, "/v1/search") {
			method, b = "GET", ""
		}
		ex := do(t, ts, method, path, b, false)
		if ex.status != http.StatusServiceUnavailable || !strings.Contains(string(ex.body), "the request took longer than 50ms") {
			t.Errorf("%s while busy: %d %s, want 503", path, ex.status, ex.body)
		}
	}
	s.release(small)
	if ex := do(t, ts, "POST", "/v1/compress", body, true); ex.status != http.StatusOK {
		t.Errorf("after the slot is free: %d %s", ex.status, ex.body)
	}
}

// TestYieldCPU checks that with Config.YieldCPU every request that compresses offers its
// core once after its turn, on each compressing path, and that without it none does.
func TestYieldCPU(t *testing.T) {
	var n atomic.Int64
	yieldCPU = func() { n.Add(1) }
	defer func() { yieldCPU = osYield }()
	for _, on := range []bool{true, false} {
		n.Store(0)
		s, err := New(Config{Engine: servicetest.Engine(t), Index: index(t), YieldCPU: on})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(s.Handler())
		requests := []struct{ method, path, body string }{
			{"POST", "/v1/compress", `{"id":"y","text":"Dogs bark loudly at night.","query":["dogs"],"budget":10}`},
			{"POST", "/v1/snippets", `{"document":"Dogs bark.","query":["dogs"],"budget":6}`}, // "Dogs …"
			{"GET", "/v1/search?q=dogs", ""},
		}
		for _, r := range requests {
			if ex := do(t, ts, r.method, r.path, r.body, true); ex.status != http.StatusOK {
				t.Errorf("%s %s: %d %s", r.method, r.path, ex.status, ex.body)
			}
		}
		ts.Close()
		want := int64(0)
		if on {
			want = int64(len(requests))
		}
		if got := n.Load(); got != want {
			t.Errorf("YieldCPU %t: %d yields for %d requests, want %d", on, got, len(requests), want)
		}
	}
}
