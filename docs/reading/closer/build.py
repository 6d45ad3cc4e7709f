# Builds the reading test of single quotes bound one way (docs/reading/closer/README.md):
# the Google test records of prep/build.py where the build with one-way single quotes
# (NEW) differs from the build before today's changes (OLD) and the build without the
# preposition rule (NOIN) differs from OLD too (so the preposition rule alone is not the
# change), and the items of the quotes test (QUOTES_DIR, quotes/build.py's output for NEW)
# whose snippet differs from the judged build's (JUDGED_DIR).
# usage: python3 build.py DATA_DIR OLD_QSC NOIN_QSC NEW_QSC QUOTES_DIR JUDGED_DIR OUT_DIR
import json, os, subprocess, sys
data, old, noin, new, quotes, judged, out = sys.argv[1:8]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import google_records
recs = google_records(data)
inp = ''.join(json.dumps(r) + '\n' for r in recs).encode()
res = {}
for name, exe in (('old', old), ('noin', noin), ('new', new)):
    p = subprocess.run([exe, 'compress', '--jsonl'], input=inp, capture_output=True)
    res[name] = [json.loads(l).get('compression_ellipsis', '') for l in p.stdout.decode().splitlines()]
items, A, B = [], [], []
for r, a, c, b in zip(recs, res['old'], res['noin'], res['new']):
    if a != b and a != c:
        iid = 'g-' + r['id']
        items.append({'id': iid, 'protocol': 'box100' if r['budget'] == 100 else 'b60', 'source': 'google-test', 'text': r['text'], 'query': r['query'], 'budget': r['budget']})
        A.append({'id': iid, 'compression_ellipsis': b})
        B.append({'id': iid, 'compression_ellipsis': a})
load = lambda d, n: {json.loads(l)['id']: json.loads(l) for l in open(f'{d}/{n}.jsonl')}
qi, qn, qo, jn = load(quotes, 'items'), load(quotes, 'new'), load(quotes, 'old'), load(judged, 'new')
for i in qn:
    if i in jn and qn[i]['compression_ellipsis'] != jn[i]['compression_ellipsis']:
        items.append(qi[i]); A.append(qn[i]); B.append(qo[i])
for n, rows in (('items', items), ('new', A), ('old', B)):
    open(f'{out}/{n}.jsonl', 'w').writelines(json.dumps(x, ensure_ascii=False) + '\n' for x in rows)
print(len(items), 'items')
