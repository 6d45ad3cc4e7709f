// Package qscbeam annotates documents at scale with Apache Beam: a pipeline that reads
// JSONL records {"id", "text"} (or whole text files), parses each document once into its
// qsc annotation, optionally compresses it for given queries, and writes one JSONL record
// per input record, the records of `qsc annotate` (package annotation/batch), error
// records included. It runs on any Beam runner: Prism locally, Flink, Spark, Dataflow (see
// README.md).
//
// No record is dropped silently: every input line, or input file in text mode, gives
// exactly one output line; the bad ones give {"id", "error"}. Counters in namespace "qsc"
// (Metrics) count the records, the error records, the failed queries, the sentences,
// tokens and annotation bytes.
package qscbeam

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/typex"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local files
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/qsc-nlp/qsc"
	_ "github.com/qsc-nlp/qsc/all" // every method and the accurate parser, as --method and --accurate offer
	"github.com/qsc-nlp/qsc/annotation/batch"
)

// Input formats.
const (
	FormatJSONL = "jsonl" // one record {"id", "text"} per line (textio)
	FormatText  = "text"  // each file one document, its path the id (fileio)
)

// Options configure the pipeline.
type Options struct {
	// Input is a file pattern of any filesystem Beam's Go SDK has registered (local files,
	// gs://, s3://…, with the filesystem imported by the binary).
	Input string
	// Format is FormatJSONL (the default) or FormatText.
	Format string
	// Output is the file the output records are written to (textio.Write: one file).
	Output string
	// Accurate parses with the embedded beam-search parser (qsc.Options.Accurate).
	Accurate bool
	// Options say what is made of each record: the annotation's form, and the queries
	// to compress for, with the budget, the number of snippets and the method.
	batch.Options
}

// Metrics are the names of the pipeline's counters, in namespace "qsc".
const (
	Namespace         = "qsc"
	MetricRecords     = "records"       // output records
	MetricErrors      = "error_records" // output records that are errors
	MetricQueryErrors = "query_errors"  // queries of annotated records that failed
	MetricSentences   = "sentences"
	MetricTokens      = "tokens"
	MetricBytes       = "annotation_bytes"
)

var (
	records     = beam.NewCounter(Namespace, MetricRecords)
	errorRecs   = beam.NewCounter(Namespace, MetricErrors)
	queryErrors = beam.NewCounter(Namespace, MetricQueryErrors)
	sentences   = beam.NewCounter(Namespace, MetricSentences)
	tokens      = beam.NewCounter(Namespace, MetricTokens)
	annBytes    = beam.NewCounter(Namespace, MetricBytes)
)

func init() {
	register.DoFn3x1[context.Context, string, func(string), error](&annotateLineFn{})
	register.DoFn4x1[context.Context, string, string, func(string), error](&annotateNamedLineFn{})
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(string), error](&annotateFileFn{})
	register.Emitter1[string]()
	beam.RegisterType(reflect.TypeOf((*processorConfig)(nil)).Elem())
}

// Check checks the options before a pipeline is built; the same checks run again on every
// worker.
func (o *Options) Check() error {
	switch {
	case o.Input == "":
		return fmt.Errorf("no input pattern")
	case o.Output == "":
		return fmt.Errorf("no output file")
	case o.Format != "" && o.Format != FormatJSONL && o.Format != FormatText:
		return fmt.Errorf("unknown input format %q (want %s or %s)", o.Format, FormatJSONL, FormatText)
	}
	for _, path := range []string{o.Input, o.Output} {
		if err := validScheme(path); err != nil {
			return err
		}
	}
	_, err := o.config().processor()
	return err
}

// validScheme reports an error when no filesystem is registered for path's scheme (Beam's
// ValidateScheme panics).
func validScheme(path string) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%v", v)
		}
	}()
	filesystem.ValidateScheme(path)
	return nil
}

// Build adds the pipeline to s: read, annotate (and compress), write. It returns the
// output records, before they are written.
func Build(s beam.Scope, o Options) (beam.PCollection, error) {
	if err := o.Check(); err != nil {
		return beam.PCollection{}, err
	}
	out := Annotate(s, Read(s, o), o)
	textio.Write(s, o.Output, out)
	return out, nil
}

// Read returns the input of the pipeline: the lines of the JSONL files, each keyed by
// its file's name (textio.ReadWithFilename), or the files (fileio.ReadableFile) in text
// mode.
func Read(s beam.Scope, o Options) beam.PCollection {
	if o.Format == FormatText {
		return fileio.ReadMatches(s, fileio.MatchFiles(s, o.Input), fileio.ReadDirectorySkip())
	}
	return textio.ReadWithFilename(s, o.Input)
}

