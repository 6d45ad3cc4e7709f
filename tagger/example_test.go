package tagger_test

import (
	"fmt"

	"github.com/qsc-nlp/qsc/syntax"
	"github.com/qsc-nlp/qsc/tagger"
)

func sentence(pairs ...string) *syntax.Sentence {
	s := &syntax.Sentence{}
	for i := 0; i+1 < len(pairs); i += 2 {
		s.Tokens = append(s.Tokens, syntax.Token{Form: pairs[i], XPOS: pairs[i+1]})
	}
	return s
}

func Example() {
	train := []*syntax.Sentence{
		sentence("The", "DT", "dog", "NN", "barks", "VBZ", ".", "."),
		sentence("A", "DT", "cat", "NN", "sleeps", "VBZ", ".", "."),
		sentence("The", "DT", "cats", "NNS", "sleep", "VBP", ".", "."),
		sentence("Dogs", "NNS", "bark", "VBP", "loudly", "RB", ".", "."),
	}
	m, _, err := tagger.Train(train, nil, tagger.TrainOptions{Epochs: 5, Seed: 1, Quiet: true})
	if err != nil {
		panic(err)
	}
	data, _ := m.MarshalBinary() // save with os.WriteFile; read back with tagger.Load
	m, err = tagger.Load(data)
	if err != nil {
		panic(err)
	}
	s := &syntax.Sentence{Tokens: []syntax.Token{{Form: "A"}, {Form: "dog"}, {Form: "sleeps"}, {Form: "."}}}
	m.NewTagger().Tag(s)
	for _, t := range s.Tokens {
		fmt.Print(t.Form, "/", t.XPOS, " ")
	}
	fmt.Println()
	// Output: A/DT dog/NN sleeps/VBZ ./.
}
