package prefilter

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/qsc-nlp/qsc/internal/core/langid"
	"github.com/qsc-nlp/qsc/internal/core/match"
	"github.com/qsc-nlp/qsc/internal/core/segment"
	"github.com/qsc-nlp/qsc/internal/core/stem"
)

// TestSkeletonInvariant checks, for every rune r, that the skeleton of r is that of its
// lower-case form, of its NFKC form, of its key in a language without an analyzer
// (segment.Key), of match.Fold and of stem.Key: the normalizations of the matchers'
// keys, less the stemming and the analyzers.
func TestSkeletonInvariant(t *testing.T) {
	bad := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := string(r)
		want := Skeleton(s)
		for _, c := range []struct{ name, form string }{
			{"lower", string(unicode.ToLower(r))},
			{"strings.ToLower", strings.ToLower(s)},
			{"NFKC", norm.NFKC.String(s)},
			{"NFC", norm.NFC.String(s)},
			{"segment.Key", segment.Key(s, "zz")},
			{"match.Fold", match.Fold(s)},
			{"stem.Key", stem.Key(match.Fold(s))},
			{"stem.Key lower", stem.Key(s)},
		} {
			if got := Skeleton(c.form); got != want {
				if bad++; bad <= 40 {
					t.Errorf("%U %q: skeleton %q, of its %s %q: %q", r, s, want, c.name, c.form, got)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d failures", bad)
	}
}

// TestSkeletonStrings checks the same on random strings of runes that compose, decompose
// and reorder (combining marks, jamo, kana and voicing marks, Arabic and Thai marks):
// normalizing a text never changes its skeleton.
func TestSkeletonStrings(t *testing.T) {
	pool := []rune("aeiouAEIOUnNcCsSß\u0300\u0301\u0308\u0323\u0327\u0338\u0345\u1100\u1161\u11a8\uac00\u3099\u309a\u304b\u30cf\uff76\uff9e\u0627\u0654\u0655\u064b\u0651\u0640\u0649\u0629\u0e01\u0e31\u0e48\u0e38\u0e33\u0915\u093c\u094d\u0930\u0928\u0902\u0901\u03a3\u03c2\u03f2\u1e9e\u0130\u0131 '’-.")
	rng := newRand(1)
	for range 200000 {
		n := 1 + rng.IntN(8)
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = pool[rng.IntN(len(pool))]
		}
		s := string(rs)
		want := Skeleton(s)
		for _, c := range []struct{ name, form string }{
			{"NFKC", norm.NFKC.String(s)},
			{"NFD", norm.NFD.String(s)},
			{"segment.Key", segment.Key(s, "zz")},
			{"match.Fold", match.Fold(s)},
			{"strings.ToLower", strings.ToLower(s)},
		} {
			if got := Skeleton(c.form); got != want {
				t.Fatalf("%+q: skeleton %+q, of its %s %+q: %+q", s, want, c.name, c.form, got)
			}
		}
	}
}

// TestSkeletonASCII checks the eight-bytes-at-a-time path against the byte loop: every
// ASCII byte in every position, and the scripts noted.
func TestSkeletonASCII(t *testing.T) {
	for c := 0; c < utf8.RuneSelf; c++ {
		for pos := range 17 {
			b := []byte(strings.Repeat(".", 17))
			b[pos] = byte(c)
			s := string(b)
			var sk Scratch
			sk.Read(s)
			mid := string(lowerASCII[c])
			if c == '-' {
				mid = "" // the hyphen has no skeleton
			}
			want := strings.Repeat(".", pos) + mid + strings.Repeat(".", 16-pos)
			letter := 'a' <= c|0x20 && c|0x20 <= 'z'
			if string(sk.buf) != want || sk.Scripts(langid.Latin) != letter {
				t.Fatalf("%q: skeleton %q, Latin %v; want %q, %v", s, sk.buf, sk.Scripts(langid.Latin), want, letter)
			}
		}
	}
}

func BenchmarkSkeleton(b *testing.B) {
	text := strings.Repeat("Police in Syracuse arrested two men on Tuesday after a six-month investigation. ", 12800)
	var sk Scratch
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		sk.Read(text)
	}
}
