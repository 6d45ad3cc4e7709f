package parser

import "github.com/qsc-nlp/qsc/internal/core/hashing"

// Features are hashed: each template packs its atoms (word ids of 20 bits, tag and label ids
// of 7 bits, small distance and valency buckets) with its template number into 64 bits,
// which fmix scrambles; the low bits then index a row of class weights.

const (
	wordBits = 20
	tagBits  = 7
	maxWords = 1<<wordBits - 1
	maxTags  = 1<<tagBits - 1
)

// Reserved word and tag ids.
const (
	idNone = 0 // no token at this position
	idUnk  = 1 // unknown word or tag
	idRoot = 2 // the artificial root
	idMin  = 3 // first id of a real word or tag
)

const (
	numActFeats = 89
	numLabFeats = 32
)

func tpl(k uint64) uint64 { return k << 56 }

// tok holds the atoms of one position of the configuration.
type tok struct{ w, p, l, wp, c, k uint64 }

func (st *state) tokAt(ws, ps, cs []uint32, t int32) tok {
	if t < 0 {
		return tok{}
	}
	var l uint64
	if st.label[t] >= 0 {
		l = uint64(st.label[t] + 1)
	}
	w, p, c := uint64(ws[t]), uint64(ps[t]), uint64(cs[t])
	return tok{w: w, p: p, l: l, wp: w<<tagBits | p, c: c & 1023, k: c >> 10}
}

// child returns c, or -1 when c is 0 (no child).
func child(c int32) int32 {
	if c == 0 {
		return -1
	}
	return c
}

func bucket(d int32) uint64 {
	switch {
	case d < 0:
		return 0
	case d <= 5:
		return uint64(d)
	case d <= 10:
		return 6
	}
	return 7
}

func capv(v int32) uint64 { return uint64(min(v, 7)) }

