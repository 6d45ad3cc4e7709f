// Package syntax holds the in-memory sentence that flows through qsc: tokens, their tags,
// and a dependency tree. Tokenizer, tagger, parser and compressor all read and write it.
//
// Token positions are 0-based in Go slices; Head values follow CoNLL-U: 1-based, 0 for the
// root, NoHead when unparsed.
package syntax

import (
	"errors"
	"fmt"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/internal/core/reuse"
)

// NoHead marks a token that has not been parsed.
const NoHead = conllu.NoHead

// Token is one word of a sentence.
type Token struct {
	Form  string // surface form
	Lemma string // lemma, or "" when unknown
	UPOS  string // universal POS, or "" when unknown
	XPOS  string // Penn Treebank tag, or "" when untagged
	Head  int    // 1-based head, 0 for root, NoHead when unparsed
	Rel   string // dependency label (UD v2), or "" when unparsed
	// Start and End are byte offsets of the token in the text it came from, or -1 when
	// the token did not come from raw text.
	Start, End int
}

// Sentence is a sequence of tokens.
type Sentence struct {
	Tokens []Token
}

// Len returns the number of tokens.
func (s *Sentence) Len() int { return len(s.Tokens) }

// Forms returns the token forms.
func (s *Sentence) Forms() []string {
	out := make([]string, len(s.Tokens))
	for i := range s.Tokens {
		out[i] = s.Tokens[i].Form
	}
	return out
}

// Heads returns the 1-based heads of all tokens (0 = root).
func (s *Sentence) Heads() []int {
	return s.AppendHeads(make([]int, 0, len(s.Tokens)))
}

// AppendHeads appends the heads of all tokens, as Heads returns them, to dst.
func (s *Sentence) AppendHeads(dst []int) []int {
	for i := range s.Tokens {
		dst = append(dst, s.Tokens[i].Head)
	}
	return dst
}

// FromCoNLLU converts the ordinary words of a CoNLL-U sentence. Multiword ranges and
// empty nodes are not part of the tree and are left out; "_" columns become "".
func FromCoNLLU(cs *conllu.Sentence) *Sentence {
	s := &Sentence{Tokens: make([]Token, len(cs.Words))}
	for i, w := range cs.Words {
		s.Tokens[i] = Token{
			Form: w.Form, Lemma: blank(w.Lemma), UPOS: blank(w.UPOS), XPOS: blank(w.XPOS),
			Head: w.Head, Rel: blank(w.DepRel), Start: -1, End: -1,
		}
	}
	return s
}

// NewCoNLLU makes a CoNLL-U sentence from s.
func NewCoNLLU(s *Sentence) *conllu.Sentence {
	cs := &conllu.Sentence{Words: make([]conllu.Word, len(s.Tokens))}
	for i, t := range s.Tokens {
		cs.Words[i] = conllu.Word{ID: i + 1, Form: under(t.Form), Lemma: under(t.Lemma), UPOS: under(t.UPOS),
			XPOS: under(t.XPOS), Feats: "_", Head: t.Head, DepRel: under(t.Rel), Deps: "_", Misc: "_"}
	}
	return cs
}

func blank(s string) string {
	if s == "_" {
		return ""
	}
	return s
}

func under(s string) string {
	if s == "" {
		return "_"
	}
	return s
}

// Errors returned by NewTree.
var (
	ErrHeadRange = errors.New("head out of range")
	ErrCycle     = errors.New("cycle in dependency tree")
	ErrNoRoot    = errors.New("no token is attached to the root")
)

// Tree is a dependency tree in compact form, built once per sentence. Vertices are 1..n;
// 0 is the artificial root.
type Tree struct {
	head  []int32 // head[v] for v in 1..n; head[0] = -1
	start []int32 // children of v are child[start[v]:start[v+1]], ascending
	child []int32
	depth []int32 // depth[0] = 0; a child of the root has depth 1
	stack []int32 // traversal memory, reused by Reset
}

// NewTree builds a Tree from 1-based heads (heads[i] is the head of token i+1, 0 = root).
// It rejects out-of-range heads, cycles and trees with no root dependent.
func NewTree(heads []int) (*Tree, error) {
	t := &Tree{}
	if err := t.Reset(heads); err != nil {
		return nil, err
	}
	return t, nil
}

// Reset rebuilds t for new heads, reusing its memory.
func (t *Tree) Reset(heads []int) error {
	n := len(heads)
	t.head = reuse.Resize(t.head, n+1)
	t.start = reuse.Resize(t.start, n+2)
	t.child = reuse.Resize(t.child, n)
	t.depth = reuse.Resize(t.depth, n+1)
	clear(t.start)
	t.head[0] = -1
	roots := 0
	for i, h := range heads {
		if h < 0 || h > n || h == i+1 {
			return fmt.Errorf("%w: token %d has head %d (sentence of %d tokens)", ErrHeadRange, i+1, h, n)
		}
		if h == 0 {
			roots++
		}
		t.head[i+1] = int32(h)
		t.start[h+1]++
	}
	if n > 0 && roots == 0 {
		return ErrNoRoot
	}
	for v := 1; v <= n+1; v++ {
		t.start[v] += t.start[v-1]
	}
	// Fill children in ascending order using depth as a temporary cursor.
	for v := 0; v <= n; v++ {
		t.depth[v] = t.start[v]
	}
	for v := 1; v <= n; v++ {
		h := t.head[v]
		t.child[t.depth[h]] = int32(v)
		t.depth[h]++
	}
	// Depths by a traversal from the root; vertices not reached lie on a cycle.
	for v := range t.depth {
		t.depth[v] = -1
	}
	t.depth[0] = 0
	reached := 0
	stack := append(t.stack[:0], 0)
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range t.child[t.start[u]:t.start[u+1]] {
			t.depth[c] = t.depth[u] + 1
			reached++
			stack = append(stack, c)
		}
	}
	t.stack = stack
	if reached != n {
		return ErrCycle
	}
	return nil
}

// CopyFrom sets t to a copy of src, reusing t's memory: what Reset with the heads of src
// builds, in O(n) copies instead of a rebuild.
func (t *Tree) CopyFrom(src *Tree) {
	t.head = append(t.head[:0], src.head...)
	t.start = append(t.start[:0], src.start...)
	t.child = append(t.child[:0], src.child...)
	t.depth = append(t.depth[:0], src.depth...)
}

// N returns the number of tokens.
func (t *Tree) N() int { return len(t.head) - 1 }

// Head returns the head of vertex v (0 = root); Head(0) is -1.
func (t *Tree) Head(v int) int { return int(t.head[v]) }

// Children returns the children of vertex v (0 = root) in ascending order. The slice must
// not be modified.
func (t *Tree) Children(v int) []int32 { return t.child[t.start[v]:t.start[v+1]] }

// NumChildren returns the number of children of v.
func (t *Tree) NumChildren(v int) int { return int(t.start[v+1] - t.start[v]) }

// Depth returns the depth of v: 0 for the root, 1 for its children.
func (t *Tree) Depth(v int) int { return int(t.depth[v]) }

// Universal returns the universal part of a UD relation: "nmod" for "nmod:poss".
func Universal(rel string) string {
	for i := 0; i < len(rel); i++ { // relations are short: faster than strings.IndexByte
		if rel[i] == ':' {
			return rel[:i]
		}
	}
	return rel
}
