// Package runs is the display step of the Snippet decoding, shared by every method: the
// best display of a compression C* as runs of consecutive tokens, under the display
// rules of wellformed.Runs and the weights of Params (docs/snippets.md, "The objective").
//
// A method computes its compression C* (the ILP its exact optimum, VERTEX ADDITION its
// compression); a Program then shows it: one exact dynamic program over token positions
// and width, which allocates nothing once its memory has grown. The method.Compressor
// calls it for every method, through method.DisplayStep.
package runs

import (
	"math"
	"slices"

	"github.com/qsc-nlp/qsc/internal/core/display"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/wellformed"
)

// The snippet decoding: a method's compression, shown as the best display.
//
// A reader sees a snippet as runs of kept words between "…" marks. The snippet decoding
// has one objective over the compressions C ⊇ Q, seen as runs R_1 < … < R_k (stretches
// of consecutive tokens, with at least one dropped token between two of them):
//
//	maximise  Σ_{v∈C} value(v) − Gap·(k − 1) − Dangle·#(runs that end dangling)
//	          − Short·#(short runs) + Edge·([C starts at S's start] + [R_k ends at S's end
//	          and holds a query word, or Q holds none])
//	value(v)  = Keep·w_v·[v ∈ C*] + Fill·w_v·near(v) + Carrier·[v carries the point]
//
// subject to Q ⊆ C, the display rules of wellformed.Runs for every run, and the width
// Σ_{v∈C} w_v plus the width of the cuts at most b + 1, where w_v = ℓ(v) + 1 and:
//
//   - C*(b) is the method's compression under the budget and the well-formedness rules
//     (the ILP's exact optimum, ilp.TreeDP.OptimizeFit, or the compression of VERTEX
//     ADDITION, va.Compressor.Snippet): the words the model wants, each worth its
//     characters;
//   - near(v) falls from 1 next to a token of C* ∪ Q to NearFloor at FillReach tokens
//     away, so the room left is filled with the words around the kept ones first, as a
//     window would, and a new run is started only where it is worth its cut;
//   - the carriers are the words that hold a kept clause's point (Program.carriers):
//     numbers that modify a noun, years, hedges, the subjects of the query's clause and
//     of the clauses above it, and the verbs of the clauses that frame it ("X said",
//     "they hope", "tried to");
//   - a cut is 2 characters wider than the space it replaces (" … " against " ") when
//     the budget counts the display (a leading or trailing "…" too), and free when it
//     counts the tokens;
//   - a run ends dangling on a word that leans on a cut one (wellformed.Runs.Dangles:
//     "for which they …", "a place that sells …", a query term before its cut object:
//     "eventually appointed …"), or before the object or complement of a word it holds
//     (wellformed.Runs.RunDangles: "… require people who create LLMs …");
//   - a short run has fewer than three words and no query term, or is one query term
//     that does not read alone (wellformed.Runs.Alone: "… lazy …", where "… Babstock …"
//     names something);
//   - sentence-final punctuation that the rules leave free may follow the last run
//     across a cut, as the compressions of the corpus keep it (the ellipsis rendering
//     leaves it out).
//
// The display rules are constraints, so an output cannot show a gap inside a phrase or a
// name, a one-word island that is not a query term, or a run that ends on a function
// word or a comma. When the budget counts the tokens, the budget of the plain rendering,
// where no "…" shows a cut, every inner cut must also be clean (Params.Clean,
// wellformed.Cuts): it drops whole subtrees and no subject, object or function word of a
// kept word, so that the runs joined by spaces read as a sentence; when no display has
// clean cuts only, one run holding Q that may start after the function words and
// modifiers its first words need (wellformed.Runs.Lead), and when none fits either, any
// cut is allowed. When the rules and the budget leave no solution for
// (Q, b), the rules yield to the query: the result is C*, under the well-formedness rules alone (which
// yield for Q as they always did), and Rules.MarkYielded records it for the evaluation.
//
// The program is a dynamic program over token positions and width: B[e][c], the best
// score of runs whose last one ends at e with width c, and G[i][c], the best with token
// i dropped after at least one run. Each allowed run [s, e] is met once, its value and
// width accumulated as e grows; the scan from s stops when a token needs one before s
// or the run outgrows the budget. The work is O(Σ_runs (b + 1)), at most O(n·m·b) for m
// the most tokens that fit in b, and nothing is allocated once the memory has grown.

