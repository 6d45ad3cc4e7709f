package qsc_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"unicode/utf8"

	"github.com/qsc-nlp/qsc"
)

func Example() {
	eng, err := qsc.New() // the embedded tokenizer, tagger and parser; the ILP on first use
	if err != nil {
		log.Fatal(err)
	}
	res, err := eng.Compress(context.Background(),
		"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.",
		[]string{"police", "Syracuse"}, 40)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Compression) // cut from the text: its own spacing, "men." not "men ."
	fmt.Println(res.Ellipsis())  // "…" where words were cut
	fmt.Println(res.Kept)
	// Output:
	// Police in Syracuse arrested two men.
	// Police in Syracuse arrested two men …
	// [1 2 3 4 5 6 18]
}

// A budget that counts the display keeps the ellipsis rendering within it, "…" included.
func ExampleRequest_budgetCounts() {
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	res, err := eng.Do(context.Background(), &qsc.Request{
		Text:         `The city's deficit grew 3.7% to $89.5 billion, said Sen. John Cornyn (R-Texas).`,
		Query:        []string{"deficit", "Cornyn"},
		Budget:       40,
		BudgetCounts: qsc.BudgetDisplay,
	}, false)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (%d characters)\n", res.Ellipsis(), utf8.RuneCountInString(res.Ellipsis()))
	// Output:
	// The city's deficit grew … John Cornyn … (39 characters)
}

// Snippets picks the sentences of a document that contain the query terms (in any
// inflection and case), compresses each to the budget and ranks them.
func ExampleEngine_Snippets() {
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	doc := "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries. " +
		"The men, aged 23 and 31, were charged with burglary. " +
		"A police spokesman said the arrests followed a tip from a neighbour who noticed a car circling the block."
	snippets, err := eng.Snippets(context.Background(), doc, []string{"arrest", "police"}, 50, 2)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range snippets {
		fmt.Printf("%d terms: %s\n", s.Terms, s.Text)
		for _, h := range s.Hits {
			fmt.Printf("  hit %q at %d\n", doc[h.Start:h.End], h.Start)
		}
	}
	// Output:
	// 2 terms: Police in Syracuse arrested two men on Tuesday.
	//   hit "Police" at 0
	//   hit "arrested" at 19
	// 2 terms: A police spokesman said the arrests followed.
	//   hit "police" at 158
	//   hit "arrests" at 184
}

// DoSnippets takes the request the HTTP service receives; phrases match as a whole.
func ExampleEngine_DoSnippets() {
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	doc := "Heavy rain is expected across New York on Wednesday. " +
		"Forecasters said the storm could bring flooding to low-lying areas of New York City and Long Island by the evening rush hour."
	snippets, err := eng.DoSnippets(context.Background(), &qsc.SnippetRequest{
		Document: doc,
		Query:    []string{"new york", "flood"},
		Budget:   60,
		N:        1,
	})
	if err != nil {
		log.Fatal(err)
	}
	s := snippets[0]
	fmt.Println(s.Text)
	for _, k := range s.Kept {
		fmt.Printf("%q\n", doc[k.Start:k.End])
	}
	// Output:
	// could bring flooding to low-lying areas of New York City
	// "could bring flooding to low-lying areas of New York City"
}

// Hits marks a query's words in a whole document, as a page that shows the document after
// a search does: every occurrence that the snippets' matcher finds.
func ExampleEngine_Hits() {
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	doc := "Heavy rain is expected across New York on Wednesday.\n\n" +
		"Forecasters said the storm could bring flooding to New York City. Floods closed two roads last year."
	hits, err := eng.Hits(context.Background(), doc, []string{"new york", "flood"}, "")
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Printf("%d-%d %q\n", h.Start, h.End, doc[h.Start:h.End])
	}
	// Output:
	// 30-33 "New"
	// 34-38 "York"
	// 93-101 "flooding"
	// 105-108 "New"
	// 109-113 "York"
	// 120-126 "Floods"
}

// The accurate engine parses with the embedded beam-search parser: better trees, at about
// 6 times the parsing time. Here the tree decides which words may go.
func ExampleNewWithOptions() {
	eng, err := qsc.NewWithOptions(qsc.Options{Accurate: true})
	if err != nil {
		log.Fatal(err)
	}
	req := &qsc.Request{
		Text:   "Five people have been taken to hospital with minor injuries following a crash on the A17 near Sleaford this morning.",
		Query:  []string{"crash"},
		Budget: 80,
	}
	res, err := eng.Do(context.Background(), req, false)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Compression)
	// Output:
	// with minor injuries following a crash on the A17 near Sleaford this morning.
}

// A service loads its method's model before it takes requests, so that the first
// request does not wait for it.
func ExampleEngine_Load() {
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	if err := eng.Load(); err != nil { // the default method, qsc.DefaultMethod
		log.Fatal(err)
	}
	err = eng.Load("bert")
	fmt.Println(errors.Is(err, qsc.ErrUnknownMethod))
	// Output:
	// true
}
