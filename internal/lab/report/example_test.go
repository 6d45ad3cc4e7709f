package report_test

import (
	"fmt"
	"log"
	"os"
	"time"

	"github.com/qsc-nlp/qsc/internal/lab/report"
)

// Write the tables and the latency figure of two methods evaluated on three sentences.
func ExampleWrite() {
	dir, err := os.MkdirTemp("", "report")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ms := []report.Method{
		{Name: "lr", F1: []float64{0.9, 0.8, 1}, CR: []float64{0.4, 0.5, 0.3}, SLOR: []float64{0.7, 0.9, 0.6},
			Latency: []time.Duration{10 * time.Microsecond, 12 * time.Microsecond, 11 * time.Microsecond}},
		{Name: "ilp", F1: []float64{0.8, 0.7, 0.9}, CR: []float64{0.4, 0.4, 0.4}, SLOR: []float64{0.8, 0.9, 0.7},
			Latency: []time.Duration{100 * time.Microsecond, 150 * time.Microsecond, 90 * time.Microsecond}},
	}
	rep, err := report.Write(dir, report.Input{Methods: ms, GoldCR: 0.41, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	for _, row := range rep.Rows {
		fmt.Printf("%s: F1 %.3f (paper %.3f), SLOR %.3f (paper %.3f)\n", row.Display, row.F1, row.Paper.F1, *row.SLOR, row.Paper.SLOR)
	}
	for _, t := range rep.Significance {
		fmt.Printf("%s: %s > %s by %.3f\n", t.Metric, t.Better, t.Worse, t.Delta)
	}
	for _, f := range []string{report.MarkdownFile, report.JSONFile, report.FigureSVG, report.FigurePNG} {
		_, err := os.Stat(dir + "/" + f)
		fmt.Println(f, err == nil)
	}
	// Output:
	// ILP: F1 0.800 (paper 0.852), SLOR 0.800 (paper 0.756)
	// VERTEX ADDITION_LR: F1 0.900 (paper 0.881), SLOR 0.733 (paper 0.745)
	// F1: lr > ilp by 0.100
	// SLOR: ilp > lr by 0.067
	// table2.md true
	// table2.json true
	// figure3.svg true
	// figure3.png true
}
