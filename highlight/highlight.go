// Package highlight is a bleve (github.com/blevesearch/bleve/v2) Highlighter that shows
// compressive snippets: instead of cutting a window of text around the hits, it picks the
// sentences of the field that contain the query terms and shortens each with qsc to a
// character budget, keeping every term.
//
// Importing the package registers the highlighter under Name ("qsc"); ask for it with
// bleve.NewHighlightWithStyle(highlight.Name). It reads the field's stored text, and it is
// fastest from the field's annotation (its sentences tokenized, tagged and parsed), made
// once at index time and stored beside the text. In the document mapping dm:
//
//	body := bleve.NewTextFieldMapping()
//	body.Store = true
//	dm.AddFieldMappingsAt("body", body)
//	highlight.MapAnnotation(dm, "body") // "body_qsc": stored, not indexed
//
// and for each document, before indexing it:
//
//	doc := map[string]any{"body": text}
//	err := highlight.AddAnnotations(ctx, eng, doc, "body") // sets doc["body_qsc"]
//
// where eng has the models the highlighter uses: qsc.New() for the registered one (an
// annotation of other models cannot be used). Give that Engine to SetEngine before the
// first search, and the registered styles use it instead of loading the models again.
// Annotate gives one annotation.
//
// A Markdown field is best indexed and annotated as its rendering reads (package
// markdown: Text, or Doc's title and body), and an HTML one as a browser shows it
// (package htmltext, likewise), so that no fragment shows its markup.
//
// A document without the annotation is highlighted all the same: the highlighter parses
// the field at query time. The snippets are the same either way, from annotations for a
// fraction of the CPU (BenchmarkResultPage): an annotation records its models and the
// rules that split its sentences (qsc.Engine.AnnotationModels), so that one made by a
// build that splits otherwise is stale. An annotation that cannot be used (of other
// models or splitting, of another text, corrupt) is ignored and the field parsed;
// Highlighter.Stats counts the cases: re-index such documents to get the speed back.
//
// The registered highlighter's budget is DefaultBudget; to set another, define a named
// style of type "qsc" in bleve's registry cache:
//
//	bleve.Config.Cache.DefineHighlighter("qsc-80", map[string]any{"type": highlight.Name, "budget": 80})
//
// Config keys: "budget" (characters per fragment, default DefaultBudget), "fragments"
// (fragments per field; default the number bleve asks for, which is 1), "format" ("html",
// the default: HTML-escaped, hits in <mark>, "…" where words were cut; "text": the same
// without markup; "plain": the kept words only, which the budget counts, with no "…") and
// "method" (a qsc method; default qsc.DefaultMethod for English text, qsc.MethodWindow for
// other languages); any other key (but "type") is an error. New builds a Highlighter to
// call directly.
//
// The terms are the words bleve located in the field (dm.Locations), as spelled in the
// field; qsc matches them again across inflections within each sentence. A field over
// qsc.MaxDocumentBytes is snippeted from its first qsc.MaxDocumentBytes bytes; invalid UTF-8
// bytes are read as spaces. A field whose matching sentences cannot fit the budget (or any
// other qsc error) gets no fragment, and Stats.Failed counts it.
package highlight

import (
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search"
	bhl "github.com/blevesearch/bleve/v2/search/highlight"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/qsc-nlp/qsc"
	"github.com/qsc-nlp/qsc/annotation"
	"github.com/qsc-nlp/qsc/render"
)

// Name is the highlighter's name in bleve's registry.
const Name = "qsc"

// DefaultBudget is the default length of a fragment in characters: about one line of a
// results page, short enough that long sentences get compressed.
const DefaultBudget = 120

// Formats of the fragments.
const (
	FormatHTML  = "html"  // HTML-escaped, hits in <mark>, "…" where words were cut (render.HTML)
	FormatText  = "text"  // "…" where words were cut, no markup (render.Ellipsis)
	FormatPlain = "plain" // the kept words only (render.Plain); the budget counts them, not "…" marks
)

// Options configure a Highlighter.
type Options struct {
	Budget    int    // characters per fragment (0: DefaultBudget)
	Fragments int    // fragments per field (0: as many as bleve asks for)
	Format    string // FormatHTML (default), FormatText or FormatPlain
	Method    string // a qsc method (default: qsc.DefaultMethod for English text, qsc.MethodWindow for other languages)
}

// Highlighter implements bleve's highlight.Highlighter with qsc snippets. It is safe for
// concurrent use.
type Highlighter struct {
	eng    *qsc.Engine
	opts   Options
	anns   sync.Pool // *annotation.Annotation, decoded stored annotations
	fields sync.Pool // *fieldValues, the values of a field being highlighted
	stats  counters
}