// Params are the weights of the snippet decoding's objective, in characters.
type Params struct {
	// Keep is the value of each character of the method's compression C*.
	Keep float64
	// Gap is the cost of each inner cut, a "…" between two runs.
	Gap float64
	// Fill is the value of a character next to C* or Q, falling to NearFloor of it at
	// FillReach tokens.
	Fill float64
	// Carrier is the bonus of each token that carries a kept clause's point.
	Carrier float64
	// Short is the cost of a run of fewer than three words without a query term, a
	// fragment that says little on its own ("… very important …"), and of a run that is
	// one query term that does not read alone ("… lazy …"; wellformed.Runs.Alone).
	Short float64
	// Edge is the bonus of a snippet that starts where the sentence starts, and again of
	// one that ends where it ends, with no "…" there, by a last run that holds a query
	// word (or for a query of none): not by a run reached across a cut only to meet the
	// end (Program.endsEdge).
	Edge float64
	// Dangle is the cost of a run that ends dangling (wellformed.Runs.RunDangles), unless
	// the sentence ends there.
	Dangle float64
	// Display charges each cut its width and counts the spaces as the text shows them:
	// set when the budget counts the display (method.Input.Fits is set).
	Display bool
	// Clean allows only clean inner cuts (wellformed.Cuts): each drops whole subtrees
	// and no word that a kept one needs, so that the runs joined by spaces read as a
	// sentence; and sentence-final punctuation follows the last run across a cut only
	// when that cut is clean. Set when the budget counts the tokens, the plain
	// rendering's budget, where no "…" shows a cut (method.Input.Fits is not set). When
	// no display has clean cuts only, one run that may start after words it needs
	// (wellformed.Runs.Lead); when none fits either, any cut. Show reads it; the nested
	// display's sequence does not.
	Clean bool
}

// Default returns the weights of the snippet decoding, chosen by blind reading tests and
// the validation split (docs/snippets.md, docs/reading.md), with Display false.
func Default() Params {
	return Params{Keep: 1, Gap: 15, Fill: 0.5, Carrier: 6, Dangle: 8, Short: 6, Edge: 6}
}

// FillReach is the distance in tokens from C* or Q at which the value of filling has
// fallen to NearFloor of its value next to them: a snippet is filled with the words
// nearest the ones it keeps first, and a box is filled as far as it reaches.
const (
	FillReach = 8
	NearFloor = 0.25
)

// MaxCells bounds the tables of the run program, (n + 1)·(b + 2) cells of 21 bytes: a
// sentence of a thousand tokens under a budget of a thousand characters. Beyond it the
// snippet decoding returns the method's compression C* as it is (docs/snippets.md).
const MaxCells = 1 << 20

// negInf is the score of no solution.
var negInf = math.Inf(-1)

// Input is the view of one problem that the run program reads: (S, Q, b) with its parse,
// its token lengths and its well-formedness rules. It is read, never written, except
// that Show may mark the rules as yielded.
type Input struct {
	// Sentence is S, parsed: every token has Head and Rel; its offsets, when set, place
	// the spaces of the display.
	Sentence *syntax.Sentence
	// Tree is the dependency tree of Sentence.
	Tree *syntax.Tree
	// Lens[i] is the length of token i+1 in runes, ≥ 0, as the budget counts it.
	Lens []int
	// Query is Q: distinct token ids in 1..N; it may be empty.
	Query []int
	// Budget is b: in characters of the tokens joined by spaces, or of the display when
	// Params.Display is set.
	Budget int
	// Rules are the well-formedness rules computed for this sentence, lengths, query
	// and budget; they are required.
	Rules *wellformed.Rules
}

// Program is the run program's reusable memory: it shows a compression as the best
// display (Show). The zero value is ready; it is not safe for concurrent use, and once
// its memory has grown to the largest problem it allocates nothing.
type Program struct {
	u       wellformed.Runs
	val     []float64 // value(v)
	w       []int
	lpre    []int // lpre[i] = Σ_{v≤i} ℓ(v)
	spre    []int // spre[i] = Σ_{v≤i} sp(v): 1 where a space comes before v as shown
	qBefore []int // qBefore[i]: the last query token ≤ i, 0 if none
	wordPre []int // wordPre[i]: words ≤ i
	qWords  int   // the query's words (endsEdge)
	fixPre  []int // fixPre[i]: tokens ≤ i that no single run may leave out before it (not Runs.Lead)
	best    []float64
	from    []int32 // B's run start; negative: the first run
	gap     []float64
	hiC     []int // the largest width with a finite entry, per row of B (index e) and G (n+1+i)
	loC     []int // the smallest, likewise
	rowSet  []bool
	rowTop  []float64 // the best entry of each row of B
	front   []int32   // the undominated widths of the G row being read
	kept    []int
	carrier []bool
	opt     []bool      // C*
	keepv   []float64   // the Keep term's share of each token, when not nil (prepare's keep)
	set     []bool      // the set that Measure weighs
	near    []float64   // near(v)
	ns      nestedState // the nested display (Nested)
	cuts    wellformed.Cuts
	// finClean[s]: the stretch [s, final−1] before the final punctuation is a clean cut
	// (program's one scan of Cuts, instead of one scan for every end).
	finClean []bool
	// quoting is set while Show solves under the display's width: a run that starts or
	// ends inside a quotation is charged qw for the quote mark that Show adds there.
	quoting bool
	qw      []int  // qw[v]: 1 when v lies inside a quotation and quoting is set, else 0
	shown   []bool // scratch: the tokens of a display with its quotations' marks (withQuotes)
	quoted  []int  // withQuotes' result
}

