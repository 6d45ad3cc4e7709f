# Builds the reading test of quotes and brackets (docs/reading/quotes/README.md): every
# sentence of UD_English-EWT (train, dev, test) and of UD_English-GUM's train split that
# holds a pair of single quotes ('Declaration by the people', `posix mode') or a period
# inside a short bracket ("(pop. 256,000)"); for each, a query of one or two of its nouns
# (seeded) and its document's text; the best snippet (-n 1) of each of two qsc builds in
# a box of BUDGET characters; the items where they differ.
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED BUDGET]
import gzip, json, random, re, subprocess, sys
data, old, new, out = sys.argv[1:5]
seed, budget = (int(sys.argv[5]), int(sys.argv[6])) if len(sys.argv) > 6 else (2040, 100)
quote = re.compile(r"(^|[ (\"])['‘`][A-Za-z][^'’]{0,80}\w['’]([ ,.;:!?)]|$)")
bracket = re.compile(r"[(\[][^()\[\]]{0,30}\w\. [^()\[\]]{0,30}[)\]]")
files = [('ewt', f'{data}/ud-english/UD_English-EWT/en_ewt-ud-{s}.conllu.gz') for s in ('train', 'dev', 'test')]
files.append(('gum', f'{data}/ud-english/UD_English-GUM/en_gum-ud-train.conllu.gz'))
docs = []
for src, path in files:
    cur = None
    for l in gzip.open(path, 'rt'):
        if l.startswith('# newdoc id'):
            cur = {'id': src + ':' + l.split('=', 1)[1].strip(), 'paras': [], 'sents': []}; docs.append(cur)
        elif l.startswith('# newpar') and cur is not None:
            cur['paras'].append([])
        elif l.startswith('# text = ') and cur is not None:
            if not cur['paras']: cur['paras'].append([])
            t = l[9:].strip(); cur['paras'][-1].append(t); cur['sents'].append({'text': t, 'nouns': []})
        elif l and l[0].isdigit() and cur is not None and cur['sents']:
            f = l.split('\t')
            if '-' not in f[0] and '.' not in f[0] and f[4] in ('NN', 'NNS', 'NNP') and len(f[1]) > 3 and f[1].isalpha():
                cur['sents'][-1]['nouns'].append(f[1])
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
