package annotation

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// JSON is the JSON form of an annotation, for debugging: what Annotation.MarshalJSON
// writes and UnmarshalJSON reads. Token ids are the binary form's; names are filled from
// the tables when the annotation has them (and ignored when read back).
type JSON struct {
	Format    int           `json:"format"`
	Tagger    string        `json:"tagger"` // ModelID.String
	Parser    string        `json:"parser"`
	TextBytes int           `json:"text_bytes"`
	TextCRC   uint32        `json:"text_crc32c"`
	Tags      []string      `json:"tags,omitempty"`
	Labels    []string      `json:"labels,omitempty"`
	Sentences [][]JSONToken `json:"sentences"`
}

// JSONToken is one token of the JSON form.
type JSONToken struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Tag   uint8  `json:"tag"`
	XPOS  string `json:"xpos,omitempty"`
	Head  int    `json:"head"`
	Label uint8  `json:"label"`
	Rel   string `json:"rel,omitempty"`
}

// ToJSON returns the JSON form of a.
func (a *Annotation) ToJSON() *JSON {
	j := &JSON{Format: Version, Tagger: a.Models.Tagger.String(), Parser: a.Models.Parser.String(),
		TextBytes: a.TextLen, TextCRC: a.TextCRC, Sentences: make([][]JSONToken, a.Len())}
	if a.Tables != nil {
		j.Tags, j.Labels = a.Tables.Tags, a.Tables.Labels
	}
	for s := range j.Sentences {
		lo, hi := a.Sentence(s)
		toks := make([]JSONToken, hi-lo)
		for i := lo; i < hi; i++ {
			t := JSONToken{Start: int(a.Start[i]), End: int(a.End[i]), Tag: a.Tag[i], Head: int(a.Head[i]), Label: a.Label[i]}
			if a.Tables != nil && int(t.Tag) < len(a.Tables.Tags) && int(t.Label) < len(a.Tables.Labels) {
				t.XPOS, t.Rel = a.Tables.Tags[t.Tag], a.Tables.Labels[t.Label]
			}
			toks[i-lo] = t
		}
		j.Sentences[s] = toks
	}
	return j
}

// MarshalJSON writes the JSON form of a.
func (a *Annotation) MarshalJSON() ([]byte, error) {
	if err := a.validate(); err != nil {
		return nil, err
	}
	return json.Marshal(a.ToJSON())
}

// UnmarshalJSON reads the JSON form into a, with the same checks as Decode.
func (a *Annotation) UnmarshalJSON(data []byte) error {
	var j JSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	if j.Format != Version {
		return fmt.Errorf("%w %d (this build reads version %d)", ErrVersion, j.Format, Version)
	}
	var m Models
	for _, f := range []struct {
		name, hex string
		id        *ModelID
	}{{"tagger", j.Tagger, &m.Tagger}, {"parser", j.Parser, &m.Parser}} {
		b, err := hex.DecodeString(f.hex)
		if err != nil || len(b) != len(ModelID{}) {
			return fmt.Errorf("%w: %s id %q is not %d hexadecimal bytes", ErrInvalid, f.name, f.hex, len(ModelID{}))
		}
		copy(f.id[:], b)
	}
	a.Reset(m, "")
	a.TextLen, a.TextCRC = j.TextBytes, j.TextCRC
	if j.Tags != nil || j.Labels != nil {
		t, err := NewTables(j.Tags, j.Labels)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		a.Tables = t
	}
	for _, s := range j.Sentences {
		for _, t := range s {
			if t.Start < 0 || t.End > MaxTextBytes || t.Start > t.End {
				return fmt.Errorf("%w: token offsets [%d, %d)", ErrInvalid, t.Start, t.End)
			}
			a.Start = append(a.Start, int32(t.Start))
			a.End = append(a.End, int32(t.End))
			a.Tag = append(a.Tag, t.Tag)
			a.Head = append(a.Head, int32(min(max(t.Head, -1), MaxTextBytes)))
			a.Label = append(a.Label, t.Label)
		}
		a.Ends = append(a.Ends, int32(len(a.Start)))
	}
	return a.validate()
}
