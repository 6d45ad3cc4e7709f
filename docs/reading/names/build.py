# Builds the reading test of names in comma lists (docs/reading/names/README.md): the
# sentences with a comma and a proper noun of UD_English-EWT (train, dev, test) and
# UD_English-GUM's train split, each with one of its proper nouns as query, and the Google
# test records, where two builds differ (udocs.changed_pool).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import pool_main


def select(text, rows):
    names = [c[1] for c in rows if '-' not in c[0] and '.' not in c[0] and c[4] == 'NNP' and len(c[1]) > 2 and c[1][0].isupper()]
    return names if ',' in text else []


pool_main(2070, select)
