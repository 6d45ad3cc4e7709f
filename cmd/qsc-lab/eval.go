package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/pipeline"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/internal/lab/parsecache"
	"github.com/qsc-nlp/qsc/internal/lab/report"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/lm"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/method/ilp"
	"github.com/qsc-nlp/qsc/metrics"
)

func init() {
	register(&command{name: "eval", summary: "evaluate the compression methods on the test tuples (F1, CR, latency) as Markdown and JSON", run: runEval})
	register(&command{name: "bench", summary: "measure compression latency, pre-parsed and with tagging and parsing, in one run", run: runBench})
}

// paperF1 returns the paper's F1 for a method, printed beside ours: Table 2's (package
// report holds the paper's figures), and the authors' figures for the evaluation-only
// variants.
func paperF1(name string) string {
	switch name {
	case baseline.NameOracle:
		return "1.000"
	case ilp.NameUnconstrained:
		return "0.76 (F&A: 0.843)"
	case ilp.NameRootQuery:
		return "0.852 (their Q constraint)"
	}
	if p, ok := report.PaperFigures(name); ok {
		return fmt.Sprintf("%.3f", p.F1)
	}
	return "—"
}

// evalEnv holds what eval and bench share: data, cache, pipeline and method files.
type evalEnv struct {
	data, cache  *string
	files        map[string]*string // method name → model file flag
	solver       *string            // ILP solver backend
	seed         *uint64
	mf           *modelFlags
	pipe         *pipeline.Pipeline
	dataDir, dir string
}

func addEvalFlags(fs *flag.FlagSet) *evalEnv {
	e := &evalEnv{
		data:   fs.String("data", "", "data directory (default: ../shared/data beside the repository, or $QSC_DATA)"),
		cache:  fs.String("cache", "", "parse cache directory (default: $QSC_CACHE or the user cache directory)"),
		seed:   fs.Uint64("seed", 1, "seed of the test queries, the random method and the latency samples"),
		files:  map[string]*string{},
		solver: fs.String("ilp-solver", ilp.DP, "solver of the ILP methods: "+strings.Join(ilp.Backends(), " or ")+" (glpk only in a build with -tags glpk)"),
	}
	seen := map[string]bool{}
	for _, m := range method.All() {
		if m.File == "" || seen[m.File] {
			continue
		}
		seen[m.File] = true
		e.files[m.File] = fs.String(m.Name, "", m.Name+" model file (default: the embedded "+m.File+")")
	}
	return e
}

func (e *evalEnv) setup() error {
	if e.dataDir = *e.data; e.dataDir == "" {
		if e.dataDir = shared.DataDir(); e.dataDir == "" {
			return usagef("no data directory: pass --data DIR or set QSC_DATA")
		}
	}
	if e.dir = *e.cache; e.dir == "" {
		d, err := parsecache.Dir()
		if err != nil {
			return err
		}
		e.dir = d
	}
	var err error
	e.pipe, err = e.mf.pipeline()
	return err
}

// method opens a method by name from the embedded files or the flags' files.
func (e *evalEnv) method(name string) (method.Method, error) {
	ent, err := method.Lookup(name)
	if err != nil {
		return nil, usagef("%v", err)
	}
	var data []byte
	if p := e.files[ent.File]; p != nil && *p != "" {
		if data, err = os.ReadFile(*p); err != nil {
			return nil, fmt.Errorf("method %s: %w", name, err)
		}
	}
	m, err := method.Open(name, data, *e.seed)
	if im, ok := m.(*ilp.Model); ok && err == nil && *e.solver != "" {
		return im.WithBackend(*e.solver)
	}
	return m, err
}

func (e *evalEnv) test(v parsecache.Variant) (*evaluate.Test, error) {
	return evaluate.LoadTest(context.Background(), e.dataDir, e.dir, e.pipe, v, *e.seed)
}

