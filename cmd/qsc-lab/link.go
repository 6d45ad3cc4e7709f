package main

// The command offers every method and the accurate parser.
import _ "github.com/qsc-nlp/qsc/all"
