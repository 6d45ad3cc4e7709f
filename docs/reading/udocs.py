# The documents of a UD CoNLL-U file for the reading tests' builders (wrap/build.py,
# quotes/build.py): each {'id', 'paras' (lists of sentence texts), 'sents' ({'text',
# 'nouns': its NN, NNS and NNP words of more than three letters})}, ids prefixed.
import gzip


def read_docs(path, prefix=''):
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
