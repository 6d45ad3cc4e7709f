package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/qsc-nlp/qsc/internal/core/cli"
	"github.com/qsc-nlp/qsc/internal/lab/dataset"
	"github.com/qsc-nlp/qsc/internal/lab/evalflags"
	"github.com/qsc-nlp/qsc/internal/lab/evaluate"
	"github.com/qsc-nlp/qsc/internal/lab/ood"
	"github.com/qsc-nlp/qsc/internal/lab/parsecache"
	"github.com/qsc-nlp/qsc/lm"
	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/wellformed"
)

// snippetFlags are the flags of qsc-lab eval --snippets and --ood.
type snippetFlags struct {
	snippets, ood, validation *bool
	methods                   *string
	sweepN, examples          *int
	slor                      *bool
	rulesOff                  *string
	decodings                 *string
	slack                     *bool
}

func addSnippetFlags(fs *flag.FlagSet) *snippetFlags {
	return &snippetFlags{
		snippets:   fs.Bool("snippets", false, "evaluate the methods as snippet compressors on the Google test split: F1, CR, SLOR, budget use and the well-formedness checker under the paper's and the snippet decoding, the budget sweep and 20 examples (snippets.md/.json, or ood.md/.json, in --out; by default in docs/results when no other setting than --samples, --data or --cache is given, else only printed)"),
		ood:        fs.Bool("ood", false, "the same on the out-of-domain EWT development set shipped in internal/lab/ood (gold trees, and qsc's own parse)"),
		validation: fs.Bool("validation", false, "with --snippets: use the validation split of the train file instead of the test split (for model selection)"),
		methods:    fs.String("snippet-methods", "window,lr,ablated,random,nn,ilp", "with --snippets or --ood: comma-separated methods"),
		sweepN:     fs.Int("sweep-n", 2000, "with --snippets: sentences in the budget sweep (the first N of the split)"),
		examples:   fs.Int("examples", 20, "with --snippets: fixed examples to print"),
		rulesOff:   fs.String("rules-off", "", "with --snippets or --ood: comma-separated well-formedness rules to switch off, for ablations ("+strings.Join(ruleNames(), ", ")+")"),
		decodings:  fs.String("decodings", "paper,snippet,nested", "with --snippets or --ood: comma-separated decodings to evaluate (paper, snippet, nested; the window has one)"),
		slor:       fs.Bool("slor", true, "with --snippets or --ood: SLOR from the 3-gram language model (built first if needed)"),
		slack:      fs.Bool("slack", true, "with --snippets: the budget slack table, F1 and SLOR at b = ℓ(gold) + 0, 2, 4, 8 and 16 characters"),
	}
}

// runSnippetEval is qsc-lab eval --snippets or --ood.
func runSnippetEval(env *evalflags.Env, sf *snippetFlags, out string, stdout, stderr io.Writer) error {
	off, err := wellformed.ParseOff(*sf.rulesOff)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	var decs []method.Decoding
	for _, name := range strings.Split(*sf.decodings, ",") {
		d, err := method.ParseDecoding(strings.TrimSpace(name))
		if err != nil {
			return cli.Usagef("--decodings: %v", err)
		}
		decs = append(decs, d)
	}
	var ms []method.Method
	for _, name := range strings.Split(*sf.methods, ",") {
		m, err := env.Method(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		ms = append(ms, m)
	}
	var slorLM *lm.Model
	if *sf.slor {
		var err error
		if slorLM, err = evalLM(env, stderr); err != nil {
			return err
		}
	}
	ev := evaluate.SnippetEval{Methods: ms, Decodings: decs, RulesOff: off, LM: slorLM, Seed: *env.Seed,
		Date: time.Now().UTC().Format(time.RFC3339)}
	if *sf.ood {
		sets, err := ood.Inputs(env.Pipe, *env.Seed)
		if err != nil {
			return err
		}
		md, rep, err := ev.OOD(sets)
		if err != nil {
			return err
		}
		return writeSnippetOutputs(md, rep, out, "ood", stdout)
	}
	inputs, split, err := snippetInputs(env, *sf.validation)
	if err != nil {
		return err
	}
	md, rep, err := ev.Split(inputs, split, evaluate.SplitOptions{SweepN: *sf.sweepN, Slack: *sf.slack, Examples: *sf.examples})
	if err != nil {
		return err
	}
	return writeSnippetOutputs(md, rep, out, "snippets", stdout)
}

func ruleNames() []string {
	var out []string
	for _, k := range wellformed.Categories() {
		out = append(out, k.String())
	}
	return out
}

// writeSnippetOutputs prints md and, with out, writes it and rep as base.md and
// base.json in out.
func writeSnippetOutputs(md string, rep *evaluate.SnippetReport, out, base string, stdout io.Writer) error {
	fmt.Fprint(stdout, md)
	if out == "" {
		return nil
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, base+".json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, base+".md"), []byte(md), 0o644)
}

// snippetInputs returns the Google test inputs (given XPOS, qsc's trees), or the
// validation split's.
func snippetInputs(env *evalflags.Env, validation bool) ([]method.Input, string, error) {
	if !validation {
		t, err := env.Test(parsecache.Given)
		if err != nil {
			return nil, "", err
		}
		return t.Inputs, "test", nil
	}
	_, valid, err := trainingInputs("", *env.Seed, 1, 0, false, io.Discard)
	return valid, string(dataset.Validation), err
}
