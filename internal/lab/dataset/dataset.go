// Package dataset builds the query-focused compression tuples (S, Q, b, C_g) of Handler &
// O'Connor (2019) from the Google sentence-compression corpus in CoNLL-U
// (../shared/data/google-compression; see its README).
//
// For every sentence S of the corpus:
//
//   - the gold compression C_g is the set of tokens with Keep=Yes in MISC;
//   - the budget b is the character length of the gold tokens joined by single spaces,
//     Σ len(form) + k − 1, counted in runes (the authors counted characters of ASCII
//     strings; on the train file, where forms are normalized to "##" and "<unk>", b is only
//     approximate);
//   - the query Q is 1 to 3 nouns (XPOS NN, NNS, NNP or NNPS) drawn without replacement
//     from the gold tokens, the count uniform in {1, 2, 3} (fewer when the gold holds fewer
//     nouns).
//
// Sentences are dropped, each counted under the first reason that applies: empty gold,
// gold without a noun (Q would be empty; the paper's filter), and, for the test set, a
// "# suspect" comment (the keep mask is unreliable; such sentences must stay out of
// evaluation).
//
// Everything is deterministic given Options.Seed. The query of a sentence comes from a PCG
// generator seeded with (seed, FNV-1a hash of its sent_id), so it depends neither on file
// order nor on the other sentences. The validation split follows the authors: the kept
// training sentences (ordered by sent_id, so the file order does not matter) are shuffled
// with a seeded PCG and the last Options.Validation of them are held out.
package dataset

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/progress"
	"github.com/qsc-nlp/qsc/metrics"
	"github.com/qsc-nlp/qsc/syntax"
)

// Split names a part of the data.
type Split string

// The splits. The train file yields Train and Validation tuples.
const (
	Train      Split = "train"
	Validation Split = "validation"
	Test       Split = "test"
)

// DefaultValidation is the number of training sentences held out for validation, as in the
// paper.
const DefaultValidation = 25000

// MaxQuery is the largest query size.
const MaxQuery = 3

// Options control Load.
type Options struct {
	// Seed drives query sampling and the validation split.
	Seed uint64
	// Validation is the number of training tuples held out for validation: 0 means
	// DefaultValidation, a negative value none. Ignored for the test file.
	Validation int
	// KeepRaw keeps each tuple's CoNLL-U sentence (comments, MISC) in Tuple.Raw. Without
	// it only the forms and tags are kept, which saves memory on the train file.
	KeepRaw bool
}

// Tuple is one query-focused compression instance (S, Q, b, C_g).
type Tuple struct {
	ID    string // sent_id
	Split Split
	// Sentence is S: forms and Penn Treebank tags (XPOS), unparsed (Head = NoHead).
	Sentence *syntax.Sentence
	// Raw is the CoNLL-U sentence as read, or nil unless Options.KeepRaw.
	Raw *conllu.Sentence
	// Query is Q: 1-based token ids, ascending, a subset of Gold, all nouns.
	Query []int
	// Budget is b: the rune length of the gold tokens joined by single spaces.
	Budget int
	// Gold is C_g: 1-based ids of the tokens with Keep=Yes, ascending.
	Gold []int
}

// Forms returns the token forms of S.
func (t *Tuple) Forms() []string { return t.Sentence.Forms() }

// GoldRatio returns the compression ratio of the gold compression: the rune length of the
// gold tokens joined by single spaces over that of all tokens of S (metrics.CompressionRatio).
func (t *Tuple) GoldRatio() (float64, error) {
	return metrics.CompressionRatio(t.Forms(), t.Gold)
}

// Counts tallies what Load read and dropped. The drop counts are disjoint: a sentence is
// counted under the first reason that applies, in the order of the fields.
type Counts struct {
	Read      int // sentences in the file
	EmptyGold int // no token has Keep=Yes
	NoNoun    int // gold is not empty but holds no noun
	Suspect   int // "# suspect" sentences not already dropped above
	// SuspectAll counts every sentence with a "# suspect" comment, including those dropped
	// for another reason. It is not a separate drop.
	SuspectAll int
	Kept       int // tuples returned (for the train file: training + validation)
}

// PaperFilter returns the number of sentences that pass the paper's filter (gold holds a
// noun), before the suspect exclusion: the figure to compare with the paper's 198,570
// training+validation and 9,949 test tuples.
func (c Counts) PaperFilter() int { return c.Read - c.EmptyGold - c.NoNoun }

// Data is the result of Load.
type Data struct {
	// Tuples are the kept tuples. For the test file they are in file order; for the train
	// file the training tuples come first, in the seeded shuffled order, then the
	// validation tuples.
	Tuples []*Tuple
	Counts Counts
}

// Split returns the tuples of split s (sharing memory with d.Tuples).
func (d *Data) Split(s Split) []*Tuple {
	var out []*Tuple
	for _, t := range d.Tuples {
		if t.Split == s {
			out = append(out, t)
		}
	}
	return out
}

// IsNoun reports whether a Penn Treebank tag is a noun tag (NN, NNS, NNP, NNPS), the
// parts of speech queries are drawn from.
func IsNoun(xpos string) bool {
	switch xpos {
	case "NN", "NNS", "NNP", "NNPS":
		return true
	}
	return false
}

