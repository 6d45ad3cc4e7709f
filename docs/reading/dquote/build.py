# Builds the reading test of double quotes (docs/reading/dquote/README.md): (1) every
# sentence of UD_English-EWT (train, dev, test) and of UD_English-GUM's train split that
# holds a straight double quote, with a query of one or two of its nouns (seeded) and its
# document's text, the best snippet (-n 1) in a box of BUDGET characters; (2) the Google
# test records of udocs.google_records (PTB quotes ``, ''). The items where the two builds
# differ, at most MAX of them (a seeded sample), with the window's snippet of each.
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED BUDGET MAX]
import json, os, random, subprocess, sys
data, old, new, out = sys.argv[1:5]
seed, budget, most = (int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])) if len(sys.argv) > 7 else (2060, 100, 60)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import read_docs, google_records, ud_files, doc_snippets, write_pool
random.seed(seed)
items = []
for src, path in ud_files(data):
    for d in read_docs(path, src + ':'):
        text = '\n\n'.join(' '.join(p) for p in d['paras'] if p)
        for j, s in enumerate(d['sents']):
            if not s['nouns'] or '"' not in s['text']:
                continue
            nouns = sorted(set(s['nouns']))
            q = random.sample(nouns, min(len(nouns), random.choice([1, 2])))
            items.append({'id': f"{d['id']}-{j}", 'doc': text, 'query': q})


def snippets(exe, it, method=None):
    sn = doc_snippets(exe, it['doc'], it['query'], budget, 1, method)
    return sn[0] if sn else None


sel, rows = [], {'new': [], 'old': [], 'window': []}
for it in items:
    b, f = snippets(old, it), snippets(new, it)
    if (b or {}).get('ellipsis') == (f or {}).get('ellipsis'):
        continue
    w = snippets(new, it, 'window')
    spans = [s['sentence'] for s in (b, f) if s]
    lo, hi = min(s['start'] for s in spans), max(s['end'] for s in spans)
    iid = 'd-' + it['id']
    sel.append({'id': iid, 'protocol': f'box{budget}', 'source': it['id'].split(':')[0], 'text': ' '.join(it['doc'].encode()[lo:hi].decode().split()), 'query': it['query'], 'budget': budget})
    for n, s in (('new', f), ('old', b), ('window', w)):
        rows[n].append({'id': iid, 'compression_ellipsis': s['ellipsis'] if s else ''})
recs = [r for r in google_records(data) if '``' in r['text'] or "''" in r['text']]
inp = ''.join(json.dumps(r) + '\n' for r in recs).encode()
res = {}
for name, exe, method in (('old', old, None), ('new', new, None), ('window', new, 'window')):
    rr = [dict(r, method=method) if method else r for r in recs]
    p = subprocess.run([exe, 'compress', '--jsonl'], input=''.join(json.dumps(r) + '\n' for r in rr).encode(), capture_output=True)
    res[name] = [json.loads(l).get('compression_ellipsis', '') for l in p.stdout.decode().splitlines()]
for r, a, b, w in zip(recs, res['old'], res['new'], res['window']):
    if a != b:
        iid = 'g-' + r['id']
        sel.append({'id': iid, 'protocol': 'box100' if r['budget'] == 100 else 'b60', 'source': 'google-test', 'text': r['text'], 'query': r['query'], 'budget': r['budget']})
        for n, s in (('new', b), ('old', a), ('window', w)):
            rows[n].append({'id': iid, 'compression_ellipsis': s})
print(len(items), 'UD items,', len(recs), 'Google records with quotes,', len(sel), 'differ', file=sys.stderr)
keep = sorted(random.sample(range(len(sel)), min(most, len(sel))))
write_pool(out, [sel[i] for i in keep], {n: [r[i] for i in keep] for n, r in rows.items()})
print(len(keep), 'items kept')
