"""Fits the blind verdicts stored under docs/reading to the shape of the displays.

For every display pair of a test whose key and verdict files are stored (plain-words
packets left out), each judge's decided verdict is one row: the features of snippet A less
those of snippet B, and whether A won. The features read only the displayed string: inner
"…" (gaps), a leading and a trailing "…", the share of the budget used, and the share of
the sentence's words shown. A logistic regression without intercept (the order of the two
snippets is random) is fitted to standardized features by gradient descent, then refitted
with each test held out to measure how well shape alone predicts a reader.

Run from the repository's root: python3 docs/reading/shape-fit/fit.py
Standard library only; deterministic.
"""
import glob
import json
import math
import os
import re
import statistics

ROOT = 'docs/reading'


def verdicts(path):
    out = {}
    for line in open(path, encoding='utf-8'):
        m = re.match(r'\s*(\d+)\s+([12=])', line)
        if m:
            out[int(m.group(1))] = m.group(2)
    return out


def features(shown, sentence, budget):
    t = shown.strip()
    inner = t.strip('…').strip()
    words = [w for w in re.split(r'\s+', inner.replace('…', ' ')) if re.search(r'\w', w)]
    all_words = [w for w in sentence.split() if re.search(r'\w', w)]
    return {
        'gaps': inner.count('…'),
        'lead': int(t.startswith('…')),
        'trail': int(t.endswith('…')),
        'use': len(t) / budget,
        'words': len(words) / max(1, len(all_words)),
    }


def rows():
    out = []
    for kf in sorted(glob.glob(ROOT + '/*/*.key.json')):
        if 'plain' in os.path.basename(kf):
            continue
        base = kf[:-len('.key.json')]
        files = sorted(glob.glob(base + '-j*.txt'))
        if not files:
            continue
        key = json.load(open(kf, encoding='utf-8'))
        test = os.path.relpath(base, ROOT)
        judges = [verdicts(f) for f in files]
        for p in key['pairs']:
            if 'pair' not in p or 'a' not in p:
                continue
            fa = features(p['a'], p['text'], p['budget'])
            fb = features(p['b'], p['text'], p['budget'])
            for j in judges:
                v = j.get(p['pair'])
                if v not in ('1', '2'):
                    continue
                a_won = (v == '1') == (p['first'] == 'A')
                out.append((test, {k: fa[k] - fb[k] for k in fa}, 1 if a_won else 0))
    return out


def fit(data, names, l2=0.01, steps=600, rate=1.0):
    w = dict.fromkeys(names, 0.0)
    for _ in range(steps):
        g = {k: l2 * w[k] for k in names}
        for _, x, y in data:
            z = sum(w[k] * x[k] for k in names)
            p = 1 / (1 + math.exp(-z))
            for k in names:
                g[k] += (p - y) * x[k] / len(data)
        for k in names:
            w[k] -= rate * g[k]
    return w


def main():
    data = rows()
    names = list(data[0][1])
    sd = {k: statistics.pstdev([x[k] for _, x, _ in data]) or 1.0 for k in names}
    data = [(t, {k: x[k] / sd[k] for k in names}, y) for t, x, y in data]
    tests = sorted({t for t, _, _ in data})
    print(f'{len(data)} decided verdicts from {len(tests)} tests')
    w = fit(data, names)
    print('| feature | standardized weight | per unit |')
    print('|---|--:|--:|')
    for k in names:
        print(f'| {k} | {w[k]:.3f} | {w[k] / sd[k]:.3f} |')
    right = total = 0
    for t in tests:
        wt = fit([r for r in data if r[0] != t], names, steps=300)
        for _, x, y in (r for r in data if r[0] == t):
            z = sum(wt[k] * x[k] for k in names)
            if z != 0:
                total += 1
                right += (z > 0) == (y == 1)
    print(f'held out by test: {right / total:.3f} of {total} verdicts predicted')


if __name__ == '__main__':
    main()
