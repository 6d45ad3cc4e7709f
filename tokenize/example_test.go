package tokenize_test

import (
	"fmt"
	"strings"

	"github.com/qsc-nlp/qsc/tokenize"
)

func Example() {
	text := `Mr. Smith didn't visit the U.S. office at 5 p.m. Friday. "It's closed," he said.`
	for _, s := range tokenize.Sentences(text) {
		var out []string
		for _, t := range s.Tokens {
			out = append(out, fmt.Sprintf("%s[%d:%d]", t.Form, t.Start, t.End))
		}
		fmt.Println(strings.Join(out, " "))
	}
	// Output:
	// Mr.[0:3] Smith[4:9] did[10:13] n't[13:16] visit[17:22] the[23:26] U.S.[27:31] office[32:38] at[39:41] 5[42:43] p.m.[44:48] Friday[49:55] .[55:56]
	// "[57:58] It[58:60] 's[60:62] closed[63:69] ,[69:70] "[70:71] he[72:74] said[75:79] .[79:80]
}

func ExamplePTBForm() {
	text := `She said "don’t go."`
	var out []string
	for _, t := range tokenize.Tokens(text) {
		out = append(out, tokenize.PTBForm(text, t))
	}
	fmt.Println(strings.Join(out, " "))
	// Output: She said `` do n't go . ''
}