// nearness sets d.near from C* and Q, in two passes.
func (d *Program) nearness(n int) {
	d.near = reuse.Resize(d.near, n+1)
	dist := FillReach
	for v := 1; v <= n; v++ {
		if d.opt[v] || d.u.Query(v) {
			dist = 0
		} else {
			dist = min(dist+1, FillReach)
		}
		d.near[v] = float64(dist)
	}
	dist = FillReach
	for v := n; v >= 1; v-- {
		if d.opt[v] || d.u.Query(v) {
			dist = 0
		} else {
			dist = min(dist+1, FillReach)
		}
		d.near[v] = max(NearFloor, 1-min(d.near[v], float64(dist))/FillReach)
	}
}

// prepare sets d's per-token tables for p under pr: the display rules, the widths and
// prefix counts, the carriers, near(v) from d.opt (the tokens that Fill is near, with Q)
// and value(v), whose Keep term is d.opt's, or keep[v]·Keep·w_v when keep is not nil. It
// returns the capacity K that the width of the shown runs may not exceed and the width
// of a cut beyond its space, or ok false when p is inconsistent (sentence, tree, lengths
// and rules of different sizes, or a negative budget).
func (d *Program) prepare(p *Input, pr Params, keep []float64) (K, cut int, ok bool) {
	t, s := p.Tree, p.Sentence
	if t == nil || s == nil || p.Rules == nil {
		return 0, 0, false
	}
	n := t.N()
	if n == 0 || s.Len() != n || len(p.Lens) != n || p.Rules.N() != n || p.Budget < 0 {
		return 0, 0, false
	}
	d.u.Reset(s, t, p.Rules, p.Query)
	if pr.Clean {
		d.u.ResetCuts(s, t)
	}
	u := &d.u
	d.val = reuse.Resize(d.val, n+1)
	d.w, d.lpre, d.spre = zeroed(d.w, n+1), zeroed(d.lpre, n+1), zeroed(d.spre, n+1)
	d.qBefore, d.wordPre, d.fixPre = zeroed(d.qBefore, n+1), zeroed(d.wordPre, n+1), zeroed(d.fixPre, n+1)
	d.qWords = 0
	d.keepv = keep
	d.carriers(s, t, p.Rules, p.Query)
	d.nearness(n)
	d.qw = zeroed(d.qw, n+1)
	if d.quoting && pr.Display {
		for v := 1; v <= n; v++ {
			if o, _ := u.Quotation(s, v); o != 0 {
				d.qw[v] = 1
			}
		}
	}
	for v := 1; v <= n; v++ {
		d.w[v] = p.Lens[v-1] + 1
		d.lpre[v] = d.lpre[v-1] + p.Lens[v-1]
		d.spre[v] = d.spre[v-1] + spaceBefore(s, v, pr.Display)
		d.qBefore[v] = d.qBefore[v-1]
		if u.Query(v) {
			d.qBefore[v] = v
		}
		d.wordPre[v] = d.wordPre[v-1]
		if u.Word(v) {
			d.wordPre[v]++
			if u.Query(v) {
				d.qWords++
			}
		}
		if pr.Clean {
			d.fixPre[v] = d.fixPre[v-1]
			if !u.Lead(v) {
				d.fixPre[v]++
			}
		}
		x := pr.Fill * float64(d.w[v]) * d.near[v]
		switch {
		case keep != nil:
			x += pr.Keep * float64(d.w[v]) * keep[v]
		case d.opt[v]:
			x += pr.Keep * float64(d.w[v])
		}
		if d.carrier[v] {
			x += pr.Carrier
		}
		d.val[v] = x
	}
	K, cut = d.limits(p, pr)
	return K, cut, true
}

// limits returns the capacity K that the width of the shown runs may not exceed and the
// width of a cut beyond its space, for p under pr, from the widths of the last prepare.
func (d *Program) limits(p *Input, pr Params) (K, cut int) {
	if !pr.Display {
		return capacity(p.Lens, p.Budget), 0
	}
	// The cuts' widths may need more than the sentence: at most one before, after and
	// between every two tokens.
	cut = 2
	n := len(p.Lens)
	return min(p.Budget, d.width(1, n)+cut*(n+1)) + 1, cut
}