// evalReport is the JSON output of qsc eval.
type evalReport struct {
	Date    string         `json:"date"`
	Seed    uint64         `json:"seed"`
	Samples int            `json:"latency_samples"`
	GoldCR  float64        `json:"gold_cr"`
	Rows    []evaluate.Row `json:"rows"`
}

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", "", stderr)
	env := addEvalFlags(fs)
	env.mf = addModelFlags(fs)
	methodList := fs.String("methods", "window,lr,ablated,random,oracle,ilp,ilp-unconstrained", "comma-separated methods to evaluate")
	samples := fs.Int("samples", 20000, "latency samples per method and tag set (0: no latency)")
	out := fs.String("out", "", "directory to write eval.md and eval.json (default: only print the Markdown)")
	sf := addSnippetFlags(fs)
	all := fs.Bool("all", false, "every method, SLOR, and the paper's Table 2, compression-ratio table, significance and Figure 3 (table2.md/.json, figure3.svg/.png) in --out (default docs/results); builds the language model first if needed")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *all {
		*methodList = strings.Join(method.Names(false), ",")
		if *out == "" {
			*out = filepath.Join("docs", "results")
		}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments %q", fs.Args())
	}
	if err := env.setup(); err != nil {
		return err
	}
	if *sf.snippets || *sf.ood {
		if *out == "" {
			if other := nonDefault(fs, "snippets", "ood", "samples", "data", "cache"); other != "" {
				// docs/results holds the standard run; a run with other settings (fewer
				// methods, an ablation, another model) must not replace it unasked.
				fmt.Fprintf(stderr, "qsc eval: --%s is set, so the results are only printed (give --out DIR to write them)\n", other)
			} else {
				*out = filepath.Join("docs", "results")
			}
		}
		return runSnippetEval(env, sf, *out, stdout, stderr)
	}
	var ms []method.Method
	for _, name := range strings.Split(*methodList, ",") {
		m, err := env.method(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		ms = append(ms, m)
	}
	var slorLM *lm.Model
	if *all {
		var err error
		if slorLM, err = evalLM(env, stderr); err != nil {
			return err
		}
	}
	var table2 report.Input
	rep := evalReport{Date: time.Now().UTC().Format(time.RFC3339), Seed: *env.seed, Samples: *samples}
	for _, v := range []parsecache.Variant{parsecache.Given, parsecache.Tagged} {
		t, err := env.test(v)
		if err != nil {
			return err
		}
		if v == parsecache.Given {
			var crs []float64
			for _, tu := range t.Tuples {
				r, err := tu.GoldRatio()
				if err != nil {
					return err
				}
				crs = append(crs, r)
			}
			rep.GoldCR, _ = metrics.Mean(crs)
		}
		for _, m := range ms {
			row, err := evaluate.Score(m, t, *samples, *env.seed)
			if err != nil {
				return err
			}
			rep.Rows = append(rep.Rows, row)
			if slorLM != nil && v == parsecache.Given {
				rm := report.Method{Name: row.Method, F1: row.PerF1, CR: row.PerCR, Latency: row.Samples}
				if rm.SLOR, err = slorOf(slorLM, t, row.Kept); err != nil {
					return fmt.Errorf("%s: SLOR: %w", row.Method, err)
				}
				table2.Methods = append(table2.Methods, rm)
			}
		}
		if slorLM != nil && v == parsecache.Given {
			gold := make([][]int, len(t.Inputs))
			for i, in := range t.Inputs {
				gold[i] = in.Gold
			}
			g, err := slorOf(slorLM, t, gold)
			if err != nil {
				return fmt.Errorf("gold SLOR: %w", err)
			}
			table2.GoldSLOR = g
		}
	}
	var md strings.Builder
	writeEvalMD(&md, &rep)
	fmt.Fprint(stdout, md.String())
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return err
		}
		js, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(filepath.Join(*out, "eval.json"), append(js, '\n'), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(*out, "eval.md"), []byte(md.String()), 0o644); err != nil {
			return err
		}
	}
	if slorLM != nil {
		table2.GoldCR, table2.Seed = rep.GoldCR, *env.seed
		table2.Note = fmt.Sprintf("Test split, %d tuples (suspect sentences left out), seed %d; the corpus's own XPOS, trees from qsc's parser; ILP solved by %s; latency: %d pre-parsed compressions sampled with replacement per method, one at a time, on this machine (%s).",
			len(table2.Methods[0].F1), *env.seed, strings.ToUpper(*env.solver), *samples, rep.Date)
		if _, err := report.Write(*out, table2); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s, %s, %s and %s in %s\n", report.MarkdownFile, report.JSONFile, report.FigureSVG, report.FigurePNG, *out)
	}
	return nil
}

// evalLM loads the language model for SLOR, building it first (qsc train lm) when the
// cache lacks it.
func evalLM(env *evalEnv, stderr io.Writer) (*lm.Model, error) {
	m, _, err := loadEvalLM(env.dataDir, env.dir, *env.seed)
	if err == nil {
		return m, nil
	}
	fmt.Fprintf(stderr, "%v\nbuilding it now\n", err)
	if err := runTrainLM([]string{"--cache", env.dir, "--seed", strconv.FormatUint(*env.seed, 10),
		"--train", filepath.Join(env.dataDir, shared.GoogleTrain)}, io.Discard, stderr); err != nil {
		return nil, err
	}
	m, _, err = loadEvalLM(env.dataDir, env.dir, *env.seed)
	return m, err
}

