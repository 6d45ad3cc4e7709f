// Command qsc prints the language qsc's internal/core/langid identifies in its argument, for
// the binary sizes of docs/languages.md.
package main

import (
	"fmt"
	"os"

	"github.com/qsc-nlp/qsc/internal/core/langid"
)

func main() { fmt.Println(langid.Detect(os.Args[1]).Lang) }
