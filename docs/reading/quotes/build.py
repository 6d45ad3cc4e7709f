# Builds the reading test of quotes and brackets (docs/reading/quotes/README.md): every
# sentence of UD_English-EWT (train, dev, test) and of UD_English-GUM's train split that
# holds a pair of single quotes ('Declaration by the people', `posix mode') or a period
# inside a short bracket ("(pop. 256,000)"); for each, a query of one or two of its nouns
# (seeded) and its document's text; the best snippet (-n 1) of each of two qsc builds in
# a box of BUDGET characters; the items where they differ.
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED BUDGET]
import json, os, random, re, subprocess, sys
data, old, new, out = sys.argv[1:5]
seed, budget = (int(sys.argv[5]), int(sys.argv[6])) if len(sys.argv) > 6 else (2040, 100)
quote = re.compile(r"(^|[ (\"])['‘`][A-Za-z][^'’]{0,80}\w['’]([ ,.;:!?)]|$)")
bracket = re.compile(r"[(\[][^()\[\]]{0,30}\w\. [^()\[\]]{0,30}[)\]]")
files = [('ewt', f'{data}/ud-english/UD_English-EWT/en_ewt-ud-{s}.conllu.gz') for s in ('train', 'dev', 'test')]
files.append(('gum', f'{data}/ud-english/UD_English-GUM/en_gum-ud-train.conllu.gz'))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import read_docs
docs = [d for src, path in files for d in read_docs(path, src + ':')]
random.seed(seed)
items = []
for d in docs:
    text = '\n\n'.join(' '.join(p) for p in d['paras'] if p)
    for j, s in enumerate(d['sents']):
        if not s['nouns'] or not (quote.search(s['text']) or bracket.search(s['text'])):
            continue
        nouns = sorted(set(s['nouns']))
        q = random.sample(nouns, min(len(nouns), random.choice([1, 2])))
        items.append({'id': f"{d['id']}-{j}", 'doc': text, 'query': q})
res = {}
for name, exe in (('old', old), ('new', new), ('window', new)):
    res[name] = {}
    for it in items:
        args = [exe, 'snippets', '-q', ','.join(it['query']), '-b', str(budget), '-n', '1', '--json', '-']
        if name == 'window':
            args[-1:-1] = ['--method', 'window']
        p = subprocess.run(args, input=it['doc'].encode(), capture_output=True)
        try: sn = json.loads(p.stdout)['snippets']
        except Exception: sn = []
        res[name][it['id']] = sn[0] if sn else None
sel, rows = [], {'new': [], 'old': [], 'window': []}
for it in items:
    b, f = res['old'][it['id']], res['new'][it['id']]
    if (b or {}).get('ellipsis') == (f or {}).get('ellipsis'): continue
    spans = [s['sentence'] for s in (b, f) if s]
    lo, hi = min(s['start'] for s in spans), max(s['end'] for s in spans)
    iid = 'q-' + it['id']
    sel.append({'id': iid, 'protocol': f'box{budget}', 'source': it['id'].split(':')[0], 'text': ' '.join(it['doc'].encode()[lo:hi].decode().split()), 'query': it['query'], 'budget': budget})
    for n in rows:
        s = res[n][it['id']]
        rows[n].append({'id': iid, 'compression_ellipsis': s['ellipsis'] if s else ''})
for n, r in (('items', sel),) + tuple(rows.items()):
    open(f'{out}/{n}.jsonl', 'w').writelines(json.dumps(x, ensure_ascii=False) + '\n' for x in r)
print(len(items), 'items,', len(sel), 'differ')
