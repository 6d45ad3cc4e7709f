package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/lab/evalflags"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/internal/lab/parsecache"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/ilp"
	"github.com/qsc-nlp/qsc/metrics"
)

func init() {
	prog.Register(&cli.Command{Name: "bench", Summary: "measure compression latency, pre-parsed and with tagging and parsing, in one run", Run: runBench})
}

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("bench", "", stderr)
	env := evalflags.Add(fs)
	methods := fs.String("methods", "lr,ilp", "comma-separated methods to time (an ILP is timed with each solver of the build: DP, and GLPK with -tags glpk)")
	samples := fs.Int("samples", 100000, "compressions sampled (with replacement) per measurement")
	decoding := fs.String("decoding", "snippet,paper", "comma-separated decodings to time: snippet (the library's default), nested and paper (Table 2's)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the timed compressions to this `file` (read it with go tool pprof)")
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	var decs []method.Decoding
	for _, name := range strings.Split(*decoding, ",") {
		d, err := method.ParseDecoding(strings.TrimSpace(name))
		if err != nil {
			return cli.Usagef("%v", err)
		}
		decs = append(decs, d)
	}
	if *samples <= 0 {
		return cli.Usagef("--samples must be positive")
	}
	if err := evalflags.CheckMethods(*methods); err != nil {
		return err
	}
	if err := env.Setup(); err != nil {
		return err
	}
	t, err := env.Test(parsecache.Given)
	if err != nil {
		return err
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	fmt.Fprintf(stdout, "| method | timed | samples | geo. mean | median | p99 |\n|---|---|--:|--:|--:|--:|\n")
	var timed []benchRow
	for _, name := range strings.Split(*methods, ",") {
		m, err := env.Method(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		for _, v := range benchVariants(m, decs, stdout) {
			r := benchRow{label: v.label, name: m.Name()}
			if r.pre, err = evaluate.LatencyWith(v.m, v.dec, t.Inputs, *samples, *env.Seed, nil); err != nil {
				return err
			}
			if r.full, err = evaluate.LatencyWith(v.m, v.dec, t.Inputs, *samples, *env.Seed, env.Pipe); err != nil {
				return err
			}
			for _, x := range []struct {
				what string
				l    metrics.Latency
			}{{"compression of a pre-parsed sentence", r.pre}, {"tagging + parsing + compression", r.full}} {
				fmt.Fprintf(stdout, "| %s | %s | %d | %s | %s | %s |\n", r.label, x.what, x.l.N, evaluate.Micros(x.l.GeoMean), evaluate.Micros(x.l.Median), evaluate.Micros(x.l.P99))
			}
			timed = append(timed, r)
		}
	}
	writeRatios(stdout, timed)
	fmt.Fprintf(stdout, "\nTest sentences from the Google corpus (suspect ones left out), sampled uniformly with replacement (seed %d), compressed one at a time on one goroutine. The paper (Gurobi, Python): VA_LR 4.1 ms, ILP 44.0 ms, ratio 10.7×.\n", *env.Seed)
	return nil
}

// benchRow is the latency of one method (and solver) in qsc bench.
type benchRow struct {
	label, name string
	pre, full   metrics.Latency
}

type benchVariant struct {
	label string
	m     method.Method
	dec   method.Decoding
}

// benchVariants returns what bench times for m under each decoding: m itself or, for an
// ILP, the ILP with each solver of this build (the GLPK MIP solver only with -tags glpk,
// and only under the paper's decoding; bench says so otherwise). Each row is labelled with
// its decoding: "…, paper", "…, snippet", "…, nested".
func benchVariants(m method.Method, decs []method.Decoding, stdout io.Writer) []benchVariant {
	var vs []benchVariant
	for _, dec := range decs {
		suffix := ", " + dec.String()
		im, ok := m.(*ilp.Model)
		if !ok {
			vs = append(vs, benchVariant{m.Name() + suffix, m, dec})
			continue
		}
		for _, b := range []string{ilp.DP, ilp.GLPK} {
			bm, err := im.WithBackend(b)
			if err != nil {
				if dec == method.Paper {
					fmt.Fprintf(stdout, "| %s (%s) | not in this build: build with -tags glpk (libglpk-dev) | | | | |\n", m.Name(), strings.ToUpper(b))
				}
				continue
			}
			if b == ilp.GLPK && dec.Budgeted() {
				continue // GLPK solves the paper's program only
			}
			vs = append(vs, benchVariant{fmt.Sprintf("%s (%s)%s", m.Name(), strings.ToUpper(b), suffix), bm, dec})
		}
	}
	return vs
}

// writeRatios prints the ratios of the geometric means of the ILP rows to VA_LR's, and
// of the GLPK solver's to the DP's, all measured in this run.
func writeRatios(w io.Writer, rows []benchRow) {
	find := func(label string) *benchRow {
		for i := range rows {
			if rows[i].label == label {
				return &rows[i]
			}
		}
		return nil
	}
	paper := ", " + method.Paper.String()
	lrRow := find(method.NameLR + paper)
	dp, mip := find(ilp.Name+" (DP)"+paper), find(ilp.Name+" (GLPK)"+paper)
	type ratio struct {
		name, paper string
		a, b        *benchRow
	}
	var rs []ratio
	for _, r := range []ratio{
		{"ILP (GLPK) / VA_LR", "10.7× (ILP with Gurobi / VA_LR)", mip, lrRow},
		{"ILP (DP) / VA_LR", "—", dp, lrRow},
		{"ILP (GLPK) / ILP (DP)", "—", mip, dp},
	} {
		if r.a != nil && r.b != nil {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n| ratio of geometric means | pre-parsed | with tagging + parsing | paper |\n|---|--:|--:|--:|\n")
	for _, r := range rs {
		fmt.Fprintf(w, "| %s | %.1f× | %.1f× | %s |\n", r.name, float64(r.a.pre.GeoMean)/float64(r.b.pre.GeoMean),
			float64(r.a.full.GeoMean)/float64(r.b.full.GeoMean), r.paper)
	}
}
