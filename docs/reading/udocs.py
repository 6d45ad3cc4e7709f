# The sources of the reading tests' builders: the documents of a UD CoNLL-U file
# (wrap/build.py, quotes/build.py), the compression records of the Google test split
# (prep/build.py, closer/build.py), and the pool of the records two builds compress
# differently (names/, negscope/, reported/build.py and the others that call pool_main:
# a builder gives its seed and its select, nouns_if of a pattern or its own).
import gzip, json, random, subprocess, sys


def read_docs(path, prefix=''):
    """Each document {'id', 'paras' (lists of sentence texts), 'sents' ({'text', 'nouns':
    its NN, NNS and NNP words of more than three letters})}, ids prefixed."""
    docs, cur = [], None
    for l in gzip.open(path, 'rt'):
        if l.startswith('# newdoc id'):
            cur = {'id': prefix + l.split('=', 1)[1].strip(), 'paras': [], 'sents': []}; docs.append(cur)
        elif l.startswith('# newpar') and cur is not None:
            cur['paras'].append([])
        elif l.startswith('# text = ') and cur is not None:
            if not cur['paras']: cur['paras'].append([])
            t = l[9:].strip(); cur['paras'][-1].append(t); cur['sents'].append({'text': t, 'nouns': []})
        elif l and l[0].isdigit() and cur is not None and cur['sents']:
            f = l.split('\t')
            if '-' not in f[0] and '.' not in f[0] and f[4] in ('NN', 'NNS', 'NNP') and len(f[1]) > 3 and f[1].isalpha():
                cur['sents'][-1]['nouns'].append(f[1])
    return docs


def google_records(data):
    """Every sentence of the Google compression corpus's test split with a noun of more
    than three letters, a query of one of them (seed 7), at two display budgets (60% of
    the sentence's characters, at least 20, and a 100-character box), as records of
    qsc compress --jsonl."""
    random.seed(7)
    recs, cur = [], None
    for l in gzip.open(f'{data}/google-compression/test.conllu.gz', 'rt'):
        if l.startswith('# text = '):
            cur = {'text': l[9:].strip(), 'nouns': []}
        elif l.strip() == '' and cur:
            if cur['nouns']:
                q = random.sample(sorted(set(cur['nouns'])), 1)
                for b in (max(20, int(0.6 * len(cur['text']))), 100):
                    recs.append({'id': str(len(recs)), 'text': cur['text'], 'query': q, 'budget': b, 'budget_counts': 'display'})
            cur = None
        elif cur and l[0].isdigit():
            c = l.split('\t')
            if len(c) > 4 and c[4] in ('NN', 'NNS', 'NNP') and c[1].isalpha() and len(c[1]) > 3:
                cur['nouns'].append(c[1])
    return recs


def ud_files(data, gum=True):
    """The (source, path) of UD_English-EWT's train, dev and test files and, with gum, of
    UD_English-GUM's train split (never its test split, held out)."""
    files = [('ewt', f'{data}/ud-english/UD_English-EWT/en_ewt-ud-{s}.conllu.gz') for s in ('train', 'dev', 'test')]
    if gum:
        files.append(('gum', f'{data}/ud-english/UD_English-GUM/en_gum-ud-train.conllu.gz'))
    return files


def doc_snippets(exe, doc, query, budget, n, method=None):
    """The snippets of `qsc snippets --json` (of the qsc binary exe) of the document doc for
    the query terms, at most n in a box of budget characters, with method when given; []
    when it gives none or fails."""
    args = [exe, 'snippets', '-q', ','.join(query), '-b', str(budget), '-n', str(n), '--json', '-']
    if method:
        args[-1:-1] = ['--method', method]
    p = subprocess.run(args, input=doc.encode(), capture_output=True)
    try: return json.loads(p.stdout)['snippets']
    except Exception: return []


def write_pool(out, items, rows):
    """Writes a reading test's pool to out: items.jsonl and one file NAME.jsonl for each
    system's rows (rows maps NAME to its records)."""
    for name, rr in (('items', items),) + tuple(rows.items()):
        open(f'{out}/{name}.jsonl', 'w').writelines(json.dumps(x, ensure_ascii=False) + '\n' for x in rr)


