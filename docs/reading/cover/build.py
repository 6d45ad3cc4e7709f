# Builds the reading test of snippets that cover the query's terms
# (docs/reading/cover/README.md): documents of UD_English-EWT (train, dev, test) with at
# least four sentences, each with a query of two nouns (seeded) from two sentences that
# hold one each; the result entry of each of two qsc builds (up to 3 snippets, a
# 100-character box each); the documents where they differ, at most MAX (a seeded
# sample), with the window's entry of each. An entry is its snippets in order, one a line.
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED BUDGET MAX]
import os, random, sys
data, old, new, out = sys.argv[1:5]
seed, budget, most = (int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])) if len(sys.argv) > 7 else (3100, 100, 60)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import read_docs, ud_files, doc_snippets, write_pool
random.seed(seed)
items = []
for src, path in ud_files(data, gum=False):
    for d in read_docs(path, src + ':'):
        sents = d['sents']
        if len(sents) < 4:
            continue
        text = '\n\n'.join(' '.join(p) for p in d['paras'] if p)
        low = [s['text'].lower() for s in sents]
        pairs = []
        for i, s in enumerate(sents):
            for a in sorted(set(s['nouns'])):
                for j, t in enumerate(sents):
                    if j <= i:
                        continue
                    for b in sorted(set(t['nouns'])):
                        if a.lower() != b.lower() and b.lower() not in low[i] and a.lower() not in low[j]:
                            pairs.append([a, b])
        if pairs:
            items.append({'id': d['id'], 'doc': text, 'query': random.choice(pairs)})
random.shuffle(items)


def entry(exe, it, method=None):
    sn = doc_snippets(exe, it['doc'], it['query'], budget, 3, method)
    return '\n           '.join(f'[{k + 1}] {s["ellipsis"]}' for k, s in enumerate(sn))


sel, rows, n = [], {'new': [], 'old': [], 'window': []}, 0
for it in items:
    if len(sel) >= most:
        break
    n += 1
    b, f = entry(old, it), entry(new, it)
    if b == f:
        continue
    w = entry(new, it, 'window')
    iid = 'c-' + it['id']
    sel.append({'id': iid, 'protocol': f'box{budget}x3', 'source': 'ewt', 'text': ' '.join(it['doc'].split()), 'query': it['query'], 'budget': budget})
    for name, s in (('new', f), ('old', b), ('window', w)):
        rows[name].append({'id': iid, 'compression_ellipsis': s})
write_pool(out, sel, rows)
print(len(items), 'documents,', n, 'read in a seeded order,', len(sel), 'differ and kept', file=sys.stderr)
