package annotation

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/qsc-nlp/qsc/syntax"
)

// testTables are small tag and label tables.
func testTables(t testing.TB) *Tables {
	t.Helper()
	tb, err := NewTables([]string{"NNP", "VBD", "CD", "NNS", ".", "IN", "NN"}, []string{"root", "nsubj", "obj", "nummod", "punct", "obl", "case"})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

const testText = "Police arrested two men.  They  were   released on bail."

// tok returns a token of testText: the form's first occurrence from *at on.
func tok(t testing.TB, at *int, form, xpos string, head int, rel string) syntax.Token {
	t.Helper()
	i := strings.Index(testText[*at:], form)
	if i < 0 {
		t.Fatalf("%q not in the text after %d", form, *at)
	}
	s := *at + i
	*at = s + len(form)
	return syntax.Token{Form: form, XPOS: xpos, Head: head, Rel: rel, Start: s, End: s + len(form)}
}

// testSentences are the parsed sentences of testText.
func testSentences(t testing.TB) [][]syntax.Token {
	at := 0
	return [][]syntax.Token{
		{tok(t, &at, "Police", "NNP", 2, "nsubj"), tok(t, &at, "arrested", "VBD", 0, "root"), tok(t, &at, "two", "CD", 4, "nummod"),
			tok(t, &at, "men", "NNS", 2, "obj"), tok(t, &at, ".", ".", 2, "punct")},
		{tok(t, &at, "They", "NNP", 3, "nsubj"), tok(t, &at, "were", "VBD", 3, "nsubj"), tok(t, &at, "released", "VBD", 0, "root"),
			tok(t, &at, "on", "IN", 5, "case"), tok(t, &at, "bail", "NN", 3, "obl"), tok(t, &at, ".", ".", 3, "punct")},
	}
}

var testModels = Models{Tagger: ModelID{1, 2, 3, 4, 5, 6, 7, 8}, Parser: ModelID{0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87}}

// testAnnotation returns the annotation of testText.
func testAnnotation(t testing.TB, tables bool) *Annotation {
	t.Helper()
	tb := testTables(t)
	var a Annotation
	a.Reset(testModels, testText)
	for _, s := range testSentences(t) {
		if err := a.AddSentence(s, tb); err != nil {
			t.Fatal(err)
		}
	}
	if tables {
		a.Tables = tb
	}
	return &a
}

func TestRoundTrip(t *testing.T) {
	tb := testTables(t)
	for _, tables := range []bool{false, true} {
		a := testAnnotation(t, tables)
		data, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var b Annotation
		if err := Decode(data, &b); err != nil {
			t.Fatalf("tables %v: %v", tables, err)
		}
		if err := b.CheckText(testText); err != nil {
			t.Fatal(err)
		}
		if b.Models != testModels || b.Len() != 2 || b.Tokens() != 11 {
			t.Fatalf("tables %v: decoded models %v, %d sentences, %d tokens", tables, b.Models, b.Len(), b.Tokens())
		}
		if (b.Tables != nil) != tables {
			t.Fatalf("tables %v: decoded tables %v", tables, b.Tables)
		}
		var got []syntax.Token
		for j := range b.Len() {
			if got, err = b.AppendSentence(got[:0], j, testText, tb); err != nil {
				t.Fatal(err)
			}
			want := testSentences(t)[j]
			if len(got) != len(want) {
				t.Fatalf("sentence %d: %d tokens, want %d", j, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("sentence %d token %d: got %+v, want %+v", j, i, got[i], want[i])
				}
			}
		}
		again, err := b.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("tables %v: re-encoding differs (%v)", tables, err)
		}
		// The JSON form round-trips to the same binary form.
		js, err := json.Marshal(&b)
		if err != nil {
			t.Fatal(err)
		}
		var c Annotation
		if err := json.Unmarshal(js, &c); err != nil {
			t.Fatalf("%v\n%s", err, js)
		}
		if fromJSON, err := c.MarshalBinary(); err != nil || !bytes.Equal(fromJSON, data) {
			t.Fatalf("tables %v: JSON round trip differs (%v)\n%s", tables, err, js)
		}
		if tables && !strings.Contains(string(js), `"xpos":"NNP"`) {
			t.Errorf("JSON form has no tag names: %s", js)
		}
	}
}

// TestSize checks the layout of the documented common case: 4 bytes per token.
func TestSize(t *testing.T) {
	a := testAnnotation(t, false)
	data, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// header 22, text size 1, text crc 4, sentence count 1, 2 token counts, 11 tokens of
	// 4 bytes but "released" (after 3 spaces: its gap takes a byte more), checksum 4.
	if want := 22 + 1 + 4 + 1 + 2 + 11*4 + 1 + 4; len(data) != want {
		t.Errorf("%d bytes, want %d", len(data), want)
	}
}

