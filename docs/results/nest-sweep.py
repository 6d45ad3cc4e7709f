"""Nesting as shown: a budget sweep through `qsc compress --jsonl`.

    python3 nest-sweep.py make POOL.in.jsonl OUT.in.jsonl [display|tokens]
    qsc compress --jsonl < OUT.in.jsonl > OUT.out.jsonl   # add "decoding" to records for another
    python3 nest-sweep.py score OUT.out.jsonl

make writes every (sentence, query) of the pool once at budgets of 30, 40, …, 100 and 120%
of the text's characters, counted as budget_counts says (display by default); score prints
the adjacent budget pairs that both compressed and the share where the smaller budget's
kept token ids are a subset of the larger's.
"""
import collections, json, sys

FRACTIONS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2]

if sys.argv[1] == 'make':
    counts = sys.argv[4] if len(sys.argv) > 4 else 'display'
    seen, n = set(), 0
    with open(sys.argv[3], 'w') as out:
        for line in open(sys.argv[2]):
            r = json.loads(line)
            key = (r['text'], tuple(r['query']))
            if key in seen:
                continue
            seen.add(key)
            n += 1
            for i, f in enumerate(FRACTIONS):
                b = max(int(-(-len(r['text']) * f // 1)), 1)
                out.write(json.dumps(dict(id=f'{n}-{i}', text=r['text'], query=r['query'],
                                          budget=b, budget_counts=counts)) + '\n')
else:
    recs = collections.defaultdict(dict)
    for line in open(sys.argv[2]):
        r = json.loads(line)
        s, i = r['id'].split('-')
        recs[s][int(i)] = r
    pairs = nested = 0
    for d in recs.values():
        for i in range(len(FRACTIONS) - 1):
            a, b = d.get(i), d.get(i + 1)
            if not a or not b or 'kept' not in a or 'kept' not in b:
                continue
            pairs += 1
            nested += set(a['kept']) <= set(b['kept'])
    print(f'{pairs} pairs, nested {nested / pairs:.4f}')
