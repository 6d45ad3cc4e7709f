package annotation

import (
	"bytes"
	"testing"
)

// FuzzDecode decodes arbitrary bytes: Decode must never panic, and what it accepts must
// encode back to the same bytes and survive the JSON form.
func FuzzDecode(f *testing.F) {
	for _, tables := range []bool{false, true} {
		data, err := testAnnotation(f, tables).MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
		f.Add(reseal(bytes.Clone(data[:len(data)-9])))
	}
	f.Add([]byte(Magic + "\x01\x00"))
	var a Annotation
	f.Fuzz(func(t *testing.T, data []byte) {
		// The bytes as they are (the checksum rejects nearly every mutation), then with a
		// valid checksum, so that the fuzzer reaches the parsing behind it.
		roundTrip(t, &a, data)
		if len(data) >= 4 {
			roundTrip(t, &a, reseal(bytes.Clone(data)))
		}
	})
}

// roundTrip decodes data and, when it is accepted, checks that it encodes back to data and
// that its JSON form reads back.
func roundTrip(t *testing.T, a *Annotation, data []byte) {
	if err := Decode(data, a); err != nil {
		return
	}
	again, err := a.MarshalBinary()
	if err != nil {
		t.Fatalf("decoded annotation does not encode: %v", err)
	}
	if !bytes.Equal(again, data) {
		t.Fatalf("re-encoding differs:\n got %x\nwant %x", again, data)
	}
	js, err := a.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	var b Annotation
	if err := b.UnmarshalJSON(js); err != nil {
		t.Fatalf("UnmarshalJSON of MarshalJSON: %v\n%s", err, js)
	}
}
