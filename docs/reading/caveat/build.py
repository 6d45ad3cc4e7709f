# Builds the reading test of caveats (docs/reading/caveat/README.md): the sentences of
# UD_English-EWT (train, dev, test) and UD_English-GUM's train split with a negation
# ("not", "n't", "never", "no") and a word that opens a caveat ("but", "yet", "although",
# "though", "whereas", "while"), each with one of its nouns as query, and the Google test
# records, where two builds differ (udocs.changed_pool).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import nouns, pool_main


def select(text, rows):
    forms = [c[1].lower() for c in rows]
    negated = any(f in ('not', "n't", 'never', 'no') for f in forms)
    caveat = any(f in ('but', 'yet', 'although', 'though', 'whereas', 'while') for f in forms)
    return nouns(rows) if negated and caveat else []


pool_main(3200, select)