// solve returns the best compression of p under pr, given the method's compression opt
// (C*), or ok false when the display rules and the budget leave none. It also reports
// false, with big true, when the tables would exceed MaxCells. The slice is d's memory.
func (d *Program) solve(p *Input, pr Params, opt []int) (kept []int, ok, big bool) {
	if p.Tree == nil || p.Sentence == nil || p.Rules == nil {
		return nil, false, false
	}
	d.setOpt(p.Tree.N(), opt)
	K, cut, ok := d.prepare(p, pr, nil)
	if !ok {
		return nil, false, false
	}
	if pr.Clean {
		// Clean cuts first; when they leave no display, one run holding the query, which
		// may start inside a phrase; then any cut the rules allow. All over the same
		// tables (prepare depends on none of them).
		for _, mode := range [...]cutMode{cleanCuts, oneRun} {
			if kept, ok, big = d.program(p, pr, K, cut, mode); ok || big {
				return kept, ok, big
			}
		}
	}
	return d.program(p, pr, K, cut, anyCut)
}

// cutMode is the inner cuts that the run program allows.
type cutMode uint8

const (
	// anyCut allows every inner cut that the display rules allow.
	anyCut cutMode = iota
	// cleanCuts allows clean inner cuts only (wellformed.Cuts).
	cleanCuts
	// oneRun allows no inner cut: the display is one run, which may start after a
	// dropped word that a word of it needs ("error of …" without "the common"): in
	// plain words a run that starts inside a phrase reads as a fragment, where an
	// unclean inner cut joins two into a false sentence. The words left out must all
	// be such that the point survives them (wellformed.Runs.Lead): never a part of a
	// name, a number, a negation or a "whether".
	oneRun
)

// setOpt sets d.opt to the set opt (C*) of a sentence of n tokens; ids outside 1..n are
// ignored.
func (d *Program) setOpt(n int, opt []int) {
	d.opt = reuse.Resize(d.opt, n+1)
	clear(d.opt)
	for _, v := range opt {
		if v >= 1 && v <= n {
			d.opt[v] = true
		}
	}
}

// bestDisplay is solve with any cut the rules allow, for the values that prepare sets
// from d.opt (of p's size) and keep, or ok false when there is none (or p is
// inconsistent). The slice is d's memory.
func (d *Program) bestDisplay(p *Input, pr Params, keep []float64) (kept []int, ok, big bool) {
	K, cut, ok := d.prepare(p, pr, keep)
	if !ok {
		return nil, false, false
	}
	return d.program(p, pr, K, cut, anyCut)
}

