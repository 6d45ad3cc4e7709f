package nn_test

import (
	"fmt"
	"strings"

	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/nn"
	"github.com/qsc-nlp/qsc/syntax"
)

// Compress a parsed sentence with the embedded VERTEX ADDITION_NN model. The network
// reads the words, their dependency labels and the state of each token; the tree drives
// the order in which VERTEX ADDITION offers the candidates.
func Example() {
	m, err := nn.Load(nn.Embedded())
	if err != nil {
		fmt.Println(err)
		return
	}
	words := strings.Fields("Police in Syracuse arrested two men on Tuesday after a long investigation .")
	heads := []int{4, 3, 1, 0, 6, 4, 8, 4, 12, 12, 12, 4, 4}
	rels := strings.Fields("nsubj case nmod root nummod obj case obl case det amod obl punct")
	s := &syntax.Sentence{}
	for i := range words {
		s.Tokens = append(s.Tokens, syntax.Token{Form: words[i], Head: heads[i], Rel: rels[i]})
	}
	tree, err := method.TreeOf(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Q = {Police, men}, at most 50 characters.
	in := method.Input{Sentence: s, Tree: tree, Query: []int{1, 6}, Budget: 50}
	var c method.Compressor
	kept, err := c.Compress(m, in)
	if err != nil {
		fmt.Println(err)
		return
	}
	var out []string
	for _, v := range kept {
		out = append(out, words[v-1])
	}
	fmt.Println(strings.Join(out, " "))
	// Output:
	// Police arrested two men after a long investigation
}
