package features

import (
	"slices"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
	"github.com/qsc-nlp/qsc/syntax"
)

// conjoinedFeatures is the number of conjoined features of an arc.
const conjoinedFeatures = 27

// conjoin appends to ps the conjoined features (Config.Conjoined) of an arc h → n with
// label hash rel, whose prefixed keys are r and memo m (relKeys); hk holds h's keys.
func conjoin(ps []product, e *emitter, x *Sentence, hk *headKeys, h, n int, rel uint64, r *relPrefix, m *relMemo) []product {
	if !x.conj {
		x.conjoined()
	}
	t := x.tree
	dir, dist := uint64(0), n-h
	if n < h {
		dir, dist = 1, h-n
	}
	at := len(ps)
	ps = slices.Grow(ps, conjoinedFeatures)[:at+conjoinedFeatures]
	f := (*[conjoinedFeatures]product)(ps[at:]) // its features in turn, each in its place
	f[0] = e.one(mix(mix(r[tDirPosN], dir), x.pos[n]))
	f[1] = e.one(mix(mix(hk.posPair, x.pos[n]), rel))
	f[2] = e.one(memo2(&m.dist[dir][binCount(dist)], r[tDist], dir, uint64(binCount(dist))))
	f[3] = e.one(mix(r[tGrandLabel], x.rel[h]))
	f[4] = e.one(memo(&m.position[x.posBin[n]], r[tPositionN], uint64(x.posBin[n])))
	f[5] = e.one(mix(r[tWordNLabel], x.word[n]))
	f[6] = e.one(mix(r[tMarkerN], x.marker[n]))
	punct := uint64(0)
	if x.punct[n] {
		punct = 1
	}
	f[7] = e.one(memo(&m.punct[punct], r[tPunctN], punct))
	lenS, kids, depth := binCount(t.N()/3), binCount(t.NumChildren(n)), binCount(t.Depth(n))
	f[8] = e.one(memo(&m.lenS[lenS], r[tLenS], uint64(lenS)))
	f[9] = e.one(memo(&m.childrenN[kids], r[tChildrenNLabel], uint64(kids)))
	f[10] = e.one(memo(&m.depth[depth], r[tDepthLabel], uint64(depth)))
	var prevPOS, nextPOS, prevWord, nextWord uint64
	if n > 1 {
		prevPOS, prevWord = x.pos[n-1], x.word[n-1]
	}
	if n < t.N() {
		nextPOS, nextWord = x.pos[n+1], x.word[n+1]
	}
	f[11] = e.one(mix(r[tPrevPOS], prevPOS))
	f[12] = e.one(mix(r[tNextPOS], nextPOS))
	f[13] = e.one(mix(hk.bilex, x.word[n]))
	sub := binCount(x.sub[n])
	f[14] = e.one(memo(&m.subSize[sub], r[tSubSize], uint64(sub)))
	f[15] = e.one(memo(&m.subFrac[x.subBin[n]], r[tSubFrac], uint64(x.subBin[n])))
	f[16] = e.one(mix(r[tPrevWord], prevWord))
	f[17] = e.one(mix(r[tNextWord], nextWord))
	f[18] = e.one(mix(mix(r[tPOSTri], prevPOS), x.pos[n]))
	f[19] = e.one(mix(mix(r[tOwnLabel], x.rel[n]), x.pos[n]))
	f[20] = e.one(mix(mix(r[tRealHead], x.pos[t.Head(n)]), x.rel[n]))
	f[21] = e.one(mix(mix(r[tHeadDir], x.pos[h]), dir))
	var first, last uint64
	if k := t.Children(n); len(k) > 0 {
		first, last = x.rel[k[0]], x.rel[k[len(k)-1]]
	}
	f[22] = e.one(mix(r[tLeftChild], first))
	f[23] = e.one(mix(r[tRightChild], last))
	f[24] = e.one(mix(r[tPrevSib], x.prevSib[n]))
	f[25] = e.one(mix(r[tNextSib], x.nextSib[n]))
	f[26] = e.one(mix(r[tHeadMarker], x.marker[h]))
	return ps
}

// Relations that the conjoined features read.
const (
	relCase  = 1 // case or mark, with any subtype
	relPunct = 2 // punct, with any subtype
)

// relCat returns relCase, relPunct or 0 for a relation.
func relCat(rel string) uint8 {
	switch syntax.Universal(rel) {
	case "case", "mark":
		return relCase
	case "punct":
		return relPunct
	}
	return 0
}

// conjoined computes what the conjoined features read beyond the tokens' values (see the
// fields of Sentence), in time linear in the sentence.
func (x *Sentence) conjoined() {
	tree := x.tree
	n := tree.N()
	x.conj = true
	x.marker = reuse.Resize(x.marker, n+1)
	x.punct = reuse.Resize(x.punct, n+1)
	x.sub = reuse.Resize(x.sub, n+1)
	x.subLen = reuse.Resize(x.subLen, n+1)
	x.prevSib = reuse.Resize(x.prevSib, n+1)
	x.nextSib = reuse.Resize(x.nextSib, n+1)
	clear(x.marker)
	clear(x.punct)
	clear(x.prevSib)
	clear(x.nextSib)
	for v := 1; v <= n; v++ {
		h := tree.Head(v)
		switch relCat(x.sent.Tokens[v-1].Rel) {
		case relCase:
			if x.marker[h] == 0 {
				x.marker[h] = x.word[v]
			}
		case relPunct:
			x.punct[h] = true
		}
	}
	x.queue = append(x.queue[:0], 0)
	for i := 0; i < len(x.queue); i++ {
		kids := tree.Children(int(x.queue[i]))
		for j, c := range kids {
			if j > 0 {
				x.prevSib[c] = x.rel[kids[j-1]]
			}
			if j+1 < len(kids) {
				x.nextSib[c] = x.rel[kids[j+1]]
			}
		}
		x.queue = append(x.queue, kids...)
	}
	for v := range x.sub {
		x.sub[v], x.subLen[v] = 1, x.lens[v]+1
	}
	for i := len(x.queue) - 1; i > 0; i-- {
		v := int(x.queue[i])
		h := tree.Head(v)
		x.sub[h] += x.sub[v]
		x.subLen[h] += x.subLen[v]
	}
	x.posBin = reuse.Resize(x.posBin, n+1)
	x.subBin = reuse.Resize(x.subBin, n+1)
	for v := range x.posBin {
		x.posBin[v] = uint8(BinFrac(float64(v) / float64(n)))
		x.subBin[v] = uint8(BinFrac(float64(x.subLen[v]) / float64(x.lenS+1)))
	}
}
