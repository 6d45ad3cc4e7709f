package parser_test

import (
	"fmt"
	"log"

	"github.com/qsc-nlp/qsc/conllu"
	"github.com/qsc-nlp/qsc/parser"
	"github.com/qsc-nlp/qsc/syntax"
)

func Example() {
	// Train a toy model on a few sentences (real models are trained by "qsc-lab train parser").
	m, _, err := parser.Train(toyTreebank(), nil, parser.TrainOptions{Epochs: 10, MinWordCount: 1, ActionBits: 16, LabelBits: 12})
	if err != nil {
		log.Fatal(err)
	}
	// Models are saved with MarshalBinary and read back with Load.
	data, err := m.MarshalBinary()
	if err != nil {
		log.Fatal(err)
	}
	if m, err = parser.Load(data); err != nil {
		log.Fatal(err)
	}

	// Parse a tagged sentence. A Parser is per goroutine; the Model can be shared.
	p := m.NewParser()
	s := &syntax.Sentence{}
	for _, w := range [][2]string{{"The", "DT"}, {"dog", "NN"}, {"sat", "VBD"}, {"on", "IN"}, {"the", "DT"}, {"mat", "NN"}, {".", "."}} {
		s.Tokens = append(s.Tokens, syntax.Token{Form: w[0], XPOS: w[1]})
	}
	if err := p.Parse(s); err != nil {
		log.Fatal(err)
	}
	for i, t := range s.Tokens {
		fmt.Printf("%d %s %d %s\n", i+1, t.Form, t.Head, t.Rel)
	}
	fmt.Println(parser.NormalizeForm("Boeing 747s"))
	// Output:
	// 1 The 2 det
	// 2 dog 3 nsubj
	// 3 sat 0 root
	// 4 on 6 case
	// 5 the 6 det
	// 6 mat 3 obl
	// 7 . 3 punct
	// ##
}

// A model trained with a beam parses with beam search: it keeps the Beam best partial
// parses at every step.
func ExampleTrainOptions_beam() {
	m, _, err := parser.Train(toyTreebank(), nil, parser.TrainOptions{Epochs: 10, MinWordCount: 1, ActionBits: 16, LabelBits: 12, Beam: 4})
	if err != nil {
		log.Fatal(err)
	}
	s := &syntax.Sentence{}
	for _, w := range [][2]string{{"The", "DT"}, {"dog", "NN"}, {"sat", "VBD"}, {".", "."}} {
		s.Tokens = append(s.Tokens, syntax.Token{Form: w[0], XPOS: w[1]})
	}
	if err := m.NewParser().Parse(s); err != nil {
		log.Fatal(err)
	}
	fmt.Println("beam", m.Beam())
	for i, t := range s.Tokens {
		fmt.Printf("%d %s %d %s\n", i+1, t.Form, t.Head, t.Rel)
	}
	// Output:
	// beam 4
	// 1 The 2 det
	// 2 dog 3 nsubj
	// 3 sat 0 root
	// 4 . 3 punct
}

// toyTreebank reads the few training sentences of the examples.
func toyTreebank() []*syntax.Sentence {
	cs, err := conllu.ReadAll("testdata/small.conllu")
	if err != nil {
		log.Fatal(err)
	}
	var train []*syntax.Sentence
	for _, c := range cs {
		train = append(train, syntax.FromCoNLLU(c))
	}
	return train
}
