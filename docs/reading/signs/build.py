# Builds the reading test of a sign kept with its value (docs/reading/signs/README.md):
# the sentences of UD_English-EWT (train, dev, test) and UD_English-GUM's train split
# with a plus-minus sign, a relation (≈ ~ < > ≤ ≥ =) before a number, or a dash between
# two numbers, each with one of its nouns as query, and the Google test records, where
# two builds differ (udocs.changed_pool).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import nouns_if, pool_main

pool_main(3500, nouns_if(re.compile(r'±|∓|\+/-|[≈~<>≤≥=] ?\d|\d ?[-–—] ?\d')))
