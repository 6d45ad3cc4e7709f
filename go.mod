module github.com/qsc-nlp/qsc

go 1.26
