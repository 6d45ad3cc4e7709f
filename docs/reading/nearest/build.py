# Builds the reading test of a query's occurrences kept where they lie closest together
# (docs/reading/nearest/README.md): the sentences of UD_English-EWT (train, dev, test) and
# UD_English-GUM's train split in which a noun occurs twice or more, each with that noun
# and another of its nouns as query (seeded), at 60% of their characters and in a
# 100-character box, where two builds differ (udocs.changed_pool; the Google records, of
# one term, do not change).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, random, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import nouns, pool_main


def select(text, rows):
    ns = [w.lower() for w in nouns(rows)]
    twice = sorted({w for w in ns if ns.count(w) > 1})
    others = sorted(set(ns) - set(twice))
    return [(t, o) for t in twice for o in others] or [(a, b) for a in twice for b in twice if a < b]


def query(cands):
    return list(random.choice(cands))


pool_main(3800, select, query)