// New returns a Highlighter that compresses with eng, whose method's model it loads
// (qsc.Engine.Load), so that the first page does not wait for it. Register it under a
// name of your own with registry.RegisterHighlighter to use it from bleve, or call
// BestFragmentsInField.
func New(eng *qsc.Engine, opts Options) (*Highlighter, error) {
	switch {
	case eng == nil:
		return nil, fmt.Errorf("qsc highlighter: no engine (make one with qsc.New)")
	case opts.Budget < 0:
		return nil, fmt.Errorf("qsc highlighter: budget must be positive, got %d", opts.Budget)
	case opts.Fragments < 0:
		return nil, fmt.Errorf("qsc highlighter: fragments must be positive, got %d", opts.Fragments)
	}
	if opts.Budget == 0 {
		opts.Budget = DefaultBudget
	}
	switch opts.Format {
	case "":
		opts.Format = FormatHTML
	case FormatHTML, FormatText, FormatPlain:
	default:
		return nil, fmt.Errorf("qsc highlighter: unknown format %q (want %s, %s or %s)", opts.Format, FormatHTML, FormatText, FormatPlain)
	}
	if opts.Method != "" && !slices.Contains(qsc.Methods(), opts.Method) {
		return nil, fmt.Errorf("qsc highlighter: unknown method %q (want one of %v)", opts.Method, qsc.Methods())
	}
	if err := eng.Load(opts.Method); err != nil { // not on the first page
		return nil, fmt.Errorf("qsc highlighter: %w", err)
	}
	h := &Highlighter{eng: eng, opts: opts}
	h.anns.New = func() any { return new(annotation.Annotation) }
	h.fields.New = func() any { return new(fieldValues) }
	return h, nil
}

// The Engine shared by the highlighters built from bleve's registry: SetEngine's, or one
// made with qsc.New when the first is built.
var (
	engineMu  sync.Mutex
	shared    *qsc.Engine
	sharedErr error
	built     bool // a highlighter was built from the registry: the Engine is fixed
)

// engine returns the Engine of the highlighters built from bleve's registry.
func engine() (*qsc.Engine, error) {
	engineMu.Lock()
	defer engineMu.Unlock()
	if shared == nil && sharedErr == nil {
		shared, sharedErr = qsc.New()
	}
	built = true
	return shared, sharedErr
}

// SetEngine sets the Engine of the highlighters that bleve's registry builds (the style
// Name and the styles defined with type Name), instead of one made with qsc.New when the
// first is built: a program that annotates its documents (AddAnnotations) shares its
// Engine with them, and loads the models once. It must be called before a search asks
// for such a style; after, it returns an error and changes nothing.
func SetEngine(eng *qsc.Engine) error {
	if eng == nil {
		return fmt.Errorf("qsc highlighter: SetEngine with no engine (make one with qsc.New)")
	}
	engineMu.Lock()
	defer engineMu.Unlock()
	if built {
		return fmt.Errorf("qsc highlighter: SetEngine after a highlighter was built from bleve's registry, which keeps its Engine: call it before the first search")
	}
	shared, sharedErr = eng, nil
	return nil
}

// Constructor builds a Highlighter from a bleve highlighter config (see the package
// documentation for its keys), with the embedded default models.
func Constructor(config map[string]any, _ *registry.Cache) (bhl.Highlighter, error) {
	for key := range config {
		switch key {
		case "type", "budget", "fragments", "format", "method":
		default:
			return nil, fmt.Errorf("qsc highlighter: unknown config key %q (want budget, fragments, format or method)", key)
		}
	}
	var opts Options
	var err error
	if opts.Budget, err = intOption(config, "budget"); err != nil {
		return nil, err
	}
	if opts.Fragments, err = intOption(config, "fragments"); err != nil {
		return nil, err
	}
	for key, dst := range map[string]*string{"format": &opts.Format, "method": &opts.Method} {
		if v, ok := config[key]; ok {
			s, isString := v.(string)
			if !isString {
				return nil, fmt.Errorf("qsc highlighter: %s must be a string, got %T", key, v)
			}
			*dst = s
		}
	}
	eng, err := engine()
	if err != nil {
		return nil, fmt.Errorf("qsc highlighter: %w", err)
	}
	return New(eng, opts)
}

// intOption reads a whole number from config (JSON gives float64), 0 when absent.
func intOption(config map[string]any, key string) (int, error) {
	v, ok := config[key]
	if !ok {
		return 0, nil
	}
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	case float64:
		if x == float64(int(x)) {
			return int(x), nil
		}
	}
	return 0, fmt.Errorf("qsc highlighter: %s must be a whole number, got %T %#v", key, v, v)
}

func init() {
	if err := registry.RegisterHighlighter(Name, Constructor); err != nil {
		panic(err)
	}
}

// Fragmenter returns nil: the fragments are sentences, compressed.
func (h *Highlighter) Fragmenter() bhl.Fragmenter { return nil }

// SetFragmenter does nothing: the fragments are sentences, compressed.
func (h *Highlighter) SetFragmenter(bhl.Fragmenter) {}

