package all_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	_ "github.com/qsc-nlp/qsc/all"
	"github.com/qsc-nlp/qsc/internal/core/modelfile"
	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/parser"
	"github.com/qsc-nlp/qsc/tagger"
)

// loaders returns, for every embedded model file, the functions that open it: the tagger
// and parser loaders, and every registered method (package method) that reads the file. A file
// with no loader fails the test, so that a new model kind gets its integrity checked.
func loaders(t *testing.T) map[string]map[string]func([]byte) error {
	t.Helper()
	out := map[string]map[string]func([]byte) error{
		pipeline.TaggerName:     {"tagger.Load": func(b []byte) error { _, err := tagger.Load(b); return err }},
		pipeline.ParserName:     {"parser.Load": func(b []byte) error { _, err := parser.Load(b); return err }},
		pipeline.ParserBeamName: {"parser.Load": func(b []byte) error { _, err := parser.Load(b); return err }},
	}
	for _, e := range method.All() {
		if e.File == "" {
			continue
		}
		if out[e.File] == nil {
			out[e.File] = map[string]func([]byte) error{}
		}
		out[e.File]["method "+e.Name] = func(b []byte) error { _, err := method.Open(e.Name, b, 1); return err }
	}
	for _, name := range modelfile.EmbeddedNames() {
		if len(out[name]) == 0 {
			t.Errorf("embedded model %s has no loader in this test or in package method", name)
		}
	}
	return out
}

// header returns the offsets in a model file of the kind, the version, the payload length
// and the payload, and the file's kind and version.
func header(t *testing.T, data []byte) (kindAt, versionAt, lengthAt, payloadAt int, kind string, version uint16) {
	t.Helper()
	if len(data) < 9 || string(data[:8]) != modelfile.Magic {
		t.Fatal("not a model file")
	}
	kindAt = 9
	versionAt = kindAt + int(data[8])
	lengthAt = versionAt + 2
	payloadAt = lengthAt + 8
	return kindAt, versionAt, lengthAt, payloadAt, string(data[kindAt:versionAt]), binary.LittleEndian.Uint16(data[versionAt:])
}

// corruption is a damaged copy of a model file and the problem its error must name.
type corruption struct {
	name string
	data []byte
	want []error  // the error must match one of these (any error when empty)
	msg  []string // and its message contain one of these
}

// corruptions returns truncations at several points and byte flips in every part of the
// container.
func corruptions(t *testing.T, data []byte) []corruption {
	kindAt, versionAt, lengthAt, payloadAt, _, _ := header(t, data)
	n := len(data)
	truncated := []string{"truncated"}
	checksum := []string{"checksum mismatch (corrupt file)"}
	var cs []corruption
	for _, at := range []int{0, 4, 8, 9, versionAt, lengthAt + 3, payloadAt, payloadAt + 1, payloadAt + (n-payloadAt)/2, n - 32, n - 1} {
		want, msg := []error{modelfile.ErrTruncated}, truncated
		if at < len(modelfile.Magic) {
			want, msg = []error{modelfile.ErrMagic}, []string{"not a qsc model file (bad magic header)"}
		}
		cs = append(cs, corruption{fmt.Sprintf("truncated to %d of %d bytes", at, n), data[:at:at], want, msg})
	}
	flip := func(name string, at int, want []error, msg ...string) {
		d := append([]byte(nil), data...)
		d[at] ^= 0xFF
		cs = append(cs, corruption{fmt.Sprintf("%s: byte %d flipped", name, at), d, want, msg})
	}
	flip("magic", 0, []error{modelfile.ErrMagic}, "bad magic header")
	flip("kind", kindAt, nil, "model file holds a", "model, want")
	flip("version", versionAt, []error{modelfile.ErrChecksum}, checksum...)
	flip("payload length", lengthAt, nil, "truncated", "unexpected trailing bytes") // shorter or longer
	flip("payload length, high byte", lengthAt+7, []error{modelfile.ErrTruncated}, "truncated")
	for _, at := range []int{payloadAt, payloadAt + (n-payloadAt)/3, n - 33} {
		flip("payload", at, []error{modelfile.ErrChecksum}, checksum...)
	}
	flip("checksum", n-1, []error{modelfile.ErrChecksum}, checksum...)
	cs = append(cs, corruption{"trailing bytes", append(append([]byte(nil), data...), 0, 0, 0), nil, []string{"3 unexpected trailing bytes"}})
	return cs
}

// TestModelIntegrity damages every embedded model file, by truncating it at several points
// and flipping bytes of its magic header, kind, version, length, payload and checksum, and
// checks that every loader of the file rejects each damaged copy with an error that names
// the problem (truncated, checksum mismatch, bad magic header, wrong kind, trailing
// bytes), and that a loader given another kind's file says so.
func TestModelIntegrity(t *testing.T) {
	all := loaders(t)
	for _, name := range modelfile.EmbeddedNames() {
		data, err := modelfile.Embedded(name)
		if err != nil {
			t.Fatal(err)
		}
		_, _, _, _, kind, _ := header(t, data)
		for loader, load := range all[name] {
			t.Run(name+"/"+loader, func(t *testing.T) {
				if err := load(data); err != nil {
					t.Fatalf("the intact file: %v", err)
				}
				for _, c := range corruptions(t, data) {
					err := load(c.data)
					if err == nil {
						t.Errorf("%s: no error", c.name)
						continue
					}
					ok := len(c.want) == 0
					for _, w := range c.want {
						ok = ok || errors.Is(err, w)
					}
					named := false
					for _, m := range c.msg {
						named = named || strings.Contains(err.Error(), m)
					}
					if !ok || !named {
						t.Errorf("%s: error %q, want one matching %v that says %q", c.name, err, c.want, c.msg)
					}
				}
				for _, other := range modelfile.EmbeddedNames() {
					odata, _ := modelfile.Embedded(other)
					if _, _, _, _, okind, _ := header(t, odata); okind != kind {
						if err := load(odata); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("holds a %q model", okind)) {
							t.Errorf("given %s (kind %q): error %v, want one naming the kind", other, okind, err)
						}
						break
					}
				}
			})
		}
	}
}

// TestResealedCorruptPayload damages the payload of every embedded model file and seals
// it again with a valid checksum (as a buggy writer would): the loader must return an
// error or a model, never panic.
func TestResealedCorruptPayload(t *testing.T) {
	all := loaders(t)
	for _, name := range modelfile.EmbeddedNames() {
		data, _ := modelfile.Embedded(name)
		_, _, _, payloadAt, kind, version := header(t, data)
		payload := data[payloadAt : len(data)-32]
		if len(all[name]) == 0 {
			continue // reported by loaders
		}
		// The methods that read one file share its loader: try the first.
		loader := slices.Min(slices.Collect(maps.Keys(all[name])))
		load := all[name][loader]
		t.Run(name+"/"+loader, func(t *testing.T) {
			var damaged [][]byte
			for _, frac := range []int{0, 1, 50, 99} {
				damaged = append(damaged, payload[:len(payload)*frac/100])
				flipped := append([]byte(nil), payload...)
				for k := len(payload) * frac / 100; k < len(payload) && k < len(payload)*frac/100+8; k++ {
					flipped[k] ^= 0xFF
				}
				damaged = append(damaged, flipped)
			}
			for i, p := range damaged {
				sealed, err := modelfile.Encode(kind, version, p)
				if err != nil {
					t.Fatal(err)
				}
				func() {
					defer func() {
						if v := recover(); v != nil {
							t.Errorf("damaged payload %d (%d bytes): panic %v", i, len(p), v)
						}
					}()
					load(sealed)
				}()
			}
		})
	}
}
