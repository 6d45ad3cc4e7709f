package evaluate

import (
	"errors"
	"testing"

	"github.com/qsc-nlp/qsc/internal/dataset"
	"github.com/qsc-nlp/qsc/model"
	"github.com/qsc-nlp/qsc/syntax"
)

func TestInputsAndLatency(t *testing.T) {
	s := &syntax.Sentence{Tokens: []syntax.Token{
		{Form: "Dogs", XPOS: "NNS", Head: 2, Rel: "nsubj"},
		{Form: "bark", XPOS: "VBP", Head: 0, Rel: "root"},
		{Form: ".", XPOS: ".", Head: 2, Rel: "punct"},
	}}
	tu := &dataset.Tuple{ID: "t", Sentence: s, Query: []int{1}, Budget: 9, Gold: []int{1, 2}}
	ins, err := Inputs([]*dataset.Tuple{tu})
	if err != nil || len(ins) != 1 || ins[0].Tree.Head(1) != 2 {
		t.Fatalf("Inputs: %v %v", ins, err)
	}
	lat, err := Latency(model.Oracle{}, ins, 10, 1, nil)
	if err != nil || lat.N != 10 {
		t.Fatalf("Latency: %+v %v", lat, err)
	}
	if _, err := Latency(model.Oracle{}, nil, 10, 1, nil); err == nil {
		t.Error("no inputs: no error")
	}
	s.Tokens[2].Head = syntax.NoHead
	if _, err := Inputs([]*dataset.Tuple{tu}); !errors.Is(err, ErrUnparsed) {
		t.Errorf("unparsed: err = %v", err)
	}
}
