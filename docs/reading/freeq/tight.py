"""The tight-budget records of the FreeQuery trial: every (sentence, query) of the pool
once, at 30% and 40% of the sentence's characters (at least 20).

    python3 tight.py POOL.in.jsonl POOL.items.jsonl OUT.in.jsonl OUT.items.jsonl
"""
import json, sys

src_in, src_items, out_in, out_items = sys.argv[1:5]
items = {}
for line in open(src_items):
    r = json.loads(line)
    items[r['id']] = r
seen = set()
with open(out_in, 'w') as oi, open(out_items, 'w') as ot:
    for line in open(src_in):
        r = json.loads(line)
        key = (r['text'], tuple(r['query']))
        if key in seen:
            continue
        seen.add(key)
        for f in (0.3, 0.4):
            b = max(int(len(r['text']) * f), 20)
            rr = dict(r, budget=b, id=f"{r['id']}-t{int(f * 100)}")
            oi.write(json.dumps(rr) + '\n')
            it = dict(items[r['id']], id=rr['id'], budget=b, protocol=f"b{int(f * 100)}")
            ot.write(json.dumps(it) + '\n')
