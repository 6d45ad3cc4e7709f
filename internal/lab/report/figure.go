package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/ilp"
	"github.com/qsc-nlp/qsc/metrics"
)

// Figure geometry.
const (
	figWidth  = 8 * vg.Inch
	figHeight = 3.2 * vg.Inch
	figDPI    = 150
	gridSize  = 400  // points of each density curve
	binCount  = 2048 // the latencies are binned before smoothing
)

// density is a Gaussian kernel density estimate on a grid.
type density struct {
	xs, ys []float64
}

// logLatencies returns log10 of the positive latencies in milliseconds, ascending.
func logLatencies(ds []time.Duration) []float64 {
	out := make([]float64, 0, len(ds))
	for _, d := range ds {
		if d > 0 {
			out = append(out, math.Log10(float64(d)/1e6))
		}
	}
	slices.Sort(out)
	return out
}

// bandwidth returns Silverman's rule-of-thumb bandwidth of sorted xs:
// 0.9·min(sd, IQR/1.34)·n^(−1/5), or a small positive width when xs do not spread.
func bandwidth(xs []float64) float64 {
	n := float64(len(xs))
	_, sd, _ := meanStd(xs)
	iqr := xs[int(0.75*(n-1))] - xs[int(0.25*(n-1))]
	s := sd
	if iqr > 0 && iqr/1.34 < s {
		s = iqr / 1.34
	}
	if !(s > 0) {
		return 0.01
	}
	return 0.9 * s * math.Pow(n, -0.2)
}

// estimate returns the density of xs (sorted, not empty) on gridSize points over
// [lo, hi]: the latencies are binned into binCount bins first, so that the cost does not
// grow with the number of samples. Values outside [lo, hi] are not drawn.
func estimate(xs []float64, lo, hi float64) density {
	h := bandwidth(xs)
	width := (hi - lo) / binCount
	counts := make([]float64, binCount)
	for _, x := range xs {
		if b := int((x - lo) / width); b >= 0 && b < binCount {
			counts[b]++
		} // a value outside [lo, hi] still counts in the normalization
	}
	d := density{xs: make([]float64, gridSize), ys: make([]float64, gridSize)}
	norm := 1 / (float64(len(xs)) * h * math.Sqrt(2*math.Pi))
	for i := range gridSize {
		g := lo + (hi-lo)*float64(i)/float64(gridSize-1)
		var s float64
		for b, c := range counts {
			if c == 0 {
				continue
			}
			z := (g - (lo + (float64(b)+0.5)*width)) / h
			if z > -6 && z < 6 {
				s += c * math.Exp(-z*z/2)
			}
		}
		d.xs[i], d.ys[i] = g, s*norm
	}
	return d
}

// WriteFigure draws Figure 3 of the paper, the densities of the log latencies of VERTEX
// ADDITION_LR (left) and the ILP (right), on a shared axis spanning the central 99.8% of
// the values, each with its geometric mean; a method without latencies is left out. format is "svg" or "png". The same
// report gives the same bytes.
func (r *Report) WriteFigure(w io.Writer, format string) error {
	type panel struct {
		name string
		xs   []float64
		geo  time.Duration
	}
	var panels []panel
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, name := range []string{method.NameLR, ilp.Name} {
		xs := logLatencies(r.latency[name])
		if len(xs) == 0 {
			continue
		}
		l, err := metrics.SummarizeLatency(r.latency[name])
		if err != nil {
			return err
		}
		// The axis spans the central 99.8% of every panel's values (the slowest 0.1%,
		// pauses of the runtime or the machine, would squash the curves).
		h := bandwidth(xs)
		q := func(p float64) float64 { return xs[int(p*float64(len(xs)-1))] }
		lo, hi = math.Min(lo, q(0.001)-4*h), math.Max(hi, q(0.999)+4*h)
		panels = append(panels, panel{name, xs, l.GeoMean})
	}
	if len(panels) == 0 {
		return fmt.Errorf("%w: no latencies of %s or %s to draw", ErrInput, method.NameLR, ilp.Name)
	}
	plots := make([]*plot.Plot, len(panels))
	for i, pa := range panels {
		d := estimate(pa.xs, lo, hi)
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s (n = %d)", displayName[pa.name], len(pa.xs))
		p.X.Label.Text = "log10 latency (ms)"
		p.Y.Label.Text = "density"
		p.X.Min, p.X.Max = lo, hi
		p.Add(plotter.NewGrid())
		pts := make(plotter.XYs, len(d.xs))
		var top float64
		for j := range d.xs {
			pts[j] = plotter.XY{X: d.xs[j], Y: d.ys[j]}
			top = math.Max(top, d.ys[j])
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		line.Color = color.RGBA{R: 31, G: 119, B: 180, A: 255}
		line.Width = vg.Points(1.5)
		line.FillColor = color.NRGBA{R: 31, G: 119, B: 180, A: 70}
		p.Add(line)
		if pa.geo > 0 {
			g := math.Log10(float64(pa.geo) / 1e6)
			mark, err := plotter.NewLine(plotter.XYs{{X: g, Y: 0}, {X: g, Y: top * 1.05}})
			if err != nil {
				return err
			}
			mark.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			mark.Color = color.RGBA{R: 214, G: 39, B: 40, A: 255}
			p.Add(mark)
			p.Legend.Add(fmt.Sprintf("geometric mean %s ms", ms(pa.geo)), mark)
			p.Legend.Top = true
		}
		p.Y.Min, p.Y.Max = 0, top*1.25 // room for the legend
		plots[i] = p
	}
	var canvas vg.CanvasWriterTo
	switch format {
	case "svg":
		canvas = vgsvg.New(figWidth, figHeight)
	case "png":
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(figWidth, figHeight), vgimg.UseDPI(figDPI))}
	default:
		return fmt.Errorf("%w: figure format %q: want svg or png", ErrInput, format)
	}
	dc := draw.New(canvas)
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Millimeter * 6, PadTop: vg.Millimeter * 2,
		PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	cells := plot.Align([][]*plot.Plot{plots}, tiles, dc)
	for i, p := range plots {
		p.Draw(cells[0][i])
	}
	_, err := canvas.WriteTo(w)
	return err
}