// program is the run program over the tables of the last prepare for p under pr, whose
// capacity and cut width are K and cut: the display of the best objective under the
// display rules of d.u and the budget, with the inner cuts that mode allows, or ok false
// when there is none, with big true when the tables would exceed MaxCells. It writes
// d.best, d.from, d.gap and their row bounds, never the per-token tables, so it may run
// again on the same prepare. The slice is d's memory.
func (d *Program) program(p *Input, pr Params, K, cut int, mode cutMode) (kept []int, ok, big bool) {
	n := p.Tree.N()
	u := &d.u
	row := K + 1
	if (n+1)*row > MaxCells {
		return nil, false, true
	}
	d.best = reuse.Resize(d.best, (n+1)*row)
	d.from = reuse.Resize(d.from, (n+1)*row)
	d.gap = reuse.Resize(d.gap, (n+1)*row)
	d.hiC = reuse.Resize(d.hiC, 2*(n+1))
	d.loC = reuse.Resize(d.loC, 2*(n+1))
	// A row of B is set to −∞ when first written (rowSet), so that it is read anywhere
	// once its hiC ≥ 0; a row of G is written from its loC to its hiC before it is read,
	// and read nowhere else (gapRow).
	d.rowSet = reuse.Resize(d.rowSet, n+1)
	clear(d.rowSet)
	d.rowTop = reuse.Resize(d.rowTop, n+1)
	for i := range d.hiC {
		d.hiC[i], d.loC[i] = -1, row
	}
	lastQ := d.qBefore[n]
	firstB := n + 1 // the first row of B with an entry
	for st := 1; st <= n; st++ {
		// G[st−1]: token st−1 dropped, at least one run before it.
		switch i := st - 1; {
		case i < 2 || mode == oneRun:
			// No row: no run ends before token 1, and one run has no cut.
		case mode == cleanCuts:
			// Only a run from st reads G[st−1] (the forward pass and the read-back
			// alike), and a clean cut needs a row of B before it.
			if u.CanStart(st) && firstB < i {
				d.cleanRow(p.Tree, i, n, row, firstB)
			}
		case !u.Query(i):
			d.gapRow(i, n, row)
		}
		if !u.CanStart(st) {
			continue
		}
		first := d.qBefore[st-1] == 0 // no query token before: this run may be the first
		lead := 0
		if d.wordPre[st-1] > 0 {
			lead = cut
		}
		var gRow []float64
		gLo, gHi := 0, -1
		if st >= 3 && mode != oneRun {
			gRow, gLo, gHi = d.gap[(st-1)*row:st*row], d.loC[n+1+st-1], d.hiC[n+1+st-1]
		}
		if !first && gHi < 0 {
			continue
		}
		// The widths of G[st−1] that some smaller width does not beat: a run after a
		// dominated state is never better than after the state that dominates it.
		// The narrowest run from st leaves room after the widths up to K − cut − its
		// width only.
		front, top := d.front[:0], negInf
		for c0, last := gLo, min(gHi, K-cut-d.width(st, st)); c0 <= last; c0++ {
			if x := gRow[c0]; x > top {
				top = x
				front = append(front, int32(c0))
			}
		}
		d.front = front
		val, lo, hi, words, nq, word := 0.0, st, st, 0, 0, 0
		for e := st; e <= n; e++ {
			val += d.val[e]
			lo, hi = min(lo, u.Lo(e)), max(hi, u.Hi(e))
			if lo < st && (mode != oneRun || !d.leads(lo, st)) {
				break // a token of the run needs one before it: so will every longer run
			}
			if u.Word(e) {
				words++
				word = e
				if u.Query(e) {
					nq++
				}
			}
			W := d.width(st, e)
			if W > K {
				break
			}
			if hi > e || !u.CanEnd(e) || words == 0 || (words == 1 && nq == 0) {
				continue
			}
			v := d.runTerms(val, &pr, st, e, n, words, nq, word)
			b, from := d.best[e*row:(e+1)*row], d.from[e*row:(e+1)*row]
			if !d.rowSet[e] {
				for c := range b {
					b[c] = negInf
				}
				d.rowSet[e], d.rowTop[e] = true, negInf
				firstB = min(firstB, e)
			}
			loE, hiE, topE := d.loC[e], d.hiC[e], d.rowTop[e]
			if e == n && d.endsEdge(nq) {
				v += pr.Edge
			}
			if first && W+lead <= K {
				v1 := v
				if st == 1 {
					v1 += pr.Edge
				}
				if c := W + lead; v1 > b[c] {
					b[c], from[c] = v1, int32(-st)
					loE, hiE, topE = min(loE, c), max(hiE, c), max(topE, v1)
				}
			}
			for _, c0 := range front {
				x := gRow[c0]
				c := int(c0) + W + cut
				if c > K {
					break
				}
				if y := x + v - pr.Gap; y > b[c] {
					b[c], from[c] = y, int32(st)
					loE, hiE, topE = min(loE, c), max(hiE, c), max(topE, y)
				}
			}
			d.loC[e], d.hiC[e], d.rowTop[e] = loE, hiE, topE
		}
	}
	// The best end: no query token after it, the trailing cut fits. Sentence-final
	// punctuation that the rules leave free may follow the last run across a cut (the
	// ellipsis rendering leaves it out; the plain one shows the sentence's end).
	final := d.finalPunct(p.Rules, n)
	if final != 0 && mode != anyCut {
		// The clean cuts that end before the final punctuation, in one scan: [s, final−1]
		// is clean iff the scan meets s (Runs.Clean), so the loop below asks in O(1).
		d.finClean = reuse.Resize(d.finClean, n+1)
		clear(d.finClean)
		d.cuts.Begin(u, p.Tree, final-1)
		for s := d.cuts.Next(); s != 0; s = d.cuts.Next() {
			d.finClean[s] = true
		}
	}
	bestV, bestE, bestC, addFinal := negInf, 0, 0, false
	for e := max(lastQ, 1); e <= n; e++ {
		trail := 0
		if d.wordPre[n] > d.wordPre[e] {
			trail = cut
		}
		// Edge at the sentence's end is in the row's entries (endsEdge).
		finHi := -1 // the widths after which the final punctuation fits
		if final != 0 && e < final-1 && (mode == anyCut || d.finClean[e+1]) {
			finHi = K - trail - p.Lens[final-1] - (d.spre[final] - d.spre[final-1])
		}
		if top := d.rowTop[e]; !d.rowSet[e] || top < bestV && (finHi < 0 || top+d.val[final] <= bestV) {
			continue // no entry of the row can win, nor tie
		}
		for c, y := range d.best[e*row : e*row+min(d.hiC[e], K-trail)+1] {
			// −∞ never wins: it equals bestV only before any finite entry, which wins.
			if y > bestV || (y == bestV && c > bestC) {
				bestV, bestE, bestC, addFinal = y, e, c, false
			}
			if c <= finHi {
				if x := y + d.val[final]; x > bestV {
					bestV, bestE, bestC, addFinal = x, e, c, true
				}
			}
		}
	}
	if bestV == negInf {
		return nil, false, false
	}
	// Read the runs back, right to left.
	d.kept = d.kept[:0]
	if addFinal {
		d.kept = append(d.kept, final)
	}
	e, c := bestE, bestC
	for {
		st := int(d.from[e*row+c])
		firstRun := st < 0
		if firstRun {
			st = -st
		}
		for v := e; v >= st; v-- {
			d.kept = append(d.kept, v)
		}
		if firstRun {
			break
		}
		c -= d.width(st, e) + cut
		if mode == cleanCuts {
			s := d.cleanFrom(p.Tree, st-1, row, c)
			if s == 0 {
				return nil, false, false // unreachable: cleanRow took the entry from one
			}
			e = s - 1
			continue
		}
		i := st - 1
		for !d.gapFromB(i, n, row, c) {
			i--
		}
		e = i - 1
	}
	for i, j := 0, len(d.kept)-1; i < j; i, j = i+1, j-1 {
		d.kept[i], d.kept[j] = d.kept[j], d.kept[i]
	}
	return d.kept, true, false
}