// actionFeatures writes the hashed features for choosing the next transition: the
// Zhang & Nivre (2011) templates adapted to arc-hybrid (b0 has left children only).
func (st *state) actionFeatures(ws, ps, cs []uint32, f *[numActFeats]uint64) {
	var s0i, s1i, s2i int32 = -1, -1, -1
	if k := len(st.stack); k > 0 {
		s0i = st.stack[k-1]
		if k > 1 {
			s1i = st.stack[k-2]
			if k > 2 {
				s2i = st.stack[k-3]
			}
		}
	}
	var b0i, b1i, b2i int32 = -1, -1, -1
	if st.i <= st.n {
		b0i = st.i
		if st.i+1 <= st.n {
			b1i = st.i + 1
			if st.i+2 <= st.n {
				b2i = st.i + 2
			}
		}
	}
	s0, s1, s2 := st.tokAt(ws, ps, cs, s0i), st.tokAt(ws, ps, cs, s1i), st.tokAt(ws, ps, cs, s2i)
	b0, b1, b2 := st.tokAt(ws, ps, cs, b0i), st.tokAt(ws, ps, cs, b1i), st.tokAt(ws, ps, cs, b2i)
	var s0l, s0l2, s0r, s0r2, s1l, s1r, b0l, b0l2 tok
	var s0vl, s0vr, s1vl, s1vr, b0vl uint64
	var s0ls, s0rs, b0ls, s1rs uint64
	if s0i >= 0 {
		s0l, s0l2 = st.tokAt(ws, ps, cs, child(st.l1[s0i])), st.tokAt(ws, ps, cs, child(st.l2[s0i]))
		s0r, s0r2 = st.tokAt(ws, ps, cs, child(st.r1[s0i])), st.tokAt(ws, ps, cs, child(st.r2[s0i]))
		s0vl, s0vr = capv(st.nl[s0i]), capv(st.nr[s0i])
		s0ls, s0rs = st.lset[s0i], st.rset[s0i]
	}
	if s1i >= 0 {
		s1l, s1r = st.tokAt(ws, ps, cs, child(st.l1[s1i])), st.tokAt(ws, ps, cs, child(st.r1[s1i]))
		s1vl, s1vr = capv(st.nl[s1i]), capv(st.nr[s1i])
		s1rs = st.rset[s1i]
	}
	if b0i >= 0 {
		b0l, b0l2 = st.tokAt(ws, ps, cs, child(st.l1[b0i])), st.tokAt(ws, ps, cs, child(st.l2[b0i]))
		b0vl = capv(st.nl[b0i])
		b0ls = st.lset[b0i]
	}
	var d1, d2 uint64
	if s0i >= 0 && b0i >= 0 {
		d1 = bucket(b0i - s0i)
	}
	if s1i >= 0 {
		d2 = bucket(s0i - s1i)
	}
	const W = wordBits + tagBits // bits of a wp pair
	const P = tagBits
	f[0] = tpl(0)
	// Unigrams.
	f[1] = tpl(1) | s0.wp
	f[2] = tpl(2) | s0.w
	f[3] = tpl(3) | s0.p
	f[4] = tpl(4) | b0.wp
	f[5] = tpl(5) | b0.w
	f[6] = tpl(6) | b0.p
	f[7] = tpl(7) | b1.wp
	f[8] = tpl(8) | b1.w
	f[9] = tpl(9) | b1.p
	f[10] = tpl(10) | b2.wp
	f[11] = tpl(11) | s1.wp
	f[12] = tpl(12) | s1.w
	f[13] = tpl(13) | s1.p
	f[14] = tpl(14) | s2.wp
	// Pairs s0–b0.
	f[15] = tpl(15) | s0.wp<<W | b0.wp
	f[16] = tpl(16) | s0.wp<<W | b0.w
	f[17] = tpl(17) | s0.w<<W | b0.wp
	f[18] = tpl(18) | s0.wp<<P | b0.p
	f[19] = tpl(19) | s0.p<<W | b0.wp
	f[20] = tpl(20) | s0.w<<W | b0.w
	f[21] = tpl(21) | s0.p<<P | b0.p
	f[22] = tpl(22) | b0.p<<P | b1.p
	// Pairs s1–s0.
	f[23] = tpl(23) | s1.wp<<W | s0.wp
	f[24] = tpl(24) | s1.wp<<W | s0.w
	f[25] = tpl(25) | s1.w<<W | s0.wp
	f[26] = tpl(26) | s1.wp<<P | s0.p
	f[27] = tpl(27) | s1.p<<W | s0.wp
	f[28] = tpl(28) | s1.w<<W | s0.w
	f[29] = tpl(29) | s1.p<<P | s0.p
	// Tag trigrams.
	f[30] = tpl(30) | (b0.p<<P|b1.p)<<P | b2.p
	f[31] = tpl(31) | (s0.p<<P|b0.p)<<P | b1.p
	f[32] = tpl(32) | (s1.p<<P|s0.p)<<P | b0.p
	f[33] = tpl(33) | (s2.p<<P|s1.p)<<P | s0.p
	f[34] = tpl(34) | (s0.p<<P|s0l.p)<<P | b0.p
	f[35] = tpl(35) | (s0.p<<P|s0r.p)<<P | b0.p
	f[36] = tpl(36) | (s0.p<<P|b0.p)<<P | b0l.p
	f[37] = tpl(37) | (s1.p<<P|s1r.p)<<P | s0.p
	f[38] = tpl(38) | (s1.p<<P|s0l.p)<<P | s0.p
	f[39] = tpl(39) | (s1.p<<P|s1l.p)<<P | s0.p
	f[40] = tpl(40) | (s1.p<<P|s0.p)<<P | s0r.p
	// Distance.
	f[41] = tpl(41) | s0.w<<3 | d1
	f[42] = tpl(42) | s0.p<<3 | d1
	f[43] = tpl(43) | b0.w<<3 | d1
	f[44] = tpl(44) | b0.p<<3 | d1
	f[45] = tpl(45) | (s0.w<<wordBits|b0.w)<<3 | d1
	f[46] = tpl(46) | (s0.p<<P|b0.p)<<3 | d1
	f[47] = tpl(47) | (s1.p<<P|s0.p)<<3 | d2
	f[48] = tpl(48) | (s1.w<<wordBits|s0.w)<<3 | d2
	// Valency.
	f[49] = tpl(49) | s0.w<<3 | s0vr
	f[50] = tpl(50) | s0.p<<3 | s0vr
	f[51] = tpl(51) | s0.w<<3 | s0vl
	f[52] = tpl(52) | s0.p<<3 | s0vl
	f[53] = tpl(53) | b0.w<<3 | b0vl
	f[54] = tpl(54) | b0.p<<3 | b0vl
	f[55] = tpl(55) | s1.p<<3 | s1vr
	f[56] = tpl(56) | s1.p<<3 | s1vl
	// Children.
	f[57] = tpl(57) | s0l.wp<<P | s0l.l
	f[58] = tpl(58) | s0r.wp<<P | s0r.l
	f[59] = tpl(59) | b0l.wp<<P | b0l.l
	f[60] = tpl(60) | s1l.wp<<P | s1l.l
	f[61] = tpl(61) | s1r.wp<<P | s1r.l
	f[62] = tpl(62) | s0l2.wp<<P | s0l2.l
	f[63] = tpl(63) | s0r2.wp<<P | s0r2.l
	f[64] = tpl(64) | b0l2.wp<<P | b0l2.l
	f[65] = tpl(65) | (s0.p<<P|s0l.p)<<P | s0l2.p
	f[66] = tpl(66) | (s0.p<<P|s0r.p)<<P | s0r2.p
	f[67] = tpl(67) | (b0.p<<P|b0l.p)<<P | b0l2.p
	f[68] = tpl(68) | (s0.p<<P|s0l.l)<<P | s0r.l
	f[69] = tpl(69) | (b0.p<<P|b0l.l)<<P | s0.p
	// Label sets (hashed separately: 64-bit sets).
	f[70] = tpl(70) | s0.wp ^ hashing.Fmix(s0rs)>>8
	f[71] = tpl(71) | s0.p ^ hashing.Fmix(s0rs^1)>>8
	f[72] = tpl(72) | s0.wp ^ hashing.Fmix(s0ls)>>8
	f[73] = tpl(73) | b0.wp ^ hashing.Fmix(b0ls)>>8
	f[74] = tpl(74) | b0.p ^ hashing.Fmix(b0ls^1)>>8
	f[75] = tpl(75) | s1.p ^ hashing.Fmix(s1rs)>>8
	// Word clusters (c fine, 10 bits; k coarse, 7 bits).
	f[76] = tpl(76) | s0.c
	f[77] = tpl(77) | b0.c
	f[78] = tpl(78) | b1.c
	f[79] = tpl(79) | s1.c
	f[80] = tpl(80) | s0.c<<10 | b0.c
	f[81] = tpl(81) | s0.c<<P | b0.p
	f[82] = tpl(82) | s0.p<<10 | b0.c
	f[83] = tpl(83) | s1.c<<10 | s0.c
	f[84] = tpl(84) | (s1.k<<7|s0.k)<<7 | b0.k
	f[85] = tpl(85) | (s0.k<<7|b0.k)<<7 | b1.k
	// Pairs b0–b1.
	f[86] = tpl(86) | b0.w<<wordBits | b1.w
	f[87] = tpl(87) | b0.wp<<P | b1.p
	f[88] = tpl(88) | b0.p<<W | b1.wp
}

