package lm

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Options control training.
type Options struct {
	// Order is the n-gram order, 1 to MaxOrder; 0 means 3.
	Order int
	// NoUnigramInterpolation gives the unigram level's whole backoff mass γ to <unk>
	// instead of spreading it uniformly over the vocabulary without <s>, like lmplz
	// --interpolate_unigrams 0 (SRILM's and IRSTLM's way). The default is lmplz's.
	NoUnigramInterpolation bool
	// DiscountFallback, when not nil, gives D1, D2 and D3+ for an order whose
	// count-of-counts cannot (a count-of-count is 0, or a discount falls outside
	// [0, k]), as lmplz --discount_fallback does (its values: 0.5, 1, 1.5). Without it
	// that is an error, as in lmplz; it only happens on tiny or artificial text.
	DiscountFallback *[3]float64
	// Discounts, when not nil, gives D1, D2 and D3+ of every order (index 0 =
	// unigrams) instead of estimating them. The cross-check against IRSTLM uses it to
	// take that toolkit's discounts, which it counts differently at sentence starts.
	Discounts [][3]float64
}

// Trainer counts the n-grams of sentences added one at a time and estimates a Model from
// them. It is not safe for concurrent use.
type Trainer struct {
	order    int
	opts     Options
	ids      map[string]uint32
	words    []string
	grams    []uint64 // packed highest-order n-grams, one per token and </s>, <s>-padded
	sentence int
	tokens   int
}

// NewTrainer returns a Trainer for opts.
func NewTrainer(opts Options) (*Trainer, error) {
	if opts.Order == 0 {
		opts.Order = 3
	}
	if opts.Order < 1 || opts.Order > MaxOrder {
		return nil, fmt.Errorf("lm: order %d: want 1 to %d", opts.Order, MaxOrder)
	}
	if f := opts.DiscountFallback; f != nil {
		for k, d := range f {
			if !(d >= 0 && d <= float64(k+1)) {
				return nil, fmt.Errorf("lm: fallback discount D%d = %g outside [0, %d]", k+1, d, k+1)
			}
		}
	}
	if opts.Discounts != nil && len(opts.Discounts) != opts.Order {
		return nil, fmt.Errorf("lm: %d sets of discounts for order %d", len(opts.Discounts), opts.Order)
	}
	t := &Trainer{order: opts.Order, opts: opts, ids: map[string]uint32{}}
	// The special words come first, as in lmplz: <unk> = 0, <s> = 1, </s> = 2.
	for _, w := range []string{UnkWord, BOSWord, EOSWord} {
		t.ids[w] = uint32(len(t.words))
		t.words = append(t.words, w)
	}
	return t, nil
}

// Sentences returns the number of sentences added.
func (t *Trainer) Sentences() int { return t.sentence }

// Tokens returns the number of words added (without the sentence markers).
func (t *Trainer) Tokens() int { return t.tokens }

// Add adds one sentence: its words, without <s> and </s>, which Add puts around it. The
// words are taken as given (normalize them first, see Normalize). "<unk>" counts as the
// unknown word. An empty sentence is added as "<s> </s>", as lmplz does for an empty
// line. A word that is empty, holds white space or is <s> or </s> is an error, and the
// sentence is then not added.
func (t *Trainer) Add(words []string) error {
	for i, w := range words {
		switch {
		case w == "":
			return fmt.Errorf("lm: word %d is empty", i+1)
		case w == BOSWord || w == EOSWord:
			return fmt.Errorf("lm: word %d is %s, which marks sentence boundaries", i+1, w)
		case strings.IndexFunc(w, unicode.IsSpace) >= 0:
			return fmt.Errorf("lm: word %d %q holds white space", i+1, w)
		}
	}
	bos, eos := t.ids[BOSWord], t.ids[EOSWord]
	a, b := bos, bos
	for i := 0; i <= len(words); i++ {
		w := eos
		if i < len(words) {
			id, ok := t.ids[words[i]]
			if !ok {
				if len(t.words) >= MaxVocab {
					return fmt.Errorf("lm: more than %d words", MaxVocab)
				}
				id = uint32(len(t.words))
				t.ids[words[i]] = id
				t.words = append(t.words, words[i])
			}
			w = id
		}
		switch t.order {
		case 1:
			t.grams = append(t.grams, uint64(w))
		case 2:
			t.grams = append(t.grams, pack2(b, w))
		default:
			t.grams = append(t.grams, pack3(a, b, w))
		}
		a, b = b, w
	}
	t.sentence++
	t.tokens += len(words)
	return nil
}

// Train estimates a model from text with one sentence per line and words separated by
// white space, as lmplz reads it. Words are taken as given (normalize them first, see
// Normalize). Errors name the line.
func Train(r io.Reader, opts Options) (*Model, error) {
	t, err := NewTrainer(opts)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		if err := t.Add(strings.Fields(sc.Text())); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	return t.Model()
}

