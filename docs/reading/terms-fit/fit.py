"""Fits the weights of the snippet decoding's objective to the stored blind verdicts.

Input: the JSON lines of `go run ./scripts/readtest terms -out terms.jsonl KEYS…`, the terms
of the objective (runs.Terms) of both snippets of every shown pair, and the verdict files
beside each key (KEY minus .key.json, then -j1.txt, -j2.txt…). Each judge's decided verdict
is one row: the terms of snippet A less those of snippet B, and whether A won. A logistic
regression without intercept (the order of the two snippets is random) is fitted by
gradient descent on standardized terms; each test is then held out in turn to measure how
well the terms predict a reader, beside the objective's own score under today's weights
(one feature: its difference). The weights are reported per unit and in characters
(divided by Keep's), the unit of runs.Params.

Run from the repository's root: python3 docs/reading/terms-fit/fit.py terms.jsonl
(with -rules after the file: the verdicts against the window by the display rules its
snippet breaks, in seconds).
Standard library only; deterministic.
"""
import glob
import importlib.util
import json
import math
import os
import statistics
import sys

# The reading of verdict files and the fit are shape-fit's.
_spec = importlib.util.spec_from_file_location(
    'shape_fit', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'shape-fit', 'fit.py'))
shape_fit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shape_fit)
verdicts, fit = shape_fit.verdicts, shape_fit.fit

TERMS = ['Keep', 'Fill', 'Carriers', 'Gaps', 'Dangles', 'Shorts', 'Edges']
# runs.Default(): Keep 1, Gap 15, Fill 0.5, Carrier 6, Dangle 8, Short 6, Edge 6.
DEFAULT = {'Keep': 1, 'Fill': 0.5, 'Carriers': 6, 'Gaps': -15, 'Dangles': -8, 'Shorts': -6, 'Edges': 6}


def rows(path):
    judges = {}
    out = []
    for line in open(path, encoding='utf-8'):
        r = json.loads(line)
        if r.get('error'):
            continue
        key = r['key']
        if key not in judges:
            base = key[:-len('.key.json')]
            judges[key] = [verdicts(f) for f in sorted(glob.glob(base + '-j*.txt'))]
        a, b = r['a'], r['b']
        x = {k: float(a[k]) - float(b[k]) for k in TERMS}
        x['Broken'] = float(a['Breaks'] != 0) - float(b['Breaks'] != 0)
        x['score'] = sum(DEFAULT[k] * x[k] for k in TERMS)
        for j in judges[key]:
            v = j.get(r['pair'])
            if v not in ('1', '2'):
                continue
            a_won = (v == '1') == (r['first'] == 'A')
            out.append((key, x, 1 if a_won else 0))
    return out


def held_out(data, names, tests):
    right = total = 0
    loss = 0.0
    for t in tests:
        wt = fit([r for r in data if r[0] != t], names, steps=300)
        for _, x, y in (r for r in data if r[0] == t):
            z = sum(wt[k] * x[k] for k in names)
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            loss -= math.log(p if y else 1 - p)
            if z != 0:
                total += 1
                right += (z > 0) == (y == 1)
    return right / max(total, 1), total, loss / len(data)


# runs.Break flags, in order.
BREAKS = ['query', 'bound', 'start', 'end', 'island', 'width', 'empty']


def by_rule(path):
    """Counts the verdicts of the pairs against the window by the rules its snippet breaks."""
    judges, counts = {}, {}
    for line in open(path, encoding='utf-8'):
        r = json.loads(line)
        if r.get('error') or 'window' not in (r['label_a'], r['label_b']):
            continue
        key = r['key']
        if key not in judges:
            judges[key] = [verdicts(f) for f in sorted(glob.glob(key[:-len('.key.json')] + '-j*.txt'))]
        w = r['a'] if r['label_a'] == 'window' else r['b']
        names = [b for i, b in enumerate(BREAKS) if w.get('Breaks', 0) >> i & 1] or ['none (allowed)']
        for j in judges[key]:
            v = j.get(r['pair'])
            if v not in ('1', '2'):
                continue
            won = ((v == '1') == (r['first'] == 'A')) == (r['label_a'] == 'window')
            for n in names + (['any'] if w.get('Breaks', 0) else []):
                c = counts.setdefault(n, [0, 0])
                c[0 if won else 1] += 1
    print()
    print('| the window breaks | window wins | the other wins | window share |')
    print('|---|--:|--:|--:|')
    for n in ['none (allowed)', 'any'] + BREAKS:
        if n in counts:
            a, b = counts[n]
            print(f'| {n} | {a} | {b} | {a / (a + b):.2f} |')


def main():
    raw = rows(sys.argv[1])
    names = TERMS + ['Broken', 'score']
    sd = {k: statistics.pstdev([x[k] for _, x, _ in raw]) or 1.0 for k in names}
    data = [(t, {k: x[k] / sd[k] for k in names}, y) for t, x, y in raw]
    tests = sorted({t for t, _, _ in data})
    print(f'{len(data)} decided verdicts from {len(tests)} tests')
    for label, feats in [('objective, today\'s weights (its score)', ['score']),
                         ('terms', TERMS), ('terms and broken rules', TERMS + ['Broken'])]:
        acc, total, loss = held_out(data, feats, tests)
        print(f'- {label}: held out by test, {acc:.3f} of {total} verdicts predicted, log loss {loss:.3f}')
    for feats in [TERMS, TERMS + ['Broken']]:
        w = fit(data, feats)
        per = {k: w[k] / sd[k] for k in feats}
        print()
        print('| term | standardized weight | per unit | in characters (÷ Keep) | today |')
        print('|---|--:|--:|--:|--:|')
        for k in feats:
            print(f'| {k} | {w[k]:.3f} | {per[k]:.4f} | {per[k] / per["Keep"]:.2f} | {DEFAULT.get(k, "—")} |')


if __name__ == '__main__':
    if len(sys.argv) > 2 and sys.argv[2] == '-rules':
        by_rule(sys.argv[1])
    else:
        main()