// Load reads a corpus file (plain or gzip CoNLL-U) and builds its tuples. file is Train
// (the train file, split into Train and Validation tuples) or Test. Progress is shown on
// stderr when it is a terminal. Errors name the file and the line or sentence at fault.
func Load(path string, file Split, opts Options) (*Data, error) {
	if file != Train && file != Test {
		return nil, fmt.Errorf("dataset: cannot load split %q: load %q (it yields %q and %q) or %q",
			file, Train, Train, Validation, Test)
	}
	r, err := conllu.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()

	bar := progress.New("reading "+filepath.Base(path), 0)
	defer bar.Done()
	d := &Data{}
	seen := map[string]bool{}
	strs := map[string]string{} // interned forms and tags
	for {
		cs, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		bar.Add(1)
		d.Counts.Read++
		id, ok := cs.Meta("sent_id")
		if !ok || id == "" {
			return nil, fmt.Errorf("%s:%d: sentence ending here has no sent_id", path, r.Line())
		}
		if seen[id] {
			return nil, fmt.Errorf("%s:%d: sentence %s: duplicate sent_id", path, r.Line(), id)
		}
		seen[id] = true
		t, err := newTuple(cs, id, opts.Seed)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: sentence %s: %w", path, r.Line(), id, err)
		}
		_, suspect := cs.Meta("suspect")
		if suspect {
			d.Counts.SuspectAll++
		}
		switch {
		case len(t.Gold) == 0:
			d.Counts.EmptyGold++
			continue
		case len(t.Query) == 0:
			d.Counts.NoNoun++
			continue
		case suspect:
			d.Counts.Suspect++
			continue
		}
		t.Split = file
		if opts.KeepRaw {
			t.Raw = cs
		} else {
			for i := range t.Sentence.Tokens {
				tok := &t.Sentence.Tokens[i]
				tok.Form, tok.XPOS = intern(strs, tok.Form), intern(strs, tok.XPOS)
			}
		}
		d.Tuples = append(d.Tuples, t)
	}
	d.Counts.Kept = len(d.Tuples)
	if file == Train {
		if err := holdOut(d.Tuples, opts); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return d, nil
}

func intern(m map[string]string, s string) string {
	if v, ok := m[s]; ok {
		return v
	}
	m[s] = s
	return s
}

// NewTuple builds the tuple of one sentence read from a corpus in this package's format
// (Keep=Yes|No in MISC), with its query drawn with seed as Load draws it. Its Sentence
// keeps the heads and relations of cs, so a treebank with gold trees gives parsed tuples.
// Query is empty when the gold holds no noun.
func NewTuple(cs *conllu.Sentence, split Split, seed uint64) (*Tuple, error) {
	id, _ := cs.Meta("sent_id")
	t, err := newTuple(cs, id, seed)
	if err != nil {
		return nil, fmt.Errorf("sentence %s: %w", id, err)
	}
	t.Split = split
	return t, nil
}

// newTuple builds the tuple of one sentence; Query is empty when the gold has no noun.
func newTuple(cs *conllu.Sentence, id string, seed uint64) (*Tuple, error) {
	t := &Tuple{ID: id, Sentence: syntax.FromCoNLLU(cs)}
	var nouns []int
	for _, w := range cs.Words {
		switch k := conllu.MiscValue(w.Misc, "Keep"); k {
		case "Yes":
			t.Gold = append(t.Gold, w.ID)
			if IsNoun(w.XPOS) {
				nouns = append(nouns, w.ID)
			}
		case "No":
		default:
			return nil, fmt.Errorf("word %d: Keep=%q in MISC %q, want Yes or No", w.ID, k, w.Misc)
		}
	}
	b, err := metrics.CharLen(t.Sentence.Forms(), t.Gold)
	if err != nil {
		return nil, err
	}
	t.Budget = b
	t.Query = sampleQuery(nouns, seed, id)
	return t, nil
}

// sampleQuery draws 1 to MaxQuery of the candidate ids (count uniform, fewer when there are
// fewer candidates) from a generator seeded by (seed, hash of id). The result is ascending.
// It may reorder candidates.
func sampleQuery(cands []int, seed uint64, id string) []int {
	if len(cands) == 0 {
		return nil
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	k := 1 + rng.IntN(MaxQuery)
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	q := slices.Clone(cands[:min(k, len(cands))])
	slices.Sort(q)
	return q
}

// holdOut orders ts by ID, shuffles them with the seed, and marks the last n as Validation,
// leaving ts as training tuples followed by validation tuples.
func holdOut(ts []*Tuple, opts Options) error {
	n := opts.Validation
	switch {
	case n == 0:
		n = DefaultValidation
	case n < 0:
		n = 0
	}
	if n > len(ts) {
		return fmt.Errorf("dataset: cannot hold out %d validation tuples from %d", n, len(ts))
	}
	if n == len(ts) && n > 0 {
		return errors.New("dataset: holding out every tuple for validation leaves no training data")
	}
	slices.SortFunc(ts, func(a, b *Tuple) int { return cmp.Compare(a.ID, b.ID) })
	rng := rand.New(rand.NewPCG(opts.Seed, 0x76616c6964617465)) // "validate"
	rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
	for i, t := range ts {
		if i >= len(ts)-n {
			t.Split = Validation
		}
	}
	return nil
}