// level holds the n-grams of one order during estimation: packed keys ascending, their
// adjusted counts, and then their probabilities and backoff weights (not logs).
type level struct {
	keys    []uint64
	counts  []uint64
	prob    []float64
	backoff []float64
}

func (l *level) find(key uint64) int {
	i := sort.Search(len(l.keys), func(i int) bool { return l.keys[i] >= key })
	if i < len(l.keys) && l.keys[i] == key {
		return i
	}
	return -1
}

// runLength turns sorted keys into distinct keys and their multiplicities, in place.
func runLength(keys []uint64) ([]uint64, []uint64) {
	var counts []uint64
	out := keys[:0]
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j] == keys[i] {
			j++
		}
		out = append(out, keys[i])
		counts = append(counts, uint64(j-i))
		i = j
	}
	return out, counts
}

// Model estimates the model from the sentences added so far. The Trainer can go on
// adding sentences afterwards.
func (t *Trainer) Model() (*Model, error) {
	if t.sentence == 0 {
		return nil, fmt.Errorf("lm: no sentences to train on")
	}
	levels := t.adjustedCounts()
	n, bos := t.order, t.ids[BOSWord]

	discounts := make([][3]float64, n)
	for k := 1; k <= n; k++ {
		if t.opts.Discounts != nil {
			discounts[k-1] = t.opts.Discounts[k-1]
			continue
		}
		d, err := t.discount(k, levels[k].counts)
		if err != nil {
			return nil, err
		}
		discounts[k-1] = d
	}

	// Unigram probabilities: discounted, plus γ spread over the vocabulary without <s>.
	uni := &levels[1]
	{
		d := discounts[0]
		denom, gamma := groupStats(uni.counts, d)
		uni.prob = make([]float64, len(uni.keys))
		uni.backoff = make([]float64, len(uni.keys))
		share := gamma / float64(len(uni.keys)-1)
		if t.opts.NoUnigramInterpolation {
			share = 0
		}
		for i, c := range uni.counts {
			uni.prob[i] = (float64(c)-discountOf(d, c))/denom + share
			uni.backoff[i] = 1
		}
		if t.opts.NoUnigramInterpolation {
			uni.prob[t.ids[UnkWord]] += gamma
		}
	}
	// Higher orders: grouped by context, interpolated with the order below.
	for k := 2; k <= n; k++ {
		l, below := &levels[k], &levels[k-1]
		d := discounts[k-1]
		l.prob = make([]float64, len(l.keys))
		l.backoff = make([]float64, len(l.keys))
		for i := range l.backoff {
			l.backoff[i] = 1
		}
		lowMask := uint64(1)<<(uint(k-1)*wordBits) - 1
		for i := 0; i < len(l.keys); {
			ctx := l.keys[i] >> wordBits
			j := i + 1
			for j < len(l.keys) && l.keys[j]>>wordBits == ctx {
				j++
			}
			denom, gamma := groupStats(l.counts[i:j], d)
			for x := i; x < j; x++ {
				c := l.counts[x]
				p := below.find(l.keys[x] & lowMask)
				if p < 0 {
					return nil, fmt.Errorf("lm: internal error: %d-gram without its suffix", k)
				}
				l.prob[x] = (float64(c)-discountOf(d, c))/denom + gamma*below.prob[p]
			}
			c := below.find(ctx)
			if c < 0 {
				return nil, fmt.Errorf("lm: internal error: %d-gram without its context", k)
			}
			below.backoff[c] = gamma
			i = j
		}
	}

	m := &Model{order: n, words: slices.Clone(t.words), ids: make(map[string]uint32, len(t.words)), discounts: discounts}
	for i, w := range m.words {
		m.ids[w] = uint32(i)
	}
	m.unk, m.bos, m.eos = t.ids[UnkWord], bos, t.ids[EOSWord]
	m.uni = make([]Entry, len(uni.keys))
	for i := range m.uni {
		m.uni[i] = Entry{LogProb: log10(uni.prob[i]), Backoff: log10(uni.backoff[i])}
	}
	// lmplz writes 0 for <s>, which is never predicted.
	m.uni[bos].LogProb = 0
	for k := 2; k <= n; k++ {
		l := &levels[k]
		vals := make([]Entry, len(l.keys))
		for i := range vals {
			vals[i] = Entry{LogProb: log10(l.prob[i]), Backoff: log10(l.backoff[i])}
		}
		m.grams[k] = newTable(l.keys, vals)
	}
	return m, nil
}

