"""One record of every sentence whose display changes, at most 60, for readtest pairs.

    python3 select.py SEED OUTDIR BASE1 TRIAL1 ITEMS1 [BASE2 TRIAL2 ITEMS2 ...]

BASEi and TRIALi are the outputs of qsc compress --jsonl for the records of ITEMSi (in
its order); OUTDIR receives sel-items.jsonl, default.jsonl and trial.jsonl.
"""
import json, random, sys

seed, out, rest = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
by = {}
for k in range(0, len(rest), 3):
    a = [json.loads(l) for l in open(rest[k])]
    b = [json.loads(l) for l in open(rest[k + 1])]
    items = [json.loads(l) for l in open(rest[k + 2])]
    for i, (x, y) in enumerate(zip(a, b)):
        if x.get('compression_ellipsis') != y.get('compression_ellipsis'):
            by.setdefault(items[i]['text'], []).append((items[i], x, y))
random.seed(seed)
pick = [random.choice(by[t]) for t in sorted(by)]
random.shuffle(pick)
pick = pick[:60]
for name, col in (('sel-items', 0), ('default', 1), ('trial', 2)):
    with open(f'{out}/{name}.jsonl', 'w') as w:
        w.writelines(json.dumps(p[col]) + '\n' for p in pick)
print(len(by), 'sentences changed,', len(pick), 'picked', file=sys.stderr)
