package baseline_test

import (
	"fmt"
	"strings"

	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/baseline"
	"github.com/qsc-nlp/qsc/syntax"
)

// Compress one parsed sentence with the oracle, which keeps the gold tokens, and with
// RANDOM. The trained methods (VA_LR, ABLATED, the ILP, the LSTM) run through a
// Compressor the same way; the library opens them by name (qsc.Engine).
func Example() {
	words := strings.Fields("The old cat chased a mouse yesterday .")
	tags := strings.Fields("DT JJ NN VBD DT NN NN .")
	heads := []int{3, 3, 4, 0, 6, 4, 4, 4}
	rels := strings.Fields("det amod nsubj root det obj obl:tmod punct")
	s := &syntax.Sentence{}
	for i := range words {
		s.Tokens = append(s.Tokens, syntax.Token{Form: words[i], XPOS: tags[i], Head: heads[i], Rel: rels[i]})
	}
	tree, err := method.TreeOf(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Q = {cat}; the gold compression "cat chased mouse" sets the budget b = 16.
	in := method.Input{Sentence: s, Tree: tree, Query: []int{3}, Budget: 16, Gold: []int{3, 4, 6}}

	random, err := baseline.NewRandom(1, 1) // accepts every candidate that fits
	if err != nil {
		fmt.Println(err)
		return
	}
	var c method.Compressor
	for _, m := range []method.Method{baseline.Oracle{}, random} {
		kept, err := c.Compress(m, in)
		if err != nil {
			fmt.Println(err)
			return
		}
		var out []string
		for _, v := range kept {
			out = append(out, s.Tokens[v-1].Form)
		}
		fmt.Printf("%s: %s\n", m.Name(), strings.Join(out, " "))
	}
	// Output:
	// oracle: cat chased mouse
	// random: The old cat a .
}