// FragmentFormatter returns nil: the format is an option (Options.Format).
func (h *Highlighter) FragmentFormatter() bhl.FragmentFormatter { return nil }

// SetFragmentFormatter does nothing: the format is an option (Options.Format).
func (h *Highlighter) SetFragmentFormatter(bhl.FragmentFormatter) {}

// Separator returns "…", the mark of removed words.
func (h *Highlighter) Separator() string { return "…" }

// SetSeparator does nothing: the mark of removed words is always "…".
func (h *Highlighter) SetSeparator(string) {}

// BestFragmentInField returns the best fragment of field, or "".
func (h *Highlighter) BestFragmentInField(dm *search.DocumentMatch, doc index.Document, field string) string {
	if f := h.BestFragmentsInField(dm, doc, field, 1); len(f) > 0 {
		return f[0]
	}
	return ""
}

// BestFragmentsInField returns up to num fragments of field (Options.Fragments when set),
// best first, and adds them to dm.Fragments[field] (bleve reads them there).
func (h *Highlighter) BestFragmentsInField(dm *search.DocumentMatch, doc index.Document, field string, num int) []string {
	if h.opts.Fragments > 0 {
		num = h.opts.Fragments
	}
	if num <= 0 || dm == nil || doc == nil {
		return nil
	}
	tlm := dm.Locations[field]
	type scored struct {
		text  string
		score float64
	}
	var all []scored
	vs := h.fields.Get().(*fieldValues)
	defer func() {
		vs.forget()
		h.fields.Put(vs)
	}()
	vs.read(doc, field)
	for _, v := range vs.texts {
		text := fieldText(v.val)
		terms := termsAt(text, tlm, v.pos)
		if len(terms) == 0 {
			continue
		}
		sn, err := h.snippets(&qsc.SnippetRequest{Document: text, Query: terms, Budget: h.opts.Budget, BudgetCounts: h.budgetCounts(),
			N: num, Method: h.opts.Method}, vs.annotationAt(v.pos))
		if err != nil {
			h.stats.failed.Add(1) // bleve's interface has no error to return: counted
			continue
		}
		for _, s := range sn {
			all = append(all, scored{h.format(text, s), s.Score})
		}
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	var out []string
	if len(all) > 0 {
		out = make([]string, 0, min(num, len(all)))
	}
	for _, s := range all[:min(num, len(all))] {
		out = append(out, s.text)
	}
	if len(out) > 0 {
		dm.AddFragments(field, out)
	}
	return out
}

// budgetCounts returns what the budget counts: what the fragment shows
// (render.BudgetCounts). FormatPlain shows no "…" marks; the other formats do.
func (h *Highlighter) budgetCounts() string {
	return render.BudgetCounts(h.opts.Format != FormatPlain)
}

// format renders a snippet in the highlighter's format.
func (h *Highlighter) format(doc string, s qsc.Snippet) string {
	switch h.opts.Format {
	case FormatText:
		return render.Ellipsis(doc, s)
	case FormatPlain:
		return render.Plain(doc, s)
	}
	return render.HTML(doc, s, true)
}

// fieldText returns the text of a field value as qsc takes it: at most
// qsc.MaxDocumentBytes, cut at a rune boundary, with invalid UTF-8 bytes read as spaces,
// so that byte offsets stay those of the field.
func fieldText(v []byte) string {
	if len(v) > qsc.MaxDocumentBytes {
		n := qsc.MaxDocumentBytes
		for n > 0 && !utf8.RuneStart(v[n]) {
			n--
		}
		v = v[:n]
	}
	if utf8.Valid(v) {
		return string(v)
	}
	b := make([]byte, 0, len(v))
	for len(v) > 0 {
		r, size := utf8.DecodeRune(v)
		if r == utf8.RuneError && size == 1 {
			b = append(b, ' ')
		} else {
			b = append(b, v[:size]...)
		}
		v = v[size:]
	}
	return string(b)
}

// termsAt returns the distinct words that bleve located in text (one value of the field,
// at array positions ap), as spelled there, in order of first occurrence.
func termsAt(text string, tlm search.TermLocationMap, ap []uint64) []string {
	type loc struct{ start, end int }
	var locs []loc
	for _, ls := range tlm {
		for _, l := range ls {
			if l == nil || !l.ArrayPositions.Equals(ap) {
				continue
			}
			s, e := int(l.Start), int(l.End)
			if s < 0 || s >= e || e > len(text) {
				continue
			}
			locs = append(locs, loc{s, e})
		}
	}
	slices.SortFunc(locs, func(a, b loc) int { return a.start - b.start })
	var terms []string
	for _, l := range locs {
		if w := text[l.start:l.end]; len(terms) < qsc.MaxQueryTerms && !slices.Contains(terms, w) {
			terms = append(terms, w)
		}
	}
	return terms
}
