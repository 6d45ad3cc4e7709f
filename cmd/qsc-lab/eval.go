package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/lab/evalflags"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/internal/lab/parsecache"
	"github.com/qsc-nlp/qsc/internal/lab/report"
	"github.com/qsc-nlp/qsc/internal/lab/shared"
	"github.com/qsc-nlp/qsc/lm"
	"github.com/qsc-nlp/qsc/method"
)

func init() {
	prog.Register(&cli.Command{Name: "eval", Summary: "evaluate the compression methods on the test tuples (F1, CR, latency) as Markdown and JSON", Run: runEval})
}

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("eval", "", stderr)
	env := evalflags.Add(fs)
	methodList := fs.String("methods", "window,lr,ablated,random,oracle,ilp,ilp-unconstrained", "comma-separated methods to evaluate")
	samples := fs.Int("samples", 20000, "latency samples per method and tag set (0: no latency)")
	out := fs.String("out", "", "directory to write eval.md and eval.json (default: only print the Markdown)")
	sf := addSnippetFlags(fs)
	all := fs.Bool("all", false, "every method, SLOR, and the paper's Table 2, compression-ratio table, significance and Figure 3 (table2.md/.json, figure3.svg/.png) in --out (default docs/results); builds the language model first if needed")
	if err := cli.ParseNoArgs(fs, args); err != nil {
		return err
	}
	if *all {
		*methodList = strings.Join(method.Names(false), ",")
		if *out == "" {
			*out = filepath.Join("docs", "results")
		}
	}
	if err := evalflags.CheckMethods(*methodList); err != nil {
		return err
	}
	if err := env.Setup(); err != nil {
		return err
	}
	if *sf.snippets || *sf.ood {
		if *out == "" {
			if other := nonDefault(fs, "snippets", "ood", "samples", "data", "cache"); other != "" {
				// docs/results holds the standard run; a run with other settings (fewer
				// methods, an ablation, another model) must not replace it unasked.
				fmt.Fprintf(stderr, "qsc-lab eval: --%s is set, so the results are only printed (give --out DIR to write them)\n", other)
			} else {
				*out = filepath.Join("docs", "results")
			}
		}
		return runSnippetEval(env, sf, *out, stdout, stderr)
	}
	var ms []method.Method
	for _, name := range strings.Split(*methodList, ",") {
		m, err := env.Method(strings.TrimSpace(name))
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
	rep := report.Eval{Date: time.Now().UTC().Format(time.RFC3339), Seed: *env.Seed, Samples: *samples}
	for _, v := range []parsecache.Variant{parsecache.Given, parsecache.Tagged} {
		t, err := env.Test(v)
		if err != nil {
			return err
		}
		if v == parsecache.Given {
			if rep.GoldCR, err = t.GoldCR(); err != nil {
				return err
			}
		}
		for _, m := range ms {
			row, err := evaluate.Score(m, t, *samples, *env.Seed)
			if err != nil {
				return err
			}
			rep.Rows = append(rep.Rows, row)
			if slorLM != nil && v == parsecache.Given {
				rm := report.Method{Name: row.Method, F1: row.PerF1, CR: row.PerCR, Latency: row.Samples}
				if rm.SLOR, err = t.SLOR(slorLM, row.Kept); err != nil {
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
			g, err := t.SLOR(slorLM, gold)
			if err != nil {
				return fmt.Errorf("gold SLOR: %w", err)
			}
			table2.GoldSLOR = g
		}
	}
	var md strings.Builder
	rep.WriteMarkdown(&md)
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
		table2.GoldCR, table2.Seed = rep.GoldCR, *env.Seed
		table2.Note = fmt.Sprintf("Test split, %d tuples (suspect sentences left out), seed %d; the corpus's own XPOS, trees from qsc's parser; ILP solved by %s; latency: %d pre-parsed compressions sampled with replacement per method, one at a time, on this machine (%s).",
			len(table2.Methods[0].F1), *env.Seed, strings.ToUpper(*env.Solver), *samples, rep.Date)
		r, err := report.Write(*out, table2)
		if err != nil {
			return err
		}
		if r.HasFigure() {
			fmt.Fprintf(stderr, "wrote %s, %s, %s and %s in %s\n", report.MarkdownFile, report.JSONFile, report.FigureSVG, report.FigurePNG, *out)
		} else {
			fmt.Fprintf(stderr, "wrote %s and %s in %s (no Figure 3: it needs latencies, and --samples is 0)\n", report.MarkdownFile, report.JSONFile, *out)
		}
	}
	return nil
}

// evalLM loads the language model for SLOR, building it first (qsc-lab train lm) when the
// cache lacks it.
func evalLM(env *evalflags.Env, stderr io.Writer) (*lm.Model, error) {
	m, _, err := loadEvalLM(env.DataDir, env.CacheDir, *env.Seed)
	if err == nil {
		return m, nil
	}
	fmt.Fprintf(stderr, "%v\nbuilding it now\n", err)
	if err := runTrainLM([]string{"--cache", env.CacheDir, "--seed", strconv.FormatUint(*env.Seed, 10),
		"--train", filepath.Join(env.DataDir, shared.GoogleTrain)}, io.Discard, stderr); err != nil {
		return nil, err
	}
	m, _, err = loadEvalLM(env.DataDir, env.CacheDir, *env.Seed)
	return m, err
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
