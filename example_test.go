package qsc_test

import (
	"context"
	"fmt"
	"log"

	"github.com/qsc-nlp/qsc"
)

func Example() {
	eng, err := qsc.New() // the embedded tokenizer, tagger, parser and VA_LR models
	if err != nil {
		log.Fatal(err)
	}
	res, err := eng.Compress(context.Background(),
		"Police in Syracuse arrested two men on Tuesday after a long investigation into a string of burglaries.",
		[]string{"police", "Syracuse"}, 40)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Compression)
	fmt.Println(res.Kept)
	// Output:
	// Police in Syracuse arrested two men .
	// [1 2 3 4 5 6 18]
}
