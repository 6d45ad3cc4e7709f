# Builds the reading test of runs that end on "e.g." (docs/reading/eg/README.md): the
# sentences of UD_English-EWT (train, dev, test) and UD_English-GUM's train split with
# "e.g.", "i.e.", "cf." or "viz.", each with one of its nouns as query, and the Google
# test records, where two builds differ (udocs.changed_pool).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import nouns, pool_main


def select(text, rows):
    forms = [c[1].lower() for c in rows]
    return nouns(rows) if any(f in ('e.g.', 'e.g', 'eg.', 'i.e.', 'i.e', 'ie.', 'cf.', 'cf', 'viz.', 'viz') for f in forms) else []


pool_main(3400, select)
