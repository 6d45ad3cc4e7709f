package qsc

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/method/runs"
)

var (
	sharedOnce sync.Once
	sharedEng  *Engine
	sharedErr  error
)

// sharedEngine returns one Engine for the whole test binary (the fuzz workers and the
// hostile-input tests), so that the models are loaded once.
func sharedEngine(t testing.TB) *Engine {
	t.Helper()
	sharedOnce.Do(func() { sharedEng, sharedErr = New() })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedEng
}

// fuzzMethods are the methods a fuzz input picks from: every method (fixed positions, so
// that the seeds keep their method), the default, an evaluation-only and an unknown name.
var fuzzMethods = [8]string{"lr", "ablated", "random", "ilp", "no-such-method", "nn", "", baseline.NameOracle}

// fuzzRequest builds a request from fuzz arguments. sel picks the method (bits 0–2: one of
// fuzzMethods), the form of the sentence (bit 3: tokens split at
// white space instead of text), the form of the query (bit 4: one query id per byte of
// query, signed, so out-of-range and repeated ids occur, instead of terms separated by
// "|"; an empty query is an empty list), whether to explain (bit 5), whether the budget
// counts the display (bit 6) and whether to decode nested (bit 7).
func fuzzRequest(text, query string, budget int, sel uint8) (*Request, bool) {
	req := &Request{Budget: budget, Method: fuzzMethods[sel&7]}
	if sel&8 != 0 {
		req.Tokens = append([]string{}, strings.Fields(text)...)
	} else {
		req.Text = text
	}
	switch {
	case sel&16 != 0:
		req.QueryIDs = []int{}
		for i := range len(query) {
			req.QueryIDs = append(req.QueryIDs, int(int8(query[i])))
		}
	case query == "":
		req.Query = []string{}
	default:
		req.Query = strings.Split(query, "|")
	}
	if sel&64 != 0 {
		req.BudgetCounts = BudgetDisplay
	}
	if sel&128 != 0 {
		req.Decoding = DecodingNested
	}
	return req, sel&32 != 0
}

// checkResult checks a successful compression: kept ids ascending, distinct and in range;
// Q ⊆ C; ℓ(C) ≤ b; the compression spells the kept forms, in order, with only separators
// between them, and with a display budget the ellipsis rendering fits too; the offsets of a
// text request give the forms; explained steps accept only kept tokens.
func checkResult(t *testing.T, req *Request, res *Result) {
	t.Helper()
	n := len(res.Sentence.Tokens)
	for i, id := range res.Kept {
		if id < 1 || id > n || i > 0 && res.Kept[i-1] >= id {
			t.Fatalf("kept %v: not ascending ids in 1..%d", res.Kept, n)
		}
	}
	for _, q := range res.Query {
		if !slices.Contains(res.Kept, q) {
			t.Fatalf("query token %d is not kept: Q = %v, C = %v", q, res.Query, res.Kept)
		}
	}
	if l := utf8.RuneCountInString(res.Compression); l > req.Budget {
		t.Fatalf("ℓ(C) = %d > b = %d: %q", l, req.Budget, res.Compression)
	}
	forms := make([]string, len(res.Kept))
	for i, id := range res.Kept {
		forms[i] = res.Sentence.Tokens[id-1].Form
	}
	if got := strings.Join(forms, ""); unseparated(got) != unseparated(res.Compression) {
		t.Fatalf("compression %q does not spell the kept forms %q", res.Compression, forms)
	}
	if l := utf8.RuneCountInString(res.Ellipsis()); req.BudgetCounts == BudgetDisplay && l > req.Budget {
		t.Fatalf("display budget: the ellipsis rendering %q is %d > b = %d", res.Ellipsis(), l, req.Budget)
	}
	if req.Text != "" {
		for i, tok := range res.Sentence.Tokens {
			if tok.Start < 0 || tok.End > len(req.Text) || tok.Start > tok.End || req.Text[tok.Start:tok.End] != tok.Form {
				t.Fatalf("token %d %q: offsets [%d, %d) do not give the form", i+1, tok.Form, tok.Start, tok.End)
			}
		}
	}
	for _, st := range res.Steps {
		if st.Accepted && !slices.Contains(res.Kept, st.Token) {
			t.Fatalf("step accepted token %d, which is not kept", st.Token)
		}
	}
}

// unseparated returns s without white space, control and format characters (the
// separators that renderings collapse).
func unseparated(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}

// FuzzDo checks that Engine.Do, on arbitrary text or tokens, query terms or ids, budgets
// and methods, never panics and either returns an error wrapping ErrBadRequest,
// ErrInfeasible or ErrUnknownMethod, or a compression that keeps the query (Q ⊆ C) and
// fits the budget (ℓ(C) ≤ b). Seeds are in testdata/fuzz/FuzzDo.
//
//	go test -run '^$' -fuzz '^FuzzDo$' -fuzztime 10m -parallel 1 .
func FuzzDo(f *testing.F) {
	f.Add("Police in Syracuse arrested two men on Tuesday.", "Syracuse|police", 30, uint8(0))
	f.Fuzz(func(t *testing.T, text, query string, budget int, sel uint8) {
		req, explain := fuzzRequest(text, query, budget, sel)
		res, err := sharedEngine(t).Do(context.Background(), req, explain)
		if err != nil {
			if !errors.Is(err, ErrBadRequest) && !errors.Is(err, ErrInfeasible) && !errors.Is(err, ErrUnknownMethod) {
				t.Fatalf("untyped error: %v", err)
			}
			if res != nil {
				t.Fatalf("a result with the error %v", err)
			}
			return
		}
		checkResult(t, req, res)
	})
}

// FuzzWeigh checks Weigh on the requests of FuzzDo with sets of its sentence's tokens
// drawn from the input (windows, and ids outside the sentence): it never panics, returns
// one Terms a set when a display was chosen, and the chosen display, when the rules allow
// it, scores at least every other set they allow.
func FuzzWeigh(f *testing.F) {
	f.Add("Police in Syracuse arrested two men on Tuesday after a long investigation into burglaries.", "Syracuse|burglaries", 60, uint8(64), uint16(0x0305))
	f.Fuzz(func(t *testing.T, text, query string, budget int, sel uint8, win uint16) {
		req, explain := fuzzRequest(text, query, budget, sel)
		a, b := int(win&0xff), int(win>>8)
		alts := [][]int{{}, {-1, 0, 1 << 20}}
		for s := 1; s <= min(a, 64); s++ {
			var w []int
			for v := s; v <= s+b%32; v++ {
				w = append(w, v)
			}
			alts = append(alts, w)
		}
		res, terms, err := sharedEngine(t).Weigh(context.Background(), req, explain, alts)
		if err != nil {
			if res != nil || terms != nil {
				t.Fatalf("a result or terms with the error %v", err)
			}
			return
		}
		checkResult(t, req, res)
		if terms == nil {
			return
		}
		if len(terms) != len(alts)+1 {
			t.Fatalf("%d terms for %d sets", len(terms), len(alts)+1)
		}
		pr := runs.Default()
		if best := terms[0]; best.Allowed() {
			for i, o := range terms[1:] {
				if o.Allowed() && o.Score(pr) > best.Score(pr)+1e-6 {
					t.Fatalf("set %v scores %g, more than the chosen %v's %g", alts[i], o.Score(pr), res.Kept, best.Score(pr))
				}
			}
		}
		if terms[1].Allowed() || terms[2].Allowed() {
			t.Fatalf("an empty set is allowed: %+v, %+v", terms[1], terms[2])
		}
	})
}
