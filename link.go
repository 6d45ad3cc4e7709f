package qsc

// The root package links the default method, the ILP (DefaultMethod), with its model file;
// the window baseline comes with package method. Other methods and the accurate parser
// are linked by importing their packages, or all of them with
// import _ "github.com/qsc-nlp/qsc/all".
import _ "github.com/qsc-nlp/qsc/method/ilp"
