// Package analyzers links bleve's language analyzers into qsc's matcher: import it, for
// its side effect, and the snippets of a text in one of these languages match a query
// term to the words that a bleve index with the language's analyzer keeps under the same
// term: "Steuer" finds "Steuern", "gouvernements" finds "gouvernement", "налоги" finds
// "налогов". A hit in search is then a hit in the snippet.
//
//	import _ "github.com/qsc-nlp/qsc/analyzers"
//
// The languages are those with an analyzer in bleve's analysis/lang packages (bleve
// v2.6.1): ar da de es fa fi fr hi hr hu it nl no (and nb) pl pt ro ru sv tr.
// English keeps qsc's own matcher (internal/core/match: inflections only), and a language
// without an analyzer is matched by its words' normalized, lower-cased, accent-free form.
// Package github.com/qsc-nlp/qsc/all links this package, so the CLI and the service have
// it; a program that only compresses English does not need it, and does not carry bleve's
// analysis code and stop word lists.
//
// The package also registers bleve's stop word lists (for those languages and bg ca cs
// el en eu ga gl hy id): a window does not end on a stop word ("… pour les …"), nor does
// the lead of a document without a match, English included ("… of wheat by …").
//
// A word's term is the analyzer's token filters applied to the word alone, less the stop
// word filter: a stop word keeps its own form, so that a query for it still finds it. The
// cost is a few hundred nanoseconds per distinct word of a request (the matcher remembers
// the terms of the words it has seen). Each language's analyzer and stop word list is
// built on its first use.
package analyzers

import (
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/ar"
	"github.com/blevesearch/bleve/v2/analysis/lang/bg"
	"github.com/blevesearch/bleve/v2/analysis/lang/ca"
	"github.com/blevesearch/bleve/v2/analysis/lang/cs"
	"github.com/blevesearch/bleve/v2/analysis/lang/da"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/el"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/eu"
	"github.com/blevesearch/bleve/v2/analysis/lang/fa"
	"github.com/blevesearch/bleve/v2/analysis/lang/fi"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/ga"
	"github.com/blevesearch/bleve/v2/analysis/lang/gl"
	"github.com/blevesearch/bleve/v2/analysis/lang/hi"
	"github.com/blevesearch/bleve/v2/analysis/lang/hr"
	"github.com/blevesearch/bleve/v2/analysis/lang/hu"
	"github.com/blevesearch/bleve/v2/analysis/lang/hy"
	"github.com/blevesearch/bleve/v2/analysis/lang/id"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/analysis/lang/no"
	"github.com/blevesearch/bleve/v2/analysis/lang/pl"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
	"github.com/blevesearch/bleve/v2/analysis/lang/ro"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/analysis/lang/sv"
	"github.com/blevesearch/bleve/v2/analysis/lang/tr"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/qsc-nlp/qsc/internal/core/segment"
)

// Names maps the ISO 639-1 codes of the languages to the names of their bleve analyzers.
var Names = map[string]string{
	"ar": ar.AnalyzerName, "da": da.AnalyzerName, "de": de.AnalyzerName, "es": es.AnalyzerName,
	"fa": fa.AnalyzerName, "fi": fi.AnalyzerName, "fr": fr.AnalyzerName, "hi": hi.AnalyzerName,
	"hr": hr.AnalyzerName, "hu": hu.AnalyzerName, "it": it.AnalyzerName, "nl": nl.AnalyzerName,
	"no": no.AnalyzerName, "nb": no.AnalyzerName, "pl": pl.AnalyzerName, "pt": pt.AnalyzerName,
	"ro": ro.AnalyzerName, "ru": ru.AnalyzerName, "sv": sv.AnalyzerName, "tr": tr.AnalyzerName,
}

// stopLists maps the ISO 639-1 codes of the languages whose stop word lists bleve has to
// the names of the lists: the window of a snippet does not end on one (a dangling "les").
var stopLists = map[string]string{
	"ar": ar.StopName, "bg": bg.StopName, "ca": ca.StopName, "cs": cs.StopName, "da": da.StopName,
	"de": de.StopName, "el": el.StopName, "en": en.StopName, "es": es.StopName, "eu": eu.StopName, "fa": fa.StopName,
	"fi": fi.StopName, "fr": fr.StopName, "ga": ga.StopName, "gl": gl.StopName, "hi": hi.StopName,
	"hr": hr.StopName, "hu": hu.StopName, "hy": hy.StopName, "id": id.StopName, "it": it.StopName,
	"nl": nl.StopName, "no": no.StopName, "nb": no.StopName, "pl": pl.StopName, "pt": pt.StopName,
	"ro": ro.StopName, "ru": ru.StopName, "sv": sv.StopName, "tr": tr.StopName,
}

// cache builds bleve's analyzers and stop word lists; mu guards it.
var (
	mu    sync.Mutex
	cache = registry.NewCache()
)

// init registers every analyzer and stop word list, each built from bleve's registry on
// its first use: building all of them costs 40 ms and 11 MB (Polish's stemmer table
// above all), which a program that never matches Polish must not pay at start-up.
func init() {
	for lang, name := range stopLists {
		words := sync.OnceValue(func() analysis.TokenMap {
			mu.Lock()
			defer mu.Unlock()
			tm, err := cache.TokenMapNamed(name)
			if err != nil {
				panic("analyzers: bleve stop word list " + name + ": " + err.Error()) // a broken build of bleve
			}
			return tm
		})
		segment.RegisterStopWords(lang, func(w string) bool { return words()[w] })
	}
	for lang, name := range Names {
		term := sync.OnceValue(func() segment.Analyzer {
			mu.Lock()
			defer mu.Unlock()
			a, err := cache.AnalyzerNamed(name)
			if err != nil {
				panic("analyzers: bleve analyzer " + name + ": " + err.Error())
			}
			da, ok := a.(*analysis.DefaultAnalyzer)
			if !ok {
				panic("analyzers: bleve analyzer " + name + " is not an analysis.DefaultAnalyzer")
			}
			return termOf(da)
		})
		segment.Register(lang, func(w string) string { return term()(w) })
	}
}

// termOf returns the segment.Analyzer of a: its char filters and token filters, less the
// stop word filters, applied to one word.
func termOf(a *analysis.DefaultAnalyzer) segment.Analyzer {
	var filters []analysis.TokenFilter
	for _, f := range a.TokenFilters {
		if _, stopWords := f.(*stop.StopTokensFilter); !stopWords {
			filters = append(filters, f)
		}
	}
	chars := a.CharFilters
	return func(word string) string {
		in := []byte(word)
		for _, cf := range chars {
			in = cf.Filter(in)
		}
		ts := analysis.TokenStream{{Term: in, Start: 0, End: len(in), Position: 1, Type: analysis.AlphaNumeric}}
		for _, f := range filters {
			ts = f.Filter(ts)
		}
		for _, t := range ts {
			if len(t.Term) > 0 {
				return string(t.Term)
			}
		}
		return ""
	}
}
