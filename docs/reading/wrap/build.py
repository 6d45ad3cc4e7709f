# Builds the wrapped-prose reading test (docs/reading/wrap/README.md): 120 documents of
# UD_English-GUM's train split less its news (seed 2029), each paragraph wrapped at 72
# columns, one query of one or two nouns of a sentence longer than 110 characters; the
# best snippet (-n 1, -b 100) of each of two qsc builds; the items where they differ.
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED DOCS QUERIES]
# (defaults 2029, 120 and 1: the first test; docs/reading/wrap2 used 2030, 1000 (all) and 12)
import json, os, random, subprocess, sys, textwrap
data, old, new, out = sys.argv[1:5]
seed, ndocs, nq = (int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])) if len(sys.argv) > 7 else (2029, 120, 1)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import read_docs
docs = read_docs(f'{data}/ud-english/UD_English-GUM/en_gum-ud-train.conllu.gz')
docs = [d for d in docs if not d['id'].startswith('GUM_news')]
random.seed(seed)
random.shuffle(docs)
items = []
for d in docs[:ndocs]:
    text = '\n\n'.join(textwrap.fill(' '.join(p), 72) for p in d['paras'] if p)
    cands = [s for s in d['sents'] if len(s['nouns']) >= 1 and len(s['text']) > 110]
    if not cands: continue
    for j, s in enumerate(random.sample(cands, min(nq, len(cands))) if nq > 1 else [random.choice(cands)]):
        q = random.sample(sorted(set(s['nouns'])), min(len(set(s['nouns'])), random.choice([1, 2])))
        items.append({'id': d['id'] + ('' if nq == 1 else f'-{j}'), 'doc': text, 'query': q})
# ONLY=ITEMS.jsonl keeps the items of an earlier run (their ids); WINDOW=1 also writes the
# new build's window method for the items that differ (window.jsonl), as a row beside them.
if os.environ.get('ONLY'):
    keep = {json.loads(l)['id'][2:] for l in open(os.environ['ONLY'])}
    items = [it for it in items if it['id'] in keep]
res = {}
for name, exe in (('old', old), ('new', new)):
    res[name] = {}
    for it in items:
        p = subprocess.run([exe, 'snippets', '-q', ','.join(it['query']), '-b', '100', '-n', '1', '--json', '-'], input=it['doc'].encode(), capture_output=True)
        try: sn = json.loads(p.stdout)['snippets']
        except Exception: sn = []
        res[name][it['id']] = sn[0] if sn else None
sel, A, B = [], [], []
for it in items:
    b, f = res['old'][it['id']], res['new'][it['id']]
    if (b or {}).get('ellipsis') == (f or {}).get('ellipsis'): continue
    spans = [s['sentence'] for s in (b, f) if s]
    lo, hi = min(s['start'] for s in spans), max(s['end'] for s in spans)
    iid = 'w-' + it['id']
    sel.append({'id': iid, 'protocol': 'box100', 'source': it['id'].split('_')[1], 'text': ' '.join(it['doc'].encode()[lo:hi].decode().split()), 'query': it['query'], 'budget': 100})
    A.append({'id': iid, 'compression_ellipsis': f['ellipsis'] if f else ''})
    B.append({'id': iid, 'compression_ellipsis': b['ellipsis'] if b else ''})
W = []
if os.environ.get('WINDOW'):
    for r in sel:
        it = next(i for i in items if 'w-' + i['id'] == r['id'])
        p = subprocess.run([new, 'snippets', '-q', ','.join(it['query']), '-b', '100', '-n', '1', '--json', '--method', 'window', '-'], input=it['doc'].encode(), capture_output=True)
        try: sn = json.loads(p.stdout)['snippets']
        except Exception: sn = []
        W.append({'id': r['id'], 'compression_ellipsis': sn[0]['ellipsis'] if sn else ''})
for n, rows in (('items', sel), ('new', A), ('old', B)) + ((('window', W),) if W else ()):
    open(f'{out}/{n}.jsonl', 'w').writelines(json.dumps(r, ensure_ascii=False) + '\n' for r in rows)
print(len(items), 'items,', len(sel), 'differ')
