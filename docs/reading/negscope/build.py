# Builds the reading test of the scope of a negation (docs/reading/negscope/README.md): the
# sentences with "not", "n't" or "never" of UD_English-EWT (train, dev, test) and
# UD_English-GUM's train split, each with one of its nouns as query, and the Google test
# records, where two builds differ (udocs.changed_pool).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import nouns, pool_main


def select(text, rows):
    negated = any(c[1].lower() in ('not', "n't", 'never') for c in rows)
    return nouns(rows) if negated else []


pool_main(2080, select)