func TestCheckText(t *testing.T) {
	a := testAnnotation(t, false)
	for _, text := range []string{testText + " ", strings.Replace(testText, "two", "six", 1)} {
		if err := a.CheckText(text); !errors.Is(err, ErrText) {
			t.Errorf("CheckText(%q) = %v, want ErrText", text, err)
		}
	}
}

// reseal replaces the checksum of data after an edit.
func reseal(data []byte) []byte {
	body := data[:len(data)-4]
	return binary.LittleEndian.AppendUint32(body[:len(body):len(body)], crc32.Update(0, castagnoli, body))
}

func TestDecodeErrors(t *testing.T) {
	good, err := testAnnotation(t, true).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrForeign},
		{"foreign", []byte("QSCMODEL\x06tagger"), ErrForeign},
		{"gzip", []byte{0x1f, 0x8b, 8, 0}, ErrForeign},
		{"magic only", []byte(Magic), ErrTruncated},
		{"header cut", good[:headerSize-1], ErrTruncated},
		{"version 2", edit(func(b []byte) []byte { b[4] = 2; return b }), ErrVersion},
		{"cut before checksum", good[:len(good)-4], ErrChecksum},
		{"cut in the middle", good[:len(good)/2], ErrChecksum},
		{"flipped bit", edit(func(b []byte) []byte { b[len(b)/2] ^= 4; return b }), ErrChecksum},
		{"trailing byte", append(bytes.Clone(good), 0), ErrChecksum},
		{"unknown flag", edit(func(b []byte) []byte { b[5] |= 0x80; return reseal(b) }), ErrInvalid},
	}
	// A cycle: in the encoding of "Police" (offsets 5<<2, tag 0, head zigzag(+1) = 2, label
	// 1) make the head of "arrested" (0: root) point to "Police": zigzag(-1) = 1.
	i := bytes.Index(good, []byte{5 << 2, 0, 2, 1, 7<<2 | 1, 1, 0, 0})
	if i < 0 {
		t.Fatal("layout of the first tokens changed")
	}
	cyc := bytes.Clone(good)
	cyc[i+6] = 1
	cases = append(cases, struct {
		name string
		data []byte
		want error
	}{"cycle", reseal(cyc), ErrInvalid})
	outside := bytes.Clone(good)
	outside[i+6] = 2 * 40 // head +40 in a 5-token sentence
	cases = append(cases, struct {
		name string
		data []byte
		want error
	}{"head out of range", reseal(outside), ErrInvalid})
	for _, c := range cases {
		var a Annotation
		err := Decode(c.data, &a)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: Decode error %v, want %v", c.name, err, c.want)
		}
	}
}

func TestAddSentenceErrors(t *testing.T) {
	tb := testTables(t)
	var a Annotation
	a.Reset(testModels, testText)
	good := testSentences(t)[0]
	for name, edit := range map[string]func(s []syntax.Token){
		"unknown tag":   func(s []syntax.Token) { s[1].XPOS = "VBZ" },
		"unknown label": func(s []syntax.Token) { s[1].Rel = "xcomp" },
		"cycle":         func(s []syntax.Token) { s[1].Head = 1 },
		"no offsets":    func(s []syntax.Token) { s[2].Start, s[2].End = -1, -1 },
		"beyond text":   func(s []syntax.Token) { s[4].End = len(testText) + 1 },
	} {
		s := append([]syntax.Token(nil), good...)
		edit(s)
		if err := a.AddSentence(s, tb); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: AddSentence error %v, want ErrInvalid", name, err)
		}
		if a.Tokens() != 0 || a.Len() != 0 {
			t.Fatalf("%s: a failed AddSentence left %d tokens", name, a.Tokens())
		}
	}
	if err := a.AddSentence(good, tb); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AppendSentence(nil, 0, testText, &Tables{Tags: tb.Tags[:1], Labels: tb.Labels}); !errors.Is(err, ErrInvalid) {
		t.Errorf("AppendSentence with a short table: %v, want ErrInvalid", err)
	}
}

func TestTables(t *testing.T) {
	if _, err := NewTables([]string{"NN", "NN"}, nil); err == nil {
		t.Error("duplicate tag accepted")
	}
	if _, err := NewTables([]string{""}, nil); err == nil {
		t.Error("empty tag accepted")
	}
	if _, err := NewTables(make([]string, MaxTableSize+1), nil); err == nil {
		t.Error("oversized table accepted")
	}
}

// TestDecodeAllocs checks that decoding again into the same Annotation allocates nothing.
func TestDecodeAllocs(t *testing.T) {
	data, err := testAnnotation(t, false).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var a Annotation
	if err := Decode(data, &a); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := Decode(data, &a); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Decode into a used Annotation: %.0f allocations, want 0", n)
	}
}
