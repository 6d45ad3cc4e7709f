# Builds the reading test of the night's matching and splitting changes
# (docs/reading/spellings/README.md): every sentence of UD_English-EWT (train, dev, test)
# and UD_English-GUM's train split with a word joined by hyphens ("e-mail") or an
# abbreviation of the law's (Fed., Id., Dep't, …) or "St.", with a query of (seeded) that
# word written without its hyphens, or one of its nouns, and its document; the best
# snippet (-n 1) of each of two qsc builds in a box of BUDGET characters; the items where
# they differ, at most MAX (a seeded sample), with the window's snippet of each.
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED BUDGET MAX]
import os, random, re, sys
data, old, new, out = sys.argv[1:5]
seed, budget, most = (int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])) if len(sys.argv) > 7 else (2100, 100, 60)
hyphened = re.compile(r"\b[A-Za-z]{1,12}(?:-[A-Za-z]{2,12})+\b")
abbrev = re.compile(r"\b(?:Fed|Civ|Crim|Evid|Cir|Supp|Stat|Ct|App|Cal|Cf|Id|Art|Soc|Servs|Hous|Cmty|Cmtys|Dep't|Gov't|Int'l|Nat'l|Ass'n|Comm'n|St)\. ")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import read_docs, ud_files, doc_snippets, write_pool
random.seed(seed)
items = []
for src, path in ud_files(data):
    for d in read_docs(path, src + ':'):
        text = '\n\n'.join(' '.join(p) for p in d['paras'] if p)
        for j, s in enumerate(d['sents']):
            hy = hyphened.findall(s['text'])
            if not (hy or abbrev.search(s['text'])) or not (hy or s['nouns']):
                continue
            if hy and (random.random() < 0.5 or not s['nouns']):
                q = [random.choice(hy).replace('-', '')]
            else:
                q = [random.choice(sorted(set(s['nouns'])))]
            items.append({'id': f"{d['id']}-{j}", 'doc': text, 'query': q})
random.shuffle(items)


def snippet(exe, it, method=None):
    sn = doc_snippets(exe, it['doc'], it['query'], budget, 1, method)
    return sn[0] if sn else None


sel, rows, n = [], {'new': [], 'old': [], 'window': []}, 0
for it in items:
    if len(sel) >= most:
        break
    n += 1
    b, f = snippet(old, it), snippet(new, it)
    if (b or {}).get('ellipsis') == (f or {}).get('ellipsis'):
        continue
    w = snippet(new, it, 'window')
    spans = [s['sentence'] for s in (b, f) if s]
    lo, hi = min(s['start'] for s in spans), max(s['end'] for s in spans)
    iid = 's-' + it['id']
    sel.append({'id': iid, 'protocol': f'box{budget}', 'source': it['id'].split(':')[0], 'text': ' '.join(it['doc'].encode()[lo:hi].decode().split()), 'query': it['query'], 'budget': budget})
    for name, s in (('new', f), ('old', b), ('window', w)):
        rows[name].append({'id': iid, 'compression_ellipsis': s['ellipsis'] if s else ''})
write_pool(out, sel, rows)
print(len(items), 'items,', n, 'read in a seeded order,', len(sel), 'differ and kept', file=sys.stderr)