// endsEdge reports whether a run that ends the sentence, holding nq query words, earns
// Edge: when it holds a query word, or the query has none. A run reached across a cut
// only to meet the sentence's end earns nothing for it ("… by chartering a flight one
// way." after "Even the mainland school groups that fly there for school camps"): such a
// jump reads as if it went on from the run before.
func (d *Program) endsEdge(nq int) bool { return nq > 0 || d.qWords == 0 }

// leads reports whether the tokens lo … st−1 may all be left out before a display's only
// run (wellformed.Runs.Lead).
func (d *Program) leads(lo, st int) bool { return d.fixPre[st-1] == d.fixPre[lo-1] }

// gapRow computes row i of G (of a sentence of n tokens, rows of row widths), token i
// dropped after at least one run: the better of B[i−1] (a run ends at i−1) and G[i−1] (i−1
// dropped too), width by width, over the widths between the smallest and the largest
// finite entry of the two (loC, hiC), which are G[i]'s. A row of B is −∞ wherever it is
// not finite (rowSet), but a row of G is written only between its loC and hiC: where
// G[i−1] is not, B[i−1] is taken alone. Which one won is not stored: the read-back asks
// gapFromB.
func (d *Program) gapRow(i, n, row int) {
	g, gp, bp := d.gap[i*row:(i+1)*row], d.gap[(i-1)*row:i*row], d.best[(i-1)*row:i*row]
	loB, hiB, loG, hiG := d.loC[i-1], d.hiC[i-1], d.loC[n+1+i-1], d.hiC[n+1+i-1]
	switch {
	case hiG < 0 && hiB < 0:
		return // no run before i
	case hiG < 0:
		copy(g[loB:hiB+1], bp[loB:hiB+1])
		d.loC[n+1+i], d.hiC[n+1+i] = loB, hiB
		return
	case hiB < 0:
		copy(g[loG:hiG+1], gp[loG:hiG+1])
		d.loC[n+1+i], d.hiC[n+1+i] = loG, hiG
		return
	}
	lo, hi := min(loB, loG), max(hiB, hiG)
	copy(g[lo:loG], bp[lo:loG]) // empty unless B starts first: −∞ in G[i−1] there
	both := g[loG : hiG+1]
	for c, y := range gp[loG : hiG+1] {
		both[c] = max(bp[loG+c], y)
	}
	if hiB > hiG {
		copy(g[hiG+1:hiB+1], bp[hiG+1:hiB+1])
	}
	d.loC[n+1+i], d.hiC[n+1+i] = lo, hi
}

// cleanRow computes row i of G (of a sentence of n tokens, rows of row widths) when
// only clean cuts are allowed: token i is the last of a clean cut [s, i] after a run
// that ends at s − 1, so the row is the best of B[s−1] over those s, width by width,
// written between its loC and hiC as gapRow writes it. The rows of B before firstB are
// empty, so the scan stops there. It costs O(i) steps of the scan and O(b) for each clean
// cut.
func (d *Program) cleanRow(t *syntax.Tree, i, n, row, firstB int) {
	g := d.gap[i*row : (i+1)*row]
	lo, hi := row, -1
	d.cuts.Begin(&d.u, t, i)
	for s := d.cuts.Next(); s > firstB; s = d.cuts.Next() {
		e := s - 1
		if d.hiC[e] < 0 {
			continue
		}
		bp := d.best[e*row : (e+1)*row]
		loB, hiB := d.loC[e], d.hiC[e]
		switch {
		case hi < 0:
			copy(g[loB:hiB+1], bp[loB:hiB+1])
			lo, hi = loB, hiB
			continue
		case loB < lo:
			for c := loB; c < lo; c++ {
				g[c] = negInf
			}
			lo = loB
		}
		for c := hi + 1; c <= hiB; c++ {
			g[c] = negInf
		}
		hi = max(hi, hiB)
		for c := loB; c <= hiB; c++ {
			g[c] = max(g[c], bp[c])
		}
	}
	d.loC[n+1+i], d.hiC[n+1+i] = lo, hi
}

