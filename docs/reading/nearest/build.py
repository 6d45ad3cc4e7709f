# Builds the reading test of a query's occurrences kept where they lie closest together
# (docs/reading/nearest/README.md): the sentences of UD_English-EWT (train, dev, test) and
# UD_English-GUM's train split in which a noun occurs twice or more, each with that noun
# and another of its nouns as query (seeded), at 60% of their characters and in a
# 100-character box, where two builds differ (udocs.changed_pool; the Google records, of
# one term, do not change).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, random, sys
data, old, new, out = sys.argv[1:5]
seed, most = (int(sys.argv[5]), int(sys.argv[6])) if len(sys.argv) > 6 else (3800, 60)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import changed_pool, nouns


def select(text, rows):
    ns = [w.lower() for w in nouns(rows)]
    twice = sorted({w for w in ns if ns.count(w) > 1})
    others = sorted(set(ns) - set(twice))
    return [(t, o) for t in twice for o in others] or [(a, b) for a in twice for b in twice if a < b]


def query(cands):
    return list(random.choice(cands))


changed_pool(data, old, new, out, seed, most, select, query=query)
