# The sources of the reading tests' builders: the documents of a UD CoNLL-U file
# (wrap/build.py, quotes/build.py) and the compression records of the Google test split
# (prep/build.py, closer/build.py).
import gzip, random


def read_docs(path, prefix=''):
    """Each document {'id', 'paras' (lists of sentence texts), 'sents' ({'text', 'nouns':
    its NN, NNS and NNP words of more than three letters})}, ids prefixed."""
    docs, cur = [], None
    for l in gzip.open(path, 'rt'):
        if l.startswith('# newdoc id'):
            cur = {'id': prefix + l.split('=', 1)[1].strip(), 'paras': [], 'sents': []}; docs.append(cur)
        elif l.startswith('# newpar') and cur is not None:
            cur['paras'].append([])
        elif l.startswith('# text = ') and cur is not None:
            if not cur['paras']: cur['paras'].append([])
            t = l[9:].strip(); cur['paras'][-1].append(t); cur['sents'].append({'text': t, 'nouns': []})
        elif l and l[0].isdigit() and cur is not None and cur['sents']:
            f = l.split('\t')
            if '-' not in f[0] and '.' not in f[0] and f[4] in ('NN', 'NNS', 'NNP') and len(f[1]) > 3 and f[1].isalpha():
                cur['sents'][-1]['nouns'].append(f[1])
    return docs


def google_records(data):
    """Every sentence of the Google compression corpus's test split with a noun of more
    than three letters, a query of one of them (seed 7), at two display budgets (60% of
    the sentence's characters, at least 20, and a 100-character box), as records of
    qsc compress --jsonl."""
    random.seed(7)
    recs, cur = [], None
    for l in gzip.open(f'{data}/google-compression/test.conllu.gz', 'rt'):
        if l.startswith('# text = '):
            cur = {'text': l[9:].strip(), 'nouns': []}
        elif l.strip() == '' and cur:
            if cur['nouns']:
                q = random.sample(sorted(set(cur['nouns'])), 1)
                for b in (max(20, int(0.6 * len(cur['text']))), 100):
                    recs.append({'id': str(len(recs)), 'text': cur['text'], 'query': q, 'budget': b, 'budget_counts': 'display'})
            cur = None
        elif cur and l[0].isdigit():
            c = l.split('\t')
            if len(c) > 4 and c[4] in ('NN', 'NNS', 'NNP') and c[1].isalpha() and len(c[1]) > 3:
                cur['nouns'].append(c[1])
    return recs
