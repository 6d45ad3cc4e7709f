"""The pool of the capitalized-names trials (docs/reading.md, "Capitalized names").

Sentences of 90-400 characters from UD_English-EWT (train, dev, test), UD_English-PUD and
UD_English-GUM's train and dev splits less its news (GUM is non-commercial: experiments
only; its test split is never read) that hold two capitalized words side by side, or
joined by "of", "for" or "and", one of them not PROPN in the treebank: where a name the
tagger does not call proper may be. Each sentence gets one or two query words (NOUN, PROPN,
ADJ or VERB, three letters or more) and two records: b = 60% of its length and, when it is
longer than 110 characters, the 100-character box, both counting the display.

    python3 make-pool.py DATA OUT   # DATA: ../shared/data; writes OUT.items.jsonl and OUT.in.jsonl
"""
import gzip, json, random, sys

data, out = sys.argv[1], sys.argv[2]
random.seed(611)
files = ['UD_English-EWT/en_ewt-ud-train.conllu.gz', 'UD_English-EWT/en_ewt-ud-dev.conllu.gz',
         'UD_English-EWT/en_ewt-ud-test.conllu.gz', 'UD_English-PUD/en_pud-ud-test.conllu.gz',
         'UD_English-GUM/en_gum-ud-train.conllu.gz', 'UD_English-GUM/en_gum-ud-dev.conllu.gz']


def sents(f):
    text, toks, sid = None, [], None
    for l in gzip.open(f'{data}/ud-english/{f}', 'rt'):
        l = l.rstrip('\n')
        if l.startswith('# text ='):
            text = l[9:]
        elif l.startswith('# sent_id ='):
            sid = l[12:]
        elif l == '':
            if text and toks:
                yield sid, text, toks
            text, toks = None, []
        elif not l.startswith('#'):
            c = l.split('\t')
            if '-' in c[0] or '.' in c[0]:
                continue
            toks.append(c)


def cap(w):
    return w[:1].isupper() and any(ch.isalpha() for ch in w[1:])


items, n = [], 0
for f in files:
    for sid, text, toks in sents(f):
        if 'GUM' in f and 'news' in sid:
            continue
        if len(text) < 90 or len(text) > 400:
            continue
        forms = [t[1] for t in toks]
        ok = False
        for i in range(1, len(toks) - 1):
            if cap(forms[i]) and toks[i][3] != 'PROPN' and (cap(forms[i + 1]) or (
                    forms[i + 1] in ('of', 'for', 'and') and i + 2 < len(toks) and cap(forms[i + 2]))):
                ok = True
                break
            if cap(forms[i]) and cap(forms[i + 1]) and toks[i + 1][3] != 'PROPN':
                ok = True
                break
        if not ok:
            continue
        cands = [t[1] for t in toks if t[3] in ('NOUN', 'PROPN', 'ADJ', 'VERB') and len(t[1]) >= 3 and t[1].isalpha()]
        cands = list(dict.fromkeys(cands))
        if not cands:
            continue
        q = random.sample(cands, min(len(cands), random.choice([1, 2])))
        n += 1
        src = f.split('/')[0].replace('UD_English-', '').lower()
        items.append({'id': f'p{n}-b60', 'protocol': 'b60', 'source': src, 'text': text, 'query': q,
                      'budget': int(round(0.6 * len(text))), 'budget_counts': 'display'})
        if len(text) > 110:
            items.append({'id': f'p{n}-box', 'protocol': 'box100', 'source': src, 'text': text, 'query': q,
                          'budget': 100, 'budget_counts': 'display'})
keys = ('id', 'text', 'query', 'budget', 'budget_counts')
with open(f'{out}.items.jsonl', 'w') as w:
    w.writelines(json.dumps(r) + '\n' for r in items)
with open(f'{out}.in.jsonl', 'w') as w:
    w.writelines(json.dumps({k: r[k] for k in keys}) + '\n' for r in items)
print(n, 'sentences,', len(items), 'records', file=sys.stderr)
