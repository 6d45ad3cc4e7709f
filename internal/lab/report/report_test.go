package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// synthetic returns results for n sentences of five methods: LR better than the ILP in
// F1, worse in SLOR (paired: the ILP's values are LR's shifted, with noise), ten times
// faster; ABLATED without SLOR; an unknown method second.
func synthetic(n int) Input {
	rng := rand.New(rand.NewPCG(1, 2))
	noise := func(mean, sd float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = mean + sd*rng.NormFloat64()
		}
		return xs
	}
	lat := func(ms, sigma float64, k int) []time.Duration {
		ds := make([]time.Duration, k)
		for i := range ds {
			ds[i] = time.Duration(ms * 1e6 * math.Exp(sigma*rng.NormFloat64()))
		}
		return ds
	}
	shift := func(xs []float64, by, sd float64) []float64 {
		out := make([]float64, len(xs))
		for i, x := range xs {
			out[i] = x + by + sd*rng.NormFloat64()
		}
		return out
	}
	lrF1, lrSLOR := noise(0.88, 0.1), noise(0.74, 0.5)
	return Input{
		GoldCR: 0.41,
		Seed:   7,
		Note:   "Synthetic results.",
		Methods: []Method{
			{Name: "lr", F1: lrF1, CR: noise(0.40, 0.05), SLOR: lrSLOR, Latency: lat(0.012, 0.3, 400)},
			{Name: "mystery", F1: noise(0.5, 0.1), CR: noise(0.3, 0.05)},
			{Name: "ilp", F1: shift(lrF1, -0.03, 0.05), CR: noise(0.41, 0.05), SLOR: shift(lrSLOR, 0.02, 0.1), Latency: lat(0.12, 0.6, 300)},
			{Name: "random", F1: noise(0.65, 0.1), CR: noise(0.40, 0.05), SLOR: noise(0.38, 0.5), Latency: lat(0.001, 0.2, 100)},
			{Name: "ablated", F1: noise(0.83, 0.1), CR: noise(0.39, 0.05)},
		},
	}
}

func TestBuild(t *testing.T) {
	in := synthetic(300)
	r, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, row := range r.Rows {
		order = append(order, row.Method)
	}
	if got := strings.Join(order, ","); got != "random,ablated,ilp,lr,mystery" {
		t.Errorf("row order %s: want the paper's, then the others", got)
	}
	lr := r.row("lr")
	mean := 0.0
	for _, x := range in.Methods[0].F1 {
		mean += x
	}
	if math.Abs(lr.F1-mean/300) > 1e-12 || lr.Paper == nil || lr.Paper.F1 != 0.881 || lr.Paper.LatencyMS != 4.1 {
		t.Errorf("lr row %+v: F1 want %g, paper 0.881 / 4.1 ms", lr, mean/300)
	}
	if r.row("ablated").SLOR != nil || r.row("mystery").Paper != nil || r.row("mystery").Latency != nil {
		t.Error("missing SLOR, paper figures or latencies should stay missing")
	}
	if g := r.row("lr").Latency.GeoMean; g < 10*time.Microsecond || g > 14*time.Microsecond {
		t.Errorf("lr geometric mean %s, want about 12 µs", g)
	}
	if len(r.Significance) != 2 {
		t.Fatalf("%d tests, want F1 and SLOR", len(r.Significance))
	}
	f1, slor := r.Significance[0], r.Significance[1]
	if f1.Metric != "F1" || f1.Better != "lr" || f1.Worse != "ilp" || !(f1.Delta > 0) || f1.P >= 0.01 || f1.Samples != 10000 {
		t.Errorf("F1 test %+v: want lr better, p < .01, 10,000 samples", f1)
	}
	if slor.Metric != "SLOR" || slor.Better != "ilp" || !(slor.Delta > 0) {
		t.Errorf("SLOR test %+v: want the ILP better", slor)
	}
}

func TestBuildErrors(t *testing.T) {
	good := synthetic(10)
	cases := map[string]func(in *Input){
		"no methods":    func(in *Input) { in.Methods = nil },
		"repeated name": func(in *Input) { in.Methods[1].Name = "lr" },
		"empty name":    func(in *Input) { in.Methods[1].Name = "" },
		"short F1":      func(in *Input) { in.Methods[2].F1 = in.Methods[2].F1[:9] },
		"short SLOR":    func(in *Input) { in.Methods[2].SLOR = in.Methods[2].SLOR[:3] },
		"no sentences": func(in *Input) {
			for i := range in.Methods {
				in.Methods[i].F1, in.Methods[i].CR, in.Methods[i].SLOR = []float64{}, []float64{}, nil
			}
		},
		"negative latency": func(in *Input) { in.Methods[0].Latency[0] = -1 },
		"NaN F1":           func(in *Input) { in.Methods[0].F1[0] = math.NaN() },
	}
	for name, mutate := range cases {
		in := good
		in.Methods = make([]Method, len(good.Methods))
		for i, m := range good.Methods {
			m.F1, m.CR, m.SLOR = append([]float64(nil), m.F1...), append([]float64(nil), m.CR...), append([]float64(nil), m.SLOR...)
			if good.Methods[i].SLOR == nil {
				m.SLOR = nil
			}
			m.Latency = append([]time.Duration(nil), m.Latency...)
			in.Methods[i] = m
		}
		mutate(&in)
		if _, err := Build(in); !errors.Is(err, ErrInput) {
			t.Errorf("%s: error %v, want ErrInput", name, err)
		}
	}
}

