# Builds the reading test of a preposition that ends a run (docs/reading/prep/README.md):
# every sentence of the Google compression corpus's test split with a noun of more than
# three letters, a query of one of them (seed 7), at two display budgets (60% of the
# sentence's characters, at least 20, and a 100-character box); qsc compress --jsonl of
# two builds; the items where they differ.
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR
import json, os, subprocess, sys
data, old, new, out = sys.argv[1:5]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import google_records
recs = google_records(data)
inp = ''.join(json.dumps(r) + '\n' for r in recs).encode()
res = {}
for name, exe in (('old', old), ('new', new)):
    p = subprocess.run([exe, 'compress', '--jsonl'], input=inp, capture_output=True)
    res[name] = [json.loads(l) for l in p.stdout.decode().splitlines()]
items, A, B = [], [], []
for r, a, b in zip(recs, res['old'], res['new']):
    if a.get('compression_ellipsis') == b.get('compression_ellipsis'):
        continue
    iid = 'in-' + r['id']
    items.append({'id': iid, 'protocol': 'box100' if r['budget'] == 100 else 'b60', 'source': 'google-test', 'text': r['text'], 'query': r['query'], 'budget': r['budget']})
    A.append({'id': iid, 'compression_ellipsis': b.get('compression_ellipsis', '')})
    B.append({'id': iid, 'compression_ellipsis': a.get('compression_ellipsis', '')})
for n, rows in (('items', items), ('new', A), ('old', B)):
    open(f'{out}/{n}.jsonl', 'w').writelines(json.dumps(x, ensure_ascii=False) + '\n' for x in rows)
print(len(recs), 'items,', len(items), 'differ')
