package va_test

import (
	"fmt"
	"strings"

	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/va"
)

// keepAll is a Decider that accepts every candidate.
type keepAll struct{}

func (keepAll) Decide(*va.State, int) va.Decision { return va.Decision{Accept: true, P: 1} }

func Example() {
	s := &syntax.Sentence{}
	heads := []int{3, 3, 4, 0, 6, 4, 4} // The old cat ← chased → mouse (← a), yesterday
	for i, w := range strings.Fields("The old cat chased a mouse yesterday") {
		s.Tokens = append(s.Tokens, syntax.Token{Form: w, Head: heads[i], Start: -1, End: -1})
	}
	tree, err := syntax.NewTree(s.Heads())
	if err != nil {
		panic(err)
	}

	var c va.Compressor
	c.Trace = true
	kept, err := c.Run(va.Problem{Sentence: s, Tree: tree, Query: []int{3}, Budget: 30}, keepAll{})
	if err != nil {
		panic(err)
	}
	var words []string
	for _, v := range kept {
		words = append(words, s.Tokens[v-1].Form)
	}
	fmt.Println(strings.Join(words, " "))
	for _, st := range c.Steps() {
		fmt.Printf("%-9s %-6s ℓ(C) = %d\n", s.Tokens[st.V-1].Form, st.Outcome, st.Len)
	}
	// Output:
	// The old cat chased a mouse
	// The       accept ℓ(C) = 7
	// old       accept ℓ(C) = 11
	// chased    accept ℓ(C) = 18
	// mouse     accept ℓ(C) = 24
	// a         accept ℓ(C) = 26
	// yesterday skip   ℓ(C) = 26
}