// TestWriteGolden compares the Markdown and JSON with the golden files (go test
// -update rewrites them).
func TestWriteGolden(t *testing.T) {
	r, err := Build(synthetic(300))
	if err != nil {
		t.Fatal(err)
	}
	var md, js bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, g := range []struct {
		file string
		got  []byte
	}{{"testdata/golden.md", md.Bytes()}, {"testdata/golden.json", js.Bytes()}} {
		if *update {
			if err := os.WriteFile(g.file, g.got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(g.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g.got, want) {
			t.Errorf("%s differs (go test -update to accept):\n%s", g.file, g.got)
		}
	}
	// The JSON reads back.
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Rows) != 5 {
		t.Errorf("JSON does not read back: %v", err)
	}
}

// TestMarkdownNoILP checks the report of methods without the ILP.
func TestMarkdownNoILP(t *testing.T) {
	in := synthetic(20)
	in.Methods = in.Methods[:2]
	r, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	r.WriteMarkdown(&md)
	if !strings.Contains(md.String(), "Not computed: needs both lr and ilp.") || strings.Contains(md.String(), "latency:") {
		t.Errorf("markdown without the ILP:\n%s", md.String())
	}
}

func TestFigure(t *testing.T) {
	r, err := Build(synthetic(50))
	if err != nil {
		t.Fatal(err)
	}
	var svg1, svg2, png1, png2 bytes.Buffer
	for _, c := range []struct {
		w      io.Writer
		format string
	}{{&svg1, "svg"}, {&svg2, "svg"}, {&png1, "png"}, {&png2, "png"}} {
		if err := r.WriteFigure(c.w, c.format); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(svg1.Bytes(), svg2.Bytes()) || !bytes.Equal(png1.Bytes(), png2.Bytes()) {
		t.Error("the same report gave different figure bytes")
	}
	img, err := png.Decode(bytes.NewReader(png1.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 480 {
		t.Errorf("PNG %v, want 1200×480 (8 × 3.2 in at 150 dpi)", b)
	}
	dec := xml.NewDecoder(bytes.NewReader(svg1.Bytes()))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
	}
	for _, want := range []string{"VERTEX ADDITION_LR (n = 400)", "ILP (n = 300)", "log10 latency (ms)", "geometric mean"} {
		if !strings.Contains(svg1.String(), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if err := r.WriteFigure(io.Discard, "pdf"); !errors.Is(err, ErrInput) {
		t.Errorf("pdf: error %v, want ErrInput", err)
	}
}

// TestDensity checks the kernel density estimate: it integrates to about 1 and peaks
// near the mode of a normal sample.
func TestDensity(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, 5000)
	for i := range xs {
		xs[i] = 2 + 0.5*rng.NormFloat64()
	}
	slices.Sort(xs)
	d := estimate(xs, -1, 5)
	var area, peakX, peakY float64
	for i := 1; i < len(d.xs); i++ {
		area += (d.xs[i] - d.xs[i-1]) * (d.ys[i] + d.ys[i-1]) / 2
		if d.ys[i] > peakY {
			peakX, peakY = d.xs[i], d.ys[i]
		}
	}
	if math.Abs(area-1) > 0.01 || math.Abs(peakX-2) > 0.1 || math.Abs(peakY-1/(0.5*math.Sqrt(2*math.Pi))) > 0.08 {
		t.Errorf("density: area %.4f, peak %.3f at %.3f; want 1, about 0.80 at 2", area, peakY, peakX)
	}
}

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Write(dir, synthetic(30)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{MarkdownFile, JSONFile, FigureSVG, FigurePNG} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// Without LR or ILP latencies there is no figure.
	in := synthetic(30)
	for i := range in.Methods {
		in.Methods[i].Latency = nil
	}
	dir2 := filepath.Join(t.TempDir(), "out2")
	if _, err := Write(dir2, in); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir2, FigureSVG)); !os.IsNotExist(err) {
		t.Errorf("figure written without latencies: %v", err)
	}
}

// TestMeanStdEmpty checks that the SLOR of empty compressions (NaN) is left out and
// counted.
func TestMeanStdEmpty(t *testing.T) {
	mean, std, empty := meanStd([]float64{1, math.NaN(), 3})
	if mean != 2 || std != 1 || empty != 1 {
		t.Errorf("meanStd = %v, %v, %d; want 2, 1, 1", mean, std, empty)
	}
	if mean, _, empty := meanStd([]float64{math.NaN()}); !math.IsNaN(mean) || empty != 1 {
		t.Errorf("all empty: %v, %d", mean, empty)
	}
}

// TestFinitePairs checks that the SLOR significance test can leave out, and count, the
// sentences where either compression is empty (NaN SLOR) instead of failing on them.
func TestFinitePairs(t *testing.T) {
	a, b, left := finitePairs([]float64{2, math.NaN(), 3, 2.5, 4}, []float64{1, 1, math.NaN(), 1.5, 2})
	if left != 2 || !slices.Equal(a, []float64{2, 2.5, 4}) || !slices.Equal(b, []float64{1, 1.5, 2}) {
		t.Errorf("finitePairs = %v, %v, %d", a, b, left)
	}
	tt, err := bootstrap("SLOR", "lr", "ilp", a, b, 100, 1)
	if err != nil || tt.Better != "lr" {
		t.Errorf("bootstrap = %+v, %v", tt, err)
	}
	if _, _, left := finitePairs([]float64{1, 2}, []float64{0, 1}); left != 0 {
		t.Errorf("finite scores: %d left out", left)
	}
	// In Build: an empty compression of LR leaves its sentence out of the SLOR test.
	in := synthetic(50)
	in.Methods[0].SLOR = slices.Clone(in.Methods[0].SLOR)
	in.Methods[0].SLOR[3] = math.NaN()
	r, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if len(r.Significance) != 2 || r.Significance[1].LeftOut != 1 || !strings.Contains(md.String(), "SLOR leaves out 1 sentences") {
		t.Errorf("significance %+v", r.Significance)
	}
}
