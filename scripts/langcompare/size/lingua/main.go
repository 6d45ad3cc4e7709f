// Command lingua prints the language lingua-go identifies in its argument, for the
// binary sizes of docs/languages.md.
package main

import (
	"fmt"
	"os"

	lingua "github.com/pemistahl/lingua-go"
)

func main() {
	l, _ := lingua.NewLanguageDetectorBuilder().FromAllLanguages().Build().DetectLanguageOf(os.Args[1])
	fmt.Println(l.IsoCode639_1())
}
