// Command whatlanggo prints the language whatlanggo identifies in its argument, for the
// binary sizes of docs/languages.md.
package main

import (
	"fmt"
	"os"

	"github.com/abadojack/whatlanggo"
)

func main() { fmt.Println(whatlanggo.Detect(os.Args[1]).Lang.Iso6391()) }
