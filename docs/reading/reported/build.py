# Builds the reading test of a reported clause (docs/reading/reported/README.md): the
# sentences with "that" after a verb of saying or holding (REPORTING) of UD_English-EWT (train, dev, test), UD_English-GUM's train split and the
# Google test split (udocs.google_records) whose snippet differs between two builds, each
# with a query of one of its nouns (seeded), at
# 60% of its characters and in a 100-character box, shown with "…" (qsc compress --jsonl,
# display budget). At most MAX items (a seeded sample), with the window's snippet of each.
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import gzip, json, os, random, subprocess, sys
data, old, new, out = sys.argv[1:5]
seed, most = (int(sys.argv[5]), int(sys.argv[6])) if len(sys.argv) > 6 else (2090, 60)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import google_records
random.seed(seed)
REPORTING = set('say says said hold holds held argue argues argued contend contends contended claim claims claimed allege alleges alleged believe believes believed think thinks thought assert asserts asserted maintain maintains maintained conclude concludes concluded find finds found rule rules ruled state states stated suggest suggests suggested insist insists insisted deny denies denied admit admits admitted acknowledge acknowledges acknowledged report reports reported testify testifies testified reason reasons reasoned posit posits posited hope hopes hoped fear fears feared suspect suspects suspected doubt doubts doubted'.split())
recs = []
files = [('ewt', f'{data}/ud-english/UD_English-EWT/en_ewt-ud-{s}.conllu.gz') for s in ('train', 'dev', 'test')]
files.append(('gum', f'{data}/ud-english/UD_English-GUM/en_gum-ud-train.conllu.gz'))
for src, path in files:
    text, names = None, []
    for l in gzip.open(path, 'rt'):
        if l.startswith('# text = '):
            text, names, neg, rep = l[9:].strip(), [], False, False
        elif l.strip() == '' and text:
            if names and neg:
                q = [random.choice(sorted(set(names)))]
                for b in (max(20, int(0.6 * len(text))), 100):
                    recs.append({'id': f'{src}-{len(recs)}', 'text': text, 'query': q, 'budget': b, 'budget_counts': 'display', 'src': src})
            text = None
        elif text and l[0].isdigit():
            c = l.split('\t')
            neg = neg or (c[1].lower() == 'that' and rep)
            rep = rep or c[1].lower() in REPORTING
            if '-' not in c[0] and '.' not in c[0] and c[4] in ('NN', 'NNS', 'NNP') and len(c[1]) > 3 and c[1].isalpha():
                names.append(c[1])
for r in google_records(data):
    recs.append(dict(r, id='g-' + r['id'], src='google-test'))


def run(exe, method=None):
    inp = ''.join(json.dumps({k: v for k, v in dict(r, method=method).items() if k != 'src' and v is not None}) + '\n' for r in recs).encode()
    p = subprocess.run([exe, 'compress', '--jsonl'], input=inp, capture_output=True)
    return [json.loads(l).get('compression_ellipsis', '') for l in p.stdout.decode().splitlines()]


o, n = run(old), run(new)
diff = [i for i in range(len(recs)) if o[i] != n[i]]
print(len(recs), 'records,', len(diff), 'differ', file=sys.stderr)
keep = sorted(random.sample(diff, min(most, len(diff))))
w = run(new, 'window')
items, rows = [], {'new': [], 'old': [], 'window': []}
for i in keep:
    r = recs[i]
    items.append({'id': r['id'], 'protocol': 'box100' if r['budget'] == 100 else 'b60', 'source': r['src'], 'text': r['text'], 'query': r['query'], 'budget': r['budget']})
    for name, res in (('new', n), ('old', o), ('window', w)):
        rows[name].append({'id': r['id'], 'compression_ellipsis': res[i]})
for name, rr in (('items', items),) + tuple(rows.items()):
    open(f'{out}/{name}.jsonl', 'w').writelines(json.dumps(x, ensure_ascii=False) + '\n' for x in rr)
print(len(items), 'items kept')
