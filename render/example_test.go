package render_test

import (
	"context"
	"fmt"
	"log"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/render"
)

// The three renderings of a snippet.
func Example() {
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	doc := "Police in Syracuse, N.Y., arrested two men on Tuesday after a long investigation into a string of burglaries."
	snippets, err := eng.Snippets(context.Background(), doc, []string{"police", "arrest"}, 70, 1)
	if err != nil {
		log.Fatal(err)
	}
	s := snippets[0]
	fmt.Println(s.Text)
	fmt.Println(render.Plain(doc, s))
	fmt.Println(render.Ellipsis(doc, s))
	fmt.Println(render.HTML(doc, s, true))
	// Output:
	// Police in Syracuse, N.Y., arrested two men on Tuesday.
	// Police in Syracuse, N.Y., arrested two men on Tuesday.
	// Police in Syracuse, N.Y., arrested two men on Tuesday …
	// <mark>Police</mark> in Syracuse, N.Y., <mark>arrested</mark> two men on Tuesday …
}

// A compression of the library renders as a snippet does, through Result.Snippet.
func ExampleHTML_compression() {
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	res, err := eng.Do(context.Background(), &qsc.Request{
		Text:  `The city's deficit grew 3.7% to $89.5 billion, said Sen. John Cornyn (R-Texas).`,
		Query: []string{"deficit", "Cornyn"}, Budget: 45, BudgetCounts: qsc.BudgetDisplay}, false)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Compression)
	fmt.Println(render.Ellipsis(res.Text, res.Snippet()))
	fmt.Println(render.HTML(res.Text, res.Snippet(), true))
	// Output:
	// The city's deficit grew 3.7% John Cornyn.
	// The city's deficit grew 3.7% … John Cornyn …
	// The city&#39;s <mark>deficit</mark> grew 3.7% … John <mark>Cornyn</mark> …
}

// HTML escapes the document's text, so any input is safe to show.
func ExampleHTML() {
	doc := `Fans of <script>alert("x")</script> & friends met the police.`
	s := qsc.Snippet{
		Sentence: qsc.Span{Start: 0, End: 61},
		Kept:     []qsc.Span{{Start: 0, End: 35}, {Start: 46, End: 61}}, // "Fans … </script>", "met the police."
		Hits:     []qsc.Span{{Start: 54, End: 60}},                      // "police"
	}
	fmt.Println(render.HTML(doc, s, true))
	// Output:
	// Fans of &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; … met the <mark>police</mark>.
}

// A rendering without "…" marks is asked for with a budget that counts the kept words,
// which may hold more of them than a budget that leaves room for the marks.
func ExampleBudgetCounts() {
	eng, err := qsc.New()
	if err != nil {
		log.Fatal(err)
	}
	doc := "Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries that had troubled the north side of the city for months."
	ask := func(ellipsis bool) qsc.Snippet {
		sn, err := eng.DoSnippets(context.Background(), &qsc.SnippetRequest{Document: doc, Query: []string{"arrested", "city"},
			Budget: 44, BudgetCounts: render.BudgetCounts(ellipsis), N: 1})
		if err != nil {
			log.Fatal(err)
		}
		return sn[0]
	}
	fmt.Println(render.BudgetCounts(false)+":", render.Plain(doc, ask(false)))
	fmt.Println(render.BudgetCounts(true)+":", render.Ellipsis(doc, ask(true)))
	// Output:
	// tokens: Police in Syracuse arrested two men the city
	// display: Police in Syracuse arrested two men … city …
}
