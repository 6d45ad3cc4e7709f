package syntax_test

import (
	"fmt"

	"github.com/qsc-nlp/qsc/syntax"
)

func ExampleUniversal() {
	for _, rel := range []string{"nmod:poss", "obl:tmod", "nsubj", ""} {
		fmt.Printf("%q ", syntax.Universal(rel))
	}
	// Output: "nmod" "obl" "nsubj" ""
}
