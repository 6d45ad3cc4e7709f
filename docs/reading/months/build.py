# Builds the reading test of a month's short name kept with its day (docs/reading/months/README.md):
# the sentences of UD_English-EWT (train, dev, test) and UD_English-GUM's train split with
# "Feb 12", "12 Sep" and their kin (no period), each with one of its nouns as query, and
# the Google test records, where two builds differ (udocs.changed_pool).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import nouns_if, pool_main

pool_main(4400, nouns_if(re.compile(r'\b(Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec) \d|\d (Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b')))
