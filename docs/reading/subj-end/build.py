# Builds the reading test of a run that may not end on a subject noun whose verb comes
# after it (docs/reading/subj-end/README.md): the sentences of UD_English-EWT (train,
# dev, test) and UD_English-GUM's train split that have a noun subject before its verb,
# each with one of its nouns as query, and the Google test records, where two builds
# differ (udocs.changed_pool).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import nouns, pool_main


def subject_first(text, rows):
    """The nouns of a sentence with a noun subject (nsubj, nsubj:pass) before its head."""
    ok = any(c[7].split(':')[0] == 'nsubj' and c[4].startswith('NN') and c[6].isdigit() and c[0].isdigit() and int(c[6]) > int(c[0]) for c in rows)
    return nouns(rows) if ok else []


pool_main(4300, subject_first)
