package qsc

// The root package links the default method, the ILP (DefaultMethod), with its model file,
// and the baselines (window; random and oracle, which need VA_LR's file or gold data to
// open). Other methods and the accurate parser are linked by importing their packages, or
// all of them with import _ "github.com/qsc-nlp/qsc/all".
import (
	_ "github.com/qsc-nlp/qsc/method/baseline"
	_ "github.com/qsc-nlp/qsc/method/ilp"
)