// adjustedCounts returns the n-grams of each order (index = order) with their adjusted
// counts, as lmplz's adjust_counts computes them.
func (t *Trainer) adjustedCounts() []level {
	n := t.order
	bos := t.ids[BOSWord]
	levels := make([]level, n+1) // levels[k] for order k

	// Highest order: raw counts. With order 3, the <s>-padded n-grams "<s> <s> w" are not
	// trigrams: they give the bigram "<s> w" its raw count (lmplz's adjust_counts).
	full, raw := runLength(slices.Sorted(slices.Values(t.grams)))
	var bosKeys, bosCounts []uint64
	if n == 3 {
		top := &levels[3]
		for i, k := range full {
			if uint32(k>>wordBits)&wordMask == bos {
				bosKeys = append(bosKeys, k&(1<<(2*wordBits)-1))
				bosCounts = append(bosCounts, raw[i])
				continue
			}
			top.keys = append(top.keys, k)
			top.counts = append(top.counts, raw[i])
		}
	} else {
		levels[n].keys, levels[n].counts = full, raw
	}
	// Lower orders ≥ 2: continuation counts (distinct left extensions), plus the <s>
	// n-grams with their raw counts. Neither set can hold a key of the other.
	for k := n - 1; k >= 2; k-- {
		above := levels[k+1].keys
		suffix := make([]uint64, len(above))
		mask := uint64(1)<<(uint(k)*wordBits) - 1
		for i, key := range above {
			suffix[i] = key & mask
		}
		slices.Sort(suffix)
		keys, counts := runLength(suffix)
		if k == 2 {
			keys = append(keys, bosKeys...)
			counts = append(counts, bosCounts...)
			sortLevel(keys, counts)
		}
		levels[k].keys, levels[k].counts = keys, counts
	}
	// Unigrams: every word of the vocabulary, with <unk> and <s> at 0 unless seen.
	uni := &levels[1]
	uni.keys = make([]uint64, len(t.words))
	uni.counts = make([]uint64, len(t.words))
	for i := range uni.keys {
		uni.keys[i] = uint64(i)
	}
	if n == 1 {
		for i, k := range full {
			uni.counts[k] = raw[i]
		}
	} else {
		for _, key := range levels[2].keys {
			uni.counts[key&wordMask]++
		}
	}

	return levels
}

func log10(x float64) float32 {
	v := float32(math.Log10(x))
	if v == 0 {
		return 0 // no negative zero in the output
	}
	return v
}

// sortLevel sorts keys ascending, with counts alongside.
func sortLevel(keys, counts []uint64) { sort.Sort(byCount{keys, counts}) }

type byCount struct{ keys, counts []uint64 }

func (b byCount) Len() int           { return len(b.keys) }
func (b byCount) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byCount) Swap(i, j int) {
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
	b.counts[i], b.counts[j] = b.counts[j], b.counts[i]
}

// discountOf returns the discount of an adjusted count c: 0 for 0, D1, D2, or D3+.
func discountOf(d [3]float64, c uint64) float64 {
	if c == 0 {
		return 0
	}
	return d[min(c, 3)-1]
}

// groupStats returns the denominator Σ a and the backoff weight γ of one context's
// n-grams with adjusted counts counts.
func groupStats(counts []uint64, d [3]float64) (denom, gamma float64) {
	var total uint64
	var nk [3]float64
	for _, c := range counts {
		total += c
		if c > 0 {
			nk[min(c, 3)-1]++
		}
	}
	denom = float64(total)
	return denom, (d[0]*nk[0] + d[1]*nk[1] + d[2]*nk[2]) / denom
}

// discount returns D1, D2, D3+ of order k from its adjusted counts (Chen & Goodman's
// eq. 26, as lmplz computes them), or the fallback.
func (t *Trainer) discount(k int, counts []uint64) ([3]float64, error) {
	var cc [5]uint64
	for _, c := range counts {
		if c >= 1 && c <= 4 {
			cc[c]++
		}
	}
	var d [3]float64
	var bad string
	for j := 1; j <= 3 && bad == ""; j++ {
		if cc[j] == 0 {
			bad = fmt.Sprintf("no %d-grams with adjusted count %d, so no discount for count %d", k, j, j+1)
		}
	}
	if bad == "" {
		y := float64(cc[1]) / float64(cc[1]+2*cc[2])
		for j := 1; j <= 3; j++ {
			d[j-1] = float64(j) - float64(j+1)*y*float64(cc[j+1])/float64(cc[j])
			if d[j-1] < 0 || d[j-1] > float64(j) {
				bad = fmt.Sprintf("%d-gram discount D%d = %g outside [0, %d]", k, j, d[j-1], j)
				break
			}
		}
	}
	if bad == "" {
		return d, nil
	}
	if t.opts.DiscountFallback != nil {
		return *t.opts.DiscountFallback, nil
	}
	return d, fmt.Errorf("lm: cannot estimate Kneser–Ney discounts: %s (count-of-counts %v; is the text tiny or artificial? see Options.DiscountFallback)", bad, cc[1:])
}