// cleanFrom returns the start s of the clean cut [s, i] whose B[s−1] gave entry c of row i
// of G under cleanRow, the read-back's step across a clean cut, or 0 if none did.
func (d *Program) cleanFrom(t *syntax.Tree, i, row, c int) int {
	want := d.gap[i*row+c]
	d.cuts.Begin(&d.u, t, i)
	for s := d.cuts.Next(); s != 0; s = d.cuts.Next() {
		if e := s - 1; d.loC[e] <= c && c <= d.hiC[e] && d.best[e*row+c] == want {
			return s
		}
	}
	return 0
}

// gapFromB reports whether entry c of row i of G (of a sentence of n tokens, rows of row
// widths), a finite one, is B[i−1]'s (a run ends at i−1) rather than G[i−1]'s (i−1 is
// dropped too): whether B[i−1][c] is the greater, −∞ where a row has no entry.
func (d *Program) gapFromB(i, n, row, c int) bool {
	x, y := negInf, negInf
	if d.hiC[i-1] >= 0 {
		x = d.best[(i-1)*row+c]
	}
	if j := n + 1 + i - 1; d.loC[j] <= c && c <= d.hiC[j] {
		y = d.gap[(i-1)*row+c]
	}
	return x > y
}

// finalPunct returns n when the last token (of n, after prepare) is sentence-final
// punctuation that the rules r leave free, which may follow the last run across a cut;
// 0 otherwise.
func (d *Program) finalPunct(r *wellformed.Rules, n int) int {
	u := &d.u
	if !u.Word(n) && !u.Query(n) && r.Binding(n) == wellformed.Free && u.Lo(n) == n && u.Hi(n) == n {
		return n
	}
	return 0
}

// runTerms returns x, the value of a run's tokens, with the terms of the objective that
// the run [s, e] pays as a run: less Dangle when it ends dangling (wellformed.Runs.RunDangles)
// with words after it (of n tokens), less Short when it is short (short: words words, nq
// of them query terms, word its last word, read only when words is 1). It is the one
// statement of the per-run terms, read by the run program and the nested display alike;
// Edge, which depends on where the run stands among the others, is each caller's. The
// terms are subtracted from x in this order, so that every caller's sums are the same to
// the last bit. It is called in the run program's inner loop: it stays small enough to be
// inlined, costs O(1) and allocates nothing.
func (d *Program) runTerms(x float64, pr *Params, s, e, n, words, nq, word int) float64 {
	if d.u.RunDangles(s, e) && d.wordPre[n] > d.wordPre[e] {
		x -= pr.Dangle
	}
	if d.short(words, nq, word) {
		x -= pr.Short
	}
	return x
}

// short reports whether a run of words words, nq of them query terms, word its last word,
// is a short run, which pays Params.Short: fewer than three words and no query term, or
// one query term that does not read alone (wellformed.Runs.Alone).
func (d *Program) short(words, nq, word int) bool {
	return words < 3 && nq == 0 || words == 1 && !d.u.Alone(word)
}

// lastWord returns the last word of the run [s, e], 0 if it holds none.
func (d *Program) lastWord(s, e int) int {
	for v := e; v >= s; v-- {
		if d.u.Word(v) {
			return v
		}
	}
	return 0
}

// Show returns what the snippet decoding shows for the compression opt (C*, ascending,
// closed under in.Rules) of in under pr: its best display, the runs that maximise the
// objective of the package under the display rules and the budget. When the display rules
// and the budget leave none (or in is inconsistent: sentence, tree, lengths and rules of
// different sizes, or a negative budget), the rules yield to the query: the result is opt itself, and
// in.Rules.MarkYielded records it. Opt is returned as it is, unmarked, when the tables
// would exceed MaxCells. The slice is d's memory or opt, valid until the next call. It
// costs O(Σ_runs (b + 1)) and allocates nothing once d has grown.
func (d *Program) Show(in *Input, pr Params, opt []int) []int {
	d.quoting = pr.Display
	defer func() { d.quoting = false }()
	kept, ok, big := d.solve(in, pr, opt)
	if !ok && !big {
		// No display under the full rules: the rules yield, first only those that make a
		// list or a clause with "whether" one run (wellformed.Runs.Loose), then all.
		d.u.Loose = true
		kept, ok, big = d.solve(in, pr, opt)
		d.u.Loose = false
		if ok && in.Rules != nil {
			in.Rules.MarkYielded()
		}
	}
	switch {
	case ok && pr.Display:
		return d.withQuotes(in.Sentence, kept)
	case ok:
		return kept
	case !big && in.Rules != nil:
		in.Rules.MarkYielded()
	}
	return opt
}

// width returns the width of the run [s, e] as the budget counts it, with one separator
// before it: its tokens' characters and the spaces between them (as shown when the budget
// counts the display, one between every two tokens otherwise), plus 1; under Show's
// display width, plus 1 for each end of the run that lies inside a quotation, the width
// of the mark that withQuotes shows there when the run does not reach it.
func (d *Program) width(s, e int) int {
	return d.lpre[e] - d.lpre[s-1] + d.spre[e] - d.spre[s] + 1 + d.qw[s] + d.qw[e]
}

