# Builds the reading test of an approximator kept with its amount (docs/reading/approx/README.md):
# the sentences of UD_English-EWT (train, dev, test) and UD_English-GUM's train split with
# "about", "nearly", "more than", "up to", … before a number, each with one of its nouns as
# query, and the Google test records, where two builds differ (udocs.changed_pool).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import nouns_if, pool_main

pool_main(3900, nouns_if(re.compile(r'\b(about|around|approximately|approx\.|roughly|nearly|almost|some|over|under|only|just|circa|ca\.|barely|exactly|precisely|more than|less than|fewer than|up to|at least|at most) [$£€]?\d', re.I)))
