package evaluate

import (
	"fmt"
	"math"

	"github.com/qsc-nlp/qsc/lm"
	"github.com/qsc-nlp/qsc/metrics"
)

// SLOR returns the SLOR under m of each compression kept[i] of test tuple i: NaN for an
// empty one (a method without the query may keep nothing), which the report leaves out.
func (t *Test) SLOR(m *lm.Model, kept [][]int) ([]float64, error) {
	out := make([]float64, len(kept))
	for i, k := range kept {
		if len(k) == 0 {
			out[i] = math.NaN()
			continue
		}
		v, err := m.SLORTokens(t.Inputs[i].Sentence.Forms(), k)
		if err != nil {
			return nil, fmt.Errorf("tuple %s: %w", t.Tuples[i].ID, err)
		}
		out[i] = v
	}
	return out, nil
}

// GoldCR returns the mean compression ratio of the gold compressions of t's tuples.
func (t *Test) GoldCR() (float64, error) {
	var crs []float64
	for _, tu := range t.Tuples {
		r, err := tu.GoldRatio()
		if err != nil {
			return 0, err
		}
		crs = append(crs, r)
	}
	cr, _ := metrics.Mean(crs)
	return cr, nil
}