// labelFeatures writes the hashed features for labelling the arc h → d. dir separates the
// weights of left and right arcs.
func (st *state) labelFeatures(ws, ps, cs []uint32, h, d int32, f *[numLabFeats]uint64) {
	ht, dt := st.tokAt(ws, ps, cs, h), st.tokAt(ws, ps, cs, d)
	dir := uint64(0)
	if d > h {
		dir = 1
	}
	const W = wordBits + tagBits
	const P = tagBits
	pt := func(k int32) uint64 {
		if k < 1 || k > st.n {
			return 0
		}
		return uint64(ps[k])
	}
	dist := bucket(abs32(h - d))
	dl, dr := st.tokAt(ws, ps, cs, child(st.l1[d])), st.tokAt(ws, ps, cs, child(st.r1[d]))
	hl, hr := st.tokAt(ws, ps, cs, child(st.l1[h])), st.tokAt(ws, ps, cs, child(st.r1[h]))
	b := tpl(128) | dir<<55
	f[0] = b | tpl(0)
	f[1] = b | tpl(1) | dt.wp
	f[2] = b | tpl(2) | dt.w
	f[3] = b | tpl(3) | dt.p
	f[4] = b | tpl(4) | ht.wp
	f[5] = b | tpl(5) | ht.w
	f[6] = b | tpl(6) | ht.p
	f[7] = b | tpl(7) | ht.wp<<W | dt.wp
	f[8] = b | tpl(8) | ht.w<<wordBits | dt.w
	f[9] = b | tpl(9) | ht.p<<P | dt.p
	f[10] = b | tpl(10) | ht.wp<<P | dt.p
	f[11] = b | tpl(11) | ht.p<<W | dt.wp
	f[12] = b | tpl(12) | (ht.p<<P|dt.p)<<3 | dist
	f[13] = b | tpl(13) | dt.w<<3 | dist
	f[14] = b | tpl(14) | (ht.p<<P|dt.p)<<P | pt(d-1)
	f[15] = b | tpl(15) | (ht.p<<P|dt.p)<<P | pt(d+1)
	f[16] = b | tpl(16) | (ht.p<<P|dt.p)<<P | pt(h-1)
	f[17] = b | tpl(17) | (ht.p<<P|dt.p)<<P | pt(h+1)
	f[18] = b | tpl(18) | dt.p ^ hashing.Fmix(st.lset[d])>>8
	f[19] = b | tpl(19) | dt.p ^ hashing.Fmix(st.rset[d])>>8
	f[20] = b | tpl(20) | (dt.p<<P|dl.p)<<P | dl.l
	f[21] = b | tpl(21) | (dt.p<<P|dr.p)<<P | dr.l
	f[22] = b | tpl(22) | (ht.p<<P|dt.p)<<P | hl.l
	f[23] = b | tpl(23) | (ht.p<<P|dt.p)<<P | hr.l
	f[24] = b | tpl(24) | ht.p ^ hashing.Fmix(st.lset[h]|st.rset[h]<<32)>>8
	f[25] = b | tpl(25) | dt.w<<W | dl.wp
	f[26] = b | tpl(26) | dt.c
	f[27] = b | tpl(27) | ht.c
	f[28] = b | tpl(28) | ht.c<<10 | dt.c
	f[29] = b | tpl(29) | ht.p<<10 | dt.c
	f[30] = b | tpl(30) | ht.c<<P | dt.p
	f[31] = b | tpl(31) | (dt.p<<P|dl.p)<<10 | dl.c
}