// slorOf returns the SLOR of each compression kept[i] of test tuple i: NaN for an empty
// one (a method without the query may keep nothing), which the report leaves out.
func slorOf(m *lm.Model, t *evaluate.Test, kept [][]int) ([]float64, error) {
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

func writeEvalMD(w io.Writer, rep *evalReport) {
	fmt.Fprintf(w, "# Test-set evaluation (seed %d, %s)\n\n", rep.Seed, rep.Date)
	fmt.Fprintf(w, "Gold compression ratio of the test tuples: %.3f (the paper: 0.413).\n\n", rep.GoldCR)
	fmt.Fprintf(w, "| method | XPOS | sentences | F1 | paper F1 | CR | CR − gold | latency geo. mean | median | p99 |\n")
	fmt.Fprintf(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rep.Rows {
		lat := "—"
		med, p99 := "—", "—"
		if r.Latency.N > 0 {
			lat, med, p99 = us(r.Latency.GeoMean), us(r.Latency.Median), us(r.Latency.P99)
		}
		fmt.Fprintf(w, "| %s | %s | %d | %.4f | %s | %.3f | %+.3f | %s | %s | %s |\n", r.Method, r.Tags, r.N, r.F1,
			paperF1(r.Method), r.CR, r.CR-rep.GoldCR, lat, med, p99)
	}
	fmt.Fprintf(w, "\nXPOS given-xpos = the corpus's own tags; own-tagger = qsc's tagger. Trees from qsc's parser. ")
	fmt.Fprintf(w, "Latency: per pre-parsed sentence, %d samples with replacement, one at a time. ", rep.Samples)
	fmt.Fprintf(w, "ilp: Q ⊆ C, ℓ(C) ≤ b (solved by the exact tree DP); ilp-unconstrained: Q = ∅, b = ℓ(gold), as the authors' vanilla ILP; ilp-root-query: each query token hangs off the root, the authors' constraint.\n")
}

func us(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/1e3) }

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", "", stderr)
	env := addEvalFlags(fs)
	env.mf = addModelFlags(fs)
	methods := fs.String("methods", "lr,ilp", "comma-separated methods to time (an ILP is timed with each solver of the build: DP, and GLPK with -tags glpk)")
	samples := fs.Int("samples", 100000, "compressions sampled (with replacement) per measurement")
	decoding := fs.String("decoding", "snippet,paper", "comma-separated decodings to time: snippet (the library's default), nested and paper (Table 2's)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the timed compressions to this `file` (read it with go tool pprof)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var decs []method.Decoding
	for _, name := range strings.Split(*decoding, ",") {
		d, err := method.ParseDecoding(strings.TrimSpace(name))
		if err != nil {
			return usagef("%v", err)
		}
		decs = append(decs, d)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments %q", fs.Args())
	}
	if *samples <= 0 {
		return usagef("--samples must be positive")
	}
	if err := env.setup(); err != nil {
		return err
	}
	t, err := env.test(parsecache.Given)
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
		m, err := env.method(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		for _, v := range benchVariants(m, decs, stdout) {
			r := benchRow{label: v.label, name: m.Name()}
			if r.pre, err = evaluate.LatencyWith(v.m, v.dec, t.Inputs, *samples, *env.seed, nil); err != nil {
				return err
			}
			if r.full, err = evaluate.LatencyWith(v.m, v.dec, t.Inputs, *samples, *env.seed, env.pipe); err != nil {
				return err
			}
			for _, x := range []struct {
				what string
				l    metrics.Latency
			}{{"compression of a pre-parsed sentence", r.pre}, {"tagging + parsing + compression", r.full}} {
				fmt.Fprintf(stdout, "| %s | %s | %d | %s | %s | %s |\n", r.label, x.what, x.l.N, us(x.l.GeoMean), us(x.l.Median), us(x.l.P99))
			}
			timed = append(timed, r)
		}
	}
	writeRatios(stdout, timed)
	fmt.Fprintf(stdout, "\nTest sentences from the Google corpus (suspect ones left out), sampled uniformly with replacement (seed %d), compressed one at a time on one goroutine. The paper (Gurobi, Python): VA_LR 4.1 ms, ILP 44.0 ms, ratio 10.7×.\n", *env.seed)
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
// and only under the paper's decoding; bench says so otherwise). Rows of the snippet and
// nested decodings are labelled "…, snippet" and "…, nested".
func benchVariants(m method.Method, decs []method.Decoding, stdout io.Writer) []benchVariant {
	var vs []benchVariant
	for _, dec := range decs {
		suffix := ""
		if dec.Budgeted() {
			suffix = ", " + dec.String()
		}
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
	lrRow := find(method.NameLR)
	dp, mip := find(ilp.Name+" (DP)"), find(ilp.Name+" (GLPK)")
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

// nonDefault returns the name of a flag of fs set on the command line other than those
// named in same, or "" when there is none.
func nonDefault(fs *flag.FlagSet, same ...string) string {
	name := ""
	fs.Visit(func(f *flag.Flag) {
		if name == "" && !slices.Contains(same, f.Name) {
			name = f.Name
		}
	})
	return name
}
