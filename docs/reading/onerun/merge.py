"""Merges the records that the trial changes in several pools into one judged sample
(docs/reading/onerun/README.md): every changed record once per (text, budget, query),
the plain texts in compression_ellipsis as the plain packets show them.

    python3 merge.py OUT POOL...      # POOL/{items.jsonl,base.out,trial.out} -> OUT/s/
"""
import json, os, sys


def main(out, pools):
    os.makedirs(f'{out}/s', exist_ok=True)
    sel, base, trial, seen = [], [], [], set()
    for r in pools:
        a = [json.loads(l) for l in open(f'{r}/base.out')]
        b = [json.loads(l) for l in open(f'{r}/trial.out')]
        items = [json.loads(l) for l in open(f'{r}/items.jsonl')]
        for i, (x, y) in enumerate(zip(a, b)):
            if x.get('kept') == y.get('kept'):
                continue
            k = (items[i]['text'], items[i]['budget'], tuple(items[i]['query']))
            if k in seen:
                continue
            seen.add(k)
            rid = f'o{len(sel)}'
            sel.append(dict(items[i], id=rid))
            base.append(dict(x, id=rid, compression_ellipsis=x['compression']))
            trial.append(dict(y, id=rid, compression_ellipsis=y['compression']))
    for name, rows in (('sel-items', sel), ('default', base), ('trial', trial)):
        with open(f'{out}/s/{name}.jsonl', 'w') as f:
            for row in rows:
                f.write(json.dumps(row) + '\n')
    print(len(sel), 'records of', len({s['text'] for s in sel}), 'sentences')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2:])
