package main

import (
	"flag"
	"strings"

	"github.com/qsc-nlp/qsc"
)

// decodingUsage is the usage of the --decoding flag of qsc compress and qsc snippets.
const decodingUsage = "how the method's decisions become the compression: snippet (budget-true and well-formed), nested (the same, and a larger -b never drops a word: for a snippet that grows) or paper (Handler & O'Connor's decoder)"

// methodName is the value of a --method flag: a method of qsc.Methods(), in any case.
type methodName string

func (m *methodName) String() string { return string(*m) }

// Set keeps the name lowercased: the library's names are lowercase and case-sensitive,
// the command line takes any case.
func (m *methodName) Set(s string) error {
	*m = methodName(strings.ToLower(s))
	return nil
}

// methodFlag defines the --method flag of the commands that compress (compress,
// snippets, annotate), with what it chooses; left out, the library chooses by language:
// qsc.DefaultMethod for English, qsc.MethodWindow for any other language.
func methodFlag(fs *flag.FlagSet, what string) *methodName {
	m := methodName("")
	fs.Var(&m, "method", "`name` of the "+what+" (any case): "+strings.Join(qsc.Methods(), ", ")+
		" (default: "+qsc.DefaultMethod+" for English text, "+qsc.MethodWindow+" for other languages; a method named reads any text as English)")
	return &m
}

// langFlag defines the --lang flag of the commands that take text.
func langFlag(fs *flag.FlagSet) *string {
	return fs.String("lang", "", "`code` of the text's language (ISO 639-1: en, de, ja, …; default: identified from the text)")
}