// Annotate turns the input records into output records: JSON lines, one per input
// record. The input is the files in text mode; otherwise lines of JSONL, each keyed by
// its file's name (Read) or alone (a PCollection of strings). An error record of a keyed
// line names the file, and when the line gives no id it quotes the line's start, so that
// the bad line can be found: Beam reads a file in parallel pieces and knows no line
// numbers.
func Annotate(s beam.Scope, in beam.PCollection, o Options) beam.PCollection {
	s = s.Scope("qsc.Annotate")
	switch {
	case o.Format == FormatText:
		return beam.ParDo(s, &annotateFileFn{Config: o.config()}, in)
	case typex.IsKV(in.Type()):
		return beam.ParDo(s, &annotateNamedLineFn{Config: o.config()}, in)
	}
	return beam.ParDo(s, &annotateLineFn{Config: o.config()}, in)
}

// processorConfig is what a worker needs to make its batch.Processor; it is serialized
// with the DoFns, so its fields are exported.
type processorConfig struct {
	Accurate bool          `json:"accurate"`
	Batch    batch.Options `json:"batch"`
}

func (o *Options) config() processorConfig {
	return processorConfig{Accurate: o.Accurate, Batch: o.Options}
}

func (c processorConfig) processor() (*batch.Processor, error) {
	eng, err := qsc.NewWithOptions(qsc.Options{Accurate: c.Accurate})
	if err != nil {
		return nil, err
	}
	return batch.New(eng, c.Batch)
}

// worker is the state a DoFn instance makes in Setup.
type worker struct{ p *batch.Processor }

func (w *worker) setup(c processorConfig) error {
	var err error
	w.p, err = c.processor()
	return err
}

// emit counts and writes one output record. Only an output record that cannot be encoded
// (which would be a bug) fails the bundle.
func emit(ctx context.Context, o *batch.Output, out func(string)) error {
	line, err := batch.Marshal(o)
	if err != nil {
		return fmt.Errorf("record %q: %w", o.ID, err)
	}
	records.Inc(ctx, 1)
	if o.Failed() {
		errorRecs.Inc(ctx, 1)
	}
	queryErrors.Inc(ctx, int64(o.QueryErrors()))
	sentences.Inc(ctx, int64(o.Sentences))
	tokens.Inc(ctx, int64(o.Tokens))
	annBytes.Inc(ctx, int64(o.Bytes))
	out(string(line))
	return nil
}

// annotateLineFn annotates one JSONL record.
type annotateLineFn struct {
	Config processorConfig `json:"config"`
	w      worker
}

// Setup makes the worker's engine and processor (the models are decoded once per process).
func (f *annotateLineFn) Setup() error { return f.w.setup(f.Config) }

// ProcessElement annotates one line; a blank line is not a record.
func (f *annotateLineFn) ProcessElement(ctx context.Context, line string, out func(string)) error {
	return f.w.line(ctx, "", line, out)
}

// line annotates one JSONL line of file ("" when unknown) and emits its record; a blank
// line is not a record. An error record names the file, and quotes the line's start when
// the line gives no id.
func (w *worker) line(ctx context.Context, file, line string, out func(string)) error {
	if strings.TrimSpace(line) == "" {
		return nil
	}
	o := w.p.Line(ctx, []byte(line), file)
	if o.Failed() && o.ID == "" && file != "" {
		o.Error += fmt.Sprintf(" (the line begins %q)", lineStart(line))
	}
	return emit(ctx, &o, out)
}

// annotateNamedLineFn annotates one JSONL record read from the named file.
type annotateNamedLineFn struct {
	Config processorConfig `json:"config"`
	w      worker
}

// Setup makes the worker's engine and processor.
func (f *annotateNamedLineFn) Setup() error { return f.w.setup(f.Config) }

// ProcessElement annotates one line of file (worker.line).
func (f *annotateNamedLineFn) ProcessElement(ctx context.Context, file, line string, out func(string)) error {
	return f.w.line(ctx, file, line, out)
}

// lineStart returns the first 60 characters of line, with "…" when there are more.
func lineStart(line string) string {
	const most = 60
	n := 0
	for i := range line {
		if n == most {
			return line[:i] + "…"
		}
		n++
	}
	return line
}

// annotateFileFn annotates one text file as a document, its path as id.
type annotateFileFn struct {
	Config processorConfig `json:"config"`
	w      worker
}

// Setup makes the worker's engine and processor.
func (f *annotateFileFn) Setup() error { return f.w.setup(f.Config) }

// ProcessElement annotates one file; a file that cannot be read or is over
// qsc.MaxDocumentBytes is an error record.
func (f *annotateFileFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, out func(string)) error {
	id := file.Metadata.Path
	var o batch.Output
	switch {
	case file.Metadata.Size > qsc.MaxDocumentBytes:
		o = batch.Output{ID: id, Error: fmt.Sprintf("%v: file is %d bytes, more than %d", qsc.ErrBadRequest, file.Metadata.Size, qsc.MaxDocumentBytes)}
	default:
		text, err := file.ReadString(ctx)
		if err != nil {
			o = batch.Output{ID: id, Error: err.Error()}
		} else {
			o = f.w.p.Document(ctx, id, text)
		}
	}
	return emit(ctx, &o, out)
}
