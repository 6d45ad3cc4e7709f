// Command none is the baseline of the binary sizes of docs/languages.md: it prints its
// argument.
package main

import (
	"fmt"
	"os"
)

func main() { fmt.Println(os.Args[1:]) }
