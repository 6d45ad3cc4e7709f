package lm_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/qsc-nlp/qsc/lm"
)

// Train a trigram model on text with one sentence per line, then score sentences with
// it. The fixture is too small for Kneser–Ney discounts of its own, so the example gives
// lmplz's fallback values.
func ExampleTrain() {
	text := "the man said no\nthe woman said yes\nthe man left\na woman left\n"
	m, err := lm.Train(strings.NewReader(text), lm.Options{DiscountFallback: &[3]float64{0.5, 1, 1.5}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("n-grams per order:", m.Counts())
	seen := m.Score(strings.Fields("the man said yes"))
	odd := m.Score(strings.Fields("yes said man the"))
	fmt.Printf("seen order more probable: %t\n", seen > odd)
	// Output:
	// n-grams per order: [11 14 13]
	// seen order more probable: true
}

// SLOR scores the readability of a compression: the language model's log probability
// beyond what its words' unigram frequencies explain, per word.
func ExampleModel_SLOR() {
	data, err := os.ReadFile("testdata/ewt500.txt")
	if err != nil {
		log.Fatal(err)
	}
	m, err := lm.Train(bytes.NewReader(data), lm.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fluent, _ := m.SLOR(strings.Fields("The president said that the government will act"))
	shuffled, _ := m.SLOR(strings.Fields("act will government the that said president The"))
	fmt.Printf("fluent %.2f > shuffled %.2f: %t\n", fluent, shuffled, fluent > shuffled)
	// Output:
	// fluent -0.11 > shuffled -0.49: true
}

// Write a model as ARPA and read it back, as KenLM, SRILM or IRSTLM would.
func ExampleReadARPA() {
	m, err := lm.Train(strings.NewReader("a b\nb a b\n"), lm.Options{Order: 2, DiscountFallback: &[3]float64{0.5, 1, 1.5}})
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.WriteARPA(&buf); err != nil {
		log.Fatal(err)
	}
	fmt.Print(buf.String())
	r, err := lm.ReadARPA(&buf)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("log10 P(<s> a b </s>) = %.4f\n", r.Score([]string{"a", "b"}))
	// Output:
	// \data\
	// ngram 1=5
	// ngram 2=5
	//
	// \1-grams:
	// -0.90309	<unk>	0
	// 0	<s>	-0.30103
	// -0.6478175	</s>	0
	// -0.48811665	a	-0.30103
	// -0.48811665	b	-0.30103
	//
	// \2-grams:
	// -0.38457605	<s> a
	// -0.38457605	<s> b
	// -0.17881411	a b
	// -0.35082746	b </s>
	// -0.48258415	b a
	//
	// \end\
	// log10 P(<s> a b </s>) = -0.9142
}
