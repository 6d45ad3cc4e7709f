module github.com/qsc-nlp/qsc/scripts/langcompare

go 1.26

require (
	github.com/abadojack/whatlanggo v1.0.1
	github.com/pemistahl/lingua-go v1.4.0
	github.com/qsc-nlp/qsc v0.0.0
)

require (
	github.com/shopspring/decimal v1.3.1 // indirect
	golang.org/x/exp v0.0.0-20221106115401-f9659909a136 // indirect
	google.golang.org/protobuf v1.36.8 // indirect
)

replace github.com/qsc-nlp/qsc => ../..
