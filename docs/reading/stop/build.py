"""Builds the pool and the judged sample of the stop and nostop trials (docs/reading/stop,
docs/reading/nostop) from readtest items files, so that no sentence of UD_English-GUM is
kept in the repository.

    python3 build.py pool R            # R/items-all.jsonl R/items-gum.jsonl -> R/items.jsonl R/in.jsonl
    python3 build.py sample R BASE TRIAL SEED OUT   # 60 changed records, one per sentence
"""
import json, math, random, sys


def pool(r):
    out = open(f'{r}/in.jsonl', 'w')
    items = open(f'{r}/items.jsonl', 'w')
    n = 0
    for f in (f'{r}/items-all.jsonl', f'{r}/items-gum.jsonl'):
        seen = set()
        for line in open(f):
            it = json.loads(line)
            if it['text'] in seen:
                continue
            seen.add(it['text'])
            length = len(it['text'])
            for frac in (0.4, 0.5, 0.6, 0.7):
                b = math.ceil(frac * length)
                rec = {"id": f"s{n}", "text": it['text'], "query": it['query'], "budget": b,
                       "budget_counts": "tokens"}
                out.write(json.dumps(rec) + '\n')
                it2 = dict(it)
                it2.update(id=rec['id'], budget=b, budget_counts="tokens", protocol=f"b{int(frac*100)}")
                items.write(json.dumps(it2) + '\n')
                n += 1


def sample(r, base, trial, seed, out):
    a = [json.loads(l) for l in open(base)]
    b = [json.loads(l) for l in open(trial)]
    items = [json.loads(l) for l in open(f'{r}/items.jsonl')]
    by = {}
    for i, (x, y) in enumerate(zip(a, b)):
        if x.get('kept') != y.get('kept'):
            by.setdefault(items[i]['text'], []).append(i)
    random.seed(seed)
    keys = sorted(by)
    pick = sorted(random.choice(by[k]) for k in random.sample(keys, 60))

    def w(fn, rows):
        with open(fn, 'w') as f:
            for row in rows:
                f.write(json.dumps(row) + '\n')

    def plain(row):
        row = dict(row)
        row['compression_ellipsis'] = row['compression']
        return row

    w(f'{out}/sel-items.jsonl', [items[i] for i in pick])
    w(f'{out}/default.jsonl', [plain(a[i]) for i in pick])
    w(f'{out}/trial.jsonl', [plain(b[i]) for i in pick])


if __name__ == '__main__':
    if sys.argv[1] == 'pool':
        pool(sys.argv[2])
    else:
        sample(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6])
