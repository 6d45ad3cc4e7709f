package clusters

import (
	"slices"
	"testing"
)

// corpus has days and cities in the same slots.
func corpus() [][]string {
	var out [][]string
	days := []string{"monday", "tuesday", "friday"}
	cities := []string{"paris", "london", "rome"}
	for i := range 60 {
		d, c := days[i%3], cities[(i/3)%3]
		out = append(out, []string{"we", "met", "on", d, "in", c, "."})
		out = append(out, []string{"they", "left", c, "on", d, "."})
	}
	return out
}

func TestLearn(t *testing.T) {
	for _, o := range []Options{
		{MinCount: 2, Contexts: 20, Fine: 4, Coarse: 2, Iterations: 5},
		{MinCount: 2, Contexts: 20, Fine: 4, Coarse: 2, Iterations: 5, SpreadSeeds: true, BoundariesLast: true, ScaleByInverse: true},
	} {
		r, err := Learn(slices.Values(corpus()), o)
		if err != nil {
			t.Fatal(err)
		}
		// "on" (120) and "." (120) come first, by key; then the days and cities (40 each).
		if len(r.Words) != 13 || r.Words[0] != "." || r.Words[1] != "on" || len(r.Fine) != 13 || len(r.Coarse) != 4 {
			t.Fatalf("%+v: words %q, %d fine, %d coarse", o, r.Words, len(r.Fine), len(r.Coarse))
		}
		cl := map[string]uint16{}
		for i, w := range r.Words {
			cl[w] = r.Fine[i]
		}
		if cl["monday"] != cl["friday"] || cl["paris"] != cl["rome"] {
			t.Errorf("%+v: words of the same contexts apart: %v", o, cl)
		}
	}
	for _, o := range []Options{{MinCount: 2, Contexts: 20, Fine: 0, Coarse: 2}, {MinCount: 0, Contexts: 20, Fine: 4, Coarse: 2}, {MinCount: 2, Contexts: 20, Fine: 40, Coarse: 2}} {
		if _, err := Learn(slices.Values(corpus()), o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}
