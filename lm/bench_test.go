package lm

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func benchModel(b *testing.B) (*Model, [][]uint32) {
	b.Helper()
	text := readLines(b, "testdata/ewt500.txt", 0)
	m := trainString(b, text, Options{})
	var sents [][]uint32
	for _, s := range strings.Split(text, "\n") {
		var ids []uint32
		for _, w := range strings.Fields(s) {
			ids = append(ids, m.ID(w))
		}
		sents = append(sents, ids)
	}
	return m, sents
}

// condSorted is Cond with binary search in the sorted keys instead of the hash index:
// the baseline of BenchmarkCond.
func (m *Model) condSorted(ctx []uint32, w uint32) float32 {
	find := func(t *table, key uint64) int {
		i, ok := slices.BinarySearch(t.keys, key)
		if !ok {
			return -1
		}
		return i
	}
	var bo float32
	if len(ctx) >= 2 {
		a, b := ctx[len(ctx)-2], ctx[len(ctx)-1]
		if p := find(&m.grams[3], pack3(a, b, w)); p >= 0 {
			return m.grams[3].vals[p].LogProb
		}
		if p := find(&m.grams[2], pack2(a, b)); p >= 0 {
			bo += m.grams[2].vals[p].Backoff
		}
	}
	if len(ctx) >= 1 {
		b := ctx[len(ctx)-1]
		if p := find(&m.grams[2], pack2(b, w)); p >= 0 {
			return bo + m.grams[2].vals[p].LogProb
		}
		bo += m.uni[b].Backoff
	}
	return bo + m.uni[w].LogProb
}

// BenchmarkCond times one p(w | u v) over the fixture's trigrams, with the hash index
// and with binary search (the ratio is what the index buys; it grows with the model).
func BenchmarkCond(b *testing.B) {
	m, sents := benchModel(b)
	var queries [][3]uint32
	for _, s := range sents {
		for i := 2; i < len(s); i++ {
			queries = append(queries, [3]uint32{s[i-2], s[i-1], s[i]})
		}
	}
	for _, c := range []struct {
		name string
		f    func(ctx []uint32, w uint32) float32
	}{{"index", m.Cond}, {"binarysearch", m.condSorted}} {
		b.Run(c.name, func(b *testing.B) {
			var sink float32
			for i := 0; b.Loop(); i++ {
				q := &queries[i%len(queries)]
				sink += c.f(q[:2], q[2])
			}
			_ = sink
		})
	}
}

// BenchmarkSLOR times the SLOR of a whole sentence, from ids and from forms.
func BenchmarkSLOR(b *testing.B) {
	m, sents := benchModel(b)
	text := strings.Split(readLines(b, "testdata/ewt500.txt", 0), "\n")
	b.Run("ids", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if s := sents[i%len(sents)]; len(s) > 0 {
				m.SLORIDs(s)
			}
		}
	})
	b.Run("forms", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if s := strings.Fields(text[i%len(text)]); len(s) > 0 {
				m.SLOR(s)
			}
		}
	})
}

// BenchmarkTrain times training on the 500-sentence fixture (11,595 tokens).
func BenchmarkTrain(b *testing.B) {
	text := readLines(b, "testdata/ewt500.txt", 0)
	for b.Loop() {
		if _, err := Train(strings.NewReader(text), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadARPA times reading the fixture's model back from ARPA text.
func BenchmarkReadARPA(b *testing.B) {
	m, _ := benchModel(b)
	var buf bytes.Buffer
	if err := m.WriteARPA(&buf); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := ReadARPA(bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}
