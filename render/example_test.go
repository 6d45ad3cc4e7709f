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
	// Police arrested two men after a long investigation into a string .
	// Police arrested two men after a long investigation into a string .
	// Police … arrested two men … after a long investigation into a string …
	// <mark>Police</mark> … <mark>arrested</mark> two men … after a long investigation into a string …
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
