"""Records of the pool's sentences at other budgets: every (sentence, query) of the pool
once, at each fraction of the sentence's characters (at least 20). The FreeQuery trial
took 30% and 40% (the default), the lone-noun trial 50% and 70% with tag m.

    python3 tight.py POOL.in.jsonl POOL.items.jsonl OUT.in.jsonl OUT.items.jsonl [FRACTIONS [TAG]]

FRACTIONS is comma-separated (default 0.3,0.4); a record's id is the pool's id, "-", TAG
(default t) and the percentage, and its item's protocol "b" and the percentage.
"""
import json, sys

src_in, src_items, out_in, out_items = sys.argv[1:5]
fracs = [float(f) for f in (sys.argv[5] if len(sys.argv) > 5 else '0.3,0.4').split(',')]
tag = sys.argv[6] if len(sys.argv) > 6 else 't'
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
        for f in fracs:
            b = max(int(len(r['text']) * f), 20)
            rr = dict(r, budget=b, id=f"{r['id']}-{tag}{int(f * 100)}")
            oi.write(json.dumps(rr) + '\n')
            it = dict(items[r['id']], id=rr['id'], budget=b, protocol=f"b{int(f * 100)}")
            ot.write(json.dumps(it) + '\n')