def ud_sentences(data):
    """Each sentence of UD_English-EWT (train, dev, test) and of UD_English-GUM's train
    split, in file order, as (source, text, rows): rows are the columns of its lines that
    begin with a digit (words, multiword ranges and empty nodes)."""
    for src, path in ud_files(data):
        text, rows = None, []
        for l in gzip.open(path, 'rt'):
            if l.startswith('# text = '):
                text, rows = l[9:].strip(), []
            elif l.strip() == '' and text:
                yield src, text, rows
                text = None
            elif text and l[0].isdigit():
                rows.append(l.split('\t'))


def changed_pool(data, old, new, out, seed, most, select, method=None, query=None):
    """Writes to out a reading test's pool of the records whose snippet differs between
    two qsc builds, old and new: the UD sentences (ud_sentences) for which select(text,
    rows) gives query candidates, each with one of them as query (seeded), and the records
    of the Google test split (google_records), at 60% of their characters and in a
    100-character box, shown with "…" (qsc compress --jsonl, display budget), with method
    (default: qsc's default). With query, the query of a sentence is query(cands), not
    one of the candidates; the Google records keep theirs. At most `most` of them (a
    seeded sample), with the new build's window snippet of each: items.jsonl, new.jsonl,
    old.jsonl and window.jsonl."""
    random.seed(seed)
    recs = []
    for src, text, rows in ud_sentences(data):
        cands = select(text, rows)
        if cands:
            q = query(cands) if query else [random.choice(sorted(set(cands)))]
            for b in (max(20, int(0.6 * len(text))), 100):
                recs.append({'id': f'{src}-{len(recs)}', 'text': text, 'query': q, 'budget': b, 'budget_counts': 'display', 'src': src})
    for r in google_records(data):
        recs.append(dict(r, id='g-' + r['id'], src='google-test'))

    def run(exe, method=None):
        inp = ''.join(json.dumps({k: v for k, v in dict(r, method=method).items() if k != 'src' and v is not None}) + '\n' for r in recs).encode()
        p = subprocess.run([exe, 'compress', '--jsonl'], input=inp, capture_output=True)
        return [json.loads(l).get('compression_ellipsis', '') for l in p.stdout.decode().splitlines()]

    o, n = run(old, method), run(new, method)
    diff = [i for i in range(len(recs)) if o[i] != n[i]]
    print(len(recs), 'records,', len(diff), 'differ', file=sys.stderr)
    keep = sorted(random.sample(diff, min(most, len(diff))))
    w = run(new, 'window')
    items, rows = [], {'new': [], 'old': [], 'window': []}
    for i in keep:
        r = recs[i]
        items.append({'id': r['id'], 'protocol': 'box100' if r['budget'] == 100 else 'b60', 'source': r['src'], 'text': r['text'], 'query': r['query'], 'budget': r['budget']})
        for name, res in (('new', n), ('old', o), ('window', w)):
            rows[name].append({'id': r['id'], 'compression_ellipsis': res[i]})
    write_pool(out, items, rows)
    print(len(items), 'items kept')


def nouns(rows, longer=3):
    """The words of rows tagged NN, NNS or NNP, of more than `longer` letters."""
    return [c[1] for c in rows if '-' not in c[0] and '.' not in c[0] and c[4] in ('NN', 'NNS', 'NNP') and len(c[1]) > longer and c[1].isalpha()]


def nouns_if(pattern):
    """The select of changed_pool that gives the nouns (nouns) of a sentence whose text
    pattern (a compiled regular expression) finds, and none of another."""
    return lambda text, rows: nouns(rows) if pattern.search(text) else []


def pool_main(seed, select, query=None):
    """Runs a pool builder from its command line, DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED
    MAX [METHOD]]: changed_pool with select (and query), seed and at most MAX records (by
    default the builder's seed and 60), and METHOD when given."""
    data, old, new, out = sys.argv[1:5]
    most = 60
    if len(sys.argv) > 6:
        seed, most = int(sys.argv[5]), int(sys.argv[6])
    method = sys.argv[7] if len(sys.argv) > 7 else None
    changed_pool(data, old, new, out, seed, most, select, method, query)
