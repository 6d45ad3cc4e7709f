// Package all links every method and model of qsc into a program that imports it, as
// bleve's config package does for its optional parts:
//
//	import _ "github.com/qsc-nlp/qsc/all"
//
// The qsc command and the HTTP service import it. A library user probably does not need
// it: the root package links the default pipeline and the default method (the ILP), and
// each other method is one import away (method/lr, method/ablated, method/nn; the
// accurate parser is parser/accurate; bleve's language analyzers, for matching inflected
// words in other languages than English, are package analyzers). Linking everything adds
// about 34 MB of model files to the binary.
package all

import (
	_ "github.com/qsc-nlp/qsc/analyzers"      // bleve's language analyzers
	_ "github.com/qsc-nlp/qsc/method/ablated" // ABLATED
	_ "github.com/qsc-nlp/qsc/method/ilp"     // the ILP and its evaluation-only variants
	_ "github.com/qsc-nlp/qsc/method/lr"      // VA_LR and RANDOM
	_ "github.com/qsc-nlp/qsc/method/nn"      // VA_NN
	_ "github.com/qsc-nlp/qsc/parser/accurate"
)
