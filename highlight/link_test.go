package highlight_test

// The tests use every method; a program that imports only this package links the default.
import _ "github.com/qsc-nlp/qsc/all"
