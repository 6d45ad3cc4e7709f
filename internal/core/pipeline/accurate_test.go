package pipeline

import (
	"os"

	"github.com/qsc-nlp/qsc/internal/core/modelfile"
)

// The tests use the accurate parser. Its package (parser/accurate) imports this one, so
// the test binary registers its file from the repository instead.
func init() {
	data, err := os.ReadFile("../../../parser/accurate/" + ParserBeamName)
	if err != nil {
		panic(err)
	}
	modelfile.Register(ParserBeamName, data)
}
