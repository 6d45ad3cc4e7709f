package parser

import (
	"fmt"
	"strings"
	"testing"
)

// TestLexTablePut checks that a lexTable grown from one slot keeps every entry, long forms
// included, stays at most half full, and reports a form put twice.
func TestLexTablePut(t *testing.T) {
	lt := newLexTable(1)
	form := func(i int) string {
		if i%100 == 0 {
			return strings.Repeat("x", lexKeyLen+1) + fmt.Sprint(i) // kept in the map
		}
		return fmt.Sprint("w", i)
	}
	for i := range 1000 {
		if lt.put(form(i), uint64(i+1)) {
			t.Fatalf("put(%q): reported as there before", form(i))
		}
	}
	for i := range 1000 {
		if v, ok := lt.get(form(i)); !ok || v != uint64(i+1) {
			t.Fatalf("get(%q) = %d, %v; want %d", form(i), v, ok, i+1)
		}
	}
	if _, ok := lt.get("absent"); ok {
		t.Error(`get("absent") found an entry`)
	}
	if lt.n != 1000 || 2*(lt.n-len(lt.long)) > len(lt.slots) {
		t.Errorf("%d entries (%d long) in %d slots", lt.n, len(lt.long), len(lt.slots))
	}
	if !lt.put(form(7), 5) || !lt.put(form(100), 5) || lt.n != 1000 {
		t.Errorf("a second put of a form is not reported, or counted again (n = %d)", lt.n)
	}
}
