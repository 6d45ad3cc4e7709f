package clusters

import (
	"io"
	"iter"

	"github.com/qsc-nlp/qsc/conllu"
)

// Forms returns the text of a CoNLL-U reader as the parser and the tagger learn their
// clusters from it: the forms of each sentence, in order, in one slice that is reused
// between sentences. visit, when not nil, sees each word of a sentence as its form is
// taken, before the sentence is yielded. The sequence reads r once, as far as it is
// iterated, and ends at the end of the input or at the first error of reading; readErr
// then returns that error (nil at the end of the input). It costs one pass over the
// input and the slice of the longest sentence.
func Forms(r *conllu.Reader, visit func(*conllu.Word)) (sents iter.Seq[[]string], readErr func() error) {
	var err error
	sents = func(yield func([]string) bool) {
		var forms []string
		for {
			s, e := r.Next()
			if e != nil {
				if e != io.EOF {
					err = e
				}
				return
			}
			forms = forms[:0]
			for i := range s.Words {
				forms = append(forms, s.Words[i].Form)
				if visit != nil {
					visit(&s.Words[i])
				}
			}
			if !yield(forms) {
				return
			}
		}
	}
	return sents, func() error { return err }
}

// Count returns the number of fine and coarse clusters of a clustering whose fine
// cluster f has coarse cluster coarse[f] (as Result.Coarse): len(coarse), and one more
// than the largest coarse cluster (0 for none). It costs one pass over coarse.
func Count(coarse []uint8) (fineN, coarseN int) {
	for _, v := range coarse {
		coarseN = max(coarseN, int(v)+1)
	}
	return len(coarse), coarseN
}