// withQuotes returns kept, a display of the sentence s of the last prepare, with the
// marks of every quotation that a kept token lies in (wellformed.Runs.Quotation, and the
// quotations around those): a reader sees that the words are quoted, and whose they are
// not ("“… it is a transistor radio that reaches Tokyo.”", not "… that reaches
// Tokyo."). The run program charged each run that starts or ends inside a quotation the
// mark's width (width), so the display stays within the budget but for the spaces the
// text may have between a mark and its word, which the caller's measure of the display
// catches. The slice is kept or d's memory; O(n).
func (d *Program) withQuotes(s *syntax.Sentence, kept []int) []int {
	if !slices.ContainsFunc(kept, func(v int) bool { return v < len(d.qw) && d.qw[v] != 0 }) {
		return kept
	}
	n := s.Len()
	d.shown = zeroed(d.shown, n+1)
	for _, v := range kept {
		if v >= 1 && v <= n {
			d.shown[v] = true
		}
	}
	for _, v := range kept {
		for o, c := d.u.Quotation(s, v); o != 0 && !(d.shown[o] && d.shown[c]); o, c = d.u.Quotation(s, o) {
			d.shown[o], d.shown[c] = true, true
		}
	}
	d.quoted = d.quoted[:0]
	for v := 1; v <= n; v++ {
		if d.shown[v] {
			d.quoted = append(d.quoted, v)
		}
	}
	return d.quoted
}

// spaceBefore returns 1 when token v (> 1) of s is shown with a space before it: always
// when the budget counts the tokens (shown false), else as the text has it (the
// tokens' offsets), or for tokens without offsets when it does not attach to the word
// before it (display.AttachesLeft).
func spaceBefore(s *syntax.Sentence, v int, shown bool) int {
	if !shown || v == 1 {
		return 1
	}
	prev, tok := &s.Tokens[v-2], &s.Tokens[v-1]
	if prev.End >= 0 && tok.Start >= prev.End {
		if tok.Start > prev.End {
			return 1
		}
		return 0
	}
	if display.AttachesLeft(tok.Form) {
		return 0
	}
	return 1
}

// carriers marks the tokens that carry the point of the query's clause: numbers, hedges,
// the subjects of the query's clause (q's own when q heads it) and of every clause above
// it, and the verbs of the clauses that frame it (a clause whose complement holds the
// query: "X said", "tried to"). With no query, the subject of the main clause. r holds
// the rules of s.
func (d *Program) carriers(s *syntax.Sentence, t *syntax.Tree, r *wellformed.Rules, query []int) {
	n := t.N()
	d.carrier = reuse.Resize(d.carrier, n+1)
	clear(d.carrier)
	for v := 1; v <= n; v++ {
		tok := &s.Tokens[v-1]
		if ((tok.XPOS == "CD" || tok.UPOS == "NUM") && syntax.Universal(tok.Rel) == "nummod") || wellformed.IsYear(tok.Form) || r.Hedge(v) {
			d.carrier[v] = true
		}
	}
	if len(query) == 0 {
		// No query: the point is the main clause's, whose subject a snippet keeps.
		for v := 1; v <= n; v++ {
			if t.Head(v) != 0 {
				continue
			}
			d.markSubjects(s, t, v)
		}
	}
	for _, q := range query {
		if q < 1 || q > n {
			continue
		}
		// From q up: each clause head met marks its subject, q's own when q heads a clause
		// ("Bush was … not associating", q "associating"); a clause reached through a
		// complement marks its verb too.
		prev := 0
		for a, steps := q, 0; a != 0 && steps <= n; a, steps = t.Head(a), steps+1 {
			if prev != 0 {
				switch syntax.Universal(s.Tokens[prev-1].Rel) {
				case "ccomp", "xcomp", "csubj":
					d.carrier[a] = true
				}
			}
			d.markSubjects(s, t, a)
			prev = a
		}
	}
}

// markSubjects marks the subjects of token a (nsubj, csubj, expl) as carriers.
func (d *Program) markSubjects(s *syntax.Sentence, t *syntax.Tree, a int) {
	for _, k := range t.Children(a) {
		switch syntax.Universal(s.Tokens[k-1].Rel) {
		case "nsubj", "csubj", "expl":
			d.carrier[k] = true
		}
	}
}

// zeroed returns s with length n, every element the zero value.
func zeroed[T any](s []T, n int) []T {
	s = reuse.Resize(s, n)
	clear(s)
	return s
}

// capacity is the bound on Σ_{v∈C} (lens[v] + 1) when the budget counts the tokens:
// b + 1, with b capped at the weight of the whole sentence (a larger budget changes
// nothing), so that the tables stay small.
func capacity(lens []int, b int) int {
	total := 0
	for _, l := range lens {
		total += l + 1
	}
	return min(b, total) + 1
}
