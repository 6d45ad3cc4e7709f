package ilp_test

import (
	"fmt"
	"strings"

	"github.com/qsc-nlp/qsc/method"
	"github.com/qsc-nlp/qsc/method/ilp"
	"github.com/qsc-nlp/qsc/syntax"
)

// Solve the program of a three-token sentence "cats chase mice" (chase is the root) by
// hand-set arc scores: keeping "mice" pays only through its parse edge, which needs
// "chase", and the budget of 10 characters holds two of the three words.
func ExampleTreeDP() {
	tree, err := syntax.NewTree([]int{2, 0, 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := &ilp.Problem{
		Tree:   tree,
		Lens:   []int{4, 5, 4},
		Edge:   []float64{1, -0.5, 3}, // chase → cats, root → chase, chase → mice
		Root:   []float64{2, 0, -1},   // ROOT → cats, (unused), ROOT → mice
		Query:  []int{1},              // keep "cats"
		Budget: 10,                    // "cats chase" is 10 characters
	}
	var d ilp.TreeDP
	var sol ilp.Solution
	if err := d.Optimize(p, &sol); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sol.Kept, sol.Score)
	p.Budget = 15 // "cats chase mice"
	if err := d.Optimize(p, &sol); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sol.Kept, sol.Score, sol.Parent[1:])
	// Output:
	// [1] 2
	// [1 2 3] 4.5 [0 0 2]
}

// Compress a parsed sentence in 25 characters with the embedded ILP model
// (method/ilp/ilp-v6.qsm), keeping the query term "Syracuse", and without the query.
func ExampleModel() {
	m, err := ilp.Load(ilp.Embedded())
	if err != nil {
		fmt.Println(err)
		return
	}
	words := strings.Fields("Police in Syracuse arrested two men on Tuesday after a long investigation .")
	tags := strings.Fields("NNS IN NNP VBD CD NNS IN NNP IN DT JJ NN .")
	heads := []int{4, 3, 1, 0, 6, 4, 8, 4, 12, 12, 12, 4, 4}
	rels := strings.Fields("nsubj case nmod root nummod obj case obl case det amod obl punct")
	s := &syntax.Sentence{}
	for i := range words {
		s.Tokens = append(s.Tokens, syntax.Token{Form: words[i], XPOS: tags[i], Head: heads[i], Rel: rels[i]})
	}
	tree, err := method.TreeOf(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := method.Input{Sentence: s, Tree: tree, Query: []int{3}, Budget: 25} // keep "Syracuse"
	var c method.Compressor
	for _, method := range []method.Method{m, m.Unconstrained()} {
		kept, err := c.Compress(method, in)
		if err != nil {
			fmt.Println(err)
			return
		}
		var out []string
		for _, v := range kept {
			out = append(out, s.Tokens[v-1].Form)
		}
		fmt.Printf("%s: %s\n", method.Name(), strings.Join(out, " "))
	}
	// Output:
	// ilp: in Syracuse arrested .
	// ilp-unconstrained: Police arrested two men .
}
